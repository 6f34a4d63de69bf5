"""A copy of the shared photo sets' train splits small enough to take along, for training on
a machine that cannot read `../shared/datasets` (a lent GPU's working tree holds 64 MiB).

    python -m dicecam.training.data.pack .gpu/datasets --max-mb 58 \\
        --copies roboflow_dice=2 --quality matteop65_wood=80 --quality byler_d6=85
    DICECAM_DATASETS=.gpu/datasets python -m dicecam.training.learn.train ...   # there

Each set keeps the rows of `--split` (default train) and the photos they name, its licence
files beside them. `--copies SET=N` keeps at most N photos of one source photo (rows that
name a `source_photo`: roboflow_dice's three augmented copies of each), `--quality SET=Q`
writes that set's photos again as JPEG at quality Q. A copy larger than `--max-mb` is
refused and nothing is left behind; so is a folder that holds anything but an earlier copy
(each copy carries `PACKED.json`: what it holds). Printed per set: the photos kept of the split's, and
the factor by which its `--weight` keeps the set's share of the training draws.
"""

from __future__ import annotations

import argparse
import json
import shutil
import sys
from collections import Counter
from dataclasses import dataclass
from pathlib import Path

import cv2

from dicecam.training.data.caches import DATASETS
from dicecam.training.data.sources import READER_SETS

#: Files that go along with a set's photos (its licence and where it comes from).
ALONG = ("LICENSE", "LICENSE.md", "SOURCE.md", "README.md")
#: Written into every copy: what it holds, and the mark that lets a later copy replace it.
MARK = "PACKED.json"


class PackError(ValueError):
    """A copy that cannot be made as asked."""


@dataclass(frozen=True)
class Packed:
    """What one set's copy holds: `kept` of the split's `photos` rows."""

    name: str
    kept: int
    photos: int

    @property
    def weight_factor(self) -> float:
        """Multiply the set's `--weight` by this to keep its share of draws with fewer photos."""
        return self.photos / self.kept if self.kept else 1.0


def folder_bytes(folder: Path) -> int:
    """The bytes of every file under `folder`."""
    return sum(f.stat().st_size for f in folder.rglob("*") if f.is_file())


def kept_rows(rows: list[dict], *, split: str, copies: int | None = None) -> list[dict]:
    """The rows of `split`, at most `copies` of each `source_photo` (in file order)."""
    seen: Counter[str] = Counter()
    out = []
    for row in rows:
        if row.get("split") != split:
            continue
        source = row.get("source_photo", row["image"])
        if copies is not None and seen[source] >= copies:
            continue
        seen[source] += 1
        out.append(row)
    return out


def pack(dst: Path, *, src: Path = DATASETS, sets: tuple[str, ...] = READER_SETS, split: str = "train",
         copies: dict[str, int] | None = None, quality: dict[str, int] | None = None,
         max_bytes: int | None = None) -> tuple[list[Packed], int]:
    """Copy `sets` of `src` into `dst` as the module says: what each set kept, and the copy's
    bytes. `dst` may be missing, empty or an earlier copy (which is replaced); `PackError`
    for any other folder, a missing set, or a copy that would pass `max_bytes` (then `dst`
    is left as it was)."""
    if dst.exists() and any(dst.iterdir()) and not (dst / MARK).is_file():
        raise PackError(f"{dst} holds files that are not an earlier copy: choose another folder")
    copies, quality = copies or {}, quality or {}
    unknown = sorted((set(copies) | set(quality)) - set(sets))
    if unknown:
        raise PackError(f"--copies and --quality name sets that are not packed: {', '.join(unknown)}")
    building = dst.with_name(dst.name + ".part")
    shutil.rmtree(building, ignore_errors=True)
    try:
        packed = [_pack_set(src / name, building / name, split=split, copies=copies.get(name),
                            quality=quality.get(name)) for name in sets]
        (building / MARK).write_text(json.dumps({
            "split": split, "copies": copies, "quality": quality,
            "sets": {p.name: {"kept": p.kept, "photos": p.photos} for p in packed}}, indent=1) + "\n")
        size = folder_bytes(building)
        if max_bytes is not None and size > max_bytes:
            raise PackError(f"the copy would take {size / 2**20:.1f} MiB, more than {max_bytes / 2**20:.1f} MiB: "
                            "keep fewer copies of a source photo (--copies) or a lower JPEG quality (--quality)")
    except BaseException:
        shutil.rmtree(building, ignore_errors=True)
        raise
    shutil.rmtree(dst, ignore_errors=True)
    building.rename(dst)
    return packed, size


def _pack_set(src: Path, dst: Path, *, split: str, copies: int | None, quality: int | None) -> Packed:
    labels = src / "labels.jsonl"
    if not labels.is_file():
        raise PackError(f"{src} is not a photo set: it has no labels.jsonl")
    rows = [json.loads(line) for line in labels.read_text(encoding="utf-8").splitlines() if line.strip()]
    every = kept_rows(rows, split=split)
    if not every:
        raise PackError(f"{src.name} has no {split} photos")
    kept = kept_rows(rows, split=split, copies=copies)
    dst.mkdir(parents=True)
    for name in ALONG:
        if (src / name).is_file():
            shutil.copy(src / name, dst / name)
    for row in kept:
        out = dst / row["image"]
        out.parent.mkdir(parents=True, exist_ok=True)
        if quality is None:
            shutil.copy(src / row["image"], out)
            continue
        image = cv2.imread(str(src / row["image"]), cv2.IMREAD_COLOR)
        if image is None:
            raise PackError(f"{src / row['image']} is not a photo OpenCV can read")
        # The name stays (labels name the file); only the JPEG's quality changes.
        ok, data = cv2.imencode(".jpg", image, [cv2.IMWRITE_JPEG_QUALITY, quality])
        assert ok
        out.write_bytes(data.tobytes())
    (dst / "labels.jsonl").write_text("".join(json.dumps(row) + "\n" for row in kept), encoding="utf-8")
    return Packed(src.name, len(kept), len(every))


def _by_set(values: list[str], what: str, low: int, high: int) -> dict[str, int]:
    out = {}
    for value in values:
        name, _, number = value.partition("=")
        if not name or not number.isdigit() or not low <= int(number) <= high:
            raise PackError(f"{what} takes SET=N with N from {low} to {high}, got {value!r}")
        out[name] = int(number)
    return out


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("out", type=Path, help="the folder to write (replaced)")
    p.add_argument("--src", type=Path, default=DATASETS, help="the shared photo sets (default: DICECAM_DATASETS)")
    p.add_argument("--sets", default=",".join(READER_SETS), help="comma-separated photo sets")
    p.add_argument("--split", default="train")
    p.add_argument("--copies", action="append", default=[], metavar="SET=N",
                   help="at most N photos of one source photo")
    p.add_argument("--quality", action="append", default=[], metavar="SET=Q", help="JPEG quality for that set")
    p.add_argument("--max-mb", type=float, default=None, help="refuse a copy larger than this many MiB")
    args = p.parse_args(argv)
    try:
        packed, size = pack(args.out, src=args.src, sets=tuple(s for s in args.sets.split(",") if s), split=args.split,
                      copies=_by_set(args.copies, "--copies", 1, 1000),
                      quality=_by_set(args.quality, "--quality", 10, 100),
                      max_bytes=None if args.max_mb is None else int(args.max_mb * 2**20))
    except PackError as exc:
        print(f"pack: {exc}", file=sys.stderr)
        return 2
    for s in packed:
        print(f"{s.name}: {s.kept} of {s.photos} {args.split} photos"
              + (f" (its --weight times {s.weight_factor:.2f} keeps its share)" if s.kept < s.photos else ""))
    print(f"{size / 2**20:.1f} MiB -> {args.out} (DICECAM_DATASETS={args.out})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
