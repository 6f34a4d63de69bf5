"""Named tables of what lies on a game table, for the renderer (`render_scene(objects=...)`).

"table" is `clutter.OBJECTS`, what training and the rendered benchmark always drew; "grid" is
`grid_objects.GRID_OBJECTS` alone (keypads, toy bricks, buttons, coins), to measure how the
reader takes things made of rows of round marks; "both" draws either, a grid thing a third
of the time.
"""

from __future__ import annotations

from dicecam.training.render.clutter import OBJECTS, Objects
from dicecam.training.render.grid_objects import GRID_OBJECTS


def _mixed(share: float) -> Objects:
    """`OBJECTS` and `GRID_OBJECTS` with the grid things drawn `share` of the time."""
    table, grid = sum(w for _, w in OBJECTS.values()), sum(w for _, w in GRID_OBJECTS.values())
    return {**{k: (f, w / table * (1 - share)) for k, (f, w) in OBJECTS.items()},
            **{k: (f, w / grid * share) for k, (f, w) in GRID_OBJECTS.items()}}


OBJECT_SETS: dict[str, Objects] = {"table": OBJECTS, "grid": GRID_OBJECTS, "both": _mixed(1 / 3)}
