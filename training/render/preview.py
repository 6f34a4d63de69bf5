"""Write a contact sheet of synthetic scenes and crops to look at.

    python -m dicecam.training.render.preview --out /tmp/synth_sheet.png --seed 0 --boxes
"""

from __future__ import annotations

import argparse
import time

import cv2
import numpy as np

from dicecam.training.render.scene import render_crop, render_scene


def contact_sheet(seed: int, *, rows: int = 3, cols: int = 4, cell: int = 400, boxes: bool = False) -> np.ndarray:
    """Scenes letterboxed into ``cell``-wide tiles, then a strip of crops, as one BGR image."""
    rng = np.random.default_rng(seed)
    tiles = []
    for _ in range(rows * cols):
        scene = render_scene(rng)
        img = scene.image.copy()
        if boxes:
            for d in scene.dice:
                colour = (0, 255, 0) if d.readable else (0, 0, 255)
                x0, y0, x1, y1 = (round(v) for v in d.die_box)
                cv2.rectangle(img, (x0, y0), (x1, y1), (255, 160, 0), 1)
                x0, y0, x1, y1 = (round(v) for v in d.top_box)
                cv2.rectangle(img, (x0, y0), (x1, y1), colour, 1)
                cv2.putText(img, str(d.value), (x0, max(y0 - 2, 8)), cv2.FONT_HERSHEY_SIMPLEX, 0.5, colour, 1)
        h, w = img.shape[:2]
        f = cell / max(h, w)
        img = cv2.resize(img, (int(w * f), int(h * f)), interpolation=cv2.INTER_AREA)
        tile = np.full((cell, cell, 3), 40, np.uint8)
        tile[: img.shape[0], : img.shape[1]] = img
        tiles.append(tile)
    grid = np.vstack([np.hstack(tiles[r * cols : (r + 1) * cols]) for r in range(rows)])
    crop = cols * cell // 16
    strip = [cv2.resize(render_crop(rng, int(v)), (crop, crop), interpolation=cv2.INTER_NEAREST)
             for v in list(range(1, 7)) * 6][: 32]
    strips = np.vstack([np.hstack(strip[:16]), np.hstack(strip[16:32])])
    strips = cv2.resize(strips, (grid.shape[1], strips.shape[0]))
    return np.vstack([grid, strips])


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--out", default="/tmp/synth_sheet.png")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--boxes", action="store_true",
                    help="draw die boxes (blue), top boxes (green/red = readable or not)")
    args = ap.parse_args()
    t = time.perf_counter()
    sheet = contact_sheet(args.seed, boxes=args.boxes)
    cv2.imwrite(args.out, sheet)
    print(f"wrote {args.out} in {time.perf_counter() - t:.1f} s")


if __name__ == "__main__":
    main()
