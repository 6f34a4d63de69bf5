"""Domain errors of the scoring engine; every message is meant for a player to read."""

from __future__ import annotations


class ScoringError(ValueError):
    """Base of the scoring errors.

    `code` names the kind of error and `params` its details, so that a front end can
    show its own translation instead of the English `str(error)`.
    """

    def __init__(self, message: str, *, code: str = "invalid", **params: object) -> None:
        super().__init__(message)
        self.code = code
        self.params = params


class UnknownVariant(ScoringError):
    """No variant has that id or alias."""


class RuleError(ScoringError):
    """An event or a request that the rules of the game forbid."""


class GameFileError(ScoringError):
    """A game file (the JSON event log) that cannot be replayed.

    `event_number` is the 1-based number of the refused event, or None when the
    problem is in the file's header (variant, players, options).
    """

    def __init__(self, message: str, *, event_number: int | None = None,
                 code: str = "invalid_file", **params: object) -> None:
        super().__init__(message, code=code, event_number=event_number, **params)
        self.event_number = event_number

    @classmethod
    def refusing(cls, error: ScoringError, message: str | None = None, *,
                 event_number: int | None = None) -> GameFileError:
        """The file's error for `error` (keeping its code and params), at `event_number`."""
        out = cls(message or str(error), event_number=event_number, code=error.code)
        out.params.update({k: v for k, v in error.params.items() if k != "event_number"})
        return out
