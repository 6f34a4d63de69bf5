"""The speed benchmark's scenes (benchmarks/bench_vision.py): the board's plain twin and the clutter's cost."""

from __future__ import annotations

import cv2
import numpy as np
import pytest
from bench_vision import (  # benchmarks/ is on pytest's pythonpath
    DICE,
    SCENES,
    TWINS,
    clutter_cost,
    plain_twin,
    sample_labels,
    scene_photo,
    told_count,
)

from dicecam.vision.decode import decode_image


def test_the_plain_twin_keeps_the_dice_and_paints_over_everything_else() -> None:
    source = SCENES[TWINS["board-plain"]]
    photo, twin = np.asarray(cv2.imread(str(source))), np.asarray(plain_twin(source))
    assert twin.shape == photo.shape
    kept = np.zeros(photo.shape[:2], dtype=np.bool_)
    for x0, y0, x1, y1 in sample_labels(source).dice.boxes:
        inner = (slice(int(np.ceil(y0)), int(y1)), slice(int(np.ceil(x0)), int(x1)))
        np.testing.assert_array_equal(twin[inner], photo[inner])  # each die exactly as photographed
        cx, cy, half = (x0 + x1) / 2, (y0 + y1) / 2, max(x1 - x0, y1 - y0)
        kept[max(0, int(cy - half)):int(cy + half) + 1, max(0, int(cx - half)):int(cx + half) + 1] = True
    rest = twin[~kept].reshape(-1, 3)
    assert len(np.unique(rest, axis=0)) == 1  # the board, its tokens and the cards are gone
    assert (photo[~kept].std(axis=0) > 20).all()  # where the photo had them


def test_the_twin_shows_as_many_dice_as_the_board_and_is_read_so() -> None:
    from dicecam.vision.reader import DiceReader

    assert DICE["board-plain"] == DICE["board"] == len(sample_labels(SCENES["board"]).dice)
    image = decode_image(scene_photo("board-plain", 1920, 1080))
    assert image.shape == (1080, 1920, 3)
    assert len(DiceReader().read(image)) == DICE["board-plain"]


@pytest.mark.parametrize(("board", "plain", "few", "expected"), [
    (16.0, 8.0, 7.5, "1920x1080: board / board-plain 2.00x, board / few 2.13x"),
    (9.0, 9.0, 9.0, "1920x1080: board / board-plain 1.00x, board / few 1.00x"),
])
def test_the_clutter_cost_is_the_board_over_its_twin(board, plain, few, expected) -> None:
    rows = [{"scene": scene, "size": "1920x1080", "recognition": {"median_ms": ms}}
            for scene, ms in (("board", board), ("board-plain", plain), ("few", few), ("busy", 20.0))]
    assert clutter_cost(rows) == f"clutter's cost (recognition, median): {expected}"


@pytest.mark.parametrize(("dice", "more", "expected"), [
    (False, 0, None),  # read without a count
    (True, 0, 2),      # the board's two dice, as a photo throw tells them
    (True, 3, 5),      # three more than it shows: a count it cannot fill
    (False, 3, 5),     # more than none implies telling
])
def test_the_count_told_is_the_scene_s_dice_and_more(dice, more, expected) -> None:
    assert told_count("board", dice=dice, more=more) == expected


def test_fewer_than_no_dice_more_is_refused() -> None:
    with pytest.raises(ValueError, match="--more"):
        told_count("board", dice=True, more=-1)
