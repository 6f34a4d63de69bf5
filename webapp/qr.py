"""QR codes of a game's link: as SVG for the page, as modules for the terminal."""

from __future__ import annotations

from urllib.parse import urljoin

from flask import request, url_for


def modules(text: str) -> list[list[bool]]:
    """`text` as a QR code: rows of modules, True for dark (with OpenCV's 2-module border)."""
    import cv2

    grid = cv2.QRCodeEncoder.create().encode(text)  # 0 = dark, 255 = light
    return [[px == 0 for px in row] for row in grid]


def qr_svg(text: str, *, quiet: int = 2) -> str:
    """`text` as a QR code in SVG: one path of unit squares, crisp at any size."""
    dark = modules(text)
    size = len(dark) + 2 * quiet
    cells = "".join(
        f"M{x + quiet} {y + quiet}h1v1h-1z" for y, row in enumerate(dark) for x, on in enumerate(row) if on
    )
    return (
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {size} {size}" '
        f'shape-rendering="crispEdges" role="img">'
        f'<rect width="{size}" height="{size}" fill="#fff"/>'
        f'<path fill="#000" d="{cells}"/></svg>'
    )


def game_url(game_id: str, public_url: str | None = None) -> str:
    """The game's absolute link for another phone.

    A page opened on the server's own machine (localhost) would hand out a link no
    phone can reach: then the address `dicecam serve` announced is used.
    """
    from dicecam.webapp.access import is_loopback

    path = url_for("pages.game", game_id=game_id)
    if is_loopback() and public_url:
        return urljoin(public_url, path)
    return request.host_url.rstrip("/") + path
