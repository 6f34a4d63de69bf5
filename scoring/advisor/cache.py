"""On-disk cache of solved tables: `DICECAM_CACHE`, else the per-user cache dir."""

from __future__ import annotations

import os
import tempfile
from functools import lru_cache
from pathlib import Path

import numpy as np

from dicecam.scoring.advisor.progress import report
from dicecam.scoring.advisor.solver import N_MASKS, ColumnTable, solve_column, solve_passes
from dicecam.scoring.advisor.tables import ColumnRules, column_rules

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


def _load(path: Path, shape: tuple[int, ...], dtype) -> np.ndarray | None:
    try:
        values = np.load(path, allow_pickle=False)
    except (OSError, ValueError, EOFError):
        return None  # missing or damaged: build it again
    if values.shape != shape or values.dtype != dtype:
        return None
    values.setflags(write=False)
    return values


def _save(path: Path, values: np.ndarray) -> None:
    """Write atomically, so a reader never sees half a table. An unwritable cache
    only costs the next run a rebuild."""
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=path.name, suffix=".tmp")
    except OSError:
        return
    try:
        with os.fdopen(fd, "wb") as fh:
            np.save(fh, values, allow_pickle=False)
        os.replace(tmp, path)
    except OSError:
        Path(tmp).unlink(missing_ok=True)


def load_or_build(rules: ColumnRules, *, use_cache: bool = True) -> tuple[ColumnTable, bool]:
    """The solved table and whether it came from the cache.

    With `use_cache=False` the table is built afresh and the cached file replaced.
    """
    path = table_path(rules)
    if use_cache:
        values = _load(path, (N_MASKS, 2, rules.threshold + 1), np.float64)
        if values is not None:
            return ColumnTable(rules, values), True
    table = solve_column(rules, progress=lambda done, total: report(f"table:{rules.name}", done, total))
    _save(path, table.values)
    return table, False


def load_or_build_passes(rules: ColumnRules, passes: int, *,
                         use_cache: bool = True) -> np.ndarray:
    """`solver.solve_passes` for these rules, from the cache when it is there
    (`use_cache=False` rebuilds the pass tables over the cached plain table)."""
    path = cache_dir() / f"passes-{rules.name}-{passes}-v{TABLE_VERSION}.npy"
    shape = (passes + 1, N_MASKS, rules.threshold + 1)
    if use_cache:
        values = _load(path, shape, np.float32)
        if values is not None:
            return values
    values = solve_passes(rules, passes, first=load_or_build(rules)[0],
                          progress=lambda done, total: report(f"passes:{rules.name}", done, total))
    _save(path, values)
    values.setflags(write=False)
    return values


@lru_cache(maxsize=8)
def _memo(rules: ColumnRules, directory: Path) -> ColumnTable:
    return load_or_build(rules)[0]


def column_table(variant: str) -> ColumnTable:
    """The solved table of a sheet variant's column, kept in memory once loaded."""
    return _memo(column_rules(variant), cache_dir())
