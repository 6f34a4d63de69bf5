"""`--option NAME=VALUE` arguments of the benchmarks, as `DiceReader` keyword arguments."""

from __future__ import annotations


def reader_options(specs: list[str]) -> dict[str, float]:
    """`NAME=VALUE` strings as DiceReader keyword arguments."""
    return {name: float(value) for name, value in (spec.split("=", 1) for spec in specs)}
