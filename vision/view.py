"""The view check: is a die seen from low down (its top face above a face turned to the
camera) or from above.

Seen from low down a die is boxed whole, top and front face together, and the face reader,
which reads a box's centre, can read the front face for the top; the top look reads such a
die again from its box's upper part. Seen from above that upper part cuts the top face in
two, so the top look asks this check first (C328, models/HISTORY.md): a small classifier run
by onnxruntime on a square around the box.
"""

from __future__ import annotations

import numpy as np
import onnxruntime as ort

from dicecam.vision.face_reader import square_crop
from dicecam.vision.onnx import metadata


class ViewCheck:
    """Gives boxes the probability that their die is seen from low down; its crop contract
    (crop side in pixels, the square's size against the box's longer side) travels in the ONNX file."""

    def __init__(self, session: ort.InferenceSession) -> None:
        self.session = session
        self.size = int(metadata(session, "crop_size", 32))
        self.grow = metadata(session, "crop_scale", 1.8)

    def crops(self, image: np.ndarray, boxes: np.ndarray) -> np.ndarray:
        """The network's input (N, 3, size, size) in 0..1: a square `grow` times each box's longer side."""
        boxes = np.asarray(boxes, np.float64).reshape(-1, 4)
        out = np.empty((len(boxes), 3, self.size, self.size), np.float32)
        for i, (x0, y0, x1, y1) in enumerate(boxes):
            side = self.grow * max(x1 - x0, y1 - y0)
            out[i] = square_crop(image, (x0 + x1) / 2, (y0 + y1) / 2, side, self.size).transpose(2, 0, 1)
        return out * np.float32(1 / 255)

    def low_view(self, image: np.ndarray, boxes: np.ndarray) -> np.ndarray:
        """For each box of a BGR photo, the probability (N,) that its die is seen from low down."""
        if not len(boxes):
            return np.zeros(0, np.float32)
        logits = self.session.run(None, {self.session.get_inputs()[0].name: self.crops(image, boxes)})[0]
        return (1.0 / (1.0 + np.exp(-logits.reshape(-1)))).astype(np.float32)
