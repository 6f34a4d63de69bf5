"""A photo and its halvings, shared by the passes that each need a smaller copy."""

from __future__ import annotations

import cv2
import numpy as np


class Halvings:
    """The photo and its successive halvings (2x2 area averages), each made once, when first asked for.

    Halving by exactly two is OpenCV's fastest shrink (under 3 ms for 12 megapixels); the
    detector's first look, its closer look and the crops of big dice all start from the
    smallest halving that still has the detail they need, instead of shrinking the full
    photo again each.
    """

    def __init__(self, image: np.ndarray, *, min_side: int = 64) -> None:
        self._levels = [image]
        self.min_side = min_side
        #: Pixels the detector's passes over this photo have looked at so far: what its
        #: time goes with, and what an optional further look is budgeted against.
        self.looked = 0
        #: The count's search passes over this photo, by network and weak-peak line, once
        #: made: the detector's closer look may make one first and the search then reuses it.
        self.search_looks: dict[tuple[object, float], object] = {}

    @property
    def photo(self) -> np.ndarray:
        return self._levels[0]

    def level(self, k: int) -> np.ndarray:
        """The photo halved `k` times (sides rounded down); never under `min_side` pixels."""
        while len(self._levels) <= k:
            last = self._levels[-1]
            if min(last.shape[:2]) // 2 < self.min_side:
                break
            self._levels.append(cv2.resize(last, (last.shape[1] // 2, last.shape[0] // 2),
                                           interpolation=cv2.INTER_AREA))
        return self._levels[min(k, len(self._levels) - 1)]

    def for_scale(self, scale: float, *, keep: float = 1.0) -> tuple[np.ndarray, float]:
        """The smallest halving still `keep` times the size that `scale` asks of the photo.

        Returns it and its own scale relative to the photo (its width over the photo's).
        """
        if not scale > 0:
            raise ValueError(f"a scale must be positive, not {scale}")
        k = 0
        while scale * 2 ** (k + 1) * keep <= 1.0:
            k += 1
        image = self.level(k)  # no smaller than `min_side` allows
        return image, image.shape[1] / self.photo.shape[1]
