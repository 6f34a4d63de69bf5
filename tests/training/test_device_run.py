"""`training/device_run.sh` runs a training module from a copy of the package, never from
the checkout's own dicecam/ folder (a lent machine has no installed dicecam)."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
SCRIPT = ROOT / "training" / "device_run.sh"


def _run(*args: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run(["bash", str(SCRIPT), *args], cwd=ROOT, capture_output=True, text=True, timeout=120,
                          env=env)


@pytest.fixture
def probe():
    """A training module that prints where the package came from, its arguments and its photo sets."""
    path = ROOT / "training" / "_device_probe.py"
    path.write_text("import sys\nimport dicecam, dicecam.training\nfrom dicecam.training.data import caches\n"
                    "print(dicecam.__file__)\nprint(dicecam.training.__file__)\nprint(sys.argv[1:])\n"
                    "print(caches.DATASETS)\n")
    yield "_device_probe"
    path.unlink()


def test_it_runs_a_training_module_from_the_package_copy(probe):
    env = {k: v for k, v in os.environ.items() if k != "DICECAM_DATASETS"}
    done = _run(probe, "--flag", "x y", env=env)
    assert done.returncode == 0, done.stderr
    package, training, argv, datasets = done.stdout.splitlines()
    # The copy, not the checkout's dicecam/ (which holds no training) nor an installed one.
    assert not package.startswith(str(ROOT)) and Path(package).parent.name == "dicecam"
    assert Path(training).resolve() == ROOT / "training" / "__init__.py"
    assert Path(training).parent.parent == Path(package).parent
    assert argv == "['--flag', 'x y']"
    assert Path(datasets) == ROOT / ".gpu" / "datasets"  # the packed copy (`training.data.pack`)


def test_told_where_the_photo_sets_are_it_reads_them_there(probe):
    done = _run(probe, env=dict(os.environ, DICECAM_DATASETS="/elsewhere"))
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines()[-1] == "/elsewhere"


def test_without_a_module_it_says_how_to_call_it():
    done = _run()
    assert done.returncode == 2 and "usage" in done.stderr
