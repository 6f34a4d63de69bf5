"""Rendered scenes seen steeply more often, for the detector's steep-view tune (`--steep`, session 19)."""

from __future__ import annotations

import numpy as np
import pytest

pytest.importorskip("torch", reason="training needs the `train` extra")

from dicecam.training.data.sources import synth_scene_source
from dicecam.training.learn.train import main as train_main
from dicecam.training.render.scene import _camera_tilt, render_scene


def _bands(tilts: np.ndarray) -> tuple[float, float]:
    """Shares of views from above (under 10 degrees) and of steep ones (40 degrees on)."""
    return float((tilts < 10).mean()), float((tilts >= 40).mean())


def test_steep_tilts_stay_in_the_renderers_range_and_favour_steep_views() -> None:
    rng = np.random.default_rng(3)
    tilts = np.array([_camera_tilt(rng, steep=True) for _ in range(4000)])
    assert tilts.min() >= 0 and tilts.max() <= 55
    above, steep = _bands(tilts)
    assert 0.12 < above < 0.18
    assert 0.43 < steep < 0.52


def test_a_steep_scene_records_its_tilt_and_steep_scenes_are_steeper() -> None:
    def tilts(steep: bool) -> np.ndarray:
        return np.array([render_scene(np.random.default_rng(s), size=(160, 120), n_dice=1, steep=steep).tilt_deg
                         for s in range(40)])

    plain, steep = tilts(False), tilts(True)
    assert _bands(steep)[1] > _bands(plain)[1]
    assert steep.mean() > plain.mean() + 5


def test_the_scene_source_passes_steep_on(monkeypatch) -> None:
    from dicecam.training.render import scene

    asked = []
    render = scene.render_scene

    def spy(rng, **kwargs):
        asked.append(kwargs)
        return render(rng, **kwargs)

    monkeypatch.setattr(scene, "render_scene", spy)
    draw = synth_scene_source(steep=True)
    assert draw is not None
    sample = draw(np.random.default_rng(11))
    assert asked and asked[0]["steep"] is True
    assert sample.tilt_deg is not None and 0 <= sample.tilt_deg <= 55


@pytest.mark.parametrize("what", ["reader", "all"])
def test_steep_is_for_the_detector_only(what: str, capsys) -> None:
    with pytest.raises(SystemExit):
        train_main([what, "--steep"])
    assert "--steep" in capsys.readouterr().err
