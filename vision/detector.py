"""The die detector: where the top faces are (a CenterNet-style network run by onnxruntime)."""

from __future__ import annotations

import copy
from dataclasses import dataclass, field, replace

import cv2
import numpy as np
import onnxruntime as ort

from dicecam.vision.boxes import centres, whole_die_of
from dicecam.vision.candidates import Candidates
from dicecam.vision.halvings import Halvings
from dicecam.vision.onnx import metadata
from dicecam.vision.peaks import apart_from, centre_peaks, drop_nested, suppress_duplicates
from dicecam.vision.settings import ReaderSettings
from dicecam.vision.sizes import typical_side


class DieDetector:
    """Finds the top faces of dice in a photo; its input contract travels in the ONNX file."""

    def __init__(self, session: ort.InferenceSession, settings: ReaderSettings, *,
                 searcher: DieDetector | None = None, free_searcher: DieDetector | None = None,
                 twice: ort.InferenceSession | None = None) -> None:
        """`searcher`: the network that makes the count's search (`search`), else this one;
        `free_searcher`: the one that makes `free_look_search`'s pass, else `searcher`.
        `twice`: this network with a 2x bilinear enlargement folded into its first layer
        (`training.learn.fold`): a pass that enlarges the photo 2x or more gives it the photo
        at half that scale, the same maps without making and converting four times the pixels."""
        self.session = session
        self.searcher = searcher
        self.free_searcher = free_searcher
        self.twice = twice
        self.input_side = int(metadata(session, "input_side", 512))
        self.stride = int(metadata(session, "stride", 4))
        if twice is not None and (metadata(twice, "enlarges", 1), metadata(twice, "stride", 0) * 2) != (2, self.stride):
            raise ValueError("a network's twice-enlarging twin must enlarge 2x at half its stride")
        # Each trained detector's heat map is calibrated its own way, so its threshold travels with it.
        self._stored_min_score = metadata(session, "min_score", 0.3)
        self._use(settings)
        #: Whether the network also boxes whole dice (top and side faces: 8 output channels).
        self.boxes_whole_dice = session.get_outputs()[0].shape[1] == 8
        #: Whether it knows, at every cell, the edges of the whole die there (9 output channels).
        self.knows_die_sides = session.get_outputs()[0].shape[1] == 9

    def _use(self, settings: ReaderSettings) -> None:
        self.settings = settings
        self.min_score = settings.min_score if settings.min_score is not None else self._stored_min_score
        self.weak_score = self.min_score if settings.weak_score is None else min(settings.weak_score, self.min_score)

    def but(self, settings: ReaderSettings) -> DieDetector:
        """This detector, its network and searcher shared, with other `settings`."""
        other = copy.copy(self)
        other._use(settings)
        return other

    def find(self, photo: Halvings, *, count: int | None = None) -> Candidates:
        """Top-face boxes in the photo's pixels with their peaks (`lone` where they came only
        from a closer look at a photo where the first look found nothing), and the whole
        die each lies on where the detector boxes whole dice (`die_boxes`).

        Two passes: the full detector size finds small dice, half of it sees big close-up
        dice whole (where a single pip could pass for a small die showing 1). The half-size
        pass adds only big dice: there, two small touching dice could blur into one.
        Dice that come out small in both get a closer look (`_zoom_pass`); where the first
        pass already found them small, the half-size pass is skipped: it only adds dice four
        times the size of those, and the closer look is where such a photo's time goes.
        Weak peaks (from `weak_score` up to `min_score`) are added last, where no stronger box is.
        `count`: a throw's count, told. Where the first pass boxes fewer than that, the count's
        search (`search`) is all but sure to pass over the whole photo, enlarged, anyway: with
        `count_zoom_by_search` that pass is the closer look too, made once (C414).
        """
        image = photo.photo
        scale = self.input_side / max(image.shape[:2])
        source, own = photo.for_scale(scale, keep=2.0)
        small = shrink(source, scale / own)
        passes = [self._detect_at(small, scale, image.shape, min_score=self.weak_score)]
        photo.looked += _pixels(small)
        if not self._found_small(passes[0], scale):
            half = cv2.resize(small, (max(1, small.shape[1] // 2), max(1, small.shape[0] // 2)),
                              interpolation=cv2.INTER_AREA)
            passes.append(self._detect_at(half, scale * half.shape[1] / small.shape[1], image.shape,
                                          min_size=20.0, min_score=self.weak_score))
            photo.looked += _pixels(half)
        boxes = np.concatenate([p.boxes for p in passes])
        scores = np.concatenate([p.scores for p in passes])
        strong = scores >= self.min_score
        weak = _merge(boxes[~strong], scores[~strong])
        boxes, scores = _merge(boxes[strong], scores[strong])
        lone = not len(boxes)
        by_search = count is not None and self.settings.count_zoom_by_search and len(boxes) < count
        zoomed = self._zoom_pass(photo, boxes, scores, scale, by_search=by_search)
        if zoomed is not None:
            # The closer look wins where both passes saw a die: its boxes fit small dice better.
            boxes, scores = _merge(np.concatenate([boxes, zoomed.boxes]), np.concatenate([scores, zoomed.scores]),
                                   priority=np.r_[np.zeros(len(boxes)), np.ones(len(zoomed.boxes))])
            passes.append(zoomed)
        # Weak peaks come last and only apart from every strong box, which stay as they were.
        apart = self._few_faint(weak[1], apart_from(weak[0], boxes))
        boxes = np.concatenate([boxes, weak[0][apart]])
        return Candidates.found(boxes, np.concatenate([scores, weak[1][apart]]), lone=lone and zoomed is not None,
                                die_boxes=self._whole_dice(boxes, passes))

    def _found_small(self, first: _Look, scale: float) -> bool:
        """Whether the first pass found dice (strong boxes) whose typical side is under
        `zoom_below` detector pixels: the dice a closer look is for."""
        strong = first.scores >= self.min_score
        if self.settings.zoom_below <= 0 or not strong.any():
            return False
        boxes, scores = _merge(first.boxes[strong], first.scores[strong])
        return typical_side(boxes, scores >= 0.5) * scale < self.settings.zoom_below

    def _whole_dice(self, boxes: np.ndarray, passes: list[_Look]) -> np.ndarray | None:
        """The whole die each box lies on (NaN rows where none): from the first pass's die
        edges at each box's centre where the detector knows them (and `max_face_drop` is
        set), else from the passes' whole-die peaks (`_peak_dice`)."""
        if self.knows_die_sides and self.settings.max_face_drop is not None:
            return passes[0].die_at(boxes, self.stride)
        return self._peak_dice(boxes, passes)

    def search(self, photo: Halvings, found: Candidates) -> Candidates:
        """Boxes that a second look over the whole photo, at `search_scale` times the first
        look's scale (at most `search_max_side` wide), finds apart from `found`, weak peaks
        (from `search_weak_score`) included: for a throw whose count is known and some dice
        missing, a small die on a busy print is often a weak peak only at that size."""
        return self._beside(self._search_look(photo), found)

    def _search_scale(self, photo: Halvings) -> float:
        """The scale of `search`'s pass over the whole photo."""
        s = self.settings
        side = max(photo.photo.shape[:2])
        return min(s.search_scale * self.input_side / side, s.search_max_side / side)

    def _search_look(self, photo: Halvings, net: DieDetector | None = None, *, weak: float | None = None) -> _Look:
        """`search`'s pass over the whole photo, weak peaks included: made once per photo,
        as the closer look may have made it already (`count_zoom_by_search`). `net`: the
        network that makes it (default: the searcher, else this detector); `weak`: its weak
        peaks' line (default: `search_weak_score`, else the network's)."""
        # The search network (stride 8, its own peaks' calibration) looks where it is given.
        net = net or self.searcher or self
        s = self.settings
        if weak is None:
            weak = net.weak_score if s.search_weak_score is None else s.search_weak_score
        if (net, weak) not in photo.search_looks:
            h, w = photo.photo.shape[:2]
            photo.search_looks[net, weak] = net._closer(photo, (0, 0, w, h), self._search_scale(photo), min_score=weak)
        look = photo.search_looks[net, weak]
        assert isinstance(look, _Look)
        return look

    def look_closer(self, photo: Halvings, found: Candidates, max_side: int) -> Candidates:
        """Boxes a closer look over the whole photo finds apart from `found`: enlarged so the
        typical die found is `zoom_target` detector pixels (twice the first look where none
        is), at most `max_side` pixels a side; empty where that is no closer than the first look."""
        h, w = photo.photo.shape[:2]
        scale = self.input_side / max(h, w)
        strong = found.scores >= self.min_score
        typical = typical_side(found.boxes[strong], found.scores[strong] >= 0.5) * scale if strong.any() else None
        zscale = self._zoom_scale(typical, scale, max(h, w), max_side)
        if zscale is None:
            return Candidates.empty()
        return self._beside(self._closer(photo, (0, 0, w, h), zscale), found)

    def look_at_own_size(self, photo: Halvings, found: Candidates, max_side: int, *,
                         budget: float | None = None, dice: np.ndarray | None = None) -> Candidates:
        """Boxes one pass over the whole photo at its own size finds apart from `found`, weak
        peaks included; empty where its long side is over `max_side` pixels (too costly), no
        more than the detector's input side (the first look saw it at that size already), or
        where the passes so far and this one would look at more than `budget` first looks'
        pixels (a photo whose first look already looked closer has spent its time). With
        `free_look_search` and a search network, where the kept `dice` came out under
        `zoom_below` detector pixels, the pass is the search network's at the search's scale,
        and with `free_search_larger` a photo over `max_side` pixels gets that pass too. Of the
        boxes, the `free_look_at_most` strongest."""
        h, w = photo.photo.shape[:2]
        s = self.settings
        net = self.free_searcher or self.searcher
        # A Catan pair's second die is as small as its first, too small for the detector
        # at the photo's own size; the search network at its scale finds it (C440).
        tiny = (s.free_look_search and net is not None and dice is not None and len(dice) > 0
                and typical_side(dice) * self.input_side / max(h, w) < s.zoom_below)
        # A look costs as much as one at `max_side` would: a larger photo is judged as its
        # `max_side` px copy, whose passes so far looked at as many pixels as its own did.
        own = h * w * min(1.0, max_side / max(h, w)) ** 2
        if budget is not None and photo.looked + own > budget * self.input_side ** 2:
            return Candidates.empty()
        if max(h, w) > max_side:
            # A phone's photo: its own size costs too much, but the search's pass is one look of
            # at most `search_max_side` pixels whatever the photo's size (C449).
            if tiny and s.free_search_larger:
                look = self._search_look(photo, net, weak=s.free_search_weak_score)
                return self._strongest(self._beside(look, found))
            return Candidates.empty()
        if max(h, w) <= self.input_side:
            return Candidates.empty()
        if tiny:
            look = self._search_look(photo, net, weak=s.free_search_weak_score)
        else:
            look = self._closer(photo, (0, 0, w, h), 1.0, min_score=self.weak_score)
        return self._strongest(self._beside(look, found))

    def _strongest(self, more: Candidates) -> Candidates:
        """The `free_look_at_most` strongest of the free look's `more` boxes, in their order (None:
        all): a throw's missing dice are a few, a board's tokens dozens, and each box is read (C450)."""
        at_most = self.settings.free_look_at_most
        if at_most is None or len(more) <= at_most:
            return more
        return more.take(np.sort(np.argsort(-more.scores, kind="stable")[: int(at_most)]))

    def look_closer_around(self, photo: Halvings, dice: np.ndarray, found: Candidates) -> Candidates:
        """Boxes a closer look finds apart from `found`, sized and placed by `dice` (boxes
        judged dice: no box of them, the whole photo twice as close) as the first look's
        closer look is by its strong boxes; empty where `dice` need none."""
        h, w = photo.photo.shape[:2]
        look = self._zoom_pass(photo, dice, np.ones(len(dice), np.float32), self.input_side / max(h, w))
        return Candidates.empty() if look is None else self._beside(look, found)

    def _beside(self, look: _Look, found: Candidates) -> Candidates:
        """The boxes of a second `look` (merged) apart from `found`, with the whole dice they lie on."""
        boxes, scores = _merge(look.boxes, look.scores)
        apart = self._few_faint(scores, apart_from(boxes, found.boxes))
        return Candidates.found(boxes[apart], scores[apart], die_boxes=self._whole_dice(boxes[apart], [look]))

    def _few_faint(self, scores: np.ndarray, keep: np.ndarray) -> np.ndarray:
        """`keep` (booleans) with all but the `faint_at_most` strongest kept peaks under
        `faint_below` left out: a board's print has dozens of faint peaks."""
        if self.settings.faint_below is None:
            return keep
        faint = np.flatnonzero(keep & (scores < self.settings.faint_below))
        keep = keep.copy()
        keep[faint[np.argsort(-scores[faint], kind="stable")[self.settings.faint_at_most:]]] = False
        return keep

    def _peak_dice(self, boxes: np.ndarray, passes: list[_Look]) -> np.ndarray | None:
        """The whole die each box lies on (NaN rows where none), from the passes' whole-die
        peaks of `whole_die_peak` or more; None where the detector does not box whole dice
        or the setting is off."""
        if not self.boxes_whole_dice or self.settings.whole_die_peak is None:
            return None
        wholes = np.concatenate([p.wholes for p in passes])
        peaks = np.concatenate([p.whole_scores for p in passes])
        strong = peaks >= self.settings.whole_die_peak
        keep = suppress_duplicates(wholes[strong], peaks[strong])
        return whole_die_of(boxes, wholes[strong][keep])

    def _detect_at(self, small: np.ndarray, scale: float, shape: tuple[int, ...], *,
                   min_size: float = 0.0, min_score: float | None = None, twice: bool = False) -> _Look:
        """Boxes and scores from one pass over `small`, the photo (of `shape`) resized by `scale`
        (and the whole dice, where the detector boxes them); `twice`: by the `twice` twin.

        Boxes smaller than `min_size` pixels (as the detector saw them) or weaker than
        `min_score` (default: the detector's threshold) are left out.
        """
        h, w = shape[:2]
        sh, sw = small.shape[:2]
        # The network halves its input five times; the twin sees its input twice as large.
        multiple, stride = (16, self.stride // 2) if twice else (32, self.stride)
        ph, pw = -(-sh // multiple) * multiple, -(-sw // multiple) * multiple
        x = np.empty((1, 3, ph, pw), np.float32)
        x[0, :, sh:, :] = 0.0  # only the padding to a multiple of 32 needs zeros
        x[0, :, :sh, sw:] = 0.0
        # Channel by channel (a strided transpose of the whole photo costs 3x as much), each
        # converted, then scaled in place: numpy's mixed byte-by-float product is the slower
        # loop (0.7 ms more at 1,280 px, session 94), and the floats are the same.
        for channel, plane in enumerate(cv2.split(small)):
            out = x[0, channel, :sh, :sw]
            np.copyto(out, plane)
            out *= _BYTE
        net = self.twice if twice and self.twice is not None else self.session
        maps = net.run(None, {"image": x})[0][0]
        heat = 1.0 / (1.0 + np.exp(-maps[0]))
        ys, xs, scores = centre_peaks(heat, min_score=self.min_score if min_score is None else min_score)
        off = 1.0 / (1.0 + np.exp(-maps[3:5, ys, xs]))
        cx = (xs + off[0]) * stride
        cy = (ys + off[1]) * stride
        bw = np.exp(maps[1, ys, xs]) * stride
        bh = np.exp(maps[2, ys, xs]) * stride
        big = np.maximum(bw, bh) >= min_size
        boxes = _centred(cx, cy, bw, bh)[big] / scale
        bound = np.array([w, h, w, h], np.float32)
        look = _Look(np.clip(boxes, 0, bound).astype(np.float32), scores[big].astype(np.float32))
        if maps.shape[0] == 9 and self.settings.max_face_drop is not None:
            return replace(look, sides=maps[5:9], sides_scale=scale)
        if maps.shape[0] != 8 or self.settings.whole_die_peak is None:
            return look
        # Whole dice: a peak's cell centre and box size (no offset channel: pairing needs no finer place).
        ys, xs, peaks = centre_peaks(1.0 / (1.0 + np.exp(-maps[5])), min_score=self.settings.whole_die_peak)
        cx, cy = (xs + 0.5) * stride, (ys + 0.5) * stride
        bw, bh = np.exp(maps[6, ys, xs]) * stride, np.exp(maps[7, ys, xs]) * stride
        big = np.maximum(bw, bh) >= min_size
        wholes = _centred(cx, cy, bw, bh)[big] / scale
        return replace(look, wholes=np.clip(wholes, 0, bound).astype(np.float32),
                       whole_scores=peaks[big].astype(np.float32))

    def _zoom_pass(self, photo: Halvings, boxes: np.ndarray, scores: np.ndarray, scale: float, *,
                   by_search: bool = False) -> _Look | None:
        """A closer look when the dice came out small for the detector, else None.

        A phone held high over a big table shows each die at a few dozen pixels of a
        12-megapixel photo, under 20 once shrunk for the detector, where it starts to
        miss them. Such photos get a second pass over the part of the photo around the
        dice found (`zoom_margin` dice around them; the whole photo if none), enlarged so the typical die is about
        `zoom_target` detector pixels, the enlarged part at most `zoom_max_side` wide.
        `by_search` (a count's search to come): the search's own pass, its strong peaks,
        wherever it sees the photo at least that close.
        """
        s = self.settings
        typical = typical_side(boxes, scores >= 0.5) * scale
        if s.zoom_below <= 0 or (len(boxes) and typical >= s.zoom_below) or (not len(boxes) and not s.zoom_when_empty):
            return None
        h, w = photo.photo.shape[:2]
        if len(boxes):
            # Dice thrown together land within a few dice of each other.
            margin = s.zoom_margin * typical / scale
            x0, y0 = np.maximum(boxes[:, :2].min(axis=0) - margin, 0).astype(int)
            x1, y1 = np.minimum(boxes[:, 2:].max(axis=0) + margin, [w, h]).astype(int)
        else:
            x0, y0, x1, y1 = 0, 0, w, h
        zscale = self._zoom_scale(typical if len(boxes) else None, scale, max(y1 - y0, x1 - x0), s.zoom_max_side)
        if zscale is None:
            return None
        if by_search and self.searcher is not None and self._search_scale(photo) >= zscale:
            # A Catan pair's second die lies anywhere on the board, far from a window around
            # the first: the search will pass over the whole photo for it, so that one pass
            # serves both looks (C414: 11 of 12 such dev throws were searched anyway).
            look = self._search_look(photo)
            strong = look.scores >= self.searcher.min_score
            return replace(look, boxes=look.boxes[strong], scores=look.scores[strong])
        return self._closer(photo, (x0, y0, x1, y1), zscale)

    def _zoom_scale(self, typical: float | None, scale: float, side: int, max_side: float) -> float | None:
        """The scale a closer look enlarges to from the first look's `scale`: the typical die
        (detector pixels; None where none was found: twice the first look) to `zoom_target`,
        the `side` photo pixels looked at at most `max_side` wide; None where that is no
        closer than the first look."""
        zoom = self.settings.zoom_target / max(typical, 1.0) if typical is not None else 2.0
        zscale = min(scale * zoom, max_side / side)
        return zscale if zscale > scale * 1.2 else None

    def _closer(self, photo: Halvings, window: tuple[int, int, int, int], zscale: float, *,
                min_score: float | None = None) -> _Look:
        """Boxes (in the photo's pixels) and peaks of one pass over `window` (x0, y0, x1, y1
        of the photo) enlarged to `zscale`, from the smallest halving that holds that detail."""
        source, own = photo.for_scale(zscale)
        twice = self.twice is not None and zscale / own >= 2.0
        if self.twice is not None and not twice and self.settings.twin_from_halving:
            # A larger photo's halving holds the detail half `zscale` needs, and its shrink is a
            # bilinear one: the twin enlarges it 2x, as it does a 640 px photo (F96).
            half, half_own = photo.for_scale(zscale / 2)
            if half_own < own:
                source, own, twice = half, half_own, True
        x0, y0, x1, y1 = (round(v * own) for v in window)  # the window, in `source`'s pixels
        part = source[y0:y1, x0:x1]
        scale = zscale / own
        # The twin enlarges 2x itself (exactly as a float bilinear resize would, no bytes rounded).
        given = scale / 2 if twice else scale
        enlarged = part if given == 1.0 else shrink(part, given, averaged=own < 1)
        look = self._detect_at(enlarged, given, part.shape, min_score=min_score, twice=twice)
        photo.looked += _pixels(enlarged) * (4 if twice else 1)
        shift = np.array([x0, y0, x0, y0], np.float32)
        return replace(look, boxes=(look.boxes + shift) / own, wholes=(look.wholes + shift) / own,
                       sides_scale=zscale, sides_shift=(x0 * zscale / own, y0 * zscale / own))


def _pixels(image: np.ndarray) -> int:
    return image.shape[0] * image.shape[1]


@dataclass(frozen=True)
class _Look:
    """What one detector pass saw, in the photo's pixels: top faces and their peaks, and
    whole dice and theirs (none where the detector does not box whole dice)."""

    boxes: np.ndarray
    scores: np.ndarray
    wholes: np.ndarray = field(default_factory=lambda: np.zeros((0, 4), np.float32))
    whole_scores: np.ndarray = field(default_factory=lambda: np.zeros(0, np.float32))
    #: Log distances (4, H, W), in cells, to the edges of the whole die at each cell, where
    #: the detector knows them; a photo pixel p is the pass's pixel p * sides_scale - sides_shift.
    sides: np.ndarray | None = None
    sides_scale: float = 1.0
    sides_shift: tuple[float, float] = (0.0, 0.0)

    def die_at(self, boxes: np.ndarray, stride: int) -> np.ndarray | None:
        """The whole die (N, 4, photo pixels) at each box's centre, from `sides`; NaN rows for
        a centre outside this pass; None without `sides`."""
        if self.sides is None:
            return None
        out = np.full((len(boxes), 4), np.nan, np.float32)
        gh, gw = self.sides.shape[1:]
        shift = np.asarray(self.sides_shift, np.float32)
        at = centres(boxes) * self.sides_scale - shift  # in the pass's pixels
        ix, iy = np.floor(at[:, 0] / stride).astype(int), np.floor(at[:, 1] / stride).astype(int)
        inside = (ix >= 0) & (ix < gw) & (iy >= 0) & (iy < gh)
        if not inside.any():
            return out
        d = np.exp(self.sides[:, iy[inside], ix[inside]]) * stride  # left, top, right, bottom
        cx, cy = (ix[inside] + 0.5) * stride, (iy[inside] + 0.5) * stride
        die = np.stack([cx - d[0], cy - d[1], cx + d[2], cy + d[3]], axis=1)
        out[inside] = (die + np.tile(shift, 2)) / self.sides_scale
        return out


#: One step of an 8-bit channel, as the network takes its input (0..1).
_BYTE = np.float32(1 / 255)


def _centred(cx: np.ndarray, cy: np.ndarray, w: np.ndarray, h: np.ndarray) -> np.ndarray:
    """Boxes (N, 4) of these centres and sizes."""
    return np.stack([cx - w / 2, cy - h / 2, cx + w / 2, cy + h / 2], axis=1)


def _merge(boxes: np.ndarray, scores: np.ndarray,
           priority: np.ndarray | None = None) -> tuple[np.ndarray, np.ndarray]:
    """One box per die from overlapping passes: duplicates and boxes nested in a die dropped.

    Of two boxes on one die the higher `priority`, then the higher score, stays.
    """
    rank = scores if priority is None else scores + 2.0 * priority
    keep = suppress_duplicates(boxes, rank)
    boxes, scores, rank = boxes[keep], scores[keep], rank[keep]
    keep = drop_nested(boxes, rank)
    return boxes[keep], scores[keep]


def shrink(image: np.ndarray, scale: float, *, averaged: bool = False) -> np.ndarray:
    """Resize for the detector; `averaged`: the image is already a halving of the photo.

    A halving has averaged away what a shrink of under 2x could alias, so a bilinear
    resize finishes it (0.9 ms where OpenCV's area average, off its exact 2x path, takes
    4.7 ms for the closer look at a 12 MP photo). A photo shrunk straight needs an area
    average (bilinear at 0.8 loses two of byler_d6's dev dice); to under two thirds it
    goes in two steps: bilinear to exactly twice the target, then 2x2 block averages,
    which keeps small pips from aliasing away at a fraction of one area resize's cost
    (12 MP: 43 ms -> about 8 ms; the closer look's 1,000 px part of a 1080p photo shrunk
    to 0.55: 5.5 -> 2.1 ms, within 0.12 grey levels of the area average).
    """
    h, w = image.shape[:2]
    size = (max(1, round(w * scale)), max(1, round(h * scale)))
    if scale >= 1 or (averaged and scale >= 0.5):
        return cv2.resize(image, size, interpolation=cv2.INTER_LINEAR)
    if scale >= 2 / 3:
        return cv2.resize(image, size, interpolation=cv2.INTER_AREA)
    image = cv2.resize(image, (2 * size[0], 2 * size[1]), interpolation=cv2.INTER_LINEAR)
    return cv2.resize(image, size, interpolation=cv2.INTER_AREA)
