"""The small vocabularies a variant is described with: family, joker, extra bonus, section."""

from __future__ import annotations

from enum import Enum, StrEnum


class Family(StrEnum):
    """How a game is scored; a `Family` compares equal to its id string."""

    SHEET = "sheet"  # the Kniffel family: one box of a score sheet per turn
    PUSH = "push"    # Würfelpoker: set scoring dice aside, bank or throw again


class Section(StrEnum):
    """The two parts of a Kniffel-family sheet."""

    UPPER = "upper"
    LOWER = "lower"


class Joker(Enum):
    """Where a five of a kind may go once the five-of-a-kind box is filled."""

    NONE = "none"      # by the normal rules
    FREE = "free"      # Spiffel: full value in any lower box, or anywhere
    FORCED = "forced"  # Yahtzee: matching upper box if open, else lower, else upper for 0


class ExtraBonus(Enum):
    """What another five of a kind earns once the five-of-a-kind box holds 50."""

    NONE = "none"
    ONCE = "once"  # Spiffel: +100 the first time only
    EACH = "each"  # WÜRFELWARE, Yahtzee: +100 every time
