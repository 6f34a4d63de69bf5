"""Errors the web app reports to players, each with its HTTP status.

They carry an i18n key rather than a finished sentence, so the API can answer in
the language of the phone that asked; `detail` carries a message that is already
written for players (for example a `scoring.RuleError`).
"""

from __future__ import annotations


class WebError(ValueError):
    """A request that cannot be carried out; the stored game is unchanged."""

    status = 400

    def __init__(self, key: str = "err_generic", detail: str | None = None, **values: object) -> None:
        super().__init__(detail or key)
        self.key = key
        self.detail = detail
        self.values = values


class BadRequest(WebError):
    status = 400


class NotFound(WebError):
    status = 404


class Conflict(WebError):
    """The game moved on (another phone was faster, or the throw is no longer current)."""

    status = 409


class Unprocessable(WebError):
    """Well-formed but against the rules (a filled box, a wrong number of dice)."""

    status = 422


class Unavailable(WebError):
    status = 503
