"""The whole recipe of the shipped models, as one command:

    python -m training.recipe            # about 2 h on a 2-core CPU; writes models/

Stages:
1. render the synthetic crop cache for the reader (data/synth_crops.npz);
2. the shipped detector, from scratch in one 9000-step schedule (its own runs folder), a
   fifth of train held out as it was trained in session 8 (to compare models on); exported
   to models/ with the peak threshold chosen for it (`training.export.MIN_SCORE`);
3. mine hard negatives with it (data/hard_negatives.npz): every box it finds on the train
   photos and 300 rendered scenes that frames no labelled die (mining runs the detector
   only, so the reader in models/ does not matter);
4. the shipped reader, from scratch in one 18000-step schedule with those negatives, on
   every train photo (side faces of matteop65_wood's dice among its "not a die" crops);
   exported to models/.

Until session 9 the recipe trained a chain of earlier detectors and readers first, only to
mine negatives with them; the shipped reader is now trained on the shipped detector's
mistakes, which makes that chain unnecessary.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
from pathlib import Path

STAGES: tuple[tuple[str, ...], ...] = (
    ("training.crop_cache", "--count", "12000"),
    ("training.train", "detector", "--det-steps", "9000", "--det-lr", "3e-3", "--synth", "0.5", "--seed", "44",
     "--threads", "2", "--holdout", "0.2", "--runs", "runs/detector", "--out", "models"),
    ("training.mine", "models", "--scenes", "300"),
    ("training.train", "reader", "--reader-steps", "18000", "--reader-lr", "3e-3", "--synth", "0.45",
     "--seed", "42", "--threads", "2", "--runs", "runs/reader", "--out", "models"),
)


def main(argv: list[str] | None = None) -> None:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--from-stage", type=int, default=1, help="skip the stages before this one (1-based)")
    args = p.parse_args(argv)
    # One thread per process: the trainer and its data worker share 2 cores, and idle
    # OpenMP threads spinning on the other core made training 5x slower here.
    env = {**os.environ, "OMP_NUM_THREADS": "1", "MKL_NUM_THREADS": "1"}
    for number, stage in enumerate(STAGES, start=1):
        if number < args.from_stage:
            continue
        print(f"== stage {number}/{len(STAGES)}: {' '.join(stage)}", flush=True)
        subprocess.run([sys.executable, "-m", *stage], check=True, env=env, cwd=Path(__file__).resolve().parents[1])


if __name__ == "__main__":
    main()
