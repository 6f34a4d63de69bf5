"""Named tables of what lies on a game table, for the renderer (`render_scene(objects=...)`).

"table" is `clutter.OBJECTS`, what training and the rendered benchmark always drew; "grid" is
`grid_objects.GRID_OBJECTS` alone (keypads, toy bricks, buttons, coins), to measure how the
reader takes things made of rows of round marks; "both" draws either, a grid thing a third
of the time; "tiles" is `tiles.TILE_OBJECTS` alone (letter and mahjong tiles, wooden cubes,
poker chips, score sheets with printed die faces), pieces a die's face's size and shape;
"all" draws from the three, a grid thing and a tile each a quarter of the time.
"""

from __future__ import annotations

from dicecam.training.render.clutter import OBJECTS, Objects
from dicecam.training.render.grid_objects import GRID_OBJECTS
from dicecam.training.render.tiles import TILE_OBJECTS


def _mixed(*tables: tuple[Objects, float]) -> Objects:
    """The `tables` drawn together, each its share of the time (the shares add up to 1)."""
    out: dict = {}
    for table, share in tables:
        total = sum(w for _, w in table.values())
        out |= {k: (f, w / total * share) for k, (f, w) in table.items()}
    return out


OBJECT_SETS: dict[str, Objects] = {
    "table": OBJECTS,
    "grid": GRID_OBJECTS,
    "both": _mixed((OBJECTS, 2 / 3), (GRID_OBJECTS, 1 / 3)),
    "tiles": TILE_OBJECTS,
    "all": _mixed((OBJECTS, 1 / 2), (GRID_OBJECTS, 1 / 4), (TILE_OBJECTS, 1 / 4)),
}
