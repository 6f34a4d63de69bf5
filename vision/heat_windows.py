"""Where a heat map says a later look is worth making: windows of a photo around its warm cells."""

from __future__ import annotations

import cv2
import numpy as np

#: A window is (x0, y0, x1, y1) in photo pixels, x1 and y1 exclusive.
Window = tuple[int, int, int, int]


def heat_windows(heat: np.ndarray, cell: float, shape: tuple[int, ...], *, at_least: float,
                 margin: int, whole_above: float = 0.8) -> list[Window]:
    """The photo windows (of a photo of `shape`) around every cell of `heat` at `at_least` or
    more, grown by `margin` cells each way: one window per connected group of such cells.

    `cell` is how many photo pixels one cell of `heat` spans. Where the windows together
    would cover `whole_above` of the photo or more, the whole photo is one window (one pass
    costs less than many that overlap). No warm cell: no window.
    """
    if margin < 0:
        raise ValueError(f"a window's margin is a number of cells, 0 or more, not {margin}")
    if not cell > 0:
        raise ValueError(f"a heat map's cell spans some photo pixels, not {cell}")
    h, w = shape[:2]
    warm = (heat >= at_least).astype(np.uint8)
    if not warm.any():
        return []
    if margin:
        warm = cv2.dilate(warm, np.ones((2 * margin + 1, 2 * margin + 1), np.uint8))
    count, _labels, stats, _centres = cv2.connectedComponentsWithStats(warm, connectivity=8)
    windows = []
    for x, y, cw, ch, _area in stats[1:count]:
        x0, y0 = min(int(x * cell), w), min(int(y * cell), h)
        x1, y1 = min(int(np.ceil((x + cw) * cell)), w), min(int(np.ceil((y + ch) * cell)), h)
        if x1 > x0 and y1 > y0:
            windows.append((x0, y0, x1, y1))
    if sum((x1 - x0) * (y1 - y0) for x0, y0, x1, y1 in windows) >= whole_above * h * w:
        return [(0, 0, w, h)]
    return windows
