"""Real game tables with their dice taken away: what the reader still calls a die.

    python benchmarks/dice_removed.py ../shared/datasets/roboflow_dice [--split dev] [--models DIR]
        [--option NAME=VALUE ...] [--grow F] [--sheet PNG] [--json]

The rendered clutter benchmark (`rendered_scenes.py --clutter 1`) counts boxes on decoys
the renderer draws; this one asks the same of real tables. Each labelled die of a photo
is painted over (its box grown `GROW` times, for its sides and shadow) with the median
colour of a thin ring around that, so the boards, tokens, pieces, cloths and trays stay
as they were photographed and no labelled die is left. Read without a count, as the
reader reads a photo nobody gave a count for, every box reported there is something
other than a labelled die. Reported: the photos, the boxes reported (sure and unsure:
a sure one would go on the sheet unchecked) and the photos with a sure one.

It is made for sets whose boxes hold the whole die (roboflow_dice). Where a set boxes less
(matteop65_wood boxes only the pips), grow more (`--grow 3`), or the sides left in view
are read as dice, rightly.

Labels miss dice: a die at the frame's edge, a second group on the table, a heap of
hundreds (roboflow_dice's `dice_59` on dev, `dice_417` and `dice_447` on train). A box on
such a die is right, so the figure is an upper bound on false dice. `--sheet` draws every
sure box's surroundings, with its reading, to tell them apart by eye.
"""

from __future__ import annotations

import argparse
import json
from dataclasses import dataclass
from pathlib import Path

import numpy as np
from reader_options import reader_options, reader_settings

from dicecam.vision.dataset import read_dataset
from dicecam.vision.decode import load_image
from dicecam.vision.detections import Dice
from dicecam.vision.reader import DiceReader

#: A labelled box grown this many times is painted over: whole-die boxes hold the die, not its shadow.
GROW = 1.5
#: The ring whose median colour paints a die over, in pixels outside the grown box.
RING = 3


def remove_dice(image: np.ndarray, boxes: np.ndarray, *, grow: float = GROW, ring: int = RING) -> np.ndarray:
    """A copy of BGR `image` with each box (N, 4), grown `grow` times about its centre into a
    square of its longer side, painted the median colour of the `ring` pixels around it."""
    out = image.copy()
    h, w = out.shape[:2]
    for x0, y0, x1, y1 in np.asarray(boxes, np.float64).reshape(-1, 4):
        cx, cy, half = (x0 + x1) / 2, (y0 + y1) / 2, max(x1 - x0, y1 - y0) * grow / 2
        a, b = max(0, int(cx - half)), max(0, int(cy - half))
        c, d = min(w, int(np.ceil(cx + half))), min(h, int(np.ceil(cy + half)))
        if a >= c or b >= d:
            continue
        # Read from the photo, not `out`: a neighbour painted first must not colour this one.
        ra, rb, rc, rd = max(0, a - ring), max(0, b - ring), min(w, c + ring), min(h, d + ring)
        around = image[rb:rd, ra:rc].astype(np.float64)
        outside = np.ones(around.shape[:2], bool)
        outside[b - rb:d - rb, a - ra:c - ra] = False
        colour = np.median(around[outside] if outside.any() else around.reshape(-1, 3), axis=0)
        out[b:d, a:c] = np.round(colour).astype(np.uint8)
    return out


@dataclass(frozen=True)
class Table:
    """One photo with its dice removed: what the reader reported there and, for each sure
    box, its surroundings as `window` cut them (to look at by eye)."""

    image: str
    dice: Dice
    windows: tuple[np.ndarray, ...] = ()


#: A sure box's surroundings are this many times its side, drawn `TILE` pixels square.
AROUND, TILE = 3.0, 128


def window(image: np.ndarray, box: np.ndarray, *, around: float = AROUND, side: int = TILE) -> np.ndarray:
    """`image` around `box` (`around` times its longer side, cut at the frame), `side` pixels square."""
    import cv2

    h, w = image.shape[:2]
    x0, y0, x1, y1 = box
    cx, cy, half = (x0 + x1) / 2, (y0 + y1) / 2, around / 2 * max(x1 - x0, y1 - y0)
    part = image[int(max(cy - half, 0)):int(min(cy + half, h)), int(max(cx - half, 0)):int(min(cx + half, w))]
    return cv2.resize(part, (side, side), interpolation=cv2.INTER_AREA)


def read_tables(reader: DiceReader, folder: Path, split: str, *, grow: float = GROW) -> list[Table]:
    """Every whole photo of `folder`'s `split`, dice removed (`remove_dice`), read without a count."""
    out = []
    for photo in read_dataset(folder, split=None if split == "all" else split):
        if photo.crop:
            continue  # a crop of one die has no table around it
        table = remove_dice(load_image(photo.path), photo.dice.boxes, grow=grow)
        dice = reader.read(table)
        sure = dice.boxes[dice.confidences >= reader.low_confidence]
        out.append(Table(photo.image, dice, tuple(window(table, box) for box in sure)))
    return out


def summary(tables: list[Table], low_confidence: float) -> dict[str, int]:
    """Photos, boxes reported (sure: confidence `low_confidence` or more; unsure) and photos with a sure one."""
    sure = [int(np.sum(t.dice.confidences >= low_confidence)) for t in tables]
    boxes = sum(len(t.dice) for t in tables)
    return {"photos": len(tables), "boxes": boxes, "sure": sum(sure), "unsure": boxes - sum(sure),
            "photos_with_sure": sum(s > 0 for s in sure)}


def sheet(tables: list[Table], low_confidence: float, *, columns: int = 8) -> np.ndarray:
    """Every sure box's window, its value, confidence and photo written on it, in rows of `columns`."""
    import cv2

    tiles = []
    for table in tables:
        sure = table.dice.confidences >= low_confidence
        for tile, value, confidence in zip(table.windows, table.dice.values[sure], table.dice.confidences[sure]):
            tile = tile.copy()
            cv2.putText(tile, f"{value} {confidence:.2f}", (3, 13), cv2.FONT_HERSHEY_SIMPLEX, 0.4, (0, 255, 255), 1)
            cv2.putText(tile, Path(table.image).stem[:14], (3, TILE - 5), cv2.FONT_HERSHEY_SIMPLEX, 0.35,
                        (0, 255, 255), 1)
            tiles.append(tile)
    tiles += [np.zeros((TILE, TILE, 3), np.uint8)] * (-len(tiles) % columns)
    if not tiles:
        return np.zeros((TILE, TILE * columns, 3), np.uint8)
    return np.vstack([np.hstack(tiles[i:i + columns]) for i in range(0, len(tiles), columns)])


def main(argv: list[str] | None = None) -> None:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("dataset", type=Path)
    p.add_argument("--split", default="dev", help="which split (default: dev; 'all' for every photo)")
    p.add_argument("--models", type=Path, default=None)
    p.add_argument("--option", action="append", default=[], metavar="NAME=VALUE",
                   help="a DiceReader setting, e.g. zoom_margin=inf")
    p.add_argument("--grow", type=float, default=GROW, help=f"paint each labelled box grown this many times "
                   f"(default {GROW})")
    p.add_argument("--sheet", type=Path, default=None, metavar="PNG", help="draw each sure box's surroundings")
    p.add_argument("--json", action="store_true")
    args = p.parse_args(argv)
    if args.grow < 1:
        p.error("--grow is how many times a labelled box: 1 or more")
    options = reader_options(args.option)
    reader = DiceReader(args.models, settings=reader_settings(options))
    tables = read_tables(reader, args.dataset, args.split, grow=args.grow)
    counts = summary(tables, reader.low_confidence)
    if args.sheet is not None:
        import cv2

        args.sheet.parent.mkdir(parents=True, exist_ok=True)
        cv2.imwrite(str(args.sheet), sheet(tables, reader.low_confidence))
    if args.json:
        print(json.dumps({"dataset": str(args.dataset), "split": args.split, **counts}))
        return
    print(f"{args.dataset.name} ({args.split}), dice removed: {counts['photos']} photos, {counts['boxes']} boxes "
          f"reported ({counts['sure']} sure, {counts['unsure']} unsure), {counts['photos_with_sure']} photos "
          "with a sure one")


if __name__ == "__main__":
    main()
