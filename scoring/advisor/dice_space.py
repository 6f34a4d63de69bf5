"""The dice of one Kniffel turn as index spaces: the 462 keeps and the 252 throws.

A *keep* is a multiset of 0-5 dice faces, stored as a count vector over the faces
1-6. Keeps are ordered by size, so the 252 keeps of size five (the throws) are the
last rows. Every array here is built once at import and is read-only.
"""

from __future__ import annotations

from itertools import combinations_with_replacement
from math import factorial

import numpy as np

FACES = 6
DICE = 5


def _multisets(size: int) -> list[tuple[int, ...]]:
    return list(combinations_with_replacement(range(1, FACES + 1), size))


def _counts(faces: tuple[int, ...]) -> tuple[int, ...]:
    return tuple(faces.count(f) for f in range(1, FACES + 1))


def _frozen(arr: np.ndarray) -> np.ndarray:
    arr.setflags(write=False)
    return arr


_KEEP_FACES = [m for size in range(DICE + 1) for m in _multisets(size)]
_INDEX = {_counts(m): i for i, m in enumerate(_KEEP_FACES)}

#: Count vector (462, 6) of every keep; row i has KEEP_SIZE[i] dice.
KEEP_COUNTS = _frozen(np.array([_counts(m) for m in _KEEP_FACES], dtype=np.int64))
KEEP_SIZE = _frozen(KEEP_COUNTS.sum(axis=1))
N_KEEPS = len(_KEEP_FACES)
#: Row ranges of the keeps of each size 0..5.
SIZE_ROWS = tuple(np.flatnonzero(KEEP_SIZE == s) for s in range(DICE + 1))
THROW_ROWS = SIZE_ROWS[DICE]
N_THROWS = len(THROW_ROWS)
EMPTY_ROW = int(SIZE_ROWS[0][0])

#: The 252 distinct throws: sorted faces (252, 5) and counts (252, 6).
THROW_FACES = _frozen(np.array(_KEEP_FACES[THROW_ROWS[0]:], dtype=np.int64))
THROW_COUNTS = _frozen(KEEP_COUNTS[THROW_ROWS].copy())


def keep_index(counts) -> int:
    """Row of the keep with these face counts (a length-6 sequence)."""
    return _INDEX[tuple(int(c) for c in counts)]


def throw_index(dice) -> int:
    """Index 0..251 of a throw of five faces, in any order."""
    return keep_index(_counts(tuple(int(d) for d in dice))) - int(THROW_ROWS[0])


def _children() -> np.ndarray:
    """(462, 6) row of the keep plus one die of each face (-1 for full keeps)."""
    out = np.full((N_KEEPS, FACES), -1, dtype=np.int64)
    for i, c in enumerate(KEEP_COUNTS):
        if KEEP_SIZE[i] < DICE:
            for f in range(FACES):
                nxt = c.copy()
                nxt[f] += 1
                out[i, f] = _INDEX[tuple(nxt)]
    return out


def _parents() -> np.ndarray:
    """(462, 6) rows of the keep minus one die of each face it holds, padded.

    Padding repeats the first parent, so a max over a row is the max over the
    distinct one-smaller sub-keeps. The empty keep has no parent (-1).
    """
    out = np.full((N_KEEPS, FACES), -1, dtype=np.int64)
    for i, c in enumerate(KEEP_COUNTS):
        rows = []
        for f in range(FACES):
            if c[f]:
                prev = c.copy()
                prev[f] -= 1
                rows.append(_INDEX[tuple(prev)])
        if rows:
            out[i] = rows + [rows[0]] * (FACES - len(rows))
    return out


CHILDREN = _frozen(_children())
PARENTS = _frozen(_parents())


def _throw_probabilities() -> np.ndarray:
    """Probability (252,) of each throw of five fair dice."""
    ways = [factorial(DICE) / np.prod([factorial(int(k)) for k in c]) for c in THROW_COUNTS]
    return np.array(ways) / FACES**DICE


THROW_PROBS = _frozen(_throw_probabilities())


def _subkeep_matrix() -> np.ndarray:
    """(252, 462) bool: keep j can be set aside from throw i."""
    return np.all(KEEP_COUNTS[None, :, :] <= THROW_COUNTS[:, None, :], axis=2)


#: SUBKEEPS[t, k]: keep k is a sub-multiset of throw t.
SUBKEEPS = _frozen(_subkeep_matrix())


def expect_down(values: np.ndarray, *, levels: int = DICE) -> np.ndarray:
    """Expected value of every keep when the missing dice are thrown.

    `values` is (462, n) with the throw rows filled in; the rows of smaller keeps
    are overwritten in place, each the mean over one more die's six faces (the
    dice are independent, so adding them one at a time gives the full
    distribution). Returns `values`.
    """
    for size in range(DICE - 1, DICE - 1 - levels, -1):
        rows = SIZE_ROWS[size]
        kids = CHILDREN[rows]
        acc = values[kids[:, 0]]
        for f in range(1, FACES):
            acc += values[kids[:, f]]
        acc /= FACES  # not *= 1/6: that constant is inexact in float32, a bias
        values[rows] = acc
    return values


def best_subkeep(values: np.ndarray) -> np.ndarray:
    """(252, n): for every throw, the best value over all keeps it contains.

    `values` (462, n) holds each keep's own value; a running max is carried from
    the empty keep upwards, one die at a time, so no keep is visited twice.
    """
    best = values.copy()
    for size in range(1, DICE + 1):
        rows = SIZE_ROWS[size]
        par = PARENTS[rows]
        acc = best[par[:, 0]]
        # A keep of `size` dice has at most `size` distinct faces to drop.
        for j in range(1, min(size, FACES)):
            np.maximum(acc, best[par[:, j]], out=acc)
        np.maximum(acc, values[rows], out=acc)
        best[rows] = acc
    return best[THROW_ROWS]
