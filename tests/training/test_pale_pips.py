"""Rendered pips that hardly stand out from their die (`--pale-pips`, models/HISTORY.md R126a)."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from dicecam.training.render import dice
from dicecam.training.render.dice import pale_pips, random_material

colours = st.tuples(*[st.floats(0, 255)] * 3).map(lambda c: np.array(c, np.float32))


def _contrast(mat: dice.Material) -> float:
    return float(np.abs(np.subtract(mat.pip, mat.body)).max())


@given(colours, st.integers(0, 2**32 - 1))
def test_pale_pips_stand_out_less_than_black_or_white_would(body: np.ndarray, seed: int) -> None:
    pip = pale_pips(np.random.default_rng(seed), body)
    assert pip.shape == (3,) and pip.min() >= 0 and pip.max() <= 255
    farthest = np.maximum(body, 255 - body)  # what a white or a black pip would stand out by
    assert np.all(np.abs(pip - body) <= farthest + 1e-3)
    assert np.abs(pip - body).max() < 0.7 * farthest.max() + 1e-3


def test_off_by_default_and_turned_on_some_dice_get_pale_pips(monkeypatch: pytest.MonkeyPatch) -> None:
    def low_contrast_share() -> float:
        rng = np.random.default_rng(3)
        return float(np.mean([_contrast(random_material(rng)) < 90 for _ in range(400)]))

    assert dice.PALE_PIPS == 0.0  # the shipped renderer, benchmarks and tests draw as before
    plain = low_contrast_share()
    monkeypatch.setattr(dice, "PALE_PIPS", 1.0)
    assert low_contrast_share() > plain + 0.1


@pytest.mark.parametrize("argv", [["detector", "--pale-pips", "0.3"], ["reader", "--pale-pips", "0.3"]])
def test_pale_pips_need_fresh_reader_crops(argv: list[str]) -> None:
    pytest.importorskip("torch", reason="training needs the `train` extra")
    from dicecam.training.learn.train import main, parser

    with pytest.raises(SystemExit):
        main(argv)
    assert parser().parse_args(["reader", "--fresh-crops", "--pale-pips", "0.3"]).pale_pips == 0.3
