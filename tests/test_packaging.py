"""What the installed distribution is: one import name, the models inside, no torch at run time.

The full check (build the wheel and the sdist, install into a fresh virtual environment
outside the checkout, read a photo, serve one) is in .ci/run; these are its fast parts.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import tomllib
import zipfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
PYPROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
SETUPTOOLS = PYPROJECT["tool"]["setuptools"]


def _package_roots() -> dict[str, Path]:
    return {"dicecam": ROOT / "dicecam",
            **{name: ROOT / folder for name, folder in SETUPTOOLS["package-dir"].items()}}


def test_runtime_imports_no_torch_and_no_training_code(tmp_path):
    code = (
        "import json, sys\n"
        "import dicecam.cli, dicecam.scoring, dicecam.vision, dicecam.vision.reader, dicecam.webapp\n"
        "dicecam.webapp.create_app({'TESTING': True, 'DATA_DIR': sys.argv[1]})\n"
        "dicecam.cli.build_parser()\n"
        "print(json.dumps([m for m in sys.modules\n"
        "                  if m.split('.')[0] == 'torch' or m.startswith('dicecam.training')]))\n"
    )
    out = subprocess.run([sys.executable, "-c", code, str(tmp_path)], capture_output=True, text=True,
                         check=True, cwd=tmp_path, timeout=120)
    assert json.loads(out.stdout) == []


def test_every_python_package_is_in_the_distribution():
    """A sub-package (a folder with __init__.py) missing from pyproject would be left out
    of the wheel without a word: list them all."""
    expected = set()
    for name, folder in _package_roots().items():
        for init in folder.rglob("__init__.py"):
            rel = init.parent.relative_to(folder).parts
            if "__pycache__" not in rel:
                expected.add(".".join((name, *rel)))
    listed = set(SETUPTOOLS["packages"])
    assert expected - listed == set(), "add these to [tool.setuptools] packages in pyproject.toml"
    assert all(name.startswith("dicecam") for name in listed)


def test_every_web_asset_is_package_data():
    """Every file the page serves ships in the wheel: its folder is listed as a package."""
    listed = set(SETUPTOOLS["packages"])
    webapp = ROOT / "webapp"
    for sub in ("static", "templates"):
        for folder in [webapp / sub, *(p for p in (webapp / sub).rglob("*") if p.is_dir())]:
            if folder.name == "__pycache__" or not any(f.is_file() for f in folder.iterdir()):
                continue
            name = ".".join(("dicecam.webapp", *folder.relative_to(webapp).parts))
            assert name in listed, f"{name}: add it to [tool.setuptools] packages"


def test_models_are_package_data_found_without_the_checkout():
    from dicecam.vision.reader import DEFAULT_MODELS

    names = {p.name for p in Path(str(DEFAULT_MODELS)).iterdir()}
    assert {"detector.onnx", "reader.onnx", "confidence.json"} <= names
    patterns = SETUPTOOLS["package-data"]["dicecam.models"]
    assert "*.onnx" in patterns and "confidence.json" in patterns


def test_the_wheel_holds_one_top_level_name_and_its_data(tmp_path):
    """Build the wheel (no network: this interpreter's setuptools) and look inside."""
    setuptools = pytest.importorskip("setuptools")
    if int(setuptools.__version__.split(".")[0]) < 77:
        message = f"setuptools {setuptools.__version__} is too old to build: pip install -e '.[dev]'"
        if os.environ.get("CI"):
            pytest.fail(message)
        pytest.skip(message)
    # A copy of what the build reads, so that the build's own folders stay out of the checkout.
    source = tmp_path / "source"
    source.mkdir()
    for name in ("pyproject.toml", "README.md"):
        shutil.copy2(ROOT / name, source / name)
    for folder in {p.relative_to(ROOT).parts[0] for p in _package_roots().values()}:
        shutil.copytree(ROOT / folder, source / folder, ignore=shutil.ignore_patterns("__pycache__"))
    subprocess.run([sys.executable, "-m", "pip", "wheel", "--no-deps", "--no-build-isolation",
                    "--wheel-dir", str(tmp_path), str(source)], check=True, capture_output=True,
                   timeout=300)
    (wheel,) = tmp_path.glob("dicecam-*.whl")
    with zipfile.ZipFile(wheel) as zf:
        names = zf.namelist()
    tops = {n.split("/")[0] for n in names if not n.split("/")[0].endswith(".dist-info")}
    assert tops == {"dicecam"}
    for needed in ("dicecam/models/detector.onnx", "dicecam/models/reader.onnx",
                   "dicecam/models/confidence.json", "dicecam/cli.py", "dicecam/scoring/game.py"):
        assert needed in names
    assert any(n.startswith("dicecam/webapp/templates/") and n.endswith(".html") for n in names)
    assert any(n.startswith("dicecam/webapp/static/") and n.endswith(".js") for n in names)
    shipped = {n for n in names if not n.endswith("/")}
    for asset in (ROOT / "webapp").rglob("*"):
        if asset.is_file() and asset.suffix not in (".pyc",) and "__pycache__" not in asset.parts:
            assert "dicecam/webapp/" + asset.relative_to(ROOT / "webapp").as_posix() in shipped


def test_package_data_is_looked_up_under_the_installed_name():
    """`resources.files("webapp")` works in the checkout's old layout and nowhere else:
    every lookup names a `dicecam.` package."""
    import re

    pattern = re.compile(r"""resources\.files\(\s*["']([^"']+)["']""")
    for folder in _package_roots().values():
        for path in folder.rglob("*.py"):
            for name in pattern.findall(path.read_text(encoding="utf-8")):
                assert name.startswith("dicecam"), f"{path.relative_to(ROOT)}: resources.files({name!r})"


@pytest.mark.slow
def test_every_test_collects_without_the_train_extra(tmp_path):
    """With torch and onnx unimportable, collection still succeeds: training tests that need
    them skip with `importorskip`, and nothing else imports them."""
    for name in ("torch", "onnx"):
        (tmp_path / name).mkdir()
        (tmp_path / name / "__init__.py").write_text(
            f"raise ModuleNotFoundError({f'No module named {name}'!r}, name={name!r})\n")
    env = {**os.environ, "PYTHONPATH": str(tmp_path)}
    out = subprocess.run([sys.executable, "-m", "pytest", "--collect-only", "-q", "-p", "no:cacheprovider"],
                         cwd=ROOT, env=env, capture_output=True, text=True, timeout=600)
    assert out.returncode == 0, out.stdout[-3000:] + out.stderr[-2000:]
    assert " error" not in out.stdout.splitlines()[-1]
