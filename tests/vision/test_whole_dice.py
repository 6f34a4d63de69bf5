"""One face per die: boxes paired with the whole dice the detector boxes (`vision.boxes`)."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from dicecam.vision.boxes import drops_on_die, low_on_die, lower_faces, whole_die_of
from dicecam.vision.candidates import Candidates, filled
from dicecam.vision.detector import _Look
from dicecam.vision.reader import DiceReader

NAN = [np.nan] * 4


@pytest.mark.parametrize(("boxes", "wholes", "expected"), [
    # A top face and its front face, both on one whole die.
    ([[10, 10, 30, 30], [10, 32, 30, 44]], [[8, 8, 32, 46]], [[8, 8, 32, 46], [8, 8, 32, 46]]),
    # A box outside every whole die lies on none.
    ([[100, 100, 120, 120]], [[8, 8, 32, 46]], [NAN]),
    # Two whole dice hold a centre: the nearer one's centre wins.
    ([[20, 20, 30, 30]], [[0, 0, 40, 40], [20, 20, 60, 60]], [[0, 0, 40, 40]]),
    # No whole dice at all.
    ([[0, 0, 10, 10]], np.zeros((0, 4)), [NAN]),
])
def test_each_box_lies_on_the_nearest_whole_die_holding_its_centre(boxes, wholes, expected):
    np.testing.assert_array_equal(whole_die_of(np.array(boxes, np.float32), np.array(wholes, np.float32)),
                                  np.array(expected, np.float32))


def test_no_boxes_gives_an_empty_pairing():
    assert whole_die_of(np.zeros((0, 4)), np.array([[0, 0, 5, 5]])).shape == (0, 4)


@pytest.mark.parametrize(("ys", "dies", "among", "expected"), [
    # A top face above its side face: the side face goes.
    ([10, 30], [0, 0], [True, True], [False, True]),
    # The same two faces listed the other way round.
    ([30, 10], [0, 0], [True, True], [True, False]),
    # Two dice side by side, each on its own whole die: both stay.
    ([10, 10], [0, 1], [True, True], [False, False]),
    # A face the rules already dropped does not push the die's other face out.
    ([10, 30], [0, 0], [False, True], [False, False]),
    # On no whole die (NaN): never a side face.
    ([10, 30], [None, None], [True, True], [False, False]),
    # Three faces of one die: only the uppermost stays.
    ([20, 5, 40], [0, 0, 0], [True, True, True], [True, False, True]),
])
def test_of_one_whole_die_only_the_uppermost_kept_face_stays(ys, dies, among, expected):
    boxes = np.array([[0, y, 10, y + 10] for y in ys], np.float32)
    wholes = [[0, 0, 50, 60], [100, 0, 150, 60]]
    die_boxes = np.array([NAN if d is None else wholes[d] for d in dies], np.float32)
    assert lower_faces(boxes, die_boxes, np.array(among)).tolist() == expected


@given(st.lists(st.tuples(st.integers(0, 3), st.floats(0, 100), st.booleans()), max_size=12))
def test_every_whole_die_keeps_exactly_one_of_its_kept_faces(rows):
    """However the faces lie, each whole die with a kept face keeps exactly one, and a box
    not among the kept is never called a side face."""
    dies = np.array([r[0] for r in rows], int)
    boxes = np.array([[0, r[1], 10, r[1] + 10] for r in rows], np.float32).reshape(-1, 4)
    among = np.array([r[2] for r in rows], bool)
    die_boxes = np.array([[d, 0, d + 1, 1] for d in dies], np.float32).reshape(-1, 4)
    lower = lower_faces(boxes, die_boxes, among)
    assert not (lower & ~among).any()
    for d in set(dies[among].tolist()):
        assert ((dies == d) & among & ~lower).sum() == 1


def _faces(ys: list[float], tops: list[float], die_boxes: list) -> Candidates:
    """Read boxes the other rules keep (plain, sure, typical-sized), at heights `ys`."""
    f = np.float32
    n = len(ys)
    return Candidates(np.array([[0, y, 10, y + 10] for y in ys], f), np.ones(n, f), np.full(n, 3),
                      np.array(tops, f), np.array(tops, f), np.zeros(n, f), np.ones(n, f), None,
                      np.zeros(n, bool), None, np.array(die_boxes, f).reshape(-1, 4))


@pytest.fixture(scope="module")
def reader() -> DiceReader:
    return DiceReader()


@pytest.mark.parametrize(("off_die_sure", "tops", "dies", "kept"), [
    # The rules alone: a face on no whole die stays.
    (None, [0.99, 0.99], [[0, 0, 20, 50], NAN], [True, True]),
    # A face on no whole die, read plainly, stays; read doubtfully, it goes.
    (0.9, [0.99, 0.95], [[0, 0, 20, 50], NAN], [True, True]),
    (0.9, [0.99, 0.8], [[0, 0, 20, 50], NAN], [True, False]),
    # A face on a whole die stays however it is read (the other rules judge the reading).
    (0.9, [0.5, 0.5], [[0, 0, 20, 50], [0, 100, 20, 150]], [True, True]),
    # Two faces of one whole die: only the upper one is a die.
    (None, [0.99, 0.99], [[0, 0, 20, 50], [0, 0, 20, 50]], [True, False]),
])
def test_judging_by_whole_dice(reader, off_die_sure, tops, dies, kept):
    judging = reader if off_die_sure is None else DiceReader(settings=reader.settings.but(off_die_sure=off_die_sure))
    assert filled(judging.judge(_faces([5, 110], tops, dies)).kept, "kept").tolist() == kept


def test_without_whole_dice_the_rules_alone_judge(reader):
    seen = _faces([5, 30], [0.99, 0.5], [NAN, NAN])
    plain = Candidates(seen.boxes, seen.scores, seen.values, seen.held, seen.top, seen.not_a_die, seen.relative,
                       None, seen.lone)
    assert filled(reader.judge(plain).kept, "kept").tolist() == filled(reader.judge(seen).kept, "kept").tolist() \
        == [True, True]


@pytest.mark.parametrize(("face_top", "drop", "low"), [
    (0, 0.25, False),    # the top face, at the die's top
    (20, 0.25, False),   # a fifth of the die down: still its top face seen at an angle
    (30, 0.25, True),    # over a quarter down: the front face under the top one
    (30, 0.35, False),
])
def test_a_face_low_on_its_die_is_its_front_face(face_top, drop, low):
    die = np.array([[0, 0, 40, 100]], np.float32)
    face = np.array([[0, face_top, 40, face_top + 40]], np.float32)
    assert low_on_die(face, die, drop).tolist() == [low]


def test_a_face_on_no_known_die_is_never_low():
    assert low_on_die(np.array([[0, 50, 10, 60]], np.float32), np.array([NAN], np.float32), 0.0).tolist() == [False]


@pytest.mark.parametrize(("drop", "kept"), [(None, [True, True]), (0.25, [True, False]), (0.6, [True, True])])
def test_judging_drops_a_face_low_on_its_die(reader, drop, kept):
    judging = DiceReader(settings=reader.settings.but(max_face_drop=drop))
    # One face at the top of its die, one half-way down another (both read surely).
    faces = _faces([5, 160], [0.99, 0.99], [[0, 0, 20, 50], [0, 110, 20, 210]])
    assert filled(judging.judge(faces).kept, "kept").tolist() == kept


@pytest.mark.parametrize(("scale", "shift"), [(1.0, (0.0, 0.0)), (0.5, (0.0, 0.0)), (2.0, (40.0, 24.0))])
def test_a_pass_gives_the_die_at_each_box_centre_in_the_photo_s_pixels(scale, shift):
    """Distances to a die's edges, written at every cell of the die in a pass over the
    photo at `scale` (less `shift`), come back as that die's box in the photo's pixels."""
    stride, die = 4, np.array([60.0, 40.0, 100.0, 120.0])  # photo pixels
    sides = np.full((4, 64, 64), np.log(0.5), np.float32)
    px = die * scale - np.tile(shift, 2)  # the die in the pass's pixels
    for iy in range(64):
        for ix in range(64):
            cx, cy = (ix + 0.5) * stride, (iy + 0.5) * stride
            if px[0] < cx < px[2] and px[1] < cy < px[3]:
                sides[:, iy, ix] = np.log(np.array([cx - px[0], cy - px[1], px[2] - cx, px[3] - cy]) / stride)
    look = _Look(np.zeros((0, 4), np.float32), np.zeros(0, np.float32), sides=sides, sides_scale=scale,
                 sides_shift=shift)
    faces = np.array([[65, 45, 95, 75], [70, 90, 90, 110], [1000, 1000, 1010, 1010]], np.float32)
    got = look.die_at(faces, stride)
    assert got is not None
    np.testing.assert_allclose(got[:2], np.tile(die, (2, 1)), atol=1e-3)
    assert np.isnan(got[2]).all()  # outside the pass
    assert _Look(faces, np.ones(3, np.float32)).die_at(faces, stride) is None


@pytest.mark.parametrize(("face", "die", "gap"), [
    ([0, 0, 10, 10], [0, 0, 10, 40], 0.0),      # the top face, at the die's top
    ([0, 20, 10, 30], [0, 0, 10, 40], 0.5),     # half-way down: a front face
    ([0, -4, 10, 6], [0, 0, 10, 40], -0.1),     # a box a little above its die
])
def test_a_face_s_gap_is_its_drop_below_its_die_s_top_over_the_die_s_height(face, die, gap):
    assert drops_on_die(np.array([face]), np.array([die]))[0] == pytest.approx(gap)


def test_a_face_on_no_die_has_no_gap():
    assert np.isnan(drops_on_die(np.array([[0, 0, 1, 1]]), np.array([[np.nan] * 4]))[0])
