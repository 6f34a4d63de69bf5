"""`advise(game, dice, throw)`: every option of the current player, ranked by the
expected final score, with what each costs against the best; `review(game)` the
box choices of a finished (or running) game that cost the most.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from dicecam.scoring import Game, ScoringError, Sheet, keep_options
from dicecam.scoring.advisor.cache import column_table
from dicecam.scoring.advisor.dice_space import KEEP_COUNTS, SUBKEEPS, throw_index
from dicecam.scoring.advisor.poker import poker_table
from dicecam.scoring.advisor.simulate import ColumnSumPolicy, SheetState
from dicecam.scoring.advisor.solver import turn_values
from dicecam.scoring.advisor.tables import BOX_IDS, ExtraBonus, column_rules
from dicecam.scoring.advisor.wuerfelspiel import wuerfelspiel_policy
from dicecam.scoring.events import Fill


class AdviceError(ScoringError):
    """The situation cannot be advised on (bad dice, bad throw number, game over)."""


@dataclass(frozen=True)
class Action:
    """One option: set dice aside (`keep`, with their `positions` in the dice as given),
    or fill `box` (and `column`) with `points`, or in Würfelpoker set `keep` aside and
    `bank` or throw on. `expected` is the expected final score (Würfelpoker: the
    expected points this turn banks), `loss` how much less that is than the best."""

    expected: float
    loss: float
    keep: tuple[int, ...] | None = None
    positions: tuple[int, ...] | None = None
    box: str | None = None
    column: int | None = None
    points: int | None = None
    bank: bool | None = None

    def to_dict(self) -> dict:
        d: dict = {}
        if self.keep is not None:
            d["keep"] = list(self.keep)
        if self.positions is not None:
            d["positions"] = list(self.positions)
        if self.box is not None:
            d.update(box=self.box, column=self.column, points=self.points)
        if self.bank is not None:  # Würfelpoker: what the set-aside dice score, and whether to bank
            d.update(points=self.points, bank=self.bank)
        d.update(expected=round(self.expected, 4), loss=round(self.loss, 4))
        return d


@dataclass(frozen=True)
class Advice:
    """The ranked options of one situation, best first.

    `stage` is "keep" (after throw 1 or 2), "box" (after throw 3, or when stopping)
    or "push" (Würfelpoker). `exact` is False where the values come from a policy
    (Würfelspiel's three columns) rather than the exact optimum.
    """

    stage: str
    player: str
    dice: tuple[int, ...]
    throw: int | None
    exact: bool
    actions: tuple[Action, ...]

    @property
    def best(self) -> Action | None:
        return self.actions[0] if self.actions else None

    def to_dict(self) -> dict:
        return {
            "stage": self.stage, "player": self.player, "dice": list(self.dice),
            "throw": self.throw, "exact": self.exact,
            "actions": [a.to_dict() for a in self.actions],
            "best": self.best.to_dict() if self.best else None,
        }


def _ranked(scored: list[tuple[float, dict]]) -> tuple[Action, ...]:
    scored.sort(key=lambda x: -x[0])
    top = scored[0][0] if scored else 0.0
    return tuple(Action(expected=v, loss=top - v, **kw) for v, kw in scored)


def _check_dice(dice: object, count: int) -> tuple[int, ...]:
    if isinstance(dice, (str, bytes)) or not isinstance(dice, Sequence):
        raise AdviceError("The dice must be a list of numbers", code="dice_not_list")
    if not all(isinstance(d, int) and not isinstance(d, bool) and 1 <= d <= 6 for d in dice):
        raise AdviceError("Dice must be numbers 1 to 6", code="dice_values")
    if len(dice) != count:
        raise AdviceError(f"Give all {count} dice, not {len(dice)}", code="dice_count",
                          expected=count, got=len(dice))
    return tuple(dice)


# -- the Kniffel family --------------------------------------------------------------

def _policy(variant_id: str) -> ColumnSumPolicy:
    if variant_id == "wuerfelspiel":
        return wuerfelspiel_policy()
    return ColumnSumPolicy((column_table(variant_id),), (1,))


def sheet_state(policy: ColumnSumPolicy, sheet: Sheet) -> SheetState:
    """The solver's state of a player's sheet (one game)."""
    cols = len(policy.tables)
    s = SheetState.new(cols, 1)
    for c, table in enumerate(policy.tables):
        rules = table.rules
        col = c + 1
        s.masks[c] = sum(1 << i for i, b in enumerate(BOX_IDS) if not sheet.is_open(b, col))
        s.upper_sums[c] = sheet.upper_subtotal(col)
        s.uppers[c] = min(rules.threshold, sheet.upper_subtotal(col))
        bonus_left = rules.has_flag and sheet.box("five_kind", col) == 50 and not (
            rules.extra_bonus is ExtraBonus.ONCE and sheet.extra_bonus_earned)
        s.flags[c] = int(bonus_left)
    s.totals[0] = sheet.total
    return s


def expected_final(policy: ColumnSumPolicy, sheet: Sheet) -> float:
    """Expected final score of a sheet at the start of its owner's next turn."""
    s = sheet_state(policy, sheet)
    return float(sheet.total + policy.value(s)[0])


def _box_actions(game_variant, policy, sheet: Sheet, dice) -> tuple[Action, ...]:
    """Every legal box (scoring's rules) valued by the policy that plays it."""
    s = sheet_state(policy, sheet)
    now = sheet.total + float(policy.value(s)[0])
    gains = policy.box_scores(s, np.array([throw_index(dice)]))[:, :, 0]
    scored = []
    for ch in game_variant.choices(sheet, dice):
        gain = gains[(ch.column or 1) - 1, BOX_IDS.index(ch.box.value)]
        scored.append((now + float(gain),
                       {"box": ch.box.value, "column": ch.column, "points": ch.points}))
    return _ranked(scored)


def _keep_actions(policy, sheet: Sheet, dice, throw: int) -> tuple[Action, ...]:
    s = sheet_state(policy, sheet)
    now = sheet.total + float(policy.value(s)[0])
    tv = turn_values(policy.end_values(s))
    values = (tv.after_first if throw == 1 else tv.after_second)[:, 0]
    scored = []
    for row in np.flatnonzero(SUBKEEPS[throw_index(dice)]):
        keep = tuple(f for f in range(1, 7) for _ in range(KEEP_COUNTS[row, f - 1]))
        scored.append((now + float(values[row]),
                       {"keep": keep, "positions": keep_positions(dice, keep)}))
    return _ranked(scored)


def keep_positions(dice: Sequence[int], keep: Sequence[int]) -> tuple[int, ...]:
    """Indices (into `dice` as given) of the dice to set aside for `keep`."""
    left = list(keep)
    out = []
    for i, d in enumerate(dice):
        if d in left:
            left.remove(d)
            out.append(i)
    return tuple(out)


def _advise_sheet(game: Game, dice, throw: int) -> Advice:
    dice = _check_dice(dice, 5)
    if isinstance(throw, bool) or throw not in (1, 2, 3):
        raise AdviceError("The throw must be 1, 2 or 3", code="throw")
    variant = game.variant
    column_rules(variant.id)  # every sheet variant has rules; fail early if not
    policy = _policy(variant.id)
    player = game.current_player
    assert player is not None  # advise() refuses a finished game
    sheet = game.sheet_of(player)
    if throw == 3:
        stage, actions = "box", _box_actions(variant, policy, sheet, dice)
    else:
        stage, actions = "keep", _keep_actions(policy, sheet, dice, throw)
    return Advice(stage, player, dice, throw, variant.columns == 1, actions)


# -- Würfelpoker -----------------------------------------------------------------------

def _advise_push(game: Game, dice) -> Advice:
    ts = game.turn_state
    assert ts is not None and game.current_player is not None  # a running Würfelpoker game
    dice = _check_dice(dice, ts.dice_left)
    table = poker_table()
    scored = []
    for opt in keep_options(dice):
        total = ts.turn_total + opt.points
        left = ts.dice_left - len(opt.keep) or 6
        bank, again = table.after_keep(total, left)
        base = {"keep": opt.keep, "positions": keep_positions(dice, opt.keep),
                "points": opt.points}
        scored.append((bank, {**base, "bank": True}))
        scored.append((again, {**base, "bank": False}))
    return Advice("push", game.current_player, dice, None, True, _ranked(scored))


def advise(game: Game, dice: Sequence[int], throw: int = 3) -> Advice:
    """The current player's options with `dice` after throw `throw` (1-3), best first.

    Würfelpoker ignores `throw`: its options are the set-asides of this throw, each
    followed by banking or throwing on. An empty list there means a bust.
    """
    if game.finished:
        raise AdviceError("The game is over", code="game_over")
    if game.variant.family == "push":
        return _advise_push(game, dice)
    return _advise_sheet(game, dice, throw)


# -- reviewing a game --------------------------------------------------------------------

@dataclass(frozen=True)
class TurnReview:
    """One box choice of a game: what was chosen, the best choice, and the loss."""

    turn: int
    dice: tuple[int, ...]
    chosen: Action
    best: Action

    def to_dict(self) -> dict:
        return {"turn": self.turn, "dice": list(self.dice), "chosen": self.chosen.to_dict(),
                "best": self.best.to_dict(), "loss": round(self.chosen.loss, 4)}


def review(game: Game, *, worst: int = 3) -> dict[str, list[TurnReview]]:
    """Per player, the `worst` box choices by expected points lost, largest first.

    Only the box choices can be judged: the game file records the final dice of a
    turn, not the dice set aside on the way.
    """
    if game.variant.family != "sheet":
        return {p: [] for p in game.players}
    policy = _policy(game.variant.id)
    replay = Game.new(game.variant, game.players, dict(game.settings))
    turns: dict[str, list[TurnReview]] = {p: [] for p in game.players}
    for event in game.events:
        assert isinstance(event, Fill)  # the sheet family logs fills only
        sheet = replay.sheet_of(event.player)
        actions = _box_actions(game.variant, policy, sheet, event.dice)
        col = event.column if game.variant.columns > 1 else None
        chosen = next(a for a in actions if a.box == event.box.value and a.column == col)
        turns[event.player].append(
            TurnReview(len(turns[event.player]) + 1, event.dice, chosen, actions[0]))
        replay = replay.play(event.to_dict())
    return {p: sorted(t, key=lambda r: -r.chosen.loss)[:worst] for p, t in turns.items()}
