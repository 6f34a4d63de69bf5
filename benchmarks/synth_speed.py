"""Time the synthetic renderer on one core: scenes and face-reader crops per second.

    python benchmarks/synth_speed.py [--scenes 200] [--crops 1000] [--seed 0]

OpenCV is held to one thread, and both wall time and this process's CPU time are
reported: on a shared machine the CPU figure is the fairer one.
"""

from __future__ import annotations

import argparse
import time

import cv2
import numpy as np

from dicecam.training.render.scene import render_crop, render_scene


def _rate(label: str, n: int, fn) -> None:
    wall, cpu = time.perf_counter(), time.process_time()
    for i in range(n):
        fn(i)
    wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
    print(f"{label}: {n / cpu:7.1f}/s by CPU time, {n / wall:7.1f}/s by wall time ({1000 * cpu / n:.1f} ms each)")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--scenes", type=int, default=200)
    ap.add_argument("--crops", type=int, default=1000)
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args()
    cv2.setNumThreads(1)
    rng = np.random.default_rng(args.seed)
    for _ in range(5):  # warm caches
        render_scene(rng, size=(640, 480))
    _rate("scenes 640x480", args.scenes, lambda i: render_scene(rng, size=(640, 480)))
    _rate("scenes phone-sized (long side 480-1024)", args.scenes // 2, lambda i: render_scene(rng))
    _rate("crops 64x64", args.crops, lambda i: render_crop(rng, i % 6 + 1))


if __name__ == "__main__":
    main()
