"""Hard-negative mining: the boxes a detector draws on no labelled die, at the first look or the count's closer one."""

from __future__ import annotations

from helpers_photos import board_on_table

from dicecam.training.data.mine import mistaken, unmatched
from dicecam.vision.peaks import apart_from
from dicecam.vision.reader import DiceReader


def test_the_count_s_closer_look_mines_other_boxes_than_the_first_look() -> None:
    reader = DiceReader(min_score=0.15)
    image, dice, _values = board_on_table()
    first = mistaken(reader, image, dice)
    closer = mistaken(reader, image, dice, search=True)
    assert len(first) and len(closer)
    # Every mined box frames no die, and the closer look's lie apart from the first look's boxes.
    assert unmatched(dice, first).all() and unmatched(dice, closer).all()
    assert apart_from(closer, reader.detect(image).boxes).all()
