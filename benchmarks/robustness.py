"""How the reading holds up when photos change in ways other cameras, dice and rooms change them.

    python benchmarks/robustness.py [DATASET_DIR ...] [--split dev] [--models DIR] [--json]

dicecam is judged on photos from cameras, dice and tables it has never seen. The
labelled sets cannot show that directly, but each photo can be changed the way such
photos differ (other dice colours, darker or brighter rooms, lower or higher
resolution, harsher JPEG, a shaky hand, the phone held sideways) and read again,
against the same labels moved along. A model that learned the shared photos rather
than dice loses most under these changes. Reported per set and change: read F1 and
exact-roll rate, scored by the datasets' rule (`vision.metrics`).
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable
from pathlib import Path

import cv2
import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from vision.dataset import read_dataset  # noqa: E402
from vision.decode import load_image  # noqa: E402
from vision.detections import Dice  # noqa: E402
from vision.metrics import score_photo, total  # noqa: E402
from vision.reader import DiceReader  # noqa: E402

DEFAULT_SETS = tuple(ROOT.parent / "shared" / "datasets" / name for name in ("byler_d6", "matteop65_wood"))

# A change takes (photo, labelled boxes) and returns both changed.
Change = Callable[[np.ndarray, np.ndarray], tuple[np.ndarray, np.ndarray]]


def _photometric(fn: Callable[[np.ndarray], np.ndarray]) -> Change:
    return lambda image, boxes: (fn(image), boxes)


def _scaled(factor: float) -> Change:
    def change(image: np.ndarray, boxes: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        h, w = image.shape[:2]
        size = (round(w * factor), round(h * factor))
        interp = cv2.INTER_AREA if factor < 1 else cv2.INTER_CUBIC
        return cv2.resize(image, size, interpolation=interp), boxes * np.float32(factor)
    return change


def _further_away(factor: float) -> Change:
    """The photo shrunk by `factor` in the middle of a same-size frame of its table's colour:
    the dice small in the frame, as from a phone held high over a big table."""
    def change(image: np.ndarray, boxes: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        h, w = image.shape[:2]
        small = cv2.resize(image, (round(w * factor), round(h * factor)), interpolation=cv2.INTER_AREA)
        canvas = np.empty_like(image)
        canvas[:] = np.median(image.reshape(-1, 3), axis=0).astype(np.uint8)
        y0, x0 = (h - small.shape[0]) // 2, (w - small.shape[1]) // 2
        canvas[y0:y0 + small.shape[0], x0:x0 + small.shape[1]] = small
        return canvas, boxes * np.float32(factor) + np.array([x0, y0, x0, y0], np.float32)
    return change


def _hue(degrees: int) -> Callable[[np.ndarray], np.ndarray]:
    def shift(image: np.ndarray) -> np.ndarray:
        hsv = cv2.cvtColor(image, cv2.COLOR_BGR2HSV)
        hsv[..., 0] = (hsv[..., 0].astype(np.int16) + degrees // 2) % 180
        return cv2.cvtColor(hsv, cv2.COLOR_HSV2BGR)
    return shift


def _gamma(g: float) -> Callable[[np.ndarray], np.ndarray]:
    lut = np.clip(((np.arange(256) / 255.0) ** g) * 255 + 0.5, 0, 255).astype(np.uint8)
    return lambda image: cv2.LUT(image, lut)


def _jpeg(quality: int) -> Callable[[np.ndarray], np.ndarray]:
    def recode(image: np.ndarray) -> np.ndarray:
        ok, data = cv2.imencode(".jpg", image, [cv2.IMWRITE_JPEG_QUALITY, quality])
        return cv2.imdecode(data, cv2.IMREAD_COLOR)
    return recode


def _quarter_turn(image: np.ndarray, boxes: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Clockwise: (x, y) -> (h - y, x)."""
    h = image.shape[0]
    x0, y0, x1, y1 = boxes.T
    return cv2.rotate(image, cv2.ROTATE_90_CLOCKWISE), np.stack([h - y1, x0, h - y0, x1], axis=1)


def _grey(image: np.ndarray) -> np.ndarray:
    return cv2.cvtColor(cv2.cvtColor(image, cv2.COLOR_BGR2GRAY), cv2.COLOR_GRAY2BGR)


CHANGES: dict[str, Change] = {
    "as taken": lambda image, boxes: (image, boxes),
    "colours swapped (BGR->RGB)": _photometric(lambda image: np.ascontiguousarray(image[..., ::-1])),
    "hue +120 degrees": _photometric(_hue(120)),
    "grey": _photometric(_grey),
    "dark room (gamma 2)": _photometric(_gamma(2.0)),
    "bright, washed out (gamma 0.5)": _photometric(_gamma(0.5)),
    "half resolution": _scaled(0.5),
    "double resolution": _scaled(2.0),
    "from further away (dice at 50%)": _further_away(0.5),
    "JPEG quality 25": _photometric(_jpeg(25)),
    "shaky hand (blur sigma 1.5)": _photometric(lambda image: cv2.GaussianBlur(image, (0, 0), 1.5)),
    "phone turned (90 degrees)": _quarter_turn,
}


def measure(reader: DiceReader, folder: Path, split: str | None) -> dict[str, dict[str, float]]:
    """Read F1 and exact-roll rate of every change over one dataset folder."""
    photos = [(p, load_image(p.path)) for p in read_dataset(folder, split=split)]
    out = {}
    for name, change in CHANGES.items():
        scores = []
        for photo, image in photos:
            changed, boxes = change(image, photo.dice.boxes)
            truth = Dice(boxes, photo.dice.values, photo.dice.confidences)
            scores.append(score_photo(truth, reader.read(changed)))
        s = total(scores)
        out[name] = {"read_f1": round(s.read_f1, 4), "exact_roll_rate": round(s.exact_roll_rate, 4)}
    return out


def main(argv: list[str] | None = None) -> None:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("datasets", nargs="*", type=Path, default=list(DEFAULT_SETS))
    p.add_argument("--split", default="dev")
    p.add_argument("--models", type=Path, default=None)
    p.add_argument("--no-zoom", action="store_true", help="without the reader's closer look at small dice")
    p.add_argument("--json", action="store_true")
    args = p.parse_args(argv)
    reader = DiceReader(args.models, **({"zoom_below": 0.0} if args.no_zoom else {}))
    results = {folder.name: measure(reader, folder, args.split) for folder in args.datasets}
    if args.json:
        print(json.dumps(results))
        return
    for name, rows in results.items():
        print(f"{name} ({args.split}):  read F1 / exact-roll rate")
        for change, r in rows.items():
            print(f"  {change:32s} {r['read_f1']:.4f}  {r['exact_roll_rate']:.3f}")


if __name__ == "__main__":
    main()
