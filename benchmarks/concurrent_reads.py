"""Reads at once: what the networks' workers do between layers, one read alone or several.

    python benchmarks/concurrent_reads.py ../shared/datasets/roboflow_dice [--split dev] [--photos 60]
        [--readers 2] [--workers auto|spin|sleep] [--dice] [--json]

A server reads a photo while another one, or a live camera's frames, is read (`webapp`'s
photo slots). The reader's networks let their workers spin between layers only where no
other thread's read is in flight (`vision.onnx.Network`, C311 in models/HISTORY.md):
`--workers auto`. `spin` and `sleep` force one session for every run, to compare. The
first `--photos` photos of the split are shared out among `--readers` threads that read
them all at once, each told its labelled count with `--dice`. Printed: the wall time of
all the reads, and the median and 90th percentile of one read's time.
"""

from __future__ import annotations

import argparse
import json
import threading
import time
from pathlib import Path
from typing import Any

import numpy as np

POLICIES = ("auto", "spin", "sleep")


def force(policy: str) -> None:
    """Make every network run take the spinning (`spin`) or sleeping (`sleep`) session,
    or choose by the reads in flight (`auto`, the reader's own way)."""
    from dicecam.vision import onnx

    if policy not in POLICIES:
        raise ValueError(f"--workers is one of {', '.join(POLICIES)}, not {policy!r}")
    traffic = onnx._TRAFFIC
    if policy == "auto":
        traffic.__dict__.pop("alone", None)
    else:
        traffic.alone = (lambda: True) if policy == "spin" else (lambda: False)  # type: ignore[method-assign]


def read_at_once(reader, photos: list[tuple[np.ndarray, int | None]], readers: int) -> dict[str, Any]:
    """`photos` (image, count) shared out among `readers` threads reading at once: the wall
    time in s, and one read's median and 90th percentile ms."""
    if readers < 1:
        raise ValueError(f"at least one reader reads, not {readers}")
    times: list[float] = []
    lock = threading.Lock()

    def work(share: list[tuple[np.ndarray, int | None]]) -> None:
        for image, count in share:
            start = time.perf_counter()
            reader.read(image, count=count)
            with lock:
                times.append(time.perf_counter() - start)

    threads = [threading.Thread(target=work, args=(photos[k::readers],)) for k in range(readers)]
    start = time.perf_counter()
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    wall = time.perf_counter() - start
    ms = np.array(times) * 1000
    return {"reads": len(times), "wall_s": round(wall, 2), "median_ms": round(float(np.median(ms)), 1),
            "p90_ms": round(float(np.percentile(ms, 90)), 1)}


def main(argv: list[str] | None = None) -> None:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("dataset", type=Path)
    p.add_argument("--split", default="dev")
    p.add_argument("--photos", type=int, default=60, help="how many of the split's photos (default 60)")
    p.add_argument("--readers", type=int, default=2, help="threads reading at once (default 2)")
    p.add_argument("--workers", choices=POLICIES, default="auto")
    p.add_argument("--dice", action="store_true", help="tell the reader each photo's labelled count")
    p.add_argument("--json", action="store_true")
    args = p.parse_args(argv)
    if args.photos < 1 or args.readers < 1:
        p.error("--photos and --readers are 1 or more")
    from dicecam.vision.dataset import read_dataset
    from dicecam.vision.decode import load_image
    from dicecam.vision.reader import DiceReader

    force(args.workers)
    reader = DiceReader(threads=2)
    photos = [(load_image(photo.path), len(photo.dice) if args.dice else None)
              for photo in read_dataset(args.dataset, split=args.split) if not photo.crop][: args.photos]
    for image, count in photos[:3]:
        reader.read(image, count=count)  # warm
    result = {"dataset": str(args.dataset), "readers": args.readers, "workers": args.workers,
              **read_at_once(reader, photos, args.readers)}
    if args.json:
        print(json.dumps(result))
        return
    print(f"{result['reads']} reads by {args.readers} threads at once, workers {args.workers}: "
          f"{result['wall_s']} s in all, one read median {result['median_ms']} ms, p90 {result['p90_ms']} ms")


if __name__ == "__main__":
    main()
