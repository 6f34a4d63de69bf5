"""The trained dice reader: a detector finds each die's top face, a face reader reads it.

Both networks run with onnxruntime. Their preprocessing contract (input size, stride,
crop scale) travels inside the ONNX files as metadata, so the runtime never has to
import the training code.
"""

from __future__ import annotations

import os
from importlib import resources
from pathlib import Path

import cv2
import numpy as np
import onnxruntime as ort

from dicecam.vision.confidence import FULL_PEAK, Readings, load_confidence_fit
from dicecam.vision.detections import UNSURE_BELOW, Dice, Die
from dicecam.vision.halvings import Halvings
from dicecam.vision.peaks import apart_from, centre_peaks, drop_nested, suppress_duplicates
from dicecam.vision.sizes import grown_to, longer_sides, relative_sides, typical_side

#: The shipped networks: package data of `dicecam.models` (the repository's `models/`).
DEFAULT_MODELS = Path(str(resources.files("dicecam.models")))
DETECTOR_FILE = "detector.onnx"
READER_FILE = "reader.onnx"


def _session(path: Path, threads: int) -> ort.InferenceSession:
    if not path.is_file():
        raise FileNotFoundError(f"dice model not found: {path}")
    opts = ort.SessionOptions()
    opts.intra_op_num_threads = threads
    opts.inter_op_num_threads = 1
    opts.graph_optimization_level = ort.GraphOptimizationLevel.ORT_ENABLE_ALL
    opts.log_severity_level = 3
    # Two sessions take turns on a few cores: threads left spinning by one after its run
    # would starve the other (it made reading the crops 3-5x slower on 2 cores).
    opts.add_session_config_entry("session.intra_op.allow_spinning", "0")
    return ort.InferenceSession(str(path), sess_options=opts, providers=["CPUExecutionProvider"])


def _meta(session: ort.InferenceSession, key: str, default: float) -> float:
    return float(session.get_modelmeta().custom_metadata_map.get(key, default))


#: Views of crops (N, 3, H, W) that show the same face value: a quarter turn and three
#: mirrors. Picked on held-out train photos: with these four, byler's held-out read F1
#: went 0.943 -> 0.954 over the quarter turn alone; all seven turns and mirrors, 0.949.
SAME_FACE = (
    lambda c: np.rot90(c, 1, axes=(2, 3)),
    lambda c: c[:, :, :, ::-1],
    lambda c: c[:, :, ::-1, :],
    lambda c: np.rot90(c, 1, axes=(2, 3))[:, :, :, ::-1],
)

#: The view a fairly sure crop is checked in (`DiceReader.check_below`): mirrored left to
#: right, which keeps a steep die's top face at the top of its crop, as an upright reader
#: learned it. Chosen on the train photos over each other view and all four (session 22):
#: it marks as many mistakes as all four, for fewer right dice, at a quarter of the reads.
CHECK_VIEWS = (SAME_FACE[1],)

#: The crop in other colours: its colour channels turned round once and twice (BGR as GRB,
#: then RBG). A die shows the same pips in any colour, while a reader that met some
#: colours of dice more than others reads the rest less surely.
OTHER_COLOURS = (
    lambda c: c[:, [1, 2, 0]],
    lambda c: c[:, [2, 0, 1]],
)

#: Every view a doubtful crop is read in (`DiceReader(colours=True)`, the default): on
#: byler_d6's dev photos with their colours swapped it reads 0.969 instead of 0.956, as
#: taken 0.985 instead of 0.982, at +0.6-0.8 ms a busy photo (models/HISTORY.md, session 24).
DOUBT_VIEWS = SAME_FACE + OTHER_COLOURS


class DiceReader:
    """Reads every die in a photo. Load once, call `read` for each photo (thread-safe)."""

    def __init__(self, models_dir: str | os.PathLike | None = None, *, threads: int | None = None,
                 min_score: float | None = None, max_not_a_die: float = 0.2, low_confidence: float = UNSURE_BELOW,
                 reread_below: float = 0.85, min_relative_size: float = 0.65,
                 keep_small_above: float = 0.7, zoom_below: float = 24.0, zoom_target: float = 32.0,
                 zoom_max_side: int = 1024, turn_below: float = 0.7, check_below: float = 0.9,
                 weak_score: float | None = 0.3, weak_sure: float = 0.8, capped: bool = True,
                 colours: bool = True) -> None:
        """Load both models from `models_dir` (default: DICECAM_MODELS, else the shipped ones).

        The thresholds were chosen on the train photos (see models/README.md):
        `min_score` is the detector's peak threshold (default: the one stored in the
        detector file, chosen for that network; 0.3 for files without one); a box the face reader finds
        "not a die" with probability `max_not_a_die` or more is dropped; a box smaller
        than `reread_below` times the photo's typical die is read again from a crop of
        typical size; one under `min_relative_size` is dropped unless read with a
        confidence of at least `keep_small_above`. Photos whose dice come out under
        `zoom_below` detector pixels get a closer look (see `_zoom_pass`; 0 turns it off).
        A crop read with a top probability under `turn_below` is read again turned and
        mirrored (`SAME_FACE`; 1 reads every crop again, 0 none); one read from
        `turn_below` up to `check_below` is read once more mirrored (`CHECK_VIEWS`), only
        to check its reading: its value stays, its confidence is at most the mean
        probability of that value over both readings (0 checks none). A weak peak, from
        `weak_score` up to `min_score`, is read too and kept only when the reader's top
        probability for it is at least `weak_sure` (None: no weak peaks). With `colours`,
        a doubtful crop is also read in `OTHER_COLOURS` (`DOUBT_VIEWS`). Each die's
        confidence is at most the chance the shipped fit gives it of being right
        (`vision.confidence`), where the folder has one and `capped` is true.
        """
        folder = Path(models_dir) if models_dir is not None else Path(os.environ.get("DICECAM_MODELS", DEFAULT_MODELS))
        threads = threads or min(4, os.cpu_count() or 1)
        self.detector = _session(folder / DETECTOR_FILE, threads)
        self.reader = _session(folder / READER_FILE, threads)
        self.input_side = int(_meta(self.detector, "input_side", 512))
        self.stride = int(_meta(self.detector, "stride", 4))
        self.crop_scale = _meta(self.reader, "crop_scale", 1.35)
        self.crop_size = int(_meta(self.reader, "crop_size", 48))
        self.not_a_die = int(_meta(self.reader, "not_a_die_class", 6))
        self.confidence_fit = load_confidence_fit(folder) if capped else None
        # Each trained detector's heat map is calibrated its own way, so its threshold travels with it.
        self.min_score = min_score if min_score is not None else _meta(self.detector, "min_score", 0.3)
        self.max_not_a_die = max_not_a_die
        self.reread_below = reread_below
        self.min_relative_size = min_relative_size
        self.keep_small_above = keep_small_above
        self.zoom_below = zoom_below
        self.zoom_target = zoom_target
        self.zoom_max_side = zoom_max_side
        self.turn_below = turn_below
        self.check_below = check_below
        self.weak_score = self.min_score if weak_score is None else min(weak_score, self.min_score)
        self.weak_sure = weak_sure
        self.doubt_views = DOUBT_VIEWS if colours else SAME_FACE
        #: Dice under this confidence are shown to players as uncertain.
        self.low_confidence = low_confidence

    # -- detection -------------------------------------------------------------------
    def _detect_at(self, small: np.ndarray, scale: float, shape: tuple[int, ...], *,
                   min_size: float = 0.0, min_score: float | None = None) -> tuple[np.ndarray, np.ndarray]:
        """Boxes and scores from one pass over `small`, the photo (of `shape`) resized by `scale`.

        Boxes smaller than `min_size` pixels (as the detector saw them) or weaker than
        `min_score` (default: the detector's threshold) are left out.
        """
        h, w = shape[:2]
        sh, sw = small.shape[:2]
        ph, pw = -(-sh // 32) * 32, -(-sw // 32) * 32
        x = np.zeros((1, 3, ph, pw), np.float32)
        # Channel by channel: a strided transpose of the whole photo costs 3x as much.
        for channel, plane in enumerate(cv2.split(small)):
            x[0, channel, :sh, :sw] = plane
        x *= np.float32(1 / 255)
        maps = self.detector.run(None, {"image": x})[0][0]
        heat = 1.0 / (1.0 + np.exp(-maps[0]))
        ys, xs, scores = centre_peaks(heat, min_score=self.min_score if min_score is None else min_score)
        off = 1.0 / (1.0 + np.exp(-maps[3:5, ys, xs]))
        cx = (xs + off[0]) * self.stride
        cy = (ys + off[1]) * self.stride
        bw = np.exp(maps[1, ys, xs]) * self.stride
        bh = np.exp(maps[2, ys, xs]) * self.stride
        big = np.maximum(bw, bh) >= min_size
        boxes = np.stack([cx - bw / 2, cy - bh / 2, cx + bw / 2, cy + bh / 2], axis=1)[big] / scale
        return np.clip(boxes, 0, [w, h, w, h]).astype(np.float32), scores[big].astype(np.float32)

    def _detect(self, image: np.ndarray | Halvings) -> tuple[np.ndarray, np.ndarray]:
        """Top-face boxes (N, 4) in the photo's pixels and their detector scores (N,).

        Two passes: the full detector size finds small dice, half of it sees big close-up
        dice whole (where a single pip could pass for a small die showing 1). The half-size
        pass adds only big dice: there, two small touching dice could blur into one.
        Dice that come out small in both get a closer look (`_zoom_pass`). Weak peaks
        (from `weak_score` up to `min_score`) are added last, where no stronger box is.
        """
        photo = image if isinstance(image, Halvings) else Halvings(image)
        image = photo.photo
        scale = self.input_side / max(image.shape[:2])
        source, own = photo.for_scale(scale, keep=2.0)
        small = _shrink(source, scale / own)
        half = cv2.resize(small, (max(1, small.shape[1] // 2), max(1, small.shape[0] // 2)),
                          interpolation=cv2.INTER_AREA)
        passes = [self._detect_at(small, scale, image.shape, min_score=self.weak_score),
                  self._detect_at(half, scale * half.shape[1] / small.shape[1], image.shape, min_size=20.0,
                                  min_score=self.weak_score)]
        boxes = np.concatenate([b for b, _ in passes])
        scores = np.concatenate([s for _, s in passes])
        strong = scores >= self.min_score
        weak = _merge(boxes[~strong], scores[~strong])
        boxes, scores = _merge(boxes[strong], scores[strong])
        zoomed = self._zoom_pass(photo, boxes, scores, scale)
        if zoomed is not None:
            # The closer look wins where both passes saw a die: its boxes fit small dice better.
            boxes, scores = _merge(np.concatenate([boxes, zoomed[0]]), np.concatenate([scores, zoomed[1]]),
                                   priority=np.r_[np.zeros(len(boxes)), np.ones(len(zoomed[0]))])
        # Weak peaks come last and only apart from every strong box, which stay as they were.
        apart = apart_from(weak[0], boxes)
        return np.concatenate([boxes, weak[0][apart]]), np.concatenate([scores, weak[1][apart]])

    def _zoom_pass(self, photo: Halvings, boxes: np.ndarray, scores: np.ndarray,
                   scale: float) -> tuple[np.ndarray, np.ndarray] | None:
        """A closer look when the dice came out small for the detector, else None.

        A phone held high over a big table shows each die at a few dozen pixels of a
        12-megapixel photo, under 20 once shrunk for the detector, where it starts to
        miss them. Such photos get a second pass over the part of the photo around the
        dice found (the whole photo if none), enlarged so the typical die is about
        `zoom_target` detector pixels, the enlarged part at most `zoom_max_side` wide.
        """
        typical = typical_side(boxes, scores >= 0.5) * scale
        if self.zoom_below <= 0 or (len(boxes) and typical >= self.zoom_below):
            return None
        h, w = photo.photo.shape[:2]
        if len(boxes):
            margin = 4 * typical / scale  # dice thrown together land within a few dice of each other
            x0, y0 = np.maximum(boxes[:, :2].min(axis=0) - margin, 0).astype(int)
            x1, y1 = np.minimum(boxes[:, 2:].max(axis=0) + margin, [w, h]).astype(int)
            zoom = self.zoom_target / max(typical, 1.0)
        else:
            x0, y0, x1, y1 = 0, 0, w, h
            zoom = 2.0
        zscale = min(scale * zoom, self.zoom_max_side / max(y1 - y0, x1 - x0))
        if zscale <= scale * 1.2:  # no closer than the first look
            return None
        source, own = photo.for_scale(zscale)
        x0, y0, x1, y1 = (round(v * own) for v in (x0, y0, x1, y1))  # the window, in `source`'s pixels
        part = source[y0:y1, x0:x1]
        found, found_scores = self._detect_at(_shrink(part, zscale / own, averaged=own < 1), zscale / own, part.shape)
        return (found + np.array([x0, y0, x0, y0], np.float32)) / own, found_scores

    # -- reading ---------------------------------------------------------------------
    def _crops(self, image: np.ndarray, boxes: np.ndarray) -> np.ndarray:
        """Reader inputs (N, 3, crop_size, crop_size) in 0..1: each box grown by `crop_scale`, squared."""
        out = np.empty((len(boxes), 3, self.crop_size, self.crop_size), np.float32)
        sides = longer_sides(boxes) * self.crop_scale
        for i, ((x0, y0, x1, y1), side) in enumerate(zip(boxes, sides)):
            cx, cy = (x0 + x1) / 2, (y0 + y1) / 2
            out[i] = _square_crop(image, cx, cy, side, self.crop_size).transpose(2, 0, 1)
        return out * np.float32(1 / 255)

    def _crop_source(self, photo: Halvings, boxes: np.ndarray) -> tuple[np.ndarray, float]:
        """The photo to cut crops from, and its scale: halved while crops still shrink 1.5x.

        Every crop shrinks a die's window to `crop_size` pixels with an area average; on a
        photo of big dice one fast halving of the whole photo is cheaper than thirty slow
        shrinks of big windows (12 ms -> 5 ms for 22 dice of a 12-megapixel photo), and
        the crops come out the same but for rounding.
        """
        window = float(np.median(longer_sides(boxes))) * self.crop_scale
        return photo.for_scale(1.5 * self.crop_size / max(window, 1.0))

    def _classify(self, crops: np.ndarray) -> np.ndarray:
        """Class probabilities (N, 7) of reader inputs, one view each."""
        return _softmax(self.reader.run(None, {"crops": crops})[0])

    def _second_look(self, crops: np.ndarray, probs: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """`probs` with the doubtful crops' readings averaged over more views, and every
        crop's mean reading over those views (its `probs` where it was read once).

        A face shows the same number of pips turned or mirrored, while the reader's
        mistakes do not turn with them: a doubtful crop (top probability under
        `turn_below`) is read again in `SAME_FACE` views (and `OTHER_COLOURS`: a die's pips
        count the same in any colour, unless `colours` is off) and the readings averaged.
        A crop read fairly surely (up to `check_below`) is read once more in `CHECK_VIEWS`, in the
        same batch, only to check: its reading stays (averaging more views cost the train
        photos a die or two, models/HISTORY.md), but the mean says how well it holds. Clear
        crops are read once, so a photo of thirty clear dice costs one read of each. A
        reader trained upright (session 16) is read again in the same views: read only
        mirrored, it lost views from above (models/HISTORY.md).
        """
        top = probs.max(axis=1)
        doubt = np.flatnonzero(top < self.turn_below)
        check = np.flatnonzero((top >= self.turn_below) & (top < self.check_below))
        mean = probs.copy()
        looks = [(rows, views) for rows, views in ((doubt, self.doubt_views), (check, CHECK_VIEWS)) if len(rows)]
        if not looks:
            return probs, mean
        again = self._classify(np.concatenate([view(crops[rows]) for rows, views in looks for view in views]))
        start = 0
        for rows, views in looks:
            end = start + len(rows) * len(views)
            seen = again[start:end].reshape(len(views), len(rows), -1)
            mean[rows] = (probs[rows] + seen.sum(axis=0)) / (1 + len(views))
            start = end
        probs = probs.copy()
        probs[doubt] = mean[doubt]
        return probs, mean

    def _values_held(self, probs: np.ndarray, views: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """Each crop's value (1-6) and how sure the reader is of it: the probability of that
        value, at most its mean over the views read (`_second_look`).

        A reading that does not hold when the crop is turned or mirrored is not a sure one:
        on byler_d6's train photos, checking crops read under 0.9 marks 13 of its 22
        mistakes unsure instead of 9 (every misread; those left are label faults and extra
        boxes) for 39 of its 1,471 right dice instead of 28 (models/HISTORY.md, session 22).
        """
        faces = probs[:, : self.not_a_die]
        values = faces.argmax(axis=1)
        held = np.minimum(faces.max(axis=1), views[np.arange(len(values)), values])
        return values + 1, held

    def read(self, image: np.ndarray) -> Dice:
        """All dice in a BGR photo, in reading order, boxes in the photo's pixels."""
        return self.readings(image).dice(self.confidence_fit)

    def readings(self, image: np.ndarray) -> Readings:
        """The dice `read` keeps in a BGR photo, with what their confidence is made of."""
        image = _as_bgr(image)
        if min(image.shape[:2]) < 8:
            return Readings.empty()
        photo = Halvings(image)
        boxes, scores = self._detect(photo)
        if not len(boxes):
            return Readings.empty()
        source, factor = self._crop_source(photo, boxes)
        crops = self._crops(source, boxes * factor)
        probs = self._classify(crops)
        typical = typical_side(boxes, (scores >= 0.5) & (probs[:, self.not_a_die] < 0.5))
        relative = relative_sides(boxes, typical)
        # A box well under the typical die often frames part of one (a single pip of a 2):
        # a crop of the typical size shows the whole face.
        small = relative < self.reread_below
        if small.any():
            crops[small] = self._crops(source, grown_to(boxes[small], typical) * factor)
            probs[small] = self._classify(crops[small])
        # Only the final crops get a second look: most doubtful first crops are the small ones.
        probs, views = self._second_look(crops, probs)
        top = probs[:, : self.not_a_die].max(axis=1)
        values, held = self._values_held(probs, views)
        detected = np.minimum(1.0, scores / FULL_PEAK)
        # Much smaller than the other dice and not clearly read: a pip, a side face, the
        # table. Judged on the reading, not on its check: the check only ever marks dice.
        stray = (relative < self.min_relative_size) & (top * detected < self.keep_small_above)
        # A weak peak is a die only if the reader sees one plainly (half hidden, steep, at the edge).
        plain = (scores >= self.min_score) | (top >= self.weak_sure)
        keep = (probs[:, self.not_a_die] < self.max_not_a_die) & ~stray & plain
        return Readings(boxes[keep], values[keep], held[keep], scores[keep], relative[keep])

    def read_crop(self, image: np.ndarray) -> Die:
        """Read a photo that shows exactly one die filling the frame (e.g. a dataset crop)."""
        image = _as_bgr(image)
        h, w = image.shape[:2]
        crop = _square_crop(image, w / 2, h / 2, max(h, w), self.crop_size)
        crops = crop.transpose(2, 0, 1)[None] * np.float32(1 / 255)
        values, held = self._values_held(*self._second_look(crops, self._classify(crops)))
        return Die(int(values[0]), (0.0, 0.0, float(w), float(h)), float(held[0]))


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


def _softmax(logits: np.ndarray) -> np.ndarray:
    p = np.exp(logits - logits.max(axis=1, keepdims=True))
    return p / p.sum(axis=1, keepdims=True)


def _as_bgr(image: np.ndarray) -> np.ndarray:
    if image.ndim == 2:
        return cv2.cvtColor(image, cv2.COLOR_GRAY2BGR)
    if image.shape[2] == 4:
        return cv2.cvtColor(image, cv2.COLOR_BGRA2BGR)
    return image


def _shrink(image: np.ndarray, scale: float, *, averaged: bool = False) -> np.ndarray:
    """Resize for the detector; `averaged`: the image is already a halving of the photo.

    A halving has averaged away what a shrink of under 2x could alias, so a bilinear
    resize finishes it (0.9 ms where OpenCV's area average, off its exact 2x path, takes
    4.7 ms for the closer look at a 12 MP photo). A photo shrunk straight needs the area
    average; by more than 2x it goes in two steps: bilinear to exactly twice the target,
    then 2x2 block averages, which keeps small pips from aliasing away at a fraction of
    the cost of one area resize from 12 MP (43 ms -> about 8 ms).
    """
    h, w = image.shape[:2]
    size = (max(1, round(w * scale)), max(1, round(h * scale)))
    if scale < 0.5:
        image = cv2.resize(image, (2 * size[0], 2 * size[1]), interpolation=cv2.INTER_LINEAR)
        scale = 0.5
    area = scale < 1 and not (averaged and scale >= 0.5)
    return cv2.resize(image, size, interpolation=cv2.INTER_AREA if area else cv2.INTER_LINEAR)


def _square_crop(image: np.ndarray, cx: float, cy: float, side: float, out: int) -> np.ndarray:
    """`side`-pixel square around (cx, cy), edge pixels repeated outside the photo, resized to `out`."""
    h, w = image.shape[:2]
    half = max(side, 2.0) / 2
    x0, y0 = int(round(cx - half)), int(round(cy - half))
    x1, y1 = int(round(cx + half)), int(round(cy + half))
    roi = image[max(0, y0):min(h, y1), max(0, x0):min(w, x1)]
    pad = (max(0, -y0), max(0, y1 - h), max(0, -x0), max(0, x1 - w))
    if any(pad):
        roi = cv2.copyMakeBorder(roi, *pad, cv2.BORDER_REPLICATE)
    interp = cv2.INTER_AREA if roi.shape[0] > out else cv2.INTER_LINEAR
    return cv2.resize(roi, (out, out), interpolation=interp)
