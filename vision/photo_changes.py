"""Photos changed the way photos from other cameras, dice and rooms differ, labels moved along.

Each change takes (photo, labelled boxes) and returns both changed, so that a changed
photo is scored against the same dice (`benchmarks/robustness.py`, `tests/vision`).
"""

from __future__ import annotations

from collections.abc import Callable

import cv2
import numpy as np

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


def further_away(factor: float) -> Change:
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


#: A Kniffel block's printed row names (spelt without umlauts: OpenCV's fonts have none).
_SHEET_ROWS = ("Einser", "Zweier", "Dreier", "Vierer", "Fuenfer", "Sechser", "Summe", "Bonus", "Dreierpasch",
               "Viererpasch", "Full House", "Kl. Strasse", "Gr. Strasse", "Kniffel", "Chance", "Gesamt")


def score_sheet(digit: float, *, faces: float | None = None) -> Change:
    """A score block lying beside the throw, its handwritten digits `digit` times a die's side
    tall (a Kniffel block's rows, photographed beside 16 mm dice: about 0.3), in the corner of
    the photo farthest from the dice (`_beside`). Printed row names, ruled lines and pen digits
    are what the table's paper adds: digits and letters that must not pass for pips. With
    `faces`, the upper section's rows (ones to sixes) print their die's face too, a square
    `faces` times a die's side with its pips, as Kniffel and Yahtzee sheets do: faces that
    must not pass for dice."""
    return _beside(lambda h, w, side, background, rng: _sheet(h, w, side * digit, rng,
                                                               face=None if faces is None else side * faces))


def dominoes(half: float, *, dark: bool = False) -> Change:
    """White dominoes (`dark`: black ones with white pips) drawn flat beside the throw, each half
    `half` times a die's side, in the corner of the photo farthest from the dice (`_beside`): a
    domino half shows a die's top face, with a divider and another half beside it."""
    return _beside(lambda h, w, side, background, rng: _dominoes(h, w, side * half, background, rng, dark=dark))


def poker_chips(chip: float) -> Change:
    """Poker chips lying flat beside the throw, each `chip` times a die's side across (a 39 mm
    chip beside 16-19 mm dice: about 2), in the corner of the photo farthest from the dice
    (`_beside`): coloured discs with four, six or eight light spots round the rim, a ring and
    a plain lighter middle, seen a little from the side. Würfelpoker is played for chips, and a
    chip's rim spots must not pass for a die's pips."""
    return _beside(lambda h, w, side, background, rng: _chips(h, w, side * chip, background, rng))


def _beside(draw: Callable[[int, int, float, np.ndarray, np.random.Generator], np.ndarray]) -> Change:
    """A change that paints `draw(h, w, die side, table colour, rng)` into the corner of the photo
    farthest from the dice, as large as it fits (at most a third of each side) without covering
    one; where no corner is clear, the photo is left as it is. The same photo always gets the
    same picture."""
    def change(image: np.ndarray, boxes: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        h, w = image.shape[:2]
        boxes = np.asarray(boxes, np.float32).reshape(-1, 4)
        side = float(np.median(np.maximum(boxes[:, 2] - boxes[:, 0], boxes[:, 3] - boxes[:, 1]))) if len(boxes) \
            else min(h, w) / 12
        place = _clear_corner(boxes, w, h)
        if place is None:
            return image, boxes
        x0, y0, x1, y1 = place
        out = image.copy()
        table = np.median(image.reshape(-1, 3), axis=0).astype(np.uint8)
        out[y0:y1, x0:x1] = draw(y1 - y0, x1 - x0, side, table, np.random.default_rng(h * 7919 + w))
        return out, boxes
    return change


def _clear_corner(boxes: np.ndarray, w: int, h: int) -> tuple[int, int, int, int] | None:
    """The largest corner rectangle (at most a third of each side, at least a tenth) that no
    labelled box touches, corners farthest from the dice first; None where none is clear."""
    centre = boxes.reshape(-1, 2, 2).mean(axis=1).mean(axis=0) if len(boxes) else np.array([w / 2, h / 2])
    corners = sorted(((0, 0), (1, 0), (0, 1), (1, 1)),
                     key=lambda c: -np.hypot(c[0] * w - centre[0], c[1] * h - centre[1]))
    for part in (3, 4, 6, 8, 10):
        sw, sh = w // part, h // part
        if min(sw, sh) < 8:  # too small to hold a ruled row
            return None
        for cx, cy in corners:
            x0, y0 = cx * (w - sw), cy * (h - sh)
            clear = ((boxes[:, 2] <= x0) | (boxes[:, 0] >= x0 + sw) | (boxes[:, 3] <= y0) | (boxes[:, 1] >= y0 + sh))
            if clear.all():
                return x0, y0, x0 + sw, y0 + sh
    return None


def _sheet(h: int, w: int, digit: float, rng: np.random.Generator, *, face: float | None = None) -> np.ndarray:
    """A piece of a score block, `h` x `w` pixels: ruled rows about 1.4 digits tall; with `face`,
    rows one to six print that die's face, `face` pixels a side, at the end of the names' column."""
    paper = np.array([238, 242, 245], np.float32) + rng.uniform(-12, 6, 3)
    sheet = np.empty((h, w, 3), np.uint8)
    sheet[:] = np.clip(paper, 0, 255).astype(np.uint8)
    row = max(digit * 1.4, 6.0)
    ink, pen = (40, 40, 40), ((150, 60, 20), (30, 30, 30), (40, 40, 160))[int(rng.integers(3))]
    line = max(1, round(digit / 14))
    for k in range(int(h / row) + 1):
        cv2.line(sheet, (0, round(k * row)), (w, round(k * row)), ink, line)
    names = w * 0.4
    for x in np.arange(names, w, max(digit * 2.6, 12.0)):
        cv2.line(sheet, (round(x), 0), (round(x), h), ink, line)
    print_scale = cv2.getFontScaleFromHeight(cv2.FONT_HERSHEY_SIMPLEX, max(round(row * 0.45), 3), line)
    write_scale = cv2.getFontScaleFromHeight(cv2.FONT_HERSHEY_SCRIPT_SIMPLEX, max(round(digit), 4), line + 1)
    for k in range(int(h / row)):
        base = round((k + 0.78) * row)
        cv2.putText(sheet, _SHEET_ROWS[k % len(_SHEET_ROWS)], (3, base),
                    cv2.FONT_HERSHEY_SIMPLEX, print_scale, ink, line, cv2.LINE_AA)
        if face is not None and k % len(_SHEET_ROWS) < 6:
            _printed_face(sheet, k % len(_SHEET_ROWS) + 1, (names - face * 0.75, (k + 0.5) * row), face, ink)
        for x in np.arange(names, w - digit, max(digit * 2.6, 12.0)):
            if rng.random() < 0.75:
                cv2.putText(sheet, str(int(rng.integers(0, 31))), (round(x + digit * 0.2), base),
                            cv2.FONT_HERSHEY_SCRIPT_SIMPLEX, write_scale, pen, line + 1, cv2.LINE_AA)
    return sheet


def _printed_face(sheet: np.ndarray, value: int, centre: tuple[float, float], side: float,
                  ink: tuple[int, int, int]) -> None:
    """A die's face printed on paper: a square outline `side` pixels wide at `centre`, with `value`'s pips.
    Drawn without the sheet's random numbers, so the sheets without faces stay as they were."""
    s, (cx, cy) = max(side, 6.0), centre
    cv2.rectangle(sheet, (round(cx - s / 2), round(cy - s / 2)), (round(cx + s / 2), round(cy + s / 2)), ink,
                  max(1, round(s / 20)), cv2.LINE_AA)
    for dx, dy in _PIPS[value]:
        cv2.circle(sheet, (round(cx + dx * s / 4), round(cy + dy * s / 4)), max(1, round(s / 10)), ink, -1, cv2.LINE_AA)


#: Pip places on a domino half (or a die's face) of each value, in quarters of its side from the middle.
_PIPS = {0: (), 1: ((0, 0),), 2: ((-1, -1), (1, 1)), 3: ((-1, -1), (0, 0), (1, 1)),
         4: ((-1, -1), (1, -1), (-1, 1), (1, 1)), 5: ((-1, -1), (1, -1), (0, 0), (-1, 1), (1, 1)),
         6: ((-1, -1), (1, -1), (-1, 0), (1, 0), (-1, 1), (1, 1))}


def _dominoes(h: int, w: int, half: float, table: np.ndarray, rng: np.random.Generator, *,
              dark: bool = False) -> np.ndarray:
    """Upright dominoes on the table's colour, `h` x `w` pixels, halves `half` pixels a side:
    white with black pips, or (`dark`) black with white pips."""
    body, edge, line, ink = ((25, 25, 25), (90, 90, 90), (235, 235, 230), (235, 235, 230)) if dark else \
        ((240, 240, 235), (150, 150, 150), (40, 40, 40), (20, 20, 20))
    out = np.empty((h, w, 3), np.uint8)
    out[:] = table
    s = max(int(half), 6)
    for x in range(4, w - s, int(1.5 * s)):
        for y in range(4, h - 2 * s, int(2.4 * s)):
            cv2.rectangle(out, (x, y), (x + s, y + 2 * s), body, -1)
            cv2.rectangle(out, (x, y), (x + s, y + 2 * s), edge, 1)
            cv2.line(out, (x + s // 8, y + s), (x + s - s // 8, y + s), line, max(1, s // 20))
            for part in range(2):
                for dx, dy in _PIPS[int(rng.integers(0, 7))]:
                    cv2.circle(out, (x + s // 2 + dx * s // 4, y + s // 2 + part * s + dy * s // 4), max(1, s // 10),
                               ink, -1, cv2.LINE_AA)
    return out


#: Poker chips' colours (BGR): red, blue, green, black, white, and the light colour of each one's spots.
_CHIP_COLOURS = (((40, 40, 190), (235, 235, 235)), ((150, 70, 25), (235, 235, 235)), ((50, 130, 40), (235, 235, 235)),
                 ((30, 30, 30), (235, 235, 235)), ((225, 228, 230), (40, 40, 190)))


def _chips(h: int, w: int, across: float, table: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """Loose poker chips on the table's colour, `h` x `w` pixels, each `across` pixels wide:
    squashed by up to a quarter and turned, as a phone held over the table sees a disc."""
    out = np.empty((h, w, 3), np.uint8)
    out[:] = table
    r = max(across / 2, 6.0)
    step = 2.3 * r
    for cx in np.arange(r * 1.1, w - r, step):
        for cy in np.arange(r * 1.1, h - r, step):
            body, spot = _CHIP_COLOURS[int(rng.integers(len(_CHIP_COLOURS)))]
            squash, turn = float(rng.uniform(0.75, 1.0)), float(rng.uniform(0, 180))
            centre = (float(cx + rng.uniform(-0.1, 0.1) * r), float(cy + rng.uniform(-0.1, 0.1) * r))
            spots, start = int(rng.choice([4, 6, 8])), float(rng.uniform(0, 2 * np.pi))
            _chip(out, centre, r, squash, turn, body, spot, spots, start)
    return out


def _chip(out: np.ndarray, centre: tuple[float, float], r: float, squash: float, turn: float,
          body: tuple[int, int, int], spot: tuple[int, int, int], spots: int, start: float) -> None:
    """One chip of radius `r` at `centre`, its vertical axis `squash`ed then turned `turn` degrees:
    `spots` light rim spots from angle `start`, a thin ring and a plain lighter middle."""
    c, t = np.asarray(centre), np.deg2rad(turn)
    rot = np.array([[np.cos(t), -np.sin(t)], [np.sin(t), np.cos(t)]])

    def ellipse(at: np.ndarray, radius: float, colour: tuple[int, int, int], thickness: int = -1) -> None:
        point = tuple(int(v) for v in np.round((c + rot @ (at * (1.0, squash))) * 16))
        axes = (max(round(radius * 16), 16), max(round(radius * squash * 16), 16))
        cv2.ellipse(out, point, axes, turn, 0, 360, colour, thickness, cv2.LINE_AA, 4)

    ellipse(np.zeros(2), r, _shade(body, 0.55, 0))  # its edge, in its own shadow
    ellipse(np.zeros(2), r * 0.96, body)
    for k in range(spots):
        a = start + 2 * np.pi * k / spots
        ellipse(np.array([np.cos(a), np.sin(a)]) * r * 0.8, r * 0.12, spot)
    ellipse(np.zeros(2), r * 0.6, spot, max(1, round(r / 25)))
    ellipse(np.zeros(2), r * 0.5, _shade(body, 1.15, 20))


def _shade(colour: tuple[int, int, int], times: float, plus: int) -> tuple[int, int, int]:
    """`colour` times `times` plus `plus`, each channel held to 0-255."""
    b, g, r = (min(255, max(0, int(v * times + plus))) for v in colour)
    return b, g, r


def turn_hue(image: np.ndarray, degrees: float) -> np.ndarray:
    """The photo with every colour's hue turned by `degrees` (saturation and value kept)."""
    hsv = cv2.cvtColor(image, cv2.COLOR_BGR2HSV)
    # OpenCV keeps 8-bit hue in 2-degree steps, 0-179.
    hsv[..., 0] = (hsv[..., 0].astype(np.int16) + int(degrees // 2)) % 180
    return cv2.cvtColor(hsv, cv2.COLOR_HSV2BGR)


def _hue(degrees: int) -> Callable[[np.ndarray], np.ndarray]:
    return lambda image: turn_hue(image, degrees)


def _gamma(g: float) -> Callable[[np.ndarray], np.ndarray]:
    lut = np.clip(((np.arange(256) / 255.0) ** g) * 255 + 0.5, 0, 255).astype(np.uint8)
    return lambda image: cv2.LUT(image, lut)


def recode_jpeg(image: np.ndarray, quality: int) -> np.ndarray:
    """`image` stored as a JPEG of `quality` and read back, as a phone or an upload stores it."""
    _, data = cv2.imencode(".jpg", image, [cv2.IMWRITE_JPEG_QUALITY, int(quality)])
    decoded = cv2.imdecode(data, cv2.IMREAD_COLOR)
    assert decoded is not None  # a JPEG that OpenCV itself just wrote
    return decoded


def _jpeg(quality: int) -> Callable[[np.ndarray], np.ndarray]:
    return lambda image: recode_jpeg(image, quality)


def _quarter_turn(image: np.ndarray, boxes: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Clockwise: (x, y) -> (h - y, x)."""
    h = image.shape[0]
    x0, y0, x1, y1 = boxes.T
    return cv2.rotate(image, cv2.ROTATE_90_CLOCKWISE), np.stack([h - y1, x0, h - y0, x1], axis=1)


def _turned(quarters: int) -> Change:
    """`quarters` clockwise quarter turns (`_quarter_turn` that many times)."""

    def turn(image: np.ndarray, boxes: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        for _ in range(quarters):
            image, boxes = _quarter_turn(image, boxes)
        return image, boxes

    return turn


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
    "from further away (dice at 50%)": further_away(0.5),
    "JPEG quality 25": _photometric(_jpeg(25)),
    "shaky hand (blur sigma 1.5)": _photometric(lambda image: cv2.GaussianBlur(image, (0, 0), 1.5)),
    "phone turned (90 degrees)": _turned(1),
    "phone turned the other way (270 degrees)": _turned(3),
    "upside down (180 degrees)": _turned(2),
    "score sheet beside the dice": score_sheet(0.3),
    "Kniffel sheet with printed faces beside the dice": score_sheet(0.3, faces=0.35),
    "big print beside the dice (digits half a die)": score_sheet(0.5),
    "dominoes beside the dice": dominoes(1.0),
    "dark dominoes beside the dice": dominoes(1.0, dark=True),
    "poker chips beside the dice": poker_chips(2.0),
    "small poker chips beside the dice (1.3 dice)": poker_chips(1.3),
}
