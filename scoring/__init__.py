"""Scoring: the rules of every game dicecam knows, game logs, and what a throw is worth.

Knows nothing of pixels or HTTP. Public API (see docs/ARCHITECTURE.md):
`get_variant`, `all_variants`, `Variant`, `Game`, `Sheet`, `TurnState`, `Box`,
`RuleError`, `GameFileError`, `UnknownVariant`, `Display`, the recaps, `check_name`.
"""

from dicecam.scoring.boxes import BOXES, LOWER, UPPER, Box, score_all, score_box
from dicecam.scoring.display import Display
from dicecam.scoring.errors import GameFileError, RuleError, ScoringError, UnknownVariant
from dicecam.scoring.game import Game
from dicecam.scoring.players import MAX_NAME_LENGTH, MAX_PLAYERS, check_name, check_players, repair_names
from dicecam.scoring.poker import KeepOption, best_points, is_bust, keep_options, keep_points
from dicecam.scoring.push_table import TurnState
from dicecam.scoring.recaps import BankRecap, BustRecap, FillRecap, KeepRecap, Recap
from dicecam.scoring.rules import ExtraBonus, Family, Joker, Section
from dicecam.scoring.sheet import Sheet
from dicecam.scoring.variants import Choice, SheetVariant, Variant, all_variants, get_variant

__all__ = [
    "BOXES", "LOWER", "MAX_NAME_LENGTH", "MAX_PLAYERS", "UPPER", "BankRecap", "Box",
    "BustRecap", "Choice", "Display", "ExtraBonus", "Family", "FillRecap", "Game",
    "GameFileError", "Joker", "KeepOption", "KeepRecap", "Recap", "RuleError", "ScoringError",
    "Section", "Sheet", "SheetVariant", "TurnState", "UnknownVariant", "Variant",
    "all_variants", "best_points", "check_name", "check_players", "get_variant", "is_bust",
    "keep_options", "keep_points", "repair_names", "score_all", "score_box",
]
