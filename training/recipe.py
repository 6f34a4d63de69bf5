"""The whole recipe of the shipped model, as one command:

    python -m training.recipe            # about 3.5 h on a 2-core CPU; writes models/

Stages (each resumes from the previous one's checkpoint in runs/, but the last reader):
1. render the synthetic crop cache (data/synth_crops.npz);
2. detector 2000 + 1500 steps, reader 2500 + 1500 steps (half synthetic, half real);
3. export, then mine hard negatives with that model (data/hard_negatives.npz);
4. detector 1500 more steps; reader 1200 + 3000 more steps with the mined negatives; export;
5. mine again with that model; detector 1200 more steps at a lower learning rate;
6. the shipped reader, from scratch in one 18000-step schedule with the mined negatives,
   on every train photo; export. The readers before it only serve to mine negatives.
   (`--holdout 0.2` on this stage leaves a fifth of train out, to compare changes on.)
7. the shipped detector, from scratch in one 9000-step schedule (its own runs folder), a
   fifth of train held out as it was trained in session 8; exported to models/ with the
   peak threshold chosen for it (`training.export.MIN_SCORE`). The detectors before it
   only serve to mine negatives for the reader.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
from pathlib import Path

STAGES: tuple[tuple[str, ...], ...] = (
    ("training.crop_cache", "--count", "12000"),
    ("training.train", "detector", "--det-steps", "2000", "--synth", "0.5", "--out", "runs/stage"),
    ("training.train", "reader", "--reader-steps", "2500", "--synth", "0.5", "--out", "runs/stage"),
    ("training.train", "detector", "--resume", "--det-steps", "1500", "--det-lr", "1.5e-3", "--out", "runs/stage"),
    ("training.train", "reader", "--resume", "--reader-steps", "1500", "--reader-lr", "1e-3", "--out", "runs/stage"),
    ("training.mine", "runs/stage", "--scenes", "300"),
    ("training.train", "detector", "--resume", "--det-steps", "1500", "--det-lr", "1e-3", "--seed", "3",
     "--out", "runs/stage"),
    ("training.train", "reader", "--resume", "--reader-steps", "1200", "--reader-lr", "1e-3", "--seed", "5",
     "--out", "runs/stage"),
    ("training.train", "reader", "--resume", "--reader-steps", "3000", "--reader-lr", "2e-3", "--synth", "0.4",
     "--seed", "11", "--threads", "2", "--out", "runs/stage"),
    ("training.export", "runs", "models"),
    ("training.mine", "models", "--scenes", "300"),
    ("training.train", "detector", "--resume", "--det-steps", "1200", "--det-lr", "8e-4", "--seed", "17",
     "--out", "runs/stage"),
    ("training.train", "reader", "--reader-steps", "18000", "--reader-lr", "3e-3", "--synth", "0.45",
     "--seed", "42", "--threads", "2", "--out", "runs/stage"),
    ("training.export", "runs", "models"),
    ("training.train", "detector", "--det-steps", "9000", "--det-lr", "3e-3", "--synth", "0.5", "--seed", "44",
     "--threads", "2", "--holdout", "0.2", "--runs", "runs/detector", "--out", "models"),
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
