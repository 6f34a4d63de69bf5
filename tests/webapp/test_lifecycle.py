"""The life of a throw (numbering, rerolls, retakes, corrections, undo) without a database."""

from __future__ import annotations

from dataclasses import replace

import pytest
from hypothesis import given
from hypothesis import strategies as st

from dicecam.webapp import lifecycle
from dicecam.webapp.errors import Conflict
from dicecam.webapp.rows import ENTERED, OPEN, REROLLED, VOID, ThrowRow


def row(seq: int, status: str = OPEN, **kw) -> ThrowRow:
    dice = kw.pop("dice", [{"value": v, "box": None, "confidence": None} for v in (1, 2, 3, 4, 6)])
    return ThrowRow(
        id=f"t{seq}", game_id="g", seq=seq, base_event=kw.pop("base_event", 0), number=kw.pop("number", seq),
        player=kw.pop("player", "Anna"), source="manual", status=status, dice_read=dice, dice=dice, **kw,
    )


@pytest.mark.parametrize(
    "turn, throws_per_turn, retake, finished, refused",
    [
        ([], 3, False, False, None),
        ([row(1, REROLLED), row(2)], 3, False, False, None),
        ([row(1, REROLLED), row(2, REROLLED), row(3)], 3, False, False, "err_three_throws"),
        ([row(1, REROLLED), row(2, REROLLED), row(3)], 3, True, False, None),  # a retake is no new throw
        ([], 3, True, False, "err_no_open_throw"),
        ([row(1)], None, False, False, "err_pending_push"),  # set aside first
        ([], None, False, False, None),
        ([], 3, False, True, "err_finished"),
    ],
)
def test_when_a_throw_is_allowed(turn, throws_per_turn, retake, finished, refused):
    check = lambda: lifecycle.check_can_throw(  # noqa: E731
        turn, finished=finished, throws_per_turn=throws_per_turn, player="Anna", retake=retake
    )
    if refused is None:
        check()
    else:
        with pytest.raises(Conflict) as err:
            check()
        assert err.value.key == refused


def test_sheet_throws_count_within_the_turn():
    turn = [row(1, REROLLED), row(2)]
    assert lifecycle.next_number(turn, throws_per_turn=3, last_entered=None, events=0, player="Anna") == 3


@pytest.mark.parametrize(
    "last, events, player, number",
    [
        (None, 0, "Anna", 1),
        (row(1, ENTERED, entry={"keep": [1]}, entry_event=0, number=1), 1, "Anna", 2),  # throws on
        (row(1, ENTERED, entry={"keep": [1]}, entry_event=0, number=1), 2, "Anna", 1),  # banked since
        (row(1, ENTERED, entry={"keep": [1]}, entry_event=0, number=1), 1, "Ben", 1),  # Ben's turn
        (row(1, ENTERED, entry={"bust": True}, entry_event=0, number=3), 1, "Anna", 1),
    ],
)
def test_push_throws_follow_the_last_set_aside(last, events, player, number):
    assert lifecycle.next_number([], throws_per_turn=None, last_entered=last, events=events, player=player) == number


def test_throwing_again_keeps_the_open_throw_as_evidence():
    turn = [row(1, REROLLED), row(2)]
    assert [(r.id, r.status) for r in lifecycle.rerolled(turn)] == [("t2", REROLLED)]


def test_a_retake_voids_the_open_throw_and_says_so():
    old = row(1)
    new = lifecycle.retaken(old, by="Ben", at="now")
    assert new.status == VOID and new.history == [{"retaken": True, "at": "now", "by": "Ben"}]
    assert old.status == OPEN  # rows are values: the old one is unchanged


def test_a_correction_records_who_changed_what():
    before = row(1)
    after = lifecycle.corrected(before, [{"value": 6, "box": None, "confidence": None}] * 5, by="Ben", at="now")
    assert lifecycle.values_of(after.dice) == [6] * 5
    assert after.corrections == [{"by": "Ben", "at": "now", "before": [1, 2, 3, 4, 6], "after": [6] * 5}]
    assert after.dice_read == before.dice_read


def test_a_correction_that_changes_nothing_is_not_recorded():
    before = row(1)
    assert lifecycle.corrected(before, before.dice, by="Ben", at="now") is before


@given(
    read=st.lists(st.integers(1, 6), min_size=1, max_size=6),
    sent=st.lists(st.integers(1, 6), min_size=1, max_size=6),
)
def test_corrected_dice_keep_their_boxes_and_lose_confidence_only_where_changed(read, sent):
    dice = [{"value": v, "box": [i, 0, i + 1, 1], "confidence": 0.9} for i, v in enumerate(read)]
    out = lifecycle.apply_values(dice, [{"value": v, "box": None, "confidence": None} for v in sent])
    assert lifecycle.values_of(out) == sent
    for i, d in enumerate(out):
        if i < len(read):
            assert d["box"] == dice[i]["box"]
            assert d["confidence"] == (0.9 if sent[i] == read[i] else None)
        else:
            assert d["box"] is None


def test_undo_reopens_the_entered_throw_and_voids_later_ones():
    entered = row(1, ENTERED, entry={"box": "chance", "points": 16}, entry_event=0)
    later = [row(2, base_event=1, player="Ben")]
    out = {r.id: r for r in lifecycle.undone(entered, later, by="Anna", at="now")}
    assert out["t1"].status == OPEN and out["t1"].entry is None and out["t1"].entry_event is None
    assert out["t1"].history == [{"undone": {"box": "chance", "points": 16}, "at": "now", "by": "Anna"}]
    assert out["t2"].status == VOID and out["t2"].history[0]["voided_by_undo"] is True


def _die(value: int, box: list[float] | None) -> dict:
    return {"value": value, "box": box, "confidence": 0.9 if box else None}


A, B, C = [1.0, 1.0, 9.0, 9.0], [20.0, 1.0, 29.0, 9.0], [40.0, 1.0, 49.0, 9.0]


@pytest.mark.parametrize(
    "read, now, expected",
    [
        ([_die(3, A), _die(5, B)], [_die(3, A), _die(5, B)], [(3, 3), (5, 5)]),            # as read
        ([_die(3, A), _die(5, B)], [_die(6, A), _die(5, B)], [(3, 6), (5, 5)]),            # corrected
        ([_die(3, A), _die(5, B), _die(1, C)], [_die(3, A), _die(1, C)], [(3, 3), (5, None), (1, 1)]),  # removed
        ([_die(3, A), _die(5, B)], [_die(3, A), _die(5, B), _die(2, None)], [(3, 3), (5, 5)]),  # typed in: no place
        ([_die(4, None)], [_die(4, None)], []),                                             # read without a box
        ([_die(3, A), _die(5, B)], [_die(3, A), _die(2, C)], [(3, 3), (5, None), (None, 2)]),  # a grey die counted
    ],
    ids=["as-read", "corrected", "removed", "typed-in", "no-box", "left-out-counted"],
)
def test_each_die_read_in_the_photo_says_what_it_became(read, now, expected):
    from dicecam.webapp.present import read_and_now

    throw = replace(row(1), dice_read=read, dice=now)
    assert [(c["read"], c["now"]) for c in read_and_now(throw)] == expected
    boxes = [d["box"] for d in read if d["box"]]
    counted = [d["box"] for d in now if d["box"] and d["box"] not in boxes]
    assert [c["box"] for c in read_and_now(throw)] == boxes + counted


@given(st.lists(st.integers(1, 6), min_size=1, max_size=6), st.data())
def test_a_correction_laid_over_the_read_dice_is_what_each_die_became(values, data):
    """Whatever values a player sends for the read dice (boxes kept), each die read shows
    the value sent for it: apply_values and read_and_now agree."""
    from dicecam.webapp.present import read_and_now

    read = [_die(v, [10.0 * i, 0.0, 10.0 * i + 8, 8.0]) for i, v in enumerate(values)]
    sent = [{"value": data.draw(st.integers(1, 6)), "box": d["box"], "confidence": None} for d in read]
    throw = lifecycle.corrected(replace(row(1), dice_read=read, dice=read), sent, by=None, at="now")
    assert [c["now"] for c in read_and_now(throw)] == [d["value"] for d in sent]
