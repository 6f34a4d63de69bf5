"""The trained dice reader: a detector finds each die's top face, a face reader reads it,
and a whole-die check looks at each die kept in context.

The networks run with onnxruntime. Their preprocessing contract (input size, stride,
crop scale) travels inside the ONNX files as metadata, so the runtime never has to
import the training code. `DiceReader` composes the two with one frozen `ReaderSettings`;
`Candidates` carries every box from the detector through the reading to the result, and
`vision.second_opinions` asks about the dice chosen (two boxes on one die, a top face read
from low down, decoys and dominoes).
"""

from __future__ import annotations

import copy
import os
import warnings
from dataclasses import replace
from importlib import resources
from pathlib import Path
from typing import Any

import cv2
import numpy as np

from dicecam.vision.boxes import overlaps, passed_over, under
from dicecam.vision.candidates import ASKED_AT_MOST, Candidates, filled
from dicecam.vision.confidence import load_confidence_fit
from dicecam.vision.detections import CountedDice, Dice, Die
from dicecam.vision.detector import DieDetector
from dicecam.vision.face_reader import CropReadings, FaceReader
from dicecam.vision.halvings import Halvings
from dicecam.vision.onnx import file_digest, session, text_metadata, twin_path
from dicecam.vision.rules import judge
from dicecam.vision.second_opinions import (
    THROW_AT_MOST,
    decoys_asked,
    dominoes_asked,
    doubted,
    halves_dropped,
    overlaps_asked,
    printed_asked,
    printed_kept,
    sides_asked,
    top_looked,
)
from dicecam.vision.settings import ReaderSettings
from dicecam.vision.sizes import typical_side
from dicecam.vision.view import ViewCheck
from dicecam.vision.whole_die import EitherCheck, WholeDieCheck

#: The shipped networks: package data of `dicecam.models` (the repository's `models/`).
DEFAULT_MODELS = Path(str(resources.files("dicecam.models")))
DETECTOR_FILE = "detector.onnx"
READER_FILE = "reader.onnx"
#: Optional: a models folder without it (an older pair) reads without the check.
WHOLE_DIE_FILE = "whole_die.onnx"
#: Optional: the count's search network (stride 8); without it the detector searches too.
SEARCH_FILE = "search.onnx"
#: Optional: the free look's search network (`free_look_search`, C447); without it the count's searches.
FREE_SEARCH_FILE = "free_search.onnx"
#: Optional: the top look's reader (R323), taught the upper part of a box stretched square,
#: where a die seen from low down shows its top face; without it the top look reads with the reader.
TOP_READER_FILE = "top_reader.onnx"
#: Optional: the top look's view check (V328); without it, where `top_look_view` is set, no die moves.
VIEW_FILE = "view.onnx"
#: Optional: the decoy reader (O341), the reader taught game-table decoys as "not a die";
#: without it, where `decoy_asks` is set, no die is asked for it.
DECOY_READER_FILE = "decoy_reader.onnx"
#: Optional: the domino check (C355), the whole-die check's kind of network taught domino
#: halves; without it, where `domino_asks` is set, no die is asked for it.
DOMINO_CHECK_FILE = "domino_check.onnx"
#: Optional: the chip check (C435), the domino check's network taught poker chips; with it, the
#: domino check's word on a box is the larger of the two (`whole_die.EitherCheck`).
CHIP_CHECK_FILE = "chip_check.onnx"
#: Optional: the side check (C397), the domino check's kind of network taught a die's side
#: faces; without it, where `side_asks` is set, no die is asked for it.
SIDE_CHECK_FILE = "side_check.onnx"
#: A closer look is sized again by the kept dice where they are under this share of the
#: boxes the first closer look was sized by (`zoom_by_dice`).
CLOSER_BY_DICE = 0.75
#: A box that look adds whose top edge lies within this share of its height of a kept die's
#: bottom edge, under it, is that die's front face, not a die of its own.
FRONT_FACE_REACH = 0.3


def _searcher(path: Path, threads: int, settings: ReaderSettings) -> DieDetector | None:
    """The search network at `path` with its twin beside it where there is one; None without the file."""
    if not path.is_file():
        return None
    twin = twin_path(path)
    twice = session(twin, threads) if twin.is_file() else None
    if twice is not None and text_metadata(twice, "folded_from") != file_digest(path):
        # A twin left beside a network trained since would read with the old one's weights.
        warnings.warn(f"{twin.name} was not folded from this {path.name}: searching without it", stacklevel=3)
        twice = None
    return DieDetector(session(path, threads), settings, twice=twice)


def throw_count(count: object) -> int:
    """`count` as a number of dice; `ValueError` for a negative one or anything but a whole
    number (1.5 or True is a caller's slip, not a throw: refused before any reading)."""
    if isinstance(count, bool) or not isinstance(count, (int, np.integer)):
        raise ValueError(f"a throw's count of dice is a whole number, not {count!r}")
    if count < 0:
        raise ValueError(f"a throw cannot show {count} dice")
    return int(count)


class DiceReader:
    """Reads every die in a photo. Load once, call `read` for each photo (thread-safe)."""

    def __init__(self, models_dir: str | os.PathLike | None = None, *, threads: int | None = None,
                 settings: ReaderSettings | None = None, **changes: object) -> None:
        """Load both networks from `models_dir` (default: DICECAM_MODELS, else the shipped ones).

        `settings` (default `ReaderSettings()`) with any `changes` by name, e.g.
        `DiceReader(turn_below=0.0)`; an unknown name is a `ValueError`.
        """
        folder = Path(models_dir) if models_dir is not None else Path(os.environ.get("DICECAM_MODELS", DEFAULT_MODELS))
        threads = threads or min(4, os.cpu_count() or 1)
        self.settings = (settings or ReaderSettings()).but(**changes)
        searcher, free_searcher = (_searcher(folder / name, threads, self.settings) if self.settings.search_network
                                   else None for name in (SEARCH_FILE, FREE_SEARCH_FILE))
        self.detector = DieDetector(session(folder / DETECTOR_FILE, threads), self.settings, searcher=searcher,
                                    free_searcher=free_searcher)
        self.face = FaceReader(session(folder / READER_FILE, threads), self.settings)
        check = folder / WHOLE_DIE_FILE
        self.whole_die = WholeDieCheck(session(check, threads)) if check.is_file() else None
        top, view = folder / TOP_READER_FILE, folder / VIEW_FILE
        self.top_face = FaceReader(session(top, threads), self.settings) if top.is_file() else self.face
        self.view = ViewCheck(session(view, threads)) if view.is_file() else None
        decoys = folder / DECOY_READER_FILE
        self.decoy_reader = FaceReader(session(decoys, threads), self.settings) if decoys.is_file() else None
        dominoes = folder / DOMINO_CHECK_FILE
        self.domino_check: WholeDieCheck | EitherCheck | None = \
            WholeDieCheck(session(dominoes, threads)) if dominoes.is_file() else None
        chips = folder / CHIP_CHECK_FILE
        if self.domino_check is not None and self.settings.chip_check and chips.is_file():
            # A poker chip is a flat piece as a domino's half is: the two checks answer as one.
            self.domino_check = EitherCheck(self.domino_check, WholeDieCheck(session(chips, threads)))
        sides = folder / SIDE_CHECK_FILE
        self.side_check = WholeDieCheck(session(sides, threads)) if sides.is_file() else None
        self.confidence_fit = load_confidence_fit(folder) if self.settings.capped else None

    def uncounted_reader(self) -> DiceReader:
        """The reader of photos without a count: this one with the settings' `uncounted` lines
        for its detector, rules and face reader (the second opinions keep theirs), its networks
        shared; itself where those lines are its own."""
        settings = self.settings.uncounted()
        if settings == self.settings:
            return self
        other = copy.copy(self)
        other.settings, other.detector, other.face = settings, self.detector.but(settings), self.face.but(settings)
        return other

    @property
    def min_score(self) -> float:
        """The detector's peak threshold in use (the file's own unless set)."""
        return self.detector.min_score

    @property
    def low_confidence(self) -> float:
        """Dice under this confidence are shown to players as unsure."""
        return self.settings.low_confidence

    def read(self, image: np.ndarray, *, count: int | None = None, search: bool = True) -> Dice:
        """All dice in a BGR photo, in reading order, boxes in the photo's pixels.

        With `count` (the photo shows that many dice, as a throw at the table does), the
        `count` likeliest dice: where the reader's own rules keep more, the likeliest of
        them (and the weakest kept one is marked unsure where the next one was nearly as
        likely); where they keep fewer, the whole photo is looked at once more, closer
        (`search`, unless `search_missing` is off or `search` is false, as for a live
        camera's frames), and then the best other boxes are added, marked unsure, so the
        player is asked about them. Without a count, a throw's photo gets one more look
        (`uncounted`) whose dice are marked unsure.
        """
        if count is None:
            dice = self.select(self.uncounted(image))
        else:
            dice = self.select_counted(self.counted(image, count, search=search), count, image=image).dice
        dice = self._decoys_asked(image, self._top_looked(image, dice))
        return self._sides_asked(image, self._dominoes_asked(image, dice, drop=count is None), drop=count is None)

    def uncounted(self, image: np.ndarray) -> Candidates:
        """The judged candidates `read(image)` reports without a count: `candidates`, and
        where the rules keep a throw's 1-6 dice in a photo of at most `free_look_side` pixels,
        what one more look at the photo's own size finds beside them, its dice `asked` (the
        first look shrinks such a photo, and a throw's second die is often small enough for it
        to miss; without a count nothing else would tell it is there). Read with the
        settings' `uncounted` lines (`uncounted_reader`)."""
        free = self.uncounted_reader()
        if free is not self:
            return free.uncounted(image)
        side = self.settings.free_look_side
        if side is None:
            return self.candidates(image)
        image = _as_bgr(image)
        photo, readings = Halvings(image), CropReadings()
        found = self._candidates(image, photo, readings)
        dice = found.boxes[filled(found.kept, "kept")] if len(found) else np.zeros((0, 4), np.float32)
        if not 1 <= len(dice) <= THROW_AT_MOST:
            return found
        more = self.detector.look_at_own_size(photo, found, side, budget=self.settings.free_look_budget, dice=dice)
        if not len(more):
            return found
        # The new boxes are judged beside the first look's (the typical die is the photo's),
        # but the first look's dice stay as it judged them: a look that only adds can make
        # no die it kept less or more sure (C297 moved one over the line, models/HISTORY.md).
        seen = self._with(image, found, more, photo, readings)
        new = seen.take(np.arange(len(found), len(seen)))
        new = replace(new, kept=filled(new.kept, "kept") & ~under(new.boxes, dice, FRONT_FACE_REACH))
        both = found.concat(new)
        return replace(both, asked=np.arange(len(both)) >= len(found))

    def read_counted(self, image: np.ndarray, count: int, *, search: bool = True) -> CountedDice:
        """`read(image, count=count)` and, beside it, the dice the rules kept that the count
        left out: a photo with more dice in it than the throw (dice set aside, another
        player's) is one where the count may have taken the wrong ones, so players are shown them."""
        counted = self.select_counted(self.counted(image, count, search=search), count, image=image)
        dice = self._decoys_asked(image, self._top_looked(image, counted.dice))
        return replace(counted, dice=self._sides_asked(image, self._dominoes_asked(image, dice)))

    def counted(self, image: np.ndarray, count: int, *, search: bool = True) -> Candidates:
        """The judged candidates of a BGR photo that `read(image, count=count)` chooses
        from: searched where the rules keep fewer than `count` (see `read`), and the
        likeliest of the others looked at by the whole-die check (`look_at_likeliest`)."""
        count = throw_count(count)
        image = _as_bgr(image)
        # One photo's halvings and readings for both looks: the search reads the first
        # look's boxes again with its own, and those crops need no second run of the network.
        photo, readings = Halvings(image), CropReadings()
        searching = search and self.settings.search_missing
        found = self._candidates(image, photo, readings, count=count if searching and count <= THROW_AT_MOST else None)
        found, aside = self._pieces_aside(image, found, photo, count, readings)
        apart = aside if self.settings.pieces_stay_aside else None
        missing = count > self._dice_apart(found, count)
        if searching:
            if missing and self.settings.count_look_by_dice:
                found = self._closer_by_dice(image, found, photo, readings, short=True, aside=apart)
                missing = count > self._dice_apart(found, count)
            if missing:
                found = self._search(image, found, photo, readings, aside=apart)
        elif self.settings.frame_look_max_side and missing:  # a live frame's cheaper second look
            more = self.detector.look_closer(photo, found, self.settings.frame_look_max_side)
            found = self._with(image, found, more, photo, readings)
        if aside is not None:
            found = found.concat(aside) if len(found) else aside
        if self.settings.check_count_fill:
            found = self.look_at_likeliest(image, found, count)
        return found

    def _pieces_aside(self, image: np.ndarray, found: Candidates, photo: Halvings, count: int,
                      readings: CropReadings | None) -> tuple[Candidates, Candidates | None]:
        """Judged `found` without the kept boxes the domino check gives `pieces_aside` or more,
        judged again without them, and those boxes, kept by no rule (None where none is set
        aside): in a throw's count the first look met (C433)."""
        line = self.settings.pieces_aside
        kept = np.flatnonzero(filled(found.kept, "kept")) if len(found) else np.zeros(0, np.int64)
        if line is None or self.domino_check is None or count > THROW_AT_MOST or len(kept) < count:
            return found, None
        pieces = kept[self.domino_check.probability(image, found.boxes[kept]) >= line]
        if not len(pieces):
            return found, None
        rest = found.take(np.setdiff1d(np.arange(len(found)), pieces))
        seen = replace(Candidates.found(rest.boxes, rest.scores, die_boxes=rest.die_boxes), lone=rest.lone)
        aside = found.take(pieces)
        aside = replace(aside, kept=np.zeros(len(aside), bool))
        return self._judged(image, photo, seen, readings), aside

    def _apart_share(self, count: int) -> float | None:
        """The overlap (`ask_overlapping`) past which two boxes of a throw of `count` dice
        are one die, where `count_apart` is on and `count` a throw's; else None."""
        if not self.settings.count_apart or count > THROW_AT_MOST:
            return None
        return self.settings.ask_overlapping

    def _dice_apart(self, found: Candidates, count: int) -> int:
        """How many dice the boxes judged `found` keeps make towards `count`: each of them,
        or with `_apart_share`, those apart from a likelier kept box."""
        kept = np.flatnonzero(filled(found.kept, "kept"))
        share = self._apart_share(count)
        if share is None or len(kept) < 2:
            return len(kept)
        order = kept[np.argsort(-self.likelihood(found)[kept], kind="stable")]
        return len(kept) - int(passed_over(found.boxes, order, share).sum())

    def look_at_likeliest(self, image: np.ndarray, found: Candidates, count: int) -> Candidates:
        """`found` (judged candidates of `image`) with the whole-die check's word on the
        likeliest boxes the rules drop, 2m+2 of them where `count` is m more than they
        keep: those are what fills the count, and a box the check never saw would rank
        as if it had called it a die. Where, with the check's word, a box it never saw is
        still among the m likeliest, it looks again, `count_fill_rounds` times at most."""
        kept = filled(found.kept, "kept")
        missing = count - self._dice_apart(found, count)
        if self.whole_die is None or found.whole is None or missing <= 0:
            return found
        image = _as_bgr(image)
        dropped = np.flatnonzero(~kept)
        whole = found.whole.copy()
        for again in range(self.settings.count_fill_rounds):
            unseen = dropped[np.isnan(whole[dropped])]
            if not len(unseen):
                break
            rank = self.likelihood(replace(found, whole=whole))
            fills = dropped[np.argsort(-rank[dropped], kind="stable")[:missing]]
            if again and not np.isnan(whole[fills]).any():
                break  # the check has looked at everything that fills the count (C332)
            look = unseen[np.argsort(-rank[unseen], kind="stable")[: 2 * missing + 2]]
            whole[look] = self.whole_die.probability(image, found.boxes[look])
        return replace(found, whole=whole)

    def search(self, image: np.ndarray, found: Candidates) -> Candidates:
        """`found` (judged candidates of `image`) with what a closer look over the whole photo
        finds beside them (`DieDetector.search`), all read and judged again together: the
        typical die, and each box's size against it, are the whole throw's."""
        image = _as_bgr(image)
        return self._search(image, found, Halvings(image))

    def _search(self, image: np.ndarray, found: Candidates, photo: Halvings,
                readings: CropReadings | None = None, *, aside: Candidates | None = None) -> Candidates:
        """`search` with the photo's halvings and, where given, its crops' `readings` so far;
        nothing is found again where pieces lie `aside`."""
        return self._with(image, found, self.detector.search(photo, _past(found, aside)), photo, readings)

    def _with(self, image: np.ndarray, found: Candidates, more: Candidates, photo: Halvings,
              readings: CropReadings | None = None) -> Candidates:
        """Judged `found` and the boxes `more` a second look found beside them, all read and
        judged again together: the typical die, and each box's size against it, are the whole throw's."""
        if not len(more):
            return found
        lone = np.concatenate([filled(found.lone, "lone"), np.zeros(len(more), bool)])
        wholes = None if found.die_boxes is None or more.die_boxes is None else \
            np.concatenate([found.die_boxes, more.die_boxes])
        seen = replace(Candidates.found(np.concatenate([found.boxes, more.boxes]),
                                        np.concatenate([found.scores, more.scores]), die_boxes=wholes), lone=lone)
        return self._judged(image, photo, seen, readings)

    def confidence(self, found: Candidates) -> np.ndarray:
        """How sure each reading of judged `found` is, as the reader reports it (its fit and
        settings applied): what players see as sure or unsure."""
        return found.confidence(self.confidence_fit, whole_lifts_peak=self.settings.whole_lifts_peak)

    def likelihood(self, found: Candidates) -> np.ndarray:
        """How likely each box of judged `found` is a die of the throw, read right: what a
        known count ranks by."""
        return found.likelihood(self.confidence_fit, whole_lifts_peak=self.settings.whole_lifts_peak)

    def select(self, found: Candidates, *, count: int | None = None, image: np.ndarray | None = None) -> Dice:
        """The dice of judged `found` (see `read`): the kept ones, or the `count` likeliest
        (`select_counted`, with `image` as there)."""
        if count is None:
            kept = found.dice(self.confidence_fit, whole_lifts_peak=self.settings.whole_lifts_peak)
            return printed_asked(self._overlaps_asked(kept), settings=self.settings)
        return self.select_counted(found, count, image=image).dice

    def select_counted(self, found: Candidates, count: int, *, image: np.ndarray | None = None) -> CountedDice:
        """The `count` likeliest dice of judged `found` and the kept ones the count left out.
        With the photo they were found in (`image`), where the rules keep more boxes than
        `count`, the kept boxes a check doubts rank after the others (`_doubted`), as `read` ranks them."""
        count = throw_count(count)
        printed = printed_kept(found, self.settings)
        last = None if image is None else self._doubted(image, found, count, printed)
        counted = self._counted(found, count, last=last)
        if image is not None:
            counted = replace(counted, left_out=halves_dropped(_as_bgr(image), counted.left_out,
                                                               domino_check=self.domino_check, settings=self.settings))
        dice = printed_asked(self._overlaps_asked(counted.dice), settings=self.settings, printed=found.boxes[printed])
        return replace(counted, dice=dice)

    def _doubted(self, image: np.ndarray, found: Candidates, count: int,
                 printed: np.ndarray | None = None) -> np.ndarray | None:
        """The boxes of judged `found` a known `count` ranks last (`second_opinions.doubted`);
        `printed`: those in printed rows, where already found."""
        return doubted(_as_bgr(image), found, count, domino_check=self.domino_check,
                       decoy_reader=self.decoy_reader, settings=self.settings, side_check=self.side_check,
                       printed=printed)

    def _overlaps_asked(self, dice: Dice) -> Dice:
        """`dice` with two boxes on one die asked (`second_opinions.overlaps_asked`)."""
        return overlaps_asked(dice, share=self.settings.ask_overlapping)

    def _top_looked(self, image: np.ndarray, dice: Dice) -> Dice:
        """`dice` with unsure dice seen from low down read from their top (`second_opinions.top_looked`)."""
        return top_looked(_as_bgr(image), dice, top=self.top_face, view=self.view, settings=self.settings)

    def _decoys_asked(self, image: np.ndarray, dice: Dice) -> Dice:
        """`dice` with the decoy reader's "not a die" asked (`second_opinions.decoys_asked`)."""
        return decoys_asked(_as_bgr(image), dice, decoy_reader=self.decoy_reader, settings=self.settings)

    def _dominoes_asked(self, image: np.ndarray, dice: Dice, *, drop: bool = False) -> Dice:
        """`dice` with halves of dominoes asked, and with `drop` left out (`second_opinions.dominoes_asked`)."""
        return dominoes_asked(_as_bgr(image), dice, domino_check=self.domino_check, settings=self.settings,
                              drop=drop)

    def _sides_asked(self, image: np.ndarray, dice: Dice, *, drop: bool = False) -> Dice:
        """`dice` with side faces asked, and with `drop` left out (`second_opinions.sides_asked`)."""
        return sides_asked(_as_bgr(image), dice, side_check=self.side_check, settings=self.settings, drop=drop)

    def candidates(self, image: np.ndarray) -> Candidates:
        """Every box the detector found in a BGR photo, read, and `kept` where the reader's rules make it a die."""
        image = _as_bgr(image)
        return self._candidates(image, Halvings(image))

    def _candidates(self, image: np.ndarray, photo: Halvings, readings: CropReadings | None = None, *,
                    count: int | None = None) -> Candidates:
        """`candidates` of a BGR `image` whose halvings are `photo` (its crops' `readings` added
        to); `count`: a throw's count, told, where a search may follow (`DieDetector.find`)."""
        if min(image.shape[:2]) < 8:
            return Candidates.empty()
        found = self._judged(image, photo, self.detector.find(photo, count=count), readings)
        if self.settings.zoom_by_dice and len(found):
            found = self._closer_by_dice(image, found, photo, readings)
        return found

    def _closer_by_dice(self, image: np.ndarray, found: Candidates, photo: Halvings,
                        readings: CropReadings | None = None, *, short: bool = False,
                        aside: Candidates | None = None) -> Candidates:
        """Judged `found` and what a closer look sized by the dice it keeps finds beside them,
        where the first look's closer look was sized by decoys: tokens beside a throw are
        boxed before the rules drop them, and a throw's 12 px dice beside 30 px tokens were
        never enlarged enough to be seen. `short`: the throw's count is not met, and the
        look is made where the first one was sized by these dice too (`count_look_by_dice`).
        Nothing is found again where pieces lie `aside`."""
        kept = filled(found.kept, "kept")
        strong = found.scores >= self.detector.min_score
        if not kept.any() or not strong.any():
            # No die to size a look by: an empty photo's look finds specks and the edges of
            # dice in decoys' places, for 25 ms at 640 px (S275, models/HISTORY.md).
            return found
        dice = found.boxes[kept]
        beside_decoys = typical_side(dice) < CLOSER_BY_DICE * typical_side(
            found.boxes[strong], found.scores[strong] >= 0.5)
        # Without a count, only dice beside bigger decoys get the look; short of a count, any
        # dice do, unless they had it with the first look already.
        if not (short or beside_decoys) or (short and beside_decoys and self.settings.zoom_by_dice):
            return found
        return self._with(image, found, self.detector.look_closer_around(photo, dice, _past(found, aside)),
                          photo, readings)

    def _judged(self, image: np.ndarray, photo: Halvings, seen: Candidates,
                readings: CropReadings | None = None) -> Candidates:
        """`seen` (boxes of `image`, whose halvings are `photo`) read and judged, and the
        kept ones looked at whole where the models folder has the check (`readings`: the
        crops of this photo read so far, added to)."""
        judged = self.judge(self.face.read(photo, seen, readings=readings))
        if self.whole_die is None or not len(judged):
            return judged
        rescue = self.settings.rescue_not_a_die
        # Boxes dropped only as "not a die", or as weak peaks read fairly plainly, get a look
        # too: the check may see a die there.
        relaxed: dict[str, Any] = {}
        if rescue is not None:
            relaxed["max_not_a_die"] = rescue
        if self.settings.weak_rescue is not None:
            relaxed["weak_sure"] = self.settings.weak_rescue
        also = filled(self.judge(judged, **relaxed).kept, "kept") if relaxed else None
        return self.judge(self.whole_die.look(image, judged, also=also))

    def detect(self, image: np.ndarray) -> Candidates:
        """The detector's boxes and peaks alone, not read (for mining and tests)."""
        return self.detector.find(Halvings(_as_bgr(image)))

    def read_crop(self, image: np.ndarray) -> Die:
        """Read a photo that shows exactly one die filling the frame (e.g. a dataset crop)."""
        return self.face.read_crop(_as_bgr(image))

    def judge(self, seen: Candidates, **changes: Any) -> Candidates:
        """Read candidates with `kept` set by these settings' rules (with `changes`) for which
        boxes are dice (`vision.rules.judge`, with the detector's peak threshold).

        The rules need no network: settings can be compared on candidates read once.
        """
        settings = self.settings.but(**changes) if changes else self.settings
        return judge(seen, settings, min_score=self.detector.min_score)

    def _counted(self, found: Candidates, count: int, *, last: np.ndarray | None = None) -> CountedDice:
        """The `count` likeliest dice of `found` (see `read`), and the kept ones left out;
        kept boxes marked in `last` rank after the other kept ones."""
        if not len(found):
            return CountedDice(Dice.empty())
        conf = self.confidence(found)
        rank = self.likelihood(found)
        judged = filled(found.kept, "kept")
        kept = np.flatnonzero(judged)
        others = np.flatnonzero(~judged)
        kept = kept[np.argsort(-rank[kept], kind="stable")]
        if last is not None:
            kept = np.concatenate([kept[~last[kept]], kept[last[kept]]])
        others = others[np.argsort(-rank[others], kind="stable")]
        passed = np.zeros(len(found), bool)
        share = self._apart_share(count)
        if share is not None:
            # A throw's dice lie apart: a box on a die already taken (its side face, a second
            # box on it) fills the count only where nothing else is left to (C333).
            passed = passed_over(found.boxes, np.concatenate([kept, others]), share)
            others = np.concatenate([others[~passed[others]], kept[passed[kept]], others[passed[others]]])
            kept = kept[~passed[kept]]
        spare = kept[count:]
        if len(kept) >= count:
            chosen = kept[:count]
            if len(chosen) and len(spare) and rank[spare[0]] >= 0.5 * rank[chosen[-1]]:
                # The die left out was nearly as likely as the weakest one taken: ask about it.
                conf[chosen[-1]] = min(conf[chosen[-1]], ASKED_AT_MOST)
        else:
            added = others[: count - len(kept)]
            # Added to reach the count: the page asks the player about it.
            conf[added] = np.minimum(conf[added], ASKED_AT_MOST)
            chosen = np.concatenate([kept, added])
        left_over = np.flatnonzero(passed & ~np.isin(np.arange(len(found)), chosen))
        if share is not None and len(left_over):
            # A box taken where another on the same die was passed over is still asked: which
            # of the two shows the top face is not known (C307).
            near = overlaps(found.boxes[chosen], found.boxes[left_over], share).any(axis=1)
            conf[chosen[near]] = np.minimum(conf[chosen[near]], ASKED_AT_MOST)
        picked, left = found.take(chosen), found.take(spare)
        return CountedDice(Dice(picked.boxes, filled(picked.values, "values"), conf[chosen]).sorted(),
                           Dice(left.boxes, filled(left.values, "values"), conf[spare]).sorted())


def _past(found: Candidates, aside: Candidates | None) -> Candidates:
    """What a second look finds its boxes apart from: `found`, and the pieces a count set `aside`
    (C438: else the search boxes set-aside chips again, they are judged dice and set the typical die)."""
    if aside is None or not len(aside):
        return found
    return Candidates.found(np.concatenate([found.boxes, aside.boxes]), np.concatenate([found.scores, aside.scores]))


def _as_bgr(image: np.ndarray) -> np.ndarray:
    if image.ndim == 2:
        return cv2.cvtColor(image, cv2.COLOR_GRAY2BGR)
    if image.shape[2] == 4:
        return cv2.cvtColor(image, cv2.COLOR_BGRA2BGR)
    return image
