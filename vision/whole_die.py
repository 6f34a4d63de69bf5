"""The whole-die check: is a box a die, judged from the die's whole shape in context.

The face reader sees only the top face, tight: to it a round board token with a number
or a printed dot can look like a face. This check sees a square twice the box's longer
side, so a die's cube edges, its sides and its shadow are in view, and says how likely
the box is a die at all (a small classifier run by onnxruntime).
"""

from __future__ import annotations

from dataclasses import replace

import cv2
import numpy as np
import onnxruntime as ort

from dicecam.vision.candidates import Candidates, filled
from dicecam.vision.onnx import metadata


def context_crops(image: np.ndarray, boxes: np.ndarray, *, size: int = 40, context: float = 2.0,
                  lift: float = 0.0) -> np.ndarray:
    """Square crops (N, size, size, 3) of a BGR `image`, each `context` times its box's
    longer side and centred `lift` of that side above the box's centre (a die seen low
    shows its top face above the face that faces the camera); beyond the photo's edge its
    border is repeated."""
    boxes = np.asarray(boxes, np.float64).reshape(-1, 4)
    out = np.empty((len(boxes), size, size, 3), np.uint8)
    for i, (x0, y0, x1, y1) in enumerate(boxes):
        side = max(x1 - x0, y1 - y0, 2.0) * context
        scale = size / side
        centre_x, centre_y = (x0 + x1) / 2, (y0 + y1) / 2 - lift * side / context
        warp = np.array([[scale, 0, size / 2 - scale * centre_x], [0, scale, size / 2 - scale * centre_y]])
        out[i] = cv2.warpAffine(image, warp, (size, size), flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)
    return out


def as_input(crops: np.ndarray) -> np.ndarray:
    """Crops (N, H, W, 3) uint8 as the network takes them: (N, 3, H, W) floats in -0.5..0.5."""
    return np.ascontiguousarray(crops.transpose(0, 3, 1, 2), dtype=np.float32) / 255.0 - 0.5


class WholeDieCheck:
    """Gives boxes the probability that they frame a die; its crop contract travels in the ONNX file."""

    def __init__(self, session: ort.InferenceSession) -> None:
        self.session = session
        self.size = int(metadata(session, "crop_size", 40))
        self.context = metadata(session, "context", 2.0)
        self.lift = metadata(session, "lift", 0.0)

    def probability(self, image: np.ndarray, boxes: np.ndarray) -> np.ndarray:
        """For each box of a BGR photo, the probability (N,) that it is a die."""
        if not len(boxes):
            return np.zeros(0, np.float32)
        logits = self.logits(as_input(context_crops(image, boxes, size=self.size, context=self.context,
                                                    lift=self.lift)))
        return (1.0 / (1.0 + np.exp(-logits))).astype(np.float32)

    def logits(self, crops: np.ndarray) -> np.ndarray:
        """The network's logits (N,) for crops already cut and made ready (`as_input`)."""
        return self.session.run(None, {self.session.get_inputs()[0].name: crops})[0].reshape(-1)

    def look(self, image: np.ndarray, judged: Candidates, *, also: np.ndarray | None = None) -> Candidates:
        """`judged` with `whole` set for the boxes its rules keep and the boxes marked in
        `also` (NaN for the rest: the check would not change them, and clutter makes many)."""
        kept = filled(judged.kept, "kept")
        if also is not None:
            kept = kept | also
        whole = np.full(len(judged), np.nan, np.float32)
        whole[kept] = self.probability(image, judged.boxes[kept])
        return replace(judged, whole=whole)


class EitherCheck:
    """Box checks of one crop contract asked as one: each box's probability is the largest of
    theirs. The domino check and the chip check (C435) both say "a flat game piece, not a die",
    from the same wide crop, cut once."""

    def __init__(self, first: WholeDieCheck, *others: WholeDieCheck) -> None:
        self.checks = (first, *others)
        self.size, self.context, self.lift = first.size, first.context, first.lift
        for other in others:
            if (other.size, other.context, other.lift) != (self.size, self.context, self.lift):
                raise ValueError("checks asked as one must cut the same crops")

    def probability(self, image: np.ndarray, boxes: np.ndarray) -> np.ndarray:
        """For each box of a BGR photo, the largest of the checks' probabilities (N,)."""
        return self.each(image, boxes).max(axis=1, initial=0.0)

    def each(self, image: np.ndarray, boxes: np.ndarray) -> np.ndarray:
        """For each box of a BGR photo, each check's probability (N, checks), in the checks' order."""
        if not len(boxes):
            return np.zeros((0, len(self.checks)), np.float32)
        crops = as_input(context_crops(image, boxes, size=self.size, context=self.context, lift=self.lift))
        logits = np.stack([check.logits(crops) for check in self.checks], axis=1)
        return (1.0 / (1.0 + np.exp(-logits))).astype(np.float32)
