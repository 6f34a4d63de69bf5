"""On-disk cache of solved tables: `DICECAM_CACHE`, else the per-user cache dir."""

from __future__ import annotations

import os
import tempfile
from functools import lru_cache
from pathlib import Path

import numpy as np

from scoring.advisor.solver import N_MASKS, ColumnTable, solve_column
from scoring.advisor.tables import ColumnRules, column_rules

# Bump when the solver or the rules change, so old tables are never read.
TABLE_VERSION = 1


def cache_dir() -> Path:
    """Where tables are kept (created on first write)."""
    env = os.environ.get("DICECAM_CACHE")
    if env:
        return Path(env)
    base = os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache"
    return Path(base) / "dicecam"


def table_path(rules: ColumnRules) -> Path:
    return cache_dir() / f"column-{rules.name}-v{TABLE_VERSION}.npy"


def _load(path: Path, rules: ColumnRules) -> ColumnTable | None:
    try:
        values = np.load(path, allow_pickle=False)
    except (OSError, ValueError):
        return None  # missing or damaged: build it again
    if values.shape != (N_MASKS, 2, rules.threshold + 1) or values.dtype != np.float64:
        return None
    values.setflags(write=False)
    return ColumnTable(rules, values)


def _save(path: Path, table: ColumnTable) -> None:
    """Write atomically, so a reader never sees half a table."""
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=path.name, suffix=".tmp")
    try:
        with os.fdopen(fd, "wb") as fh:
            np.save(fh, table.values, allow_pickle=False)
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


def load_or_build(rules: ColumnRules, *, use_cache: bool = True) -> tuple[ColumnTable, bool]:
    """The solved table and whether it came from the cache.

    With `use_cache=False` the table is built afresh and the cached file replaced.
    An unwritable cache directory only costs the next run a rebuild.
    """
    path = table_path(rules)
    if use_cache:
        table = _load(path, rules)
        if table is not None:
            return table, True
    table = solve_column(rules)
    try:
        _save(path, table)
    except OSError:
        pass
    return table, False


@lru_cache(maxsize=8)
def _memo(rules: ColumnRules, directory: Path) -> ColumnTable:
    return load_or_build(rules)[0]


def column_table(variant: str) -> ColumnTable:
    """The solved table of a sheet variant's column, kept in memory once loaded."""
    return _memo(column_rules(variant), cache_dir())
