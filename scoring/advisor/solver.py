"""Exact optimal solitaire play of one score column, by dynamic programming.

Between turns the state is (filled boxes, extra-bonus flag, upper subtotal capped at
the bonus threshold). The upper bonus is paid the moment the subtotal reaches the
threshold, so once all six upper boxes are filled the subtotal no longer matters,
and the flag only matters once `five_kind` is filled. The table holds, for every
state, the expected points still to come from the start of a turn; it is filled a
whole layer (same number of filled boxes) at a time, vectorized over states.

Inside a turn (`turn_values`) the values run over the 462 keeps as rows: the end-of-
turn value of each throw, then alternately the expectation over the dice thrown
again and the best keep of each throw, as in `dice_space`.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass

import numpy as np

from dicecam.scoring.advisor.dice_space import (
    EMPTY_ROW,
    N_KEEPS,
    N_THROWS,
    THROW_COUNTS,
    THROW_ROWS,
    best_subkeep,
    expect_down,
)
from dicecam.scoring.advisor.tables import (
    EXTRA_BONUS_POINTS,
    FIVE_KIND,
    FIVE_KIND_THROWS,
    N_BOXES,
    SCORES,
    UPPER_BONUS,
    UPPER_MASK,
    ColumnRules,
    ExtraBonus,
    Joker,
    joker_scores,
)

N_MASKS = 1 << N_BOXES
ALL_FILLED = N_MASKS - 1
LOWER_BOXES = tuple(range(6, N_BOXES))
_CHUNK = 1024
# Throws that score in each lower box (the others score 0 there).
_SCORING_ROWS = {b: np.flatnonzero(SCORES[b] > 0) for b in LOWER_BOXES}
# For each face 1-6 and count 1-5, the throws with that many of that face.
_UPPER_ROWS = [[np.flatnonzero(THROW_COUNTS[:, i] == k) for k in range(6)] for i in range(6)]


@dataclass(frozen=True)
class ColumnTable:
    """Expected remaining score at the start of a turn for every state of a column.

    `values[mask, flag, upper]`: `mask` has bit b set when box b (tables.BOX_IDS) is
    filled, `flag` is 1 when another five of a kind still earns the extra bonus,
    `upper` the upper subtotal capped at the threshold. NaN marks states no game
    reaches.
    """

    rules: ColumnRules
    values: np.ndarray

    @property
    def expected_score(self) -> float:
        """Expected final score of a new game played optimally."""
        return float(self.values[0, 0, 0])


def reachable_uppers(threshold: int) -> np.ndarray:
    """(64, threshold+1) bool: capped upper subtotals reachable with each upper set."""
    reach = np.zeros((64, threshold + 1), dtype=bool)
    reach[0, 0] = True
    for mask in range(1, 64):
        face = mask.bit_length()  # the highest face in the set
        prev = np.flatnonzero(reach[mask & ~(1 << (face - 1))])
        for n in range(6):
            reach[mask, np.minimum(prev + face * n, threshold)] = True
    return reach


def _states(layer_masks: np.ndarray, rules: ColumnRules, reach: np.ndarray):
    """The distinct states (mask, flag, upper) of one layer worth computing."""
    upper_full = (layer_masks & UPPER_MASK) == UPPER_MASK
    ups = reach[layer_masks & UPPER_MASK].copy()
    ups[upper_full] = False
    ups[upper_full, 0] = True  # one representative: the subtotal no longer matters
    flag_ok = np.zeros((len(layer_masks), 2), dtype=bool)
    flag_ok[:, 0] = True
    if rules.has_flag:
        flag_ok[:, 1] = (layer_masks >> FIVE_KIND) & 1 == 1
    grid = flag_ok[:, :, None] & ups[:, None, :]
    i, f, u = np.nonzero(grid)
    return layer_masks[i], f, u


def _successor(values: np.ndarray, rules: ColumnRules, m, f, u, box, points, flag=None):
    """points + upper bonus + value of the next state, -inf where `box` is filled.

    `m`, `f`, `u` are (n,) states; `box` and `points` broadcast against them from
    the left (e.g. (6, 6, 1) for every upper box and count).
    """
    t = rules.threshold
    flag = f if flag is None else flag
    upper = box < 6
    gain = np.where(upper, points, 0)
    nu = np.minimum(u + gain, t)
    bonus = np.where((u < t) & (u + gain >= t), UPPER_BONUS, 0)
    nf = values.shape[1]  # 2 flags, or 1 for tables of rules without an extra bonus
    cell = ((m | (1 << box)) * nf + (flag if nf == 2 else 0)) * (t + 1) + nu
    val = values.reshape(-1)[cell] + (points + bonus)
    return np.where((m >> box) & 1 == 0, val, -np.inf)


_FACE_COL = np.arange(6)[:, None, None]
_UPPER_POINTS = (np.arange(1, 7)[:, None] * np.arange(6)[None, :])[:, :, None]
_LOWER_COL = np.array(LOWER_BOXES)[:, None]
_LOWER_SCORING = [(i, b, _SCORING_ROWS[b]) for i, b in enumerate(LOWER_BOXES) if b != FIVE_KIND]
_JOKER_POINTS = np.array([joker_scores(face) for face in range(1, 7)])[:, :, None]
_ALL_COL = np.arange(N_BOXES)[None, :, None]
_SCORES32 = SCORES.astype(np.float32)


def end_of_turn_values(values: np.ndarray, rules: ColumnRules, m, f, u):
    """The best box choice's value for every throw in each of n states.

    Returns `(base, rel)`: `base` (n,) float64 is the best 0-point choice of each
    state and `rel` (252, n) float32 what each throw adds to it. Keeping and
    expecting commute with a per-state shift, and the shifted values are small, so
    float32 (half the memory traffic) stays exact to about 1e-6.
    """
    def after(box, points, flag=None):
        return _successor(values, rules, m, f, u, box, points, flag)

    upper = after(_FACE_COL, _UPPER_POINTS)  # (face, count, n)
    # five_kind scratched: no extra bonus ever after.
    lower = after(_LOWER_COL, 0, flag=np.where(_LOWER_COL == FIVE_KIND, 0, f))
    fifty = after(FIVE_KIND, 50, flag=np.ones_like(f) if rules.has_flag else None)
    # Every open box can take any throw for 0 points, and a box's real points never
    # leave a worse state (the table grows with the subtotal and the flag), so each
    # throw's value is the best 0-point choice, raised where a box scores.
    base = np.maximum(upper[:, 0].max(axis=0), lower.max(axis=0))
    upper = (upper - base).astype(np.float32)
    lower = (lower - base).astype(np.float32)
    out = np.zeros((N_THROWS, len(m)), dtype=np.float32)
    for face in range(6):
        for k in range(1, 6):
            rows = _UPPER_ROWS[face][k]
            out[rows] = np.maximum(out[rows], upper[face, k])
    for i, b, rows in _LOWER_SCORING:
        out[rows] = np.maximum(out[rows], _SCORES32[b, rows][:, None] + lower[i])
    out[FIVE_KIND_THROWS] = np.maximum(out[FIVE_KIND_THROWS], fifty - base)
    if rules.has_flag or rules.joker is not Joker.NONE:
        _five_kind_again(out, base, values, rules, m, f, u)
    return base, out


def _five_kind_again(out, base, values, rules: ColumnRules, m, f, u) -> None:
    """Overwrite the five-of-a-kind rows where `five_kind` is filled: bonus and joker."""
    sel = np.flatnonzero((m >> FIVE_KIND) & 1 == 1)
    if not len(sel):
        return
    m, f, u = m[sel], f[sel], u[sel]
    rows = out[FIVE_KIND_THROWS[:, None], sel[None, :]] + base[sel]  # (face, n)
    bonus = EXTRA_BONUS_POINTS * f
    if rules.joker is Joker.NONE:  # WÜRFELWARE: +100, the throw scores as usual
        rows = rows + bonus
    elif rules.joker is Joker.FREE:  # Spiffel: once, then the flag is spent
        cand = _successor(values, rules, m, f, u, _ALL_COL, _JOKER_POINTS, np.zeros_like(f))
        rows = np.where(f == 1, cand.max(axis=1) + bonus, rows)
    else:
        # Yahtzee's forced joker: the matching upper box if open, else a lower box
        # at full value, else an upper box for 0.
        cand = _successor(values, rules, m, f, u, _ALL_COL, _JOKER_POINTS)  # (face, box, n)
        match = cand[np.arange(6), np.arange(6)]
        low = cand[:, 6:].max(axis=1)
        up = cand[:, :6].max(axis=1)
        rows = np.where(np.isfinite(match), match, np.where(np.isfinite(low), low, up)) + bonus
    out[FIVE_KIND_THROWS[:, None], sel[None, :]] = rows - base[sel]


@dataclass(frozen=True)
class BoxOutcome:
    """What filling each box with a given throw does, per state: (13, n) arrays.

    `allowed` is False where the box is filled or a forced joker sends the throw
    elsewhere; `points` go into the box, `extra` (n,) is the extra bonus earned,
    `next_flag` the flag after the turn.
    """

    allowed: np.ndarray
    points: np.ndarray
    extra: np.ndarray
    next_flag: np.ndarray


def box_outcomes(rules: ColumnRules, m, f, throws) -> BoxOutcome:
    """Where each of n throws (indices 0..251) may go in n states, and for what."""
    boxes = np.arange(N_BOXES)[:, None]
    allowed = (m >> boxes) & 1 == 0
    points = SCORES[:, throws].copy()
    five = THROW_COUNTS[throws].max(axis=1) == 5
    face = np.argmax(THROW_COUNTS[throws], axis=1)  # 0-based, meaningful for `five`
    filled5 = (m >> FIVE_KIND) & 1 == 1
    earns = five & filled5 & (f == 1) & rules.has_flag
    extra = np.where(earns, EXTRA_BONUS_POINTS, 0)
    next_flag = np.broadcast_to(f, points.shape).copy()
    if rules.has_flag:
        next_flag[FIVE_KIND] = np.where(five, 1, 0)
    if rules.extra_bonus is ExtraBonus.ONCE:
        next_flag[:, earns] = 0
    joker = {Joker.NONE: np.zeros_like(five), Joker.FREE: earns,
             Joker.FORCED: five & filled5}[rules.joker]
    if joker.any():
        points[:, joker] = _JOKER_POINTS[face[joker], :, 0].T
    if rules.joker is Joker.FORCED and joker.any():
        match = np.zeros_like(allowed)
        match[face, np.arange(len(m))] = True
        match &= allowed
        lower = allowed & (boxes >= 6)
        forced = np.where(match.any(axis=0), match, np.where(lower.any(axis=0), lower, allowed))
        allowed = np.where(joker, forced, allowed)
    return BoxOutcome(allowed, points, extra, next_flag)


def box_values(values: np.ndarray, rules: ColumnRules, m, f, u, throws) -> np.ndarray:
    """(13, n): points + bonuses + value after each box choice; -inf if not allowed."""
    out = box_outcomes(rules, m, f, throws)
    vals = _successor(values, rules, m, f, u, np.arange(N_BOXES)[:, None], out.points,
                      out.next_flag) + out.extra
    return np.where(out.allowed, vals, -np.inf)


@dataclass(frozen=True)
class TurnValues:
    """Values (462, n) of every keep after throw 1 (`after_first`) and throw 2
    (`after_second`): keeping those dice and throwing the rest, then playing on
    optimally. Their throw rows are the values of stopping with that throw.
    `end[t]` (252, n) is the value of throw t when the box is chosen now."""

    end: np.ndarray
    after_second: np.ndarray
    after_first: np.ndarray
    start: np.ndarray


def _turn(end: np.ndarray, *, full: bool) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    n = end.shape[1]
    keeps = np.empty((N_KEEPS, n), dtype=end.dtype)
    keeps[THROW_ROWS] = end
    e3 = expect_down(keeps)
    e2 = np.empty_like(e3)
    e2[THROW_ROWS] = best_subkeep(e3)
    expect_down(e2)
    e1 = e2.copy() if full else e3  # reuse the buffer when only the start value is wanted
    e1[THROW_ROWS] = best_subkeep(e2)
    expect_down(e1)
    return e3, e2, e1[EMPTY_ROW].copy()


def turn_values(end: np.ndarray) -> TurnValues:
    """The in-turn values for n states from their end-of-turn values (252, n)."""
    e3, e2, start = _turn(end, full=True)
    return TurnValues(end, e3, e2, start)


def turn_start(end: np.ndarray) -> np.ndarray:
    """(n,) only the value at the start of the turn (`turn_values(end).start`), cheaper."""
    return _turn(end, full=False)[2]


def solve_column(rules: ColumnRules, *, chunk: int = _CHUNK, workers: int | None = None,
                 passed: np.ndarray | None = None,
                 progress: Callable[[int, int], None] | None = None) -> ColumnTable:
    """Fill the whole table for `rules`, layer by layer from the last turn back.

    The states of a layer are independent, so their chunks run on `workers`
    threads (numpy releases the GIL); default: one per CPU. `passed`, if given,
    is the table of the same column with one pass fewer: a turn may then end
    without filling a box (see `solve_passes`). `progress(done, 13)` is called after
    each layer.
    """
    t = rules.threshold
    values = np.full((N_MASKS, 2, t + 1), np.nan)
    values[ALL_FILLED] = 0.0
    reach = reachable_uppers(t)
    masks = np.arange(N_MASKS)
    filled_count = np.array([bin(x).count("1") for x in masks])

    def solve_chunk(m, f, u) -> None:
        base, rel = end_of_turn_values(values, rules, m, f, u)
        if passed is not None:
            # Passing is one more 0-point choice, worth the same for every throw.
            new_base = np.maximum(base, passed[m, f, u])
            rel = np.maximum(rel - (new_base - base).astype(np.float32), 0)
            base = new_base
        values[m, f, u] = turn_start(rel) + base

    with ThreadPoolExecutor(max_workers=workers or os.cpu_count() or 1) as pool:
        for k in range(N_BOXES - 1, -1, -1):
            layer = masks[filled_count == k]
            m, f, u = _states(layer, rules, reach)
            parts = [(m[s:s + chunk], f[s:s + chunk], u[s:s + chunk])
                     for s in range(0, len(m), chunk)]
            list(pool.map(lambda p: solve_chunk(*p), parts))
            upper_full = layer[(layer & UPPER_MASK) == UPPER_MASK]
            values[upper_full] = values[upper_full][:, :, :1]
            no_flag = layer if not rules.has_flag else layer[(layer >> FIVE_KIND) & 1 == 0]
            values[no_flag, 1] = values[no_flag, 0]
            if progress is not None:
                progress(N_BOXES - k, N_BOXES)
    values.setflags(write=False)
    return ColumnTable(rules, values)


def solve_passes(rules: ColumnRules, passes: int, *, first: ColumnTable | None = None,
                 progress: Callable[[int, int], None] | None = None) -> np.ndarray:
    """(passes+1, masks, upper) float32: the column's value when up to p turns may
    pass without filling a box, for p = 0..passes (rules without an extra bonus).

    A column of a multi-column sheet gets its boxes from more turns than it has
    boxes; this measures what waiting for better throws is worth to it.
    `progress(done, passes * 13)` is called after each layer of each pass table.
    """
    if rules.has_flag:
        raise ValueError("pass tables are only for rules without an extra bonus")
    table = first or solve_column(rules)
    out = [table.values[:, 0]]
    for p in range(passes):
        layer = None if progress is None else (
            lambda done, total, p=p: progress(p * total + done, passes * total))
        table = solve_column(rules, passed=table.values, progress=layer)
        out.append(table.values[:, 0])
    return np.stack(out).astype(np.float32)
