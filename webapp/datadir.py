"""Where dicecam keeps its database, photos and TLS certificate."""

from __future__ import annotations

import os
import sys
from pathlib import Path


def default_data_dir() -> Path:
    """`DICECAM_DATA` if set, else the per-user data folder of this platform."""
    env = os.environ.get("DICECAM_DATA")
    if env:
        return Path(env).expanduser()
    if sys.platform == "win32":
        base = os.environ.get("APPDATA") or Path.home() / "AppData" / "Roaming"
        return Path(base) / "dicecam"
    if sys.platform == "darwin":
        return Path.home() / "Library" / "Application Support" / "dicecam"
    base = os.environ.get("XDG_DATA_HOME") or Path.home() / ".local" / "share"
    return Path(base) / "dicecam"
