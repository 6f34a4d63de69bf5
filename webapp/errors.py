"""Errors the web app reports to players, each with its HTTP status; the one place
where a refusal gets its status and where scoring's errors become web errors.

They carry an i18n key (texts in `webapp.error_texts`) rather than a finished
sentence, so the API can answer in the language of the phone that asked; `detail`
carries a message that is already written for players (for example a
`scoring.RuleError`'s).
"""

from __future__ import annotations

from typing import Any, ClassVar

from dicecam.scoring import GameFileError, RuleError, ScoringError


class WebError(ValueError):
    """A request that cannot be carried out; the stored game is unchanged."""

    status = 400
    headers: ClassVar[dict[str, str]] = {}

    def __init__(self, key: str = "err_generic", detail: str | None = None, **values: object) -> None:
        super().__init__(detail or key)
        self.key = key
        self.detail = detail
        self.values = values

    @property
    def code(self) -> str:
        """The machine-readable code clients switch on (the key without its prefix)."""
        return self.key.removeprefix("err_").removeprefix("rule_")


class BadRequest(WebError):
    status = 400


class Forbidden(WebError):
    """A request from somewhere the game's table does not trust (foreign site, unknown host)."""

    status = 403


class NotFound(WebError):
    status = 404


class Conflict(WebError):
    """The game moved on (another phone was faster, or the throw is no longer current)."""

    status = 409


class TooLarge(WebError):
    """A body, file or photo over the server's limits."""

    status = 413


class UnsupportedType(WebError):
    """A body sent with the wrong Content-Type (JSON must say `application/json`)."""

    status = 415


class Unprocessable(WebError):
    """Well-formed but against the rules (a filled box, a wrong number of dice)."""

    status = 422


class Unavailable(WebError):
    status = 503


class Busy(Unavailable):
    """Too many photos or live connections at once; the client tries again shortly."""

    headers: ClassVar[dict[str, str]] = {"Retry-After": "2"}


class ReadOnly(Unavailable):
    """The data folder cannot be written: games can be looked at, not changed."""

    def __init__(self) -> None:
        super().__init__("err_read_only")


class DatabaseUnavailable(Unavailable):
    """The database server does not answer (restarting, unreachable, busy); nothing was stored."""

    headers: ClassVar[dict[str, str]] = {"Retry-After": "5"}

    def __init__(self) -> None:
        super().__init__("err_database")


class DiskFull(WebError):
    """No space left for the database or the photos; nothing was stored."""

    status = 507

    def __init__(self) -> None:
        super().__init__("err_disk_full")


# Scoring's refusals that mean "the game moved on" rather than "this is against the rules".
_CONFLICT_CODES = frozenset({"not_your_turn", "game_over", "undo_empty"})


def rule_error(exc: ScoringError, variant: Any = None) -> Unprocessable | Conflict:
    """A scoring error as a web error, translatable by its code.

    A box named in the error also gets its label in both languages (`box_de`,
    `box_en`), so the message shows "Full House" rather than "full_house".
    """
    values: dict[str, object] = dict(exc.params)
    if variant is not None and isinstance(values.get("box"), str):
        try:
            values["box_de"] = variant.label(values["box"], "de")
            values["box_en"] = variant.label(values["box"], "en")
        except RuleError:
            pass
    if exc.code == "dice_count" and "expected" not in values:  # a throw of no fixed size: 1 to 6
        values["expected"] = "1–6"
    cls = Conflict if exc.code in _CONFLICT_CODES else Unprocessable
    return cls(f"rule_{exc.code}", detail=str(exc), **values)


def game_file_error(exc: GameFileError, variant: Any = None) -> Unprocessable:
    """A replay file scoring refused: which event, and why, in the phone's language."""
    if exc.event_number is None:
        return Unprocessable(f"rule_{exc.code}", detail=str(exc), **exc.params)
    inner = rule_error(exc, variant)
    params = {k: v for k, v in inner.values.items() if k != "event_number"}
    return Unprocessable(
        "err_game_file_event", detail=str(exc), event=exc.event_number, rule=inner.key, **params
    )


# ---------------------------------------------------------------- answering


def _localised_values(values: dict[str, object], detail: str | None) -> dict[str, object]:
    """`field` named in words ("Spielername" rather than "players") where we have them,
    and a nested rule (`rule`: the key of why an imported event was refused) as `reason`."""
    from dicecam.webapp.i18n import TEXTS, error_message, t

    out = dict(values)
    field = out.get("field")
    if isinstance(field, str) and f"field_{field}" in TEXTS:
        out["field"] = t(f"field_{field}")
    rule = out.get("rule")
    if isinstance(rule, str):
        out["reason"] = error_message(rule, None, out) if rule in TEXTS else (detail or "")
    return out


def _too_large_key(app: Any) -> tuple[str, dict[str, object]]:
    """Which limit a 413 from the framework hit: the body's size, or its number of parts."""
    from flask import request

    limit = app.config["MAX_CONTENT_LENGTH"]
    if request.content_length is not None and request.content_length > limit:
        mb = limit // (1024 * 1024)
        if request.path.rstrip("/").endswith("/throws"):
            return "err_too_large", {"mb": mb}
        return "err_body_too_large", {"kb": limit // 1024}
    return "err_request_too_large", {}


def message_of(exc: WebError) -> str:
    """The error's sentence in the request's language."""
    from dicecam.webapp.i18n import error_message

    return error_message(exc.key, exc.detail, _localised_values(exc.values, exc.detail))


def register(app: Any) -> None:
    """Answer every refusal the same way: JSON under /api/, the error page elsewhere."""
    from flask import jsonify, render_template, request
    from werkzeug.exceptions import HTTPException

    from dicecam.webapp.i18n import t

    def render(status: int, message: str, code: str, headers: dict[str, str] | None = None):
        if request.path.startswith("/api/"):
            resp = jsonify({"error": message, "code": code, "status": status})
        else:
            resp = app.make_response(render_template("error.html", status=status, message=message))
        resp.status_code = status
        resp.headers.update(headers or {})
        return resp

    @app.errorhandler(WebError)
    def web_error(exc: WebError):
        return render(exc.status, message_of(exc), exc.code, exc.headers)

    @app.errorhandler(HTTPException)
    def http_error(exc: HTTPException):
        status = exc.code or 500
        if status == 413:
            key, values = _too_large_key(app)
            return render(status, t(key, None, **values), key.removeprefix("err_"))  # None: the request's language
        if status == 404:
            return render(status, t("err_page_not_found"), "not_found")
        if status == 405:
            return render(status, t("err_method"), "method_not_allowed")
        if status == 400:
            return render(status, t("err_generic"), "bad_request")
        return render(status, t("err_generic"), exc.name.lower().replace(" ", "_"))

    @app.errorhandler(Exception)
    def server_error(exc: Exception):
        app.logger.exception("unhandled error")
        return render(500, t("err_server"), "server_error")
