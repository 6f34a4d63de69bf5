"""Second opinions on a read's dice: what asks about a die (or moves it) after the rules chose it.

The reader's rules (`DiceReader.judge`) and a known count choose the dice; these steps then
look at the chosen dice again, each with what the face reader cannot see alone: two boxes on
one die (geometry), a die seen from low down read from its top (the top reader and the view
check), a die that is no die at all (the decoy reader), half a domino (the domino check) or a
face printed on a score sheet (rows of faces counting up, `vision.printed`).
None of them adds a box: they ask (the page shows the die unsure), the top look may name another
value, for a known count `doubted` says which kept boxes rank last, and only the domino check's
surest halves are left out (`domino_drops`: from a read without a count, C378, and from a count's
left-out boxes, C381). Each is a
pure function of the photo, the dice and the networks it needs, tuned by `ReaderSettings`
(docs/READING.md, steps 15-20); a network that is missing from the models folder (None) asks nothing.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Protocol

import numpy as np

from dicecam.vision.boxes import overlapping
from dicecam.vision.candidates import Candidates, ask_about, filled
from dicecam.vision.detections import Dice
from dicecam.vision.face_reader import FaceReader
from dicecam.vision.printed import printed_rows
from dicecam.vision.settings import ReaderSettings
from dicecam.vision.view import ViewCheck

#: A read of at most this many dice is a throw; more are a heap, whose dice lean on each other
#: (their boxes overlap, other dice lie above them) and are left as read by the throw-only steps.
THROW_AT_MOST = 6


class BoxCheck(Protocol):
    """A network giving each box of a photo one probability (`vision.whole_die.WholeDieCheck`)."""

    def probability(self, image: np.ndarray, boxes: np.ndarray) -> np.ndarray: ...


#: A line for leaving boxes out: one for every check, or one per check of checks asked as one
#: (`vision.whole_die.EitherCheck`, in its order; None: that check leaves nothing out).
Lines = float | tuple[float | None, ...]


def each_check(check: BoxCheck, image: np.ndarray, boxes: np.ndarray) -> np.ndarray:
    """Each check's probability for each box (N, checks): an `EitherCheck` answers per check, one check
    in one column."""
    each = getattr(check, "each", None)
    return each(image, boxes) if each is not None else check.probability(image, boxes)[:, None]


def beyond(said: np.ndarray, lines: Lines) -> np.ndarray:
    """Which rows of per-check probabilities `said` (N, checks) reach a check's line of `lines`."""
    if not isinstance(lines, tuple):
        return np.asarray((said >= lines).any(axis=1))
    limits = np.array([np.inf if line is None else line for line in lines[: said.shape[1]]], np.float32)
    return np.asarray((said[:, : len(limits)] >= limits).any(axis=1))


class CropReader(Protocol):
    """A network reading each box's crop as a face or "not a die" (`vision.face_reader.FaceReader`)."""

    not_a_die: int

    def crops(self, image: np.ndarray, boxes: np.ndarray) -> np.ndarray: ...

    def classify(self, crops: np.ndarray) -> np.ndarray: ...


def overlaps_asked(dice: Dice, *, share: float | None) -> Dice:
    """`dice` with each die of a throw (at most `THROW_AT_MOST`) whose box overlaps another's by
    `share` of the smaller box asked: a throw's dice lie apart, so two such boxes are one die's
    top and side face or a die and a thing on it (C307, models/HISTORY.md). A heap's dice lean
    on each other and their boxes overlap: those stay as read."""
    if share is None or not 2 <= len(dice) <= THROW_AT_MOST:
        return dice
    asked = overlapping(dice.boxes, share)
    if not asked.any():
        return dice
    # Dice casts the confidences to float32 itself.
    return replace(dice, confidences=ask_about(dice.confidences, asked))


def printed_asked(dice: Dice, *, settings: ReaderSettings, printed: np.ndarray | None = None) -> Dice:
    """`dice` with those lying in a row of printed faces asked: `settings.printed_rows` or more
    whose values count up one by one at even steps (`vision.printed`), as a score sheet prints
    a die's faces (C429). Rows are looked for among `dice`; told a count, `printed` gives the
    boxes (M, 4) in rows among the candidates the rules kept (`printed_kept`): the count's fills
    are boxes the rules did not keep, asked already, and rows made with them are a chart of dice
    (C429b). Values and boxes stay as read; any number of dice, as a sheet's six faces and a
    throw's dice make more than a throw."""
    if settings.printed_rows is None or not len(dice):
        return dice
    if printed is None:
        asked = printed_rows(dice.boxes, dice.values, length=int(settings.printed_rows), reach=settings.printed_reach)
    else:
        asked = (dice.boxes[:, None, :] == printed[None, :, :]).all(axis=2).any(axis=1)
    if not asked.any():
        return dice
    return replace(dice, confidences=ask_about(dice.confidences, asked))


def printed_kept(found: Candidates, settings: ReaderSettings) -> np.ndarray:
    """Which boxes of judged `found` the rules kept and lie in a row of printed faces (`printed_asked`)."""
    rows = np.zeros(len(found), bool)
    if settings.printed_rows is None or not len(found):
        return rows
    kept = np.flatnonzero(filled(found.kept, "kept"))
    rows[kept] = printed_rows(found.boxes[kept], filled(found.values, "values")[kept],
                              length=int(settings.printed_rows), reach=settings.printed_reach)
    return rows


def top_looked(image: np.ndarray, dice: Dice, *, top: FaceReader, view: ViewCheck | None,
               settings: ReaderSettings) -> Dice:
    """`dice` of a throw (at most `THROW_AT_MOST`) with each die the read left unsure, seen from
    low down (`view`) and whose box's upper part `top` reads otherwise, surely, taking that
    value, still asked (`ReaderSettings`, top look).

    A throw seen from low down is boxed die by die, top and front face together; the reader
    reads a box's centre, which there is the front face (C313, models/HISTORY.md). A heap's
    boxes have other dice above them, so heaps stay as read.
    """
    s = settings
    if s.top_look_share is None or not 1 <= len(dice) <= THROW_AT_MOST:
        return dice
    # A die the read is sure of keeps its value: a top-down face cut by the top crop
    # is where the top look goes wrong (C315, C323), so it waits for a view from low down.
    looked = dice.confidences < s.low_confidence if s.top_look_only_unsure else np.ones(len(dice), bool)
    if s.top_look_view is not None:
        if view is None:
            return dice  # nothing tells a low view from a view from above
        if looked.any():
            looked[looked] = view.low_view(image, dice.boxes[looked]) >= s.top_look_view
    if not looked.any():
        return dice
    faces = top.classify(top.top_crops(image, dice.boxes[looked], s.top_look_share))[:, : top.not_a_die]
    moved = np.zeros(len(dice), bool)
    values = dice.values.copy()
    values[looked] = faces.argmax(axis=1) + 1
    moved[looked] = (values[looked] != dice.values[looked]) & (faces.max(axis=1) >= s.top_look_sure)
    if not moved.any():
        return dice
    return replace(dice, values=np.where(moved, values, dice.values), confidences=ask_about(dice.confidences, moved))


def decoys_asked(image: np.ndarray, dice: Dice, *, decoy_reader: CropReader | None,
                 settings: ReaderSettings) -> Dice:
    """`dice` of a throw (at most `THROW_AT_MOST`) with each sure die that `decoy_reader` reads
    as "not a die" at `decoy_asks` or more (a die read 1: at `decoy_asks_one`) asked: the
    reader that read it has seen few numeral dice, tokens and dominoes; one taught thousands
    of them is a second opinion on whether it is a die at all (C341, C347). With
    `decoy_asks_any_read`, a read of more dice too, at `decoy_asks` (C424c): a keypad's keys or
    a toy brick's studs are boxed as several dice. Values and boxes stay as read."""
    s = settings
    throw = 1 <= len(dice) <= THROW_AT_MOST
    if s.decoy_asks is None or decoy_reader is None or not len(dice) or not (throw or s.decoy_asks_any_read):
        return dice
    sure = np.flatnonzero(dice.confidences >= s.low_confidence)
    if not len(sure):
        return dice
    no_die = decoy_reader.classify(decoy_reader.crops(image, dice.boxes[sure]))[:, decoy_reader.not_a_die]
    # A 1 is one central mark, as a numeral die's digit or a token's hole is; no real
    # sure 1 held out of the decoy reader's teaching came near its own line (C347).
    # Its line for 1s was chosen on throws; a heap's many small 1s are asked at the common line.
    ones = s.decoy_asks if s.decoy_asks_one is None or not throw else min(s.decoy_asks, s.decoy_asks_one)
    asked = np.zeros(len(dice), bool)
    asked[sure] = no_die >= np.where(dice.values[sure] == 1, ones, s.decoy_asks)
    if not asked.any():
        return dice
    return replace(dice, confidences=ask_about(dice.confidences, asked))


def dominoes_asked(image: np.ndarray, dice: Dice, *, domino_check: BoxCheck | None,
                   settings: ReaderSettings, drop: bool = False) -> Dice:
    """`dice` with each sure die that `domino_check` gives `domino_asks` or more of being half a
    domino asked: a domino's half is a die's face to the readers, and only a crop that shows
    its other half beside it tells them apart. Heaps too: dominoes lie beside any number of
    dice, and no held-out real die came near the line (C354, C355). Values and boxes stay as read.
    With `drop` (a read without a count), the dice it gives `domino_drops` or more, sure or
    not, are left out: no half comes back as a die (C378); asked with the chip check, those the
    chip check alone gives `chip_drops` or more too (C436)."""
    return checked(image, dice, check=domino_check, asks=settings.domino_asks,
                   drops=piece_drops(settings) if drop else None, low_confidence=settings.low_confidence)


def piece_drops(settings: ReaderSettings) -> Lines | None:
    """The lines that leave a flat piece out: the domino check's `domino_drops`, and the chip check's
    own `chip_drops` where it is asked beside it (None: nothing is left out)."""
    if settings.domino_drops is None:
        return None
    return settings.domino_drops if settings.chip_drops is None else (settings.domino_drops, settings.chip_drops)


def sides_asked(image: np.ndarray, dice: Dice, *, side_check: BoxCheck | None,
                settings: ReaderSettings, drop: bool = False) -> Dice:
    """`dice` with each sure die that `side_check` gives `side_asks` or more of being a die's side
    face asked: seen at an angle, a die's side face shows pips as plainly as its top face, and
    only a crop that shows the top face above it tells them apart (C397). Heaps too: their
    side faces are most of those read surely, and held out of its teaching, heaps read better
    with it (folds by source). With `drop` (a read without a count), those it gives
    `side_drops` or more are left out. Values and boxes stay as read."""
    return checked(image, dice, check=side_check, asks=settings.side_asks,
                   drops=settings.side_drops if drop else None, low_confidence=settings.low_confidence)


def checked(image: np.ndarray, dice: Dice, *, check: BoxCheck | None, asks: float | None,
            drops: Lines | None, low_confidence: float) -> Dice:
    """`dice` with each sure die (`low_confidence` or more) that `check` gives `asks` or more asked
    (its largest probability, where checks are asked as one), and those, sure or not, that reach
    a line of `drops` left out (None: neither)."""
    if check is None or not len(dice) or (asks is None and drops is None):
        return dice
    sure = dice.confidences >= low_confidence
    # One run of the check for both: every die where some are dropped, else the sure ones.
    look = np.ones(len(dice), bool) if drops is not None else sure
    if not look.any():
        return dice
    looked = each_check(check, image, dice.boxes[look])
    said = np.zeros((len(dice), looked.shape[1]), np.float32)
    said[look] = looked
    if asks is not None and (asked := sure & (said.max(axis=1) >= asks)).any():
        dice = replace(dice, confidences=ask_about(dice.confidences, asked))
    return dice if drops is None else dice[~beyond(said, drops)]


def halves_dropped(image: np.ndarray, dice: Dice, *, domino_check: BoxCheck | None,
                   settings: ReaderSettings) -> Dice:
    """`dice` without those `domino_check` gives `domino_drops` or more of being half a domino:
    told a count, the kept boxes it leaves out are offered to the player as dice, and a half
    the check is that sure of is none (C381)."""
    lines = piece_drops(settings)
    if lines is None or domino_check is None or not len(dice):
        return dice
    return dice[~beyond(each_check(domino_check, image, dice.boxes), lines)]


def doubted(image: np.ndarray, found: Candidates, count: int, *, domino_check: BoxCheck | None,
            decoy_reader: CropReader | None, settings: ReaderSettings,
            side_check: BoxCheck | None = None, printed: np.ndarray | None = None) -> np.ndarray | None:
    """Which boxes of judged `found` a known `count` ranks last, where the rules keep more than
    `count` (else None, and nothing is looked at): the kept boxes `domino_check` gives
    `domino_passes` or more of being half a domino, and those `decoy_reader` reads "not a die"
    at `decoy_passes` or more. A half or a decoy is read as surely as a die, and ranked by its
    reading it took a real die's place (C357, C358, models/HISTORY.md); those `side_check`
    gives `side_passes` or more of being a die's side face (C397); and those lying in a row of
    printed faces (`printed`, one per box of `found`: `printed_kept`'s, found here when None; C429)."""
    halves, decoys, sides = settings.domino_passes, settings.decoy_passes, settings.side_passes
    check = domino_check if halves is not None else None
    second = decoy_reader if decoys is not None else None
    third = side_check if sides is not None else None
    rows = settings.printed_rows
    kept = np.flatnonzero(filled(found.kept, "kept")) if len(found) else np.zeros(0, np.int64)
    if (check is None and second is None and third is None and rows is None) or len(kept) <= count:
        return None
    doubts = np.zeros(len(kept), bool)
    if rows is not None:
        doubts |= (printed_kept(found, settings) if printed is None else printed)[kept]
    if check is not None and halves is not None:
        doubts |= check.probability(image, found.boxes[kept]) >= halves
    if second is not None and decoys is not None:
        doubts |= second.classify(second.crops(image, found.boxes[kept]))[:, second.not_a_die] >= decoys
    if third is not None and sides is not None:
        doubts |= third.probability(image, found.boxes[kept]) >= sides
    last = np.zeros(len(found), bool)
    last[kept] = doubts
    return last
