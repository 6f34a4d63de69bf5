"""`--option NAME=VALUE` arguments of the benchmarks, as `DiceReader` settings."""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from dicecam.vision.settings import ReaderSettings


def reader_options(specs: list[str]) -> dict[str, float]:
    """`NAME=VALUE` strings as DiceReader keyword arguments."""
    return {name: float(value) for name, value in (spec.split("=", 1) for spec in specs)}


def reader_settings(options: Mapping[str, float]) -> ReaderSettings:
    """The default `ReaderSettings` with `options` changed (`ValueError` naming an unknown one)."""
    from dicecam.vision.settings import ReaderSettings  # imported late: bench_vision times the first import

    return ReaderSettings().but(**options)
