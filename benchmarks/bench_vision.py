"""Time decoding and recognition of phone-sized photos, and their peak memory.

    python benchmarks/bench_vision.py [--repeats 20] [--models DIR] [--option NAME=VALUE ...]
        [--dice] [--more N] [--json]

Each size runs in a fresh subprocess so that its peak memory (the kernel's resident
high-water mark: OpenCV and onnxruntime allocate outside Python, where tracemalloc
cannot see) is its own.
The photos are real sample photos (`sample_images/`) scaled to the photo's height and
padded onto a wood-like table, with sensor-like noise, stored as JPEG (quality 92) like a
phone would; they are made once, before the timed subprocesses. Two scenes: `busy`, 21
small dice (each under 20 px for the detector's first look, so every size gets the closer
look: the worst case), `few`, 5 dice of a usual size in the frame, `board`, 2 dice on a
Catan board with its number tokens and harbours (the clutter a game table brings), and
`board-plain`, its twin: the same photo with everything but its 2 labelled dice (boxes
from `sample_images/labels.jsonl`) painted over in the table's own colour, so the same
dice lie at the same size and place with no clutter. `board` over `board-plain` at the same
size is the clutter's cost (the issue's bound: at most twice); `board` over `few` adds what
small dice cost anywhere (a closer look). `--dice` tells the reader how
many dice each photo shows, as a photo throw at the table does (`DICE`): where its rules
keep fewer, the reader looks at the photo once more (`DiceReader.search`). `--more N` tells
each photo N dice more than it shows, a count it cannot fill (a die off the frame or under
the cup): every look runs, the worst case of a photo throw.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from reader_options import reader_options, reader_settings

ROOT = Path(__file__).resolve().parents[1]
#: Phone photos: small, 16:9 video-sized, square (a phone's 1:1 mode: the search told a
#: count sees the most pixels there) and a 12-megapixel 4:3 still.
SIZES = ((640, 480), (1920, 1080), (3024, 3024), (4032, 3024))
SCENES = {
    "busy": ROOT / "sample_images" / "byler_d6" / "IMG_20191208_111730.jpg",  # 21 small dice
    "few": ROOT / "sample_images" / "matteop65_wood" / "valid_70.jpg",  # 5 dice
    "board": ROOT / "sample_images" / "roboflow_dice" / "dice_309_jpg.rf.74db48dfe3726e2f26935862998574cf.jpg",
}


#: Scenes made from another's photo with only its dice left (`plain_twin`).
TWINS = {"board-plain": "board"}

#: How many dice each scene's photo shows (busy: 21 labelled and a dark red one nobody
#: labelled, benchmarks/label_faults.jsonl).
DICE = {"busy": 22, "few": 5, "board": 2, "board-plain": 2}


def told_count(scene: str, *, dice: bool, more: int = 0) -> int | None:
    """The count `scene`'s photos are read with: none, or the dice it shows (`dice`) and
    `more` besides (more than none implies telling one)."""
    if more < 0:
        raise ValueError(f"--more takes a count of dice to add, not {more}")
    return DICE[scene] + more if dice or more else None


def plain_twin(source: Path, *, margin: float = 1.25):
    """The sample photo `source` with everything but its labelled dice (each box grown
    `margin` times, for its sides and shadow) painted the median colour of the photo's
    border: the table it lies on, without what lies there besides the dice."""
    import cv2
    import numpy as np

    photo = cv2.imread(str(source))
    assert photo is not None, source
    labelled = sample_labels(source)
    border = np.concatenate([photo[:8].reshape(-1, 3), photo[-8:].reshape(-1, 3),
                             photo[:, :8].reshape(-1, 3), photo[:, -8:].reshape(-1, 3)])
    twin = np.empty_like(photo)
    twin[:] = np.median(border, axis=0)
    h, w = photo.shape[:2]
    for x0, y0, x1, y1 in labelled.dice.boxes:
        cx, cy, half = (x0 + x1) / 2, (y0 + y1) / 2, max(x1 - x0, y1 - y0) * margin / 2
        a, b = max(0, round(cx - half)), max(0, round(cy - half))
        c, d = min(w, round(cx + half)), min(h, round(cy + half))
        twin[b:d, a:c] = photo[b:d, a:c]
    return twin


def sample_labels(source: Path):
    """The labelled photo of `sample_images/labels.jsonl` that is `source`."""
    from dicecam.vision.dataset import read_dataset

    return next(p for p in read_dataset(ROOT / "sample_images") if p.path.resolve() == source.resolve())


def scene_photo(scene: str, width: int, height: int) -> bytes:
    """The JPEG of `scene` (a key of `SCENES` or `TWINS`) at `width` x `height`."""
    if scene in TWINS:
        return table_photo(width, height, source=plain_twin(SCENES[TWINS[scene]]))
    return table_photo(width, height, source=SCENES[scene])


def table_photo(width: int, height: int, seed: int = 0, source=SCENES["busy"]):
    """The source photo (a path, or a BGR array) scaled to fit `height` (and `width`) and
    centred on a wood-grain table."""
    import cv2
    import numpy as np

    rng = np.random.default_rng(seed)
    y = np.linspace(0, 1, height, dtype=np.float32)[:, None]
    x = np.linspace(0, 1, width, dtype=np.float32)[None, :]
    grain = np.sin(40 * y + 3 * np.sin(5 * x + 2 * y)) * 0.5 + 0.5
    noise = cv2.GaussianBlur(rng.normal(0, 1, (height, width)).astype(np.float32), (0, 0), 2)
    shade = 0.85 + 0.1 * grain + 0.03 * noise
    wood = np.array([150, 190, 220], np.float32)  # BGR: light beech
    canvas = np.clip(shade[..., None] * wood, 0, 255).astype(np.uint8)
    photo = source if isinstance(source, np.ndarray) else cv2.imread(str(source))
    assert photo is not None, source
    fit = min(height / photo.shape[0], width / photo.shape[1])
    ph, pw = round(photo.shape[0] * fit), round(photo.shape[1] * fit)
    photo = cv2.resize(photo, (pw, ph), interpolation=cv2.INTER_AREA if fit < 1 else cv2.INTER_CUBIC)
    x0, y0 = (width - pw) // 2, (height - ph) // 2
    canvas[y0 : y0 + ph, x0 : x0 + pw] = photo
    # Sensor noise: without it a 12-megapixel JPEG is a fraction of a phone's and decodes too fast.
    canvas = cv2.add(canvas, rng.normal(0, 3, canvas.shape).astype(np.int16), dtype=cv2.CV_8U)
    _ok, jpeg = cv2.imencode(".jpg", canvas, [cv2.IMWRITE_JPEG_QUALITY, 92])
    return jpeg.tobytes()


def _times(fn, repeats: int) -> dict:
    samples = []
    for _ in range(repeats):
        start = time.perf_counter()
        fn()
        samples.append((time.perf_counter() - start) * 1000)
    samples.sort()
    return {"median_ms": round(statistics.median(samples), 1),
            "p90_ms": round(samples[min(len(samples) - 1, int(0.9 * len(samples)))], 1)}


def _maxrss_mb() -> float:
    """Peak resident memory of this process in MiB.

    Linux's VmHWM belongs to this program alone; ru_maxrss would also carry the
    parent's peak across fork and exec (the parent made 12-megapixel photos).
    """
    try:
        for line in Path("/proc/self/status").read_text().splitlines():
            if line.startswith("VmHWM:"):
                return int(line.split()[1]) / 1024
    except OSError:
        pass
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024  # Linux reports KiB


def worker(photo: Path, repeats: int, models: str | None, options: dict[str, float] | None = None,
           count: int | None = None) -> dict:
    data = photo.read_bytes()
    from dicecam.vision.decode import decode_image
    from dicecam.vision.reader import DiceReader

    start = time.perf_counter()
    reader = DiceReader(models, settings=reader_settings(options or {}))
    load_ms = (time.perf_counter() - start) * 1000
    rss_loaded = _maxrss_mb()
    image = decode_image(data)
    reader.read(image, count=count)  # first run allocates onnxruntime's buffers
    decode = _times(lambda: decode_image(data), repeats)
    recognise = _times(lambda: reader.read(image, count=count), repeats)
    return {
        "size": f"{image.shape[1]}x{image.shape[0]}", "jpeg_kb": round(len(data) / 1024),
        "dice_found": len(reader.read(image, count=count)), "decode": decode, "recognition": recognise,
        "model_load_ms": round(load_ms),
        "rss_after_load_mb": round(rss_loaded), "peak_rss_mb": round(_maxrss_mb()),
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--repeats", type=int, default=20)
    parser.add_argument("--models", help="folder with the ONNX models (default: the shipped ones)")
    parser.add_argument("--option", action="append", default=[], metavar="NAME=VALUE",
                        help="a DiceReader setting, e.g. check_below=0 (to time a setting against the default)")
    parser.add_argument("--json", action="store_true", help="one JSON object per size instead of a table")
    parser.add_argument("--dice", action="store_true",
                        help="tell the reader how many dice each photo shows, as a photo throw does")
    parser.add_argument("--more", type=int, default=0, metavar="N",
                        help="tell each photo N dice more than it shows (a count it cannot fill: the worst case)")
    parser.add_argument("--worker", type=Path, metavar="JPEG", help=argparse.SUPPRESS)
    parser.add_argument("--count", type=int, help=argparse.SUPPRESS)
    args = parser.parse_args()
    try:
        counts = {scene: told_count(scene, dice=args.dice, more=args.more) for scene in DICE}
    except ValueError as exc:
        parser.error(str(exc))
    if args.worker:
        print(json.dumps(worker(args.worker, args.repeats, args.models, reader_options(args.option), args.count)))
        return 0

    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        photos = []
        for scene in DICE:
            for width, height in SIZES:
                photos.append((scene, Path(tmp) / f"{scene}_{width}x{height}.jpg"))
                photos[-1][1].write_bytes(scene_photo(scene, width, height))
        for scene, photo in photos:
            row = _run_worker(photo, args, counts[scene])
            if row is None:
                return 1
            rows.append({"scene": scene, **row})
            if args.json:
                print(json.dumps(rows[-1]), flush=True)
    if not args.json:
        load = ", ".join(f"{v:.1f}" for v in os.getloadavg())
        told = (f"; told each photo's count of dice and {args.more} more" if args.more else
                "; told each photo's count of dice" if args.dice else "") + \
            (" with " + ", ".join(args.option) if args.option else "")
        print(f"{args.repeats} repeats each{told}; times in ms "
              f"(median / p90); memory is the process's peak RSS; CPUs: {os.cpu_count()}, "
              f"load average before: {load}\n")
        print("| scene | photo | JPEG | decode | recognition | dice found | RSS after model load | peak RSS |")
        print("|---|---|---|---|---|---|---|---|")
        for r in rows:
            print(f"| {r['scene']} | {r['size']} | {r['jpeg_kb']} KB "
                  f"| {r['decode']['median_ms']} / {r['decode']['p90_ms']} "
                  f"| {r['recognition']['median_ms']} / {r['recognition']['p90_ms']} | {r['dice_found']} "
                  f"| {r['rss_after_load_mb']} MB | {r['peak_rss_mb']} MB |")
        print("\n" + clutter_cost(rows))
    return 0


def clutter_cost(rows: list[dict]) -> str:
    """One line per size: `board`'s median time over its plain twin's (the clutter's cost)
    and over `few`'s (the clutter and the closer look its small dice need)."""
    ms = {(r["scene"], r["size"]): r["recognition"]["median_ms"] for r in rows}
    lines = []
    for width, height in SIZES:
        size = f"{width}x{height}"
        board, plain, few = (ms.get((scene, size)) for scene in ("board", "board-plain", "few"))
        if board and plain and few:
            lines.append(f"{size}: board / board-plain {board / plain:.2f}x, board / few {board / few:.2f}x")
    return "clutter's cost (recognition, median): " + "; ".join(lines)


def _run_worker(photo: Path, args: argparse.Namespace, count: int | None = None) -> dict | None:
    cmd = [sys.executable, __file__, "--worker", str(photo), "--repeats", str(args.repeats)]
    if count is not None:
        cmd += ["--count", str(count)]
    if args.models:
        cmd += ["--models", args.models]
    for spec in args.option:
        cmd += ["--option", spec]
    done = subprocess.run(cmd, cwd=ROOT, capture_output=True, text=True)
    if done.returncode != 0:
        lines = done.stderr.strip().splitlines()
        print(lines[-1] if lines else "the benchmark worker failed", file=sys.stderr)
        return None
    return json.loads(done.stdout)


if __name__ == "__main__":
    sys.exit(main())
