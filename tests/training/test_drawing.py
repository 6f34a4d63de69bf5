"""The render package's drawing kit: pieces land where their boxes say, to the sub-pixel."""

from __future__ import annotations

import numpy as np
import pytest

from dicecam.training.render.drawing import SQUARE, box_around, circle, disc, seen_at_angle, turned


def test_a_disc_is_centred_between_pixels_where_it_is_asked() -> None:
    img = np.zeros((60, 60, 3), np.uint8)
    disc(img, (20.25, 30.5), 8.0, 255)
    w = img[..., 0].astype(np.float64)
    ys, xs = np.indices(w.shape)
    # OpenCV's pixel centres are at whole coordinates: the weighted centre is the asked one
    assert abs((w * xs).sum() / w.sum() - 20.25) < 0.05
    assert abs((w * ys).sum() / w.sum() - 30.5) < 0.05


def test_a_square_turned_a_quarter_is_the_same_square_and_its_box() -> None:
    pts = turned((10.0, 20.0), 90.0, SQUARE * 3)
    assert box_around(pts) == pytest.approx((7.0, 17.0, 13.0, 23.0))
    assert box_around(pts, 1.0) == pytest.approx((6.0, 16.0, 14.0, 24.0))


def test_a_circle_s_outline_lies_on_it() -> None:
    pts = circle((5.0, -2.0), 4.0, n=12)
    assert pts.shape == (12, 2)
    assert np.allclose(np.hypot(pts[:, 0] - 5.0, pts[:, 1] + 2.0), 4.0)



@pytest.mark.parametrize(("squash", "turn", "wide", "tall"), [
    (1.0, 0.0, 40, 40),    # seen from above: the disc as drawn
    (0.5, 0.0, 40, 20),    # squashed across the level axis: half as tall
    (0.5, 90.0, 20, 40),   # the axis turned a quarter: half as wide
])
def test_a_disc_seen_at_an_angle_is_an_ellipse_of_its_squash(squash, turn, wide, tall) -> None:
    img = np.zeros((100, 100, 3), np.uint8)
    box = seen_at_angle(lambda part, here: disc(part, here, 20, (255, 255, 255)), img, (50.0, 50.0), 30,
                        squash=squash, turn=turn)
    assert box is not None
    x0, y0, x1, y1 = box
    assert abs((x1 - x0) - wide) <= 3 and abs((y1 - y0) - tall) <= 3  # an anti-aliased edge: a pixel or two
    assert abs((x0 + x1) / 2 - 50) <= 1 and abs((y0 + y1) / 2 - 50) <= 1
    assert (img[int(y1) + 2:, :] == 0).all()  # nothing painted beyond its box


def test_nothing_drawn_paints_nothing() -> None:
    img = np.zeros((60, 60, 3), np.uint8)
    assert seen_at_angle(lambda part, here: None, img, (30.0, 30.0), 10, squash=0.7, turn=20) is None
    assert not img.any()
