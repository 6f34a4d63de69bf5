"""Who may see and change which game: a game's link is its key.

- A game's id is 128 random bits; whoever has the link can play, nobody can guess it.
- The start page lists the games this browser created, imported or opened: their ids
  travel in the session cookie, signed with the app's secret, at most
  `MAX_REMEMBERED` of them. The list of every game is only for the machine running
  the server (requests from loopback) and for `dicecam` commands.
- The server answers only to the names it is reached by on purpose: IP addresses,
  `localhost`, this machine's name (and `<name>.local`) and `DICECAM_ALLOWED_HOSTS`.
  A page on another site that makes its own name point here (DNS rebinding) is
  refused.
- A state-changing request must come from this server's own page (Origin,
  Sec-Fetch-Site) when a browser sends it; other clients send neither header.
"""

from __future__ import annotations

import ipaddress
import os
import secrets
import socket
from pathlib import Path

from flask import Flask, request, session

from dicecam.webapp.errors import BadRequest, Forbidden

MAX_REMEMBERED = 50
_SAFE_METHODS = frozenset({"GET", "HEAD", "OPTIONS"})


# ---------------------------------------------------------------- configuration


def secret_key(data_dir: Path, *, writable: bool) -> str:
    """`DICECAM_SECRET`, else a key kept in the data folder (so cookies outlive restarts)."""
    env = os.environ.get("DICECAM_SECRET")
    if env:
        return env
    path = data_dir / "secret_key"
    try:
        key = path.read_text(encoding="ascii").strip()
        if len(key) >= 32:
            return key
    except (OSError, UnicodeDecodeError):
        pass
    key = secrets.token_hex(32)
    if writable:
        try:
            fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
            with os.fdopen(fd, "w", encoding="ascii") as f:
                f.write(key)
        except OSError:
            pass  # cookies then last as long as this process
    return key


def default_hosts() -> list[str]:
    """Names this machine is reached by on the LAN, besides IP addresses."""
    names = {"localhost"}
    try:
        host = socket.gethostname().lower()
    except OSError:
        host = ""
    if host:
        names |= {host, f"{host}.local"}
    extra = os.environ.get("DICECAM_ALLOWED_HOSTS", "")
    names |= {h.strip().lower() for h in extra.split(",") if h.strip()}
    return sorted(names)


def host_allowed(host: str, allowed: list[str]) -> bool:
    """Whether the Host header names this server (IP literals and allowed names; any port)."""
    if "*" in allowed:
        return True
    name = host.strip().lower()
    if name.startswith("["):  # [v6]:port
        name = name[1 : name.find("]")] if "]" in name else ""
    elif name.count(":") == 1:
        name = name.rsplit(":", 1)[0]
    if not name:
        return False
    try:
        ipaddress.ip_address(name)
        return True  # a browser that was given an address, not a name: no rebinding possible
    except ValueError:
        pass
    return name.rstrip(".") in allowed


# ---------------------------------------------------------------- per request


def is_loopback() -> bool:
    """Whether the request comes from this machine."""
    try:
        addr = ipaddress.ip_address(request.remote_addr or "")
    except ValueError:
        return False
    if isinstance(addr, ipaddress.IPv6Address) and addr.ipv4_mapped is not None:
        addr = addr.ipv4_mapped
    return addr.is_loopback


def check_request(app: Flask) -> None:
    """Refuse unknown hosts, and state changes sent by another site's page."""
    if not host_allowed(request.host, app.config["ALLOWED_HOSTS"]):
        raise BadRequest("err_host", host=request.host[:80])
    if request.method in _SAFE_METHODS:
        return
    origin = request.headers.get("Origin")
    if origin is not None:
        if origin != f"{request.scheme}://{request.host}":
            raise Forbidden("err_cross_site")
        return
    # No Origin: an old browser or a plain client; browsers that say where a request
    # comes from are believed.
    if request.headers.get("Sec-Fetch-Site", "same-origin") not in ("same-origin", "none"):
        raise Forbidden("err_cross_site")


def known_games() -> list[str]:
    """Ids of the games this browser created, imported or opened, most recent first."""
    ids = session.get("games")
    if not isinstance(ids, list):
        return []
    return [i for i in ids if isinstance(i, str)][:MAX_REMEMBERED]


def remember(game_id: str) -> None:
    """Add a game to this browser's list (the cookie changes only when the list does)."""
    ids = known_games()
    if game_id in ids:
        return
    session["games"] = [game_id, *ids][:MAX_REMEMBERED]
    session.permanent = True


def forget(game_id: str) -> None:
    ids = known_games()
    if game_id in ids:
        session["games"] = [i for i in ids if i != game_id]


def visible_games() -> list[str] | None:
    """The games this request may list: all (None) from loopback, else this browser's."""
    return None if is_loopback() else known_games()
