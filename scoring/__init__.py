"""Scoring: the rules of every game dicecam knows, game logs, and what a throw is worth.

Knows nothing of pixels or HTTP. Public API (see docs/ARCHITECTURE.md):
`get_variant`, `all_variants`, `Variant`, `Game`, `Sheet`, `TurnState`, `Box`,
`RuleError`, `GameFileError`, `UnknownVariant`.
"""

from scoring.boxes import BOXES, LOWER, UPPER, Box, score_all, score_box
from scoring.errors import GameFileError, RuleError, ScoringError, UnknownVariant
from scoring.game import Game
from scoring.poker import KeepOption, best_points, is_bust, keep_options, keep_points
from scoring.push_table import TurnState
from scoring.sheet import Sheet
from scoring.variants import Choice, SheetVariant, Variant, all_variants, get_variant

__all__ = [
    "BOXES", "LOWER", "UPPER", "Box", "Choice", "Game", "GameFileError", "KeepOption",
    "RuleError", "ScoringError", "Sheet", "SheetVariant", "TurnState", "UnknownVariant",
    "Variant", "all_variants", "best_points", "get_variant", "is_bust", "keep_options",
    "keep_points", "score_all", "score_box",
]
