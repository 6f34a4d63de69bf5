"""Scoring: the rules of every game dicecam knows, game logs, and what a throw is worth.

Knows nothing of pixels or HTTP. Public API (see docs/ARCHITECTURE.md):
`get_variant`, `all_variants`, `Variant`, `Game`, `Sheet`, `TurnState`, `Box`,
`RuleError`, `GameFileError`, `UnknownVariant`.
"""

from dicecam.scoring.boxes import BOXES, LOWER, UPPER, Box, score_all, score_box
from dicecam.scoring.errors import GameFileError, RuleError, ScoringError, UnknownVariant
from dicecam.scoring.game import Game
from dicecam.scoring.poker import KeepOption, best_points, is_bust, keep_options, keep_points
from dicecam.scoring.push_table import TurnState
from dicecam.scoring.sheet import Sheet
from dicecam.scoring.variants import Choice, SheetVariant, Variant, all_variants, get_variant

__all__ = [
    "BOXES", "LOWER", "UPPER", "Box", "Choice", "Game", "GameFileError", "KeepOption",
    "RuleError", "ScoringError", "Sheet", "SheetVariant", "TurnState", "UnknownVariant",
    "Variant", "all_variants", "best_points", "get_variant", "is_bust", "keep_options",
    "keep_points", "score_all", "score_box",
]
