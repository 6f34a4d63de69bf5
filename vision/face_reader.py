"""The face reader: what each found box shows, values 1-6 or "not a die" (a small classifier run by onnxruntime)."""

from __future__ import annotations

import copy
from dataclasses import dataclass, field

import cv2
import numpy as np
import onnxruntime as ort

from dicecam.vision.candidates import Candidates
from dicecam.vision.detections import Die
from dicecam.vision.halvings import Halvings
from dicecam.vision.onnx import metadata
from dicecam.vision.printed import printed_rows
from dicecam.vision.settings import ReaderSettings
from dicecam.vision.sizes import grown_to, longer_sides, relative_sides, typical_side

#: Views of crops (N, 3, H, W) that show the same face value: a quarter turn and three
#: mirrors. Picked on held-out train photos: with these four, byler's held-out read F1
#: went 0.943 -> 0.954 over the quarter turn alone; all seven turns and mirrors, 0.949.
SAME_FACE = (
    lambda c: np.rot90(c, 1, axes=(2, 3)),
    lambda c: c[:, :, :, ::-1],
    lambda c: c[:, :, ::-1, :],
    lambda c: np.rot90(c, 1, axes=(2, 3))[:, :, :, ::-1],
)

#: The view a fairly sure crop is checked in: mirrored left to right, which keeps a steep
#: die's top face at the top of its crop, as an upright reader learned it. Chosen on the
#: train photos over each other view and all four: it marks as many mistakes as all four,
#: for fewer right dice, at a quarter of the reads.
CHECK_VIEWS = (SAME_FACE[1],)

#: The crop in other colours: its colour channels turned round once and twice (BGR as GRB,
#: then RBG). A die shows the same pips in any colour, while a reader that met some
#: colours of dice more than others reads the rest less surely.
OTHER_COLOURS = (
    lambda c: c[:, [1, 2, 0]],
    lambda c: c[:, [2, 0, 1]],
)

#: Every view a doubtful crop is read in (with `colours`, the default): on byler_d6's dev
#: photos with their colours swapped it reads 0.969 instead of 0.956, as taken 0.985
#: instead of 0.982, at +0.6-0.8 ms a busy photo.
DOUBT_VIEWS = SAME_FACE + OTHER_COLOURS


#: Where a crop was cut: the scale of the halving it came from and its box there.
CropKey = tuple[float, ...]


@dataclass
class CropReadings:
    """What the face reader has read of one photo, while that photo is being read: each
    crop's class probabilities and the summed probabilities of its extra views, by where
    the crop was cut (`CropKey`). A count's search reads the first look's boxes again with
    the boxes it adds; a crop cut from the same place reads the same, so only the new ones
    go to the network (`FaceReader.read`'s `readings`)."""

    crops: dict[CropKey, np.ndarray] = field(default_factory=dict)
    views: dict[tuple[CropKey, str], np.ndarray] = field(default_factory=dict)


class FaceReader:
    """Reads the face each box frames; its crop contract (scale, size, classes) travels in the ONNX file."""

    def __init__(self, session: ort.InferenceSession, settings: ReaderSettings) -> None:
        self.session = session
        self.crop_scale = metadata(session, "crop_scale", 1.35)
        self.crop_size = int(metadata(session, "crop_size", 48))
        self.not_a_die = int(metadata(session, "not_a_die_class", 6))
        self._use(settings)

    def _use(self, settings: ReaderSettings) -> None:
        self.settings = settings
        self.doubt_views = DOUBT_VIEWS if settings.colours else SAME_FACE

    def but(self, settings: ReaderSettings) -> FaceReader:
        """This reader, its network shared, with other `settings`."""
        other = copy.copy(self)
        other._use(settings)
        return other

    def read(self, photo: Halvings, found: Candidates, *, readings: CropReadings | None = None) -> Candidates:
        """`found` with what each box shows: values, how surely, whether it is a die at all, its size.

        With `readings` (this photo's earlier readings, added to), a crop already read is not read again.
        """
        if not len(found):
            return Candidates.empty()
        boxes = found.boxes
        source, factor = self.crop_source(photo, boxes)
        cut = boxes * factor
        crops = self.crops(source, cut)
        keys = _keys(cut, factor)
        probs = self._classified(crops, keys, readings)
        trusted = (found.scores >= 0.5) & (probs[:, self.not_a_die] < 0.5)
        typical = typical_side(boxes, trusted & ~self._printed(boxes, probs, trusted))
        relative = relative_sides(boxes, typical)
        # A box well under the typical die often frames part of one (a single pip of a 2):
        # a crop of the typical size shows the whole face.
        small = relative < self.settings.reread_below
        if small.any():
            grown = grown_to(boxes[small], typical) * factor
            crops[small] = self.crops(source, grown)
            regrown = _keys(grown, factor)
            for i, key in zip(np.flatnonzero(small), regrown):
                keys[i] = key
            probs[small] = self._classified(crops[small], regrown, readings)
        # Only the final crops get a second look: most doubtful first crops are the small ones.
        likely = (1.0 - probs[:, self.not_a_die]) * found.scores
        s = self.settings
        if s.faint_below is not None:
            # Such a weak peak is a die only where read plainly: one read too doubtful for the
            # rules to keep it (`weak_rescue`, else `weak_sure`) is read once.
            keeps_from = s.weak_sure if s.weak_rescue is None else min(s.weak_rescue, s.weak_sure)
            likely[(found.scores < s.faint_below) & (probs[:, : self.not_a_die].max(axis=1) < keeps_from)] = -1.0
        probs, views = self.second_look(crops, probs, priority=likely, keys=keys, readings=readings)
        values, held = self.values_held(probs, views)
        return Candidates(boxes, found.scores, values, held, probs[:, : self.not_a_die].max(axis=1),
                          probs[:, self.not_a_die], relative.astype(np.float32), lone=found.lone,
                          die_boxes=found.die_boxes)

    def _printed(self, boxes: np.ndarray, probs: np.ndarray, trusted: np.ndarray) -> np.ndarray:
        """Which `trusted` boxes, read as their first crops' likeliest faces, lie in a row of printed
        faces (`vision.printed`): a score sheet's six small faces would otherwise set the photo's
        typical die, and the throw's dice, three times their size, would be dropped as giants (C430)."""
        rows = np.zeros(len(boxes), bool)
        length = self.settings.printed_rows
        if length is None or not self.settings.printed_typical or np.count_nonzero(trusted) < length:
            return rows
        values = probs[trusted, : self.not_a_die].argmax(axis=1) + 1
        rows[trusted] = printed_rows(boxes[trusted], values, length=int(length), reach=self.settings.printed_reach)
        return rows

    def read_crop(self, image: np.ndarray) -> Die:
        """Read a photo that shows exactly one die filling the frame (e.g. a dataset crop)."""
        h, w = image.shape[:2]
        crop = square_crop(image, w / 2, h / 2, max(h, w), self.crop_size)
        crops = crop.transpose(2, 0, 1)[None] * np.float32(1 / 255)
        values, held = self.values_held(*self.second_look(crops, self.classify(crops)))
        return Die(int(values[0]), (0.0, 0.0, float(w), float(h)), float(held[0]))

    def crops(self, image: np.ndarray, boxes: np.ndarray) -> np.ndarray:
        """Reader inputs (N, 3, crop_size, crop_size) in 0..1: each box grown by `crop_scale`, squared."""
        out = np.empty((len(boxes), 3, self.crop_size, self.crop_size), np.float32)
        sides = longer_sides(boxes) * self.crop_scale
        for i, ((x0, y0, x1, y1), side) in enumerate(zip(boxes, sides)):
            cx, cy = (x0 + x1) / 2, (y0 + y1) / 2
            out[i] = square_crop(image, cx, cy, side, self.crop_size).transpose(2, 0, 1)
        return out * np.float32(1 / 255)

    def top_crops(self, image: np.ndarray, boxes: np.ndarray, share: float) -> np.ndarray:
        """Reader inputs of each box's upper `share` (0-1] of its height, grown by `crop_scale`
        and stretched square: where a die seen from low down shows its top face."""
        out = np.empty((len(boxes), 3, self.crop_size, self.crop_size), np.float32)
        for i, (x0, y0, x1, y1) in enumerate(boxes):
            height = (y1 - y0) * share
            out[i] = rect_crop(image, (x0 + x1) / 2, y0 + height / 2, (x1 - x0) * self.crop_scale,
                               height * self.crop_scale, self.crop_size).transpose(2, 0, 1)
        return out * np.float32(1 / 255)

    def crop_source(self, photo: Halvings, boxes: np.ndarray) -> tuple[np.ndarray, float]:
        """The photo to cut crops from, and its scale: halved while crops still shrink 1.5x.

        Every crop shrinks a die's window to `crop_size` pixels with an area average; on a
        photo of big dice one fast halving of the whole photo is cheaper than thirty slow
        shrinks of big windows (12 ms -> 5 ms for 22 dice of a 12-megapixel photo), and
        the crops come out the same but for rounding.
        """
        window = float(np.median(longer_sides(boxes))) * self.crop_scale
        return photo.for_scale(1.5 * self.crop_size / max(window, 1.0))

    def classify(self, crops: np.ndarray) -> np.ndarray:
        """Class probabilities (N, 7) of reader inputs, one view each."""
        return _softmax(self.session.run(None, {"crops": crops})[0])

    def _classified(self, crops: np.ndarray, keys: list[CropKey], readings: CropReadings | None) -> np.ndarray:
        """`classify(crops)`, the crops of `keys` already in `readings` taken from there (and the others added)."""
        if readings is None:
            return self.classify(crops)
        new = [i for i, key in enumerate(keys) if key not in readings.crops]
        if new:
            for i, p in zip(new, self.classify(crops[new])):
                readings.crops[keys[i]] = p
        return np.stack([readings.crops[key] for key in keys])

    def second_look(self, crops: np.ndarray, probs: np.ndarray, *, priority: np.ndarray | None = None,
                    keys: list[CropKey] | None = None,
                    readings: CropReadings | None = None) -> tuple[np.ndarray, np.ndarray]:
        """`probs` with the doubtful crops' readings averaged over more views, and every
        crop's mean reading over those views (its `probs` where it was read once).

        A face shows the same number of pips turned or mirrored, while the reader's
        mistakes do not turn with them: a doubtful crop (top probability under
        `turn_below`) is read again in `SAME_FACE` views (and `OTHER_COLOURS`: a die's pips
        count the same in any colour, unless `colours` is off) and the readings averaged.
        A crop read fairly surely (up to `check_below`) is read once more in `CHECK_VIEWS`,
        in the same batch, only to check: its reading stays, but the mean says how well it
        holds. Clear crops are read once, so a photo of thirty clear dice costs one read of
        each, and so is a crop read as "not a die" with `views_below_not_a_die` or more, or
        likelier "not a die" than any face (unless `views_when_likeliest_no_die`). At
        most `max_second_looks` crops get more reads, highest `priority` first (a negative one:
        none). With `readings` (and each crop's `keys`), the views of a crop already looked at
        are not read again.
        """
        s = self.settings
        top = probs.max(axis=1)
        looked = np.ones(len(probs), bool) if priority is None else priority >= 0
        if priority is not None and looked.sum() > s.max_second_looks:
            looked[:] = False
            looked[np.argsort(-priority, kind="stable")[: int(s.max_second_looks)]] = True
        # A crop read plainly as no die (a board's token, its print) keeps that reading in
        # every view: its views would only cost time (a cluttered photo's doubtful crops).
        plain = probs[:, self.not_a_die] >= s.views_below_not_a_die
        checked = looked.copy()
        if not s.views_when_likeliest_no_die:
            # Likelier no die than any face: there is no value for more views to settle.
            plain |= probs.argmax(axis=1) == self.not_a_die
            checked &= ~plain
        doubt = np.flatnonzero((top < s.turn_below) & looked & ~plain)
        check = np.flatnonzero((top >= s.turn_below) & (top < s.check_below) & checked)
        mean = probs.copy()
        looks = [(rows, views, kind) for rows, views, kind in ((doubt, self.doubt_views, "doubt"),
                                                               (check, CHECK_VIEWS, "check")) if len(rows)]
        if not looks:
            return probs, mean
        if readings is None or keys is None:  # nothing read before: every crop its own key
            readings, keys = CropReadings(), [(float(i),) for i in range(len(crops))]
        # Crops whose views were not read before, read in one batch over both kinds of look.
        new = [[r for r in rows if (keys[r], kind) not in readings.views] for rows, _views, kind in looks]
        batch = [view(crops[fresh]) for fresh, (_rows, views, _kind) in zip(new, looks) if fresh for view in views]
        again = self.classify(np.concatenate(batch)) if batch else np.zeros((0, probs.shape[1]), np.float32)
        start = 0
        for fresh, (rows, views, kind) in zip(new, looks):
            if fresh:
                end = start + len(fresh) * len(views)
                for r, total in zip(fresh, again[start:end].reshape(len(views), len(fresh), -1).sum(axis=0)):
                    readings.views[keys[r], kind] = total
                start = end
            mean[rows] = (probs[rows] + np.stack([readings.views[keys[r], kind] for r in rows])) / (1 + len(views))
        probs = probs.copy()
        probs[doubt] = mean[doubt]
        return probs, mean

    def values_held(self, probs: np.ndarray, views: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """Each crop's value (1-6) and how sure the reader is of it: the probability of that
        value, at most its mean over the views read (`second_look`).

        A reading that does not hold when the crop is turned or mirrored is not a sure one:
        on byler_d6's train photos, checking crops read under 0.9 marks 13 of its 22
        mistakes unsure instead of 9 for 39 of its 1,471 right dice instead of 28.
        """
        faces = probs[:, : self.not_a_die]
        values = faces.argmax(axis=1)
        held = np.minimum(faces.max(axis=1), views[np.arange(len(values)), values])
        return values + 1, held.astype(np.float32)


def _keys(cut: np.ndarray, factor: float) -> list[CropKey]:
    """Where each crop is cut: the halving's scale and the box there (exact floats: a box
    carried over from an earlier look is the same array row)."""
    return [(float(factor), *map(float, box)) for box in cut]


def _softmax(logits: np.ndarray) -> np.ndarray:
    p = np.exp(logits - logits.max(axis=1, keepdims=True))
    return p / p.sum(axis=1, keepdims=True)


def square_crop(image: np.ndarray, cx: float, cy: float, side: float, out: int) -> np.ndarray:
    """`side`-pixel square around (cx, cy), edge pixels repeated outside the photo, resized to `out`."""
    return rect_crop(image, cx, cy, side, side, out)


def rect_crop(image: np.ndarray, cx: float, cy: float, width: float, height: float, out: int) -> np.ndarray:
    """`width` x `height` pixels around (cx, cy), edge pixels repeated outside the photo,
    stretched to an `out`-pixel square."""
    h, w = image.shape[:2]
    half_w, half_h = max(width, 2.0) / 2, max(height, 2.0) / 2
    x0, y0 = round(cx - half_w), round(cy - half_h)
    x1, y1 = round(cx + half_w), round(cy + half_h)
    roi = image[max(0, y0):min(h, y1), max(0, x0):min(w, x1)]
    pad = (max(0, -y0), max(0, y1 - h), max(0, -x0), max(0, x1 - w))
    if any(pad):
        roi = cv2.copyMakeBorder(roi, *pad, cv2.BORDER_REPLICATE)
    interp = cv2.INTER_AREA if max(roi.shape[:2]) > out else cv2.INTER_LINEAR
    return cv2.resize(roi, (out, out), interpolation=interp)
