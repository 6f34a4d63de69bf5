"""Real labelled photos from `../shared/datasets/` as plain numpy samples."""

from __future__ import annotations

import json
import zlib
from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np

from dicecam.training.data import caches, top_faces
from dicecam.vision.corrections import Correction, correct
from dicecam.vision.detections import Dice

DEFAULT_ROOT = caches.DATASETS


#: matteop65_wood's boxes cover only the pips of the top face: a "1" is boxed around its
#: single pip, a "3" is a thin strip along its three pips. Trained on as they are, they
#: teach the detector that a pip is a die. `grow_to_face` turns them into square top-face
#: boxes: the longer side times these factors (a 4/5/6's pips span about 0.8 of the face,
#: a 2/3's about 0.7), and for 1/2/3 the face size of the 4/5/6 dice in the same photo
#: when there are any (on the train split a 1's box is 0.38 and a 2/3's 0.67 of theirs).
PIP_SPAN_TO_FACE = {1: 2.0, 2: 1.45, 3: 1.45, 4: 1.25, 5: 1.25, 6: 1.25}
PIP_AREA_SETS = ("matteop65_wood",)
#: Sets shot by a camera low in front of the dice: each die's front face shows below its top.
LOW_VIEW_SETS = ("matteop65_wood",)
WHOLE_DIE_SETS = caches.WHOLE_DIE_SETS
#: Source photos that show dice nobody labelled (a pile of hundreds; a table of sixteen
#: with no label at all): trained on, they would teach that those dice are table.
UNLABELLED_DICE: dict[str, tuple[str, ...]] = {"roboflow_dice": ("dice_447_jpg", "dice_417_jpg")}


def grow_to_face(boxes: np.ndarray, values: np.ndarray) -> np.ndarray:
    """Pip-area boxes turned into square boxes of the die's estimated top face."""
    c = (boxes[:, :2] + boxes[:, 2:]) / 2
    side = np.max(boxes[:, 2:] - boxes[:, :2], axis=1) * np.array([PIP_SPAN_TO_FACE[int(v)] for v in values])
    full = values >= 4
    if full.any():
        side[~full] = np.median(side[full])
    half = side[:, None] / 2
    return np.concatenate([c - half, c + half], axis=1).astype(np.float32)


#: Train dice whose label is wrong to the eye (the top face shows another value), by
#: photo and labelled box. Trained on as labelled, three of them taught the reader to read
#: a 3 as a 2, its commonest mistake on byler's dev photos. Only clear cases are here;
#: dev labels are never changed (they are measured as given).
LABEL_FIXES: dict[tuple[str, str], tuple[tuple[tuple[float, float, float, float], int, int], ...]] = {
    # (box, labelled value, value the face shows)
    ("byler_d6", "images/train/IMG_20191208_112342.jpg"): (((296.6, 461.1, 335.9, 502.5), 2, 3),),
    ("byler_d6", "images/train/IMG_20191209_095439.jpg"): (((317.4, 369.4, 347.1, 403.5), 5, 4),),
    ("byler_d6", "images/train/IMG_20191209_095954.jpg"): (((219.6, 319.8, 259.9, 357.4), 2, 3),),
    ("byler_d6", "images/train/IMG_20191209_100722.jpg"): (((410.3, 414.0, 456.4, 461.5), 6, 5),),
}


def fix_labels(dataset: str, image: str, boxes: np.ndarray, values: np.ndarray) -> np.ndarray:
    """`values` with the `LABEL_FIXES` of this photo applied (a new array).

    Raises ValueError (`vision.corrections.CorrectionError`) if a fix no longer finds its
    die (labels changed under it), so a stale table fails loudly instead of silently
    fixing nothing. The dev splits' faults are corrected only to measure
    (`dicecam eval --corrections`), never here.
    """
    dice = Dice(boxes, values, np.ones(len(values), np.float32))
    for box, labelled, shown in LABEL_FIXES.get((dataset, image), ()):
        dice = correct(dice, Correction(dataset, image, box, labelled, shown))
    return dice.values.copy()


def held_out(name: str, fraction: float) -> bool:
    """Whether photo `name` belongs to the held-out part (`fraction` of it) of a train split.

    Decided by a hash of the name, so every run and every tool holds out the same photos:
    models can be compared on them without looking at the dev split.
    """
    return zlib.crc32(name.encode("utf-8")) / 2**32 < fraction


@dataclass(frozen=True)
class Sample:
    """One labelled photo: BGR image, boxes (N, 4) and values (N,); boxes may be None for crops."""

    image: np.ndarray
    boxes: np.ndarray | None
    values: np.ndarray
    name: str
    #: Whole visible die (top and side faces), where known (rendered photos).
    die_boxes: np.ndarray | None = None
    #: False where boxes are estimates (grown from pip areas) rather than drawn on the face.
    exact_boxes: bool = True
    #: Per die: could a person read it? (rendered photos mark cocked or hidden dice False).
    readable: np.ndarray | None = None
    #: Shot from low in front: each die's front face shows just below its top face.
    side_below: bool = False
    #: The camera's tilt from straight down in degrees, where known (rendered photos).
    tilt_deg: float | None = None
    #: Boxes (K, 4) of things that could pass for a die and are none (rendered clutter), where known.
    decoys: np.ndarray | None = None
    #: What each of `decoys` is (`render.scene.Scene.decoy_kinds`), where known.
    decoy_kinds: tuple[str, ...] | None = None


def load_split(dataset: str, split: str, *, root: Path = DEFAULT_ROOT, faces: bool = True,
               holdout: float = 0.0, held: bool = False) -> list[Sample]:
    """All photos of `dataset` whose split is `split` ("train" or "dev").

    With `faces`, boxes that cover only the pips are grown to the top face (see `grow_to_face`),
    and boxes around whole dice become their top faces (`top_faces`; the whole dice's boxes
    are kept as `die_boxes`). `holdout` leaves out that fraction of the photos (see
    `held_out`; augmented copies of one photo are held out together), or with `held` only
    that fraction is loaded, to measure on. Photos with dice
    nobody labelled (`UNLABELLED_DICE`) are left out.
    """
    folder = Path(root) / dataset
    tops = top_faces.load() if faces and dataset in WHOLE_DIE_SETS else {}
    samples = []
    with open(folder / "labels.jsonl", encoding="utf-8") as fh:
        for line in fh:
            row = json.loads(line)
            source = row.get("source_photo", row["image"])
            if row["split"] != split or held_out(source, holdout) != held or source in UNLABELLED_DICE.get(dataset, ()):
                continue
            image = cv2.imread(str(folder / row["image"]), cv2.IMREAD_COLOR)
            if image is None:
                raise FileNotFoundError(folder / row["image"])
            values = np.array([d["value"] for d in row["dice"]], np.int64)
            die_boxes = None
            if any(d["box"] is None for d in row["dice"]):
                boxes = None
            else:
                boxes = np.array([d["box"] for d in row["dice"]], np.float32).reshape(-1, 4)
                if split == "train":
                    values = fix_labels(dataset, row["image"], boxes, values)
                h, w = image.shape[:2]
                if faces and dataset in PIP_AREA_SETS and len(boxes):
                    boxes = np.clip(grow_to_face(boxes, values), 0, [w, h, w, h]).astype(np.float32)
                elif faces and dataset in WHOLE_DIE_SETS:
                    die_boxes = boxes
                    known = tops.get(f"{dataset}/{row['image']}")
                    found = (np.array(known["tops"], np.float32).reshape(-1, 4) if known
                             else top_faces.estimate_top_face(boxes))
                    boxes = np.clip(found, 0, [w, h, w, h]).astype(np.float32)
            samples.append(Sample(image, boxes, values, row["image"], die_boxes=die_boxes,
                                  exact_boxes=dataset not in PIP_AREA_SETS + WHOLE_DIE_SETS,
                                  side_below=dataset in LOW_VIEW_SETS))
    return samples
