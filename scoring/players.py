"""Player names: what a name may be, and the seating list a game is made with."""

from __future__ import annotations

import unicodedata
from collections.abc import Sequence
from functools import lru_cache

from dicecam.scoring.errors import RuleError

MAX_NAME_LENGTH = 40
MAX_PLAYERS = 12

# Marks that reorder the text around them: a name must not turn the sheet's row around.
_BIDI_CONTROLS = frozenset(
    "\u061c\u200e\u200f\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069"
)
# Control characters, lone surrogates, line and paragraph separators.
_REFUSED_CATEGORIES = frozenset({"Cc", "Cs", "Zl", "Zp"})
# Characters that show nothing at all (zero-width space, soft hyphen, word joiner, byte-order
# mark, Hangul fillers): dropped from names, so "Anna" and "Anna" with one of them are one
# name, and a name made of them alone is an empty one. Joiners (U+200C, U+200D) stay: emoji
# and some scripts need them; names are told apart without them (`name_key`).
_INVISIBLE = frozenset("\u00ad\u115f\u1160\u180e\u200b\u2060\u2061\u2062\u2063\u2064\ufeff\u3164\uffa0")
_DROP_INVISIBLE = {ord(ch): None for ch in _INVISIBLE}


@lru_cache(maxsize=1024)  # a log names the same few players again and again
def normal_name(text: str) -> str:
    """`text` as names are compared: characters that show nothing dropped, NFC, trimmed,
    runs of spaces made one space.

    Does not check anything; events use it to find their player in the seating list.
    """
    text = text.translate(_DROP_INVISIBLE)
    if not _encodable(text):
        return text.strip()
    return " ".join(unicodedata.normalize("NFC", text).split())


def _shows_something(name: str) -> bool:
    """Whether `name` has a character that is seen: not only marks, joiners and spaces."""
    return any(unicodedata.category(ch)[0] not in "CMZ" for ch in name)


def name_key(name: str) -> str:
    """What two names of one player share (a checked name: `check_name`): case and joiners
    ignored. Two seats never share one (`check_players`)."""
    return name.replace("\u200c", "").replace("\u200d", "").casefold()


def _encodable(text: str) -> bool:
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


def check_name(text: object, *, field: str = "player") -> str:
    """A player's name (or any short text a player types), cleaned; RuleError otherwise.

    Valid Unicode (no lone surrogates), NFC-normalised, no control or bidi-override
    characters, trimmed, runs of spaces made one, non-empty, at most 40 characters.
    The error's `code` says what is wrong: `player_name` (missing or empty),
    `player_name_characters` {character: "U+202E"}, `player_name_too_long` {max_length}.
    """
    if not isinstance(text, str):
        raise RuleError(f"Every {field} needs a name (text)", code="player_name", field=field)
    for ch in text:
        if unicodedata.category(ch) in _REFUSED_CATEGORIES or ch in _BIDI_CONTROLS:
            code = f"U+{ord(ch):04X}"
            raise RuleError(
                f"The {field} {_printable(text)} contains a character that cannot be shown ({code})",
                code="player_name_characters", field=field, character=code,
            )
    name = normal_name(text)
    if not _shows_something(name):
        raise RuleError(f"Every {field} needs a name", code="player_name", field=field)
    if len(name) > MAX_NAME_LENGTH:
        raise RuleError(f"Names can have at most {MAX_NAME_LENGTH} characters, not {len(name)}",
                        code="player_name_too_long", field=field, max_length=MAX_NAME_LENGTH)
    return name


def _printable(text: str) -> str:
    """The name as it can be shown in a message, whatever it holds."""
    return ascii(text) if not _encodable(text) else repr(text)


def check_players(players: object, *, min_players: int = 1, game: str = "This game") -> tuple[str, ...]:
    """The seating list: every name checked, no two alike ignoring case (and joiners), 1..12 of them."""
    if isinstance(players, (str, bytes)) or not isinstance(players, Sequence):
        raise RuleError("The players must be a list of names", code="players")
    if len(players) > MAX_PLAYERS:
        raise RuleError(f"At most {MAX_PLAYERS} players can share a table, not {len(players)}",
                        code="players_too_many", max_players=MAX_PLAYERS)
    names: list[str] = []
    seen: set[str] = set()
    for p in players:
        name = check_name(p)
        if name_key(name) in seen:
            raise RuleError(f"Two players are called {name!r}; give them different names",
                            code="player_duplicate", player=name)
        seen.add(name_key(name))
        names.append(name)
    if len(names) < min_players:
        raise RuleError(
            f"{game} needs at least {min_players} player{'s' if min_players > 1 else ''}",
            code="players_too_few", min_players=min_players,
        )
    return tuple(names)


def repair_names(data: dict) -> dict:
    """A stored game file with every player's name made one that `check_name` accepts.

    Games kept by an earlier release may hold names that are refused now (control or
    bidi characters, lone surrogates, characters that show nothing, over 40 characters).
    A name keeps what can be shown of it: refused characters dropped, NFC, trimmed, cut to
    40; an empty one becomes "Spieler N", a clash gets " 2", " 3"... Events that name a
    player follow the rename.
    Returns `data` itself when nothing needed repair, else a new dict.
    """
    players = data.get("players")
    if not isinstance(players, list) or not all(isinstance(p, str) for p in players):
        return data
    # An event names its player as the seating list did: the seat of that very text, else
    # the first seat of its normal form ("Anna" and "Anna" + a zero-width space were two seats).
    exact: dict[str, str] = {}
    renamed: dict[str, str] = {}
    names: list[str] = []
    taken: set[str] = set()
    for n, old in enumerate(players, 1):
        kept = "".join(ch for ch in old
                       if unicodedata.category(ch) not in _REFUSED_CATEGORIES and ch not in _BIDI_CONTROLS)
        name = normal_name(kept)[:MAX_NAME_LENGTH].strip()
        name = name if _shows_something(name) else f"Spieler {n}"
        base, k = name, 2
        while name_key(name) in taken:
            name = f"{base[: MAX_NAME_LENGTH - len(str(k)) - 1].strip()} {k}"
            k += 1
        taken.add(name_key(name))
        names.append(name)
        exact.setdefault(old, name)
        renamed.setdefault(normal_name(old), name)
    if names == players:
        return data
    events = [dict(e, player=exact.get(e["player"]) or renamed.get(normal_name(e["player"]), e["player"]))
              if isinstance(e, dict) and isinstance(e.get("player"), str) else e
              for e in data.get("events", [])]
    return {**data, "players": names, "events": events}
