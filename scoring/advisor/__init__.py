"""Optimal play: exact solitaire tables for the one-column variants, a strong policy
for Würfelspiel's three columns, Würfelpoker's turn policy, `advise` and `review`.

Importing `scoring` never loads this package; tables are built or loaded on first use.
"""

from dicecam.scoring.advisor.advice import Action, Advice, AdviceError, TurnReview, advise, review

__all__ = ["Action", "Advice", "AdviceError", "TurnReview", "advise", "review"]
