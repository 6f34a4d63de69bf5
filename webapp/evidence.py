"""Photos kept as evidence, stored under their SHA-256 and nothing else.

A client never chooses a file name: the name is the hash of the bytes, so the same
photo uploaded twice is stored once and a stored photo can be checked against the
hash in the throw log.
"""

from __future__ import annotations

import errno
import hashlib
import os
import re
import tempfile
from collections.abc import Iterable
from pathlib import Path

from dicecam.webapp.errors import DiskFull, ReadOnly

_SHA256 = re.compile(r"^[0-9a-f]{64}$")

# Magic numbers of the formats phones send, for the Content-Type when serving.
_SIGNATURES = (
    (b"\xff\xd8\xff", "image/jpeg"),
    (b"\x89PNG\r\n\x1a\n", "image/png"),
    (b"GIF8", "image/gif"),
    (b"BM", "image/bmp"),
)


def sniff_type(data: bytes) -> str:
    """The image MIME type from the first bytes (never from the client's claim)."""
    for magic, mime in _SIGNATURES:
        if data.startswith(magic):
            return mime
    if data[:4] == b"RIFF" and data[8:12] == b"WEBP":
        return "image/webp"
    if data[4:12] in (b"ftypheic", b"ftypheix", b"ftypmif1", b"ftypmsf1"):
        return "image/heic"
    if data[:4] in (b"II*\x00", b"MM\x00*"):
        return "image/tiff"
    return "application/octet-stream"


class PhotoStore:
    """A folder of files named `<sha256[:2]>/<sha256>` (`webapp.photos.Photos`, the default).

    Worker processes on one host may share the folder: a file appears whole or not at
    all (written aside, fsynced, renamed), and equal bytes get the same name.
    """

    def __init__(self, root: str | os.PathLike) -> None:
        self.root = Path(root)

    def path(self, sha256: str) -> Path:
        if not _SHA256.match(sha256):
            raise ValueError("not a SHA-256 hex digest")
        return self.root / sha256[:2] / sha256

    def put(self, data: bytes) -> str:
        """Store `data` (once) and return its SHA-256."""
        return self.add(data)[0]

    def add(self, data: bytes) -> tuple[str, bool]:
        """Store `data` (once); its SHA-256 and whether this call wrote the file.

        A full disk is `DiskFull`, a read-only folder `ReadOnly`; nothing is left behind.
        """
        sha = hashlib.sha256(data).hexdigest()
        target = self.path(sha)
        if target.exists():
            return sha, False
        tmp = None
        try:
            target.parent.mkdir(parents=True, exist_ok=True)
            # Write, flush to disk, then rename: a crash or power cut never leaves half a
            # photo under a valid name.
            fd, tmp = tempfile.mkstemp(dir=target.parent, prefix=".part-")
            with os.fdopen(fd, "wb") as f:
                f.write(data)
                f.flush()
                os.fsync(f.fileno())
            os.replace(tmp, target)
        except OSError as exc:
            if tmp is not None:
                Path(tmp).unlink(missing_ok=True)
            if exc.errno in (errno.ENOSPC, errno.EDQUOT):
                raise DiskFull() from exc
            if exc.errno in (errno.EROFS, errno.EACCES, errno.EPERM):
                raise ReadOnly() from exc
            raise
        except BaseException:
            if tmp is not None:
                Path(tmp).unlink(missing_ok=True)
            raise
        return sha, True

    def discard(self, shas: Iterable[str]) -> None:
        """Remove these photos (their throws are gone or were never stored)."""
        for sha in shas:
            path = self.path(sha)
            path.unlink(missing_ok=True)
            try:
                path.parent.rmdir()  # only if it is empty now
            except OSError:
                pass

    def get(self, sha256: str) -> bytes:
        return self.path(sha256).read_bytes()

    def verify(self, sha256: str) -> bool:
        """Whether the stored bytes still hash to their name."""
        try:
            return hashlib.sha256(self.get(sha256)).hexdigest() == sha256
        except FileNotFoundError:
            return False
