"""`--option NAME=VALUE` arguments of the benchmarks, as `DiceReader` settings."""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from dicecam.vision.settings import ReaderSettings


def reader_options(specs: list[str]) -> dict[str, Any]:
    """`NAME=VALUE` strings as DiceReader keyword arguments, each of its setting's type
    (`vision.settings.parse_options`, as `dicecam eval --option` reads them)."""
    if not specs:  # bench_vision times the first import of the reader: import nothing before it
        return {}
    from dicecam.vision.settings import parse_options

    return parse_options(specs)


def reader_settings(options: Mapping[str, Any]) -> ReaderSettings:
    """The default `ReaderSettings` with `options` changed (`ValueError` naming an unknown one)."""
    from dicecam.vision.settings import ReaderSettings  # imported late: bench_vision times the first import

    return ReaderSettings().but(**options)
