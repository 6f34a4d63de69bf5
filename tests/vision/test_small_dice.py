"""Changed photos: dice small in the frame are still all read, and each change moves the labels along."""

from __future__ import annotations

import numpy as np
import pytest
from test_samples import NOT_YET_READ, PHOTOS, cases

from dicecam.vision.decode import load_image
from dicecam.vision.detections import Dice
from dicecam.vision.metrics import score_photo
from dicecam.vision.photo_changes import CHANGES, further_away
from dicecam.vision.sizes import typical_side

#: The detector's input side (`detector.onnx`'s metadata), to tell which photos' dice get
#: small enough at half size for the test to mean anything.
INPUT_SIDE = 512
READ_RIGHT = [p for p in PHOTOS if not p.crop and p.image not in NOT_YET_READ and len(p.dice) >= 3
              and typical_side(p.dice.boxes) * 0.5 * INPUT_SIDE / max(p.size) < 24]
#: Read right at full size, yet not read cleanly at half size (a die missed, or something
#: boxed that is not a die); a strict expected failure, like the lists in test_samples.
#: 112933 at half size: the X207 reader (session 40) loses one of its nine dice and reads
#: another wrong, unsure; R71 read them at 0.41-0.59, a knife's edge either way.
NOT_YET_CLEAN_AT_HALF_SIZE: frozenset[str] = frozenset({"byler_d6/IMG_20191208_112933.jpg"})


@pytest.mark.parametrize("photo", cases(NOT_YET_CLEAN_AT_HALF_SIZE, READ_RIGHT,
                                         reason="not read cleanly at half size"))
def test_dice_half_as_big_in_the_frame_are_all_found(reader, photo):
    image, boxes = further_away(0.5)(load_image(photo.path), photo.dice.boxes)
    truth = Dice(boxes, photo.dice.values, photo.dice.confidences)
    # Small enough that the detector's first look sees each die at under 24 pixels.
    assert reader.detector.input_side == INPUT_SIDE
    assert typical_side(truth.boxes) * reader.detector.input_side / max(image.shape[:2]) < reader.settings.zoom_below
    score = score_photo(truth, reader.read(image))
    assert score.recall == 1.0 and score.precision == 1.0, score



@pytest.mark.parametrize("name", sorted(CHANGES))
def test_every_photo_change_moves_the_labels_with_the_dice(name):
    # A bright square on a dark table: after the change, its box must still frame it.
    image = np.full((120, 160, 3), 40, np.uint8)
    image[30:50, 100:120] = 230
    box = np.array([[100, 30, 120, 50]], np.float32)
    changed, moved = CHANGES[name](image, box)
    x0, y0, x1, y1 = np.round(moved[0]).astype(int)
    grey = changed.mean(axis=2)
    inside = grey[y0 + 2:y1 - 2, x0 + 2:x1 - 2]
    ring = np.concatenate([grey[max(y0 - 3, 0), x0:x1], grey[min(y1 + 2, grey.shape[0] - 1), x0:x1]])
    assert abs(inside.mean() - ring.mean()) > 40, (name, moved[0].tolist())


class _Sizes:
    """A detector session that notes the input size of every pass it runs."""

    def __init__(self, session):
        self.session, self.inputs = session, []

    def run(self, outputs, feed):
        self.inputs.append(feed["image"].shape[2:])
        return self.session.run(outputs, feed)

    def __getattr__(self, name):
        return getattr(self.session, name)


def _passes(reader, image, monkeypatch) -> list[tuple[int, int]]:
    spy = _Sizes(reader.detector.session)
    monkeypatch.setattr(reader.detector, "session", spy)
    reader.read(image)
    return spy.inputs


def test_small_dice_get_a_closer_look_and_no_half_size_pass(reader, monkeypatch):
    # The half-size pass only adds dice four times the size of those the first pass found
    # small: on such a photo the time goes to the closer look instead.
    photo = READ_RIGHT[0]
    image, _ = further_away(0.5)(load_image(photo.path), photo.dice.boxes)
    first, *rest = _passes(reader, image, monkeypatch)
    assert len(rest) == 1 and rest[0][0] > first[0]  # the closer look, enlarged


def test_big_dice_get_the_half_size_pass_and_no_closer_look(reader, monkeypatch):
    whole = (p for p in PHOTOS if not p.crop and len(p.dice))
    photo = max(whole, key=lambda p: typical_side(p.dice.boxes) / max(p.size))
    assert typical_side(photo.dice.boxes) * INPUT_SIDE / max(photo.size) > 2 * reader.settings.zoom_below
    first, *rest = _passes(reader, load_image(photo.path), monkeypatch)
    assert len(rest) == 1 and rest[0][0] < first[0]  # the half-size pass


@pytest.mark.parametrize(("margin", "whole"), [(4.0, False), (float("inf"), True)])
def test_the_closer_look_covers_the_dice_and_zoom_margin_more(monkeypatch, margin, whole):
    from dicecam.vision.reader import DiceReader

    # The dice in one corner of a photo four times their throw's size: by default the
    # closer look covers them and a few dice around; with an endless margin, all of it.
    photo = READ_RIGHT[0]
    small, _ = further_away(0.5)(load_image(photo.path), photo.dice.boxes)
    h, w = small.shape[:2]
    image = np.concatenate([np.concatenate([small, np.full_like(small, 128)], axis=1),
                            np.full((h, 2 * w, 3), 128, np.uint8)], axis=0)
    reader = DiceReader(zoom_margin=margin)
    windows: list[tuple[int, int, int, int]] = []
    closer = reader.detector._closer

    def noted(photo, window, *args, **kwargs):
        windows.append(window)
        return closer(photo, window, *args, **kwargs)

    monkeypatch.setattr(reader.detector, "_closer", noted)
    reader.read(image)
    assert len(windows) == 1
    x0, y0, x1, y1 = windows[0]
    if whole:
        assert (x0, y0, x1, y1) == (0, 0, 2 * w, 2 * h)
    else:
        assert x1 <= 1.5 * w and y1 <= 1.5 * h  # near the dice, none of the empty three quarters' far side
