"""The photo store's interface: evidence photos kept by their SHA-256.

Every photo the app keeps goes through these four calls; `webapp.evidence.PhotoStore`
(a folder on disk, the default) implements them. The folder may be shared by every
worker process on one host: names are content hashes, files appear by an atomic
rename, so two workers storing the same photo at once leave one whole file.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any, Protocol


class Photos(Protocol):
    def add(self, data: bytes) -> tuple[str, bool]:
        """Store `data` (once); its SHA-256 and whether this call created it.
        Raises `errors.DiskFull` or `errors.ReadOnly`, leaving nothing behind."""

    def get(self, sha256: str) -> bytes:
        """The stored bytes; `FileNotFoundError` if there are none."""

    def verify(self, sha256: str) -> bool:
        """Whether the stored bytes still hash to their name."""

    def discard(self, shas: Iterable[str]) -> None:
        """Forget these photos (their throws are gone, or were never stored)."""


def open_photos(config: Mapping[str, Any]) -> Photos:
    """The app's photo store: the folder `PHOTO_DIR`."""
    from dicecam.webapp.evidence import PhotoStore

    return PhotoStore(config["PHOTO_DIR"])
