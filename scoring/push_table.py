"""The Würfelpoker table: banked scores, the turn in progress, and when the game ends."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field, replace

import dicecam.scoring.poker as poker
from dicecam.scoring.dice import check_dice
from dicecam.scoring.errors import RuleError
from dicecam.scoring.events import Bank, Throw, parse_push_event
from dicecam.scoring.recaps import BankRecap, BustRecap, KeepRecap
from dicecam.scoring.turns import check_not_over, check_turn, winner_of
from dicecam.scoring.variants import Variant


@dataclass(frozen=True, slots=True)
class TurnState:
    """The current player's turn so far.

    `hot_dice` is true when every die has been set aside and the next throw uses all six
    again; `throws` counts the throws of this turn.
    """

    turn_total: int = 0
    dice_left: int = 6
    hot_dice: bool = False
    throws: int = 0

    def to_dict(self) -> dict:
        return {"turn_total": self.turn_total, "dice_left": self.dice_left,
                "hot_dice": self.hot_dice}


_NEW_TURN = TurnState()


@dataclass(frozen=True, slots=True, eq=False)
class _Ended:
    """One ended turn, linked to the one before: the history grows in constant time."""

    seat: int
    points: int
    before: _Ended | None


@dataclass(frozen=True, slots=True)
class PushTable:
    """Players take turns in seating order; a turn ends with a bank or a bust."""

    variant: Variant
    players: tuple[str, ...]
    target: int
    finish_round: bool
    scores: tuple[int, ...]
    turn_counts: tuple[int, ...]
    # The history is a chain; comparing or printing it would walk every turn.
    ended: _Ended | None = field(default=None, compare=False, repr=False)
    current: int = 0
    turn_state: TurnState = TurnState()
    reached_by: int | None = None
    finished: bool = False

    @classmethod
    def start(cls, variant: Variant, players: tuple[str, ...], options: dict) -> PushTable:
        n = len(players)
        return cls(variant, players, options["target"], options["finish_round"],
                   (0,) * n, (0,) * n)

    @property
    def turns(self) -> tuple[tuple[int, ...], ...]:
        """Every player's ended turns (points banked, 0 for a bust), oldest first."""
        per_seat: list[list[int]] = [[] for _ in self.players]
        node = self.ended
        while node is not None:
            per_seat[node.seat].append(node.points)
            node = node.before
        return tuple(tuple(reversed(t)) for t in per_seat)

    @property
    def current_player(self) -> str | None:
        return None if self.finished else self.players[self.current]

    @property
    def turn(self) -> int:
        """Turn number of the current player (of the last player once the game is over)."""
        return self.turn_counts[self.current] + (0 if self.finished else 1)

    @property
    def totals(self) -> dict[str, int]:
        return dict(zip(self.players, self.scores))

    @property
    def winner(self) -> str | list[str] | None:
        if not self.finished:
            return None
        if not self.finish_round and self.reached_by is not None:
            return self.players[self.reached_by]
        return winner_of(self.totals)

    def _check_throw(self, throw: Sequence[int]) -> tuple[int, ...]:
        dice = check_dice(throw, what="throw")
        left = self.turn_state.dice_left
        if len(dice) != left:
            raise RuleError(
                f"{self.current_player} has {left} {'die' if left == 1 else 'dice'} in play, "
                f"so the throw must have {left}, not {len(dice)}",
                code="dice_count", expected=left, got=len(dice),
            )
        return dice

    def keep_options(self, throw: Sequence[int]) -> list[poker.KeepOption]:
        """Every legal set-aside of the current player's `throw`, best first."""
        check_not_over(self)
        return poker.keep_options(self._check_throw(throw))

    def options(self, throw: Sequence[int]) -> list[dict]:
        ts = self.turn_state
        out = []
        for option in self.keep_options(throw):
            left = ts.dice_left - len(option.keep)
            out.append({**option.to_dict(), "turn_total": ts.turn_total + option.points,
                        "dice_left": left or 6, "hot_dice": left == 0})
        return out

    def play(self, event: object) -> tuple[Throw | Bank, PushTable, KeepRecap | BustRecap | BankRecap]:
        """Validate `event`; return it parsed, the table after it, and what it did."""
        parsed = parse_push_event(event)
        check_turn(self, parsed.player)
        ts = self.turn_state
        if isinstance(parsed, Bank):
            if ts.turn_total == 0:
                raise RuleError("Nothing to bank yet: throw first", code="bank_empty")
            after = self._end_turn(ts.turn_total)
            i = self.current
            return parsed, after, BankRecap(parsed.player, ts.turn_total, after.scores[i],
                                            after.scores[i] >= self.target)
        throw = self._check_throw(parsed.throw)
        bust = poker.is_bust(throw)
        if parsed.keep is None:
            if not bust:
                raise RuleError(
                    "This throw has scoring dice: set at least one aside (keep), "
                    "only a throw with nothing to score is a bust",
                    code="keep_missing",
                )
            return (Throw(parsed.player, throw), self._end_turn(0),
                    BustRecap(parsed.player, throw, ts.turn_total))
        if bust:
            raise RuleError("Nothing in this throw scores: it is a bust and nothing can be set aside",
                            code="keep_on_bust")
        if not parsed.keep:
            raise RuleError("Set aside at least one scoring die", code="keep_empty")
        keep = check_dice(parsed.keep, what="set-aside")
        points = poker.check_keep(throw, keep)
        left = ts.dice_left - len(keep)
        state = TurnState(ts.turn_total + points, left or 6, left == 0, ts.throws + 1)
        recap = KeepRecap(parsed.player, throw, tuple(sorted(keep)), points, state.turn_total,
                          state.dice_left, state.hot_dice)
        return Throw(parsed.player, throw, keep), replace(self, turn_state=state), recap

    def _end_turn(self, banked: int) -> PushTable:
        i = self.current
        # Both are one number per seat (at most 12): the history itself is never copied.
        scores = (*self.scores[:i], self.scores[i] + banked, *self.scores[i + 1:])
        counts = (*self.turn_counts[:i], self.turn_counts[i] + 1, *self.turn_counts[i + 1:])
        reached = self.reached_by
        if reached is None and scores[i] >= self.target:
            reached = i
        last_in_round = i == len(self.players) - 1
        finished = reached is not None and (not self.finish_round or last_in_round)
        nxt = i if finished else (i + 1) % len(self.players)
        # Built directly rather than with dataclasses.replace: this runs once per turn.
        return PushTable(self.variant, self.players, self.target, self.finish_round, scores, counts,
                         _Ended(i, banked, self.ended), nxt, _NEW_TURN, reached, finished)

    def state(self) -> dict:
        return {
            "sheet": {p: {"score": s, "turns": list(t)}
                      for p, s, t in zip(self.players, self.scores, self.turns)},
            "turn_state": self.turn_state.to_dict(),
        }
