"""Top faces inside whole-die labels: where the detector must learn to point.

    python -m dicecam.training.data.top_faces models/    # writes data/top_faces.json

`roboflow_dice` labels each die with a box around all of it, top face and the sides in
view, while the detector finds top faces (the reader reads the face its crop is centred
on). For every such label this stage looks for the detector's own top-face box inside it
(run at a low threshold, no reader verdict); where it finds none it estimates one from
the label's shape (`estimate_top_face`). Training then uses these boxes, and the
labelled whole-die boxes as the dice's outlines.
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path

import numpy as np

from dicecam.training.data import caches
from dicecam.vision.boxes import centres, inside

#: A detected top face must be this share of the whole die's longer side, or more ...
MIN_SHARE = 0.35
#: ... and at most this share (a box around the whole die is not its top face).
MAX_SHARE = 1.02


def estimate_top_face(die: np.ndarray) -> np.ndarray:
    """A whole die's box (N, 4) -> the likely box of its top face (N, 4), from its shape alone.

    Seen from above, a die's box is about square and its top face fills most of it; seen
    from the side, the box grows taller than wide as the front face comes into view, below
    the top face. The face keeps the box's width less its rounded edges, and sits at the
    box's top.
    """
    die = np.asarray(die, np.float32).reshape(-1, 4)
    w = die[:, 2] - die[:, 0]
    h = die[:, 3] - die[:, 1]
    side_x = 0.85 * w
    # A taller box shows more front face: the top face is flattened by the view.
    side_y = np.clip(np.minimum(0.85 * h, 0.85 * w * np.minimum(1.0, w / np.maximum(h, 1e-3))), 0.3 * h, 0.85 * h)
    cx = (die[:, 0] + die[:, 2]) / 2
    y0 = die[:, 1] + 0.06 * h
    return np.stack([cx - side_x / 2, y0, cx + side_x / 2, y0 + side_y], axis=1).astype(np.float32)


def match_top_faces(die: np.ndarray, found: np.ndarray, scores: np.ndarray, *, min_score: float = 0.3,
                    values: np.ndarray | None = None, read: np.ndarray | None = None
                    ) -> tuple[np.ndarray, np.ndarray]:
    """For each whole-die box, the detected box that is most likely its top face, else an estimate.

    Returns (top boxes (N, 4), found (N,) booleans: True where the detector's box was taken).
    A candidate's centre lies inside the die's box and its longer side is `MIN_SHARE` to
    `MAX_SHARE` of the die's; each detected box serves one die at most. With the labels'
    `values` and each found box's reading (`read`), a box read as the labelled value goes
    first: a die seen from the side shows pips on its front face too, and the detector can
    find that face more strongly than the top one. Then the higher box (an upright photo
    shows the top face above the front one) and the stronger peak, weighed together.
    """
    die = np.asarray(die, np.float32).reshape(-1, 4)
    found = np.asarray(found, np.float32).reshape(-1, 4)
    tops = estimate_top_face(die)
    taken = np.zeros(len(die), bool)
    if not len(die) or not len(found):
        return tops, taken
    die_side = np.maximum(die[:, 2] - die[:, 0], die[:, 3] - die[:, 1])
    side = np.maximum(found[:, 2] - found[:, 0], found[:, 3] - found[:, 1])
    fits = inside(centres(found), die).T  # (dice, found)
    share = side[None, :] / np.maximum(die_side[:, None], 1e-3)
    fits &= (share >= MIN_SHARE) & (share <= MAX_SHARE) & (scores[None, :] >= min_score)
    used = np.zeros(len(found), bool)
    if values is not None and read is not None:
        agrees = np.asarray(read)[None, :] == np.asarray(values)[:, None]  # (dice, found)
        top_y = (die[:, 1:2] - found[None, :, 1]) / np.maximum(die_side[:, None], 1e-3)  # higher: larger
        rank = np.where(fits, 4.0 * agrees + top_y + scores[None, :], -np.inf)
        # Best pairs first, so two dice never share one box.
        for flat in np.argsort(-rank, axis=None):
            i, j = np.unravel_index(flat, rank.shape)
            if not np.isfinite(rank[i, j]):
                break
            if not taken[i] and not used[j]:
                tops[i], taken[i], used[j] = found[j], True, True
        return tops, taken
    # Strongest candidates first, so two dice never share one box.
    for j in np.argsort(-scores):
        rows = np.nonzero(fits[:, j] & ~taken)[0]
        if used[j] or not len(rows):
            continue
        i = rows[np.argmin(die_side[rows])]  # of nested labels, the smaller die
        tops[i], taken[i], used[j] = found[j], True, True
    return tops, taken


def build(models: Path, dataset_root: Path, sets: tuple[str, ...]) -> dict[str, dict]:
    """Top faces for every whole-die label of `sets` (train and dev), keyed "set/image"."""
    import cv2

    from dicecam.vision.reader import DiceReader

    reader = DiceReader(models, min_score=0.15)
    out: dict[str, dict] = {}
    for name in sets:
        folder = dataset_root / name
        for line in (folder / "labels.jsonl").read_text(encoding="utf-8").splitlines():
            row = json.loads(line)
            if row["split"] != "train":
                continue  # dev labels are never trained on
            boxes = np.array([d["box"] for d in row["dice"]], np.float32).reshape(-1, 4)
            values = np.array([d["value"] for d in row["dice"]], np.int64)
            image = cv2.imread(str(folder / row["image"]), cv2.IMREAD_COLOR)
            if image is None:
                raise FileNotFoundError(f"{folder / row['image']}: missing or not an image")
            seen = reader.candidates(image)  # every box, read, whatever the rules keep
            tops, taken = match_top_faces(boxes, seen.boxes, seen.scores, values=values, read=seen.values)
            out[f"{name}/{row['image']}"] = {"tops": np.round(tops, 1).tolist(), "found": taken.tolist()}
    return out


def load(path: Path = caches.TOP_FACES) -> dict[str, dict]:
    """The cache `build` wrote ({} if there is none yet)."""
    return json.loads(path.read_text(encoding="utf-8")) if path.is_file() else {}


def main(argv: list[str] | None = None) -> None:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("models", type=Path, nargs="?", default=Path("models"))
    p.add_argument("--datasets", type=Path, default=caches.DATASETS)
    args = p.parse_args(argv)
    tops = build(args.models, args.datasets, caches.WHOLE_DIE_SETS)
    caches.TOP_FACES.parent.mkdir(parents=True, exist_ok=True)
    caches.TOP_FACES.write_text(json.dumps(tops), encoding="utf-8")
    dice = sum(len(v["found"]) for v in tops.values())
    seen = sum(sum(v["found"]) for v in tops.values())
    print(f"{len(tops)} photos, {dice} whole-die labels, {seen} top faces found by the detector "
          f"({dice - seen} estimated) -> {caches.TOP_FACES}")


if __name__ == "__main__":
    main()
