"""The reader's rules: which read boxes are dice. No network runs here (`DiceReader.judge`).

Each rule weighs what the networks already said of a box (its peak, its reading, its size
against the photo's typical die, the whole-die check's word, the whole die it lies on) against
one `ReaderSettings` line; docs/READING.md (steps 4-8 and 13) says why each line is where it is.
Because nothing is run again, settings can be compared on candidates read once
(`benchmarks/choose_thresholds.py`).
"""

from __future__ import annotations

from dataclasses import replace

import numpy as np

from dicecam.vision.boxes import low_on_die, lower_faces
from dicecam.vision.candidates import Candidates, filled
from dicecam.vision.confidence import FULL_PEAK
from dicecam.vision.settings import ReaderSettings


def judge(seen: Candidates, settings: ReaderSettings, *, min_score: float) -> Candidates:
    """Read candidates `seen` with `kept` set where `settings`' rules make a box a die;
    `min_score`: the detector's peak threshold (weaker peaks are weak peaks)."""
    if not len(seen):
        return Candidates.empty()
    s = settings
    detected = np.minimum(1.0, seen.scores / FULL_PEAK)
    relative, top = filled(seen.relative, "relative"), filled(seen.top, "top")
    # Much smaller than the other dice and not clearly read: a pip, a side face, the
    # table. Judged on the reading, not on its check: the check only ever marks dice.
    stray = (relative < s.min_relative_size) & (top * detected < s.keep_small_above)
    # A weak peak is a die only if the reader sees one plainly (half hidden, steep, at the edge).
    plain = (seen.scores >= min_score) | (top >= s.weak_sure)
    if s.weak_rescue is not None and seen.whole is not None:
        # ... or where the check plainly sees a die (NaN, not looked at, rescues nothing).
        plain |= (top >= s.weak_rescue) & (seen.whole >= s.rescue_whole)
    not_a_die = filled(seen.not_a_die, "not_a_die")
    giant = relative > s.max_relative_size
    if s.giant_sure is not None:
        # A die read plainly is kept whatever the photo's typical die: small boxes that are no
        # dice (a score sheet's printed faces) can set that, and a clear die three times their
        # size is no bowl or heap (no box on no die came above 0.87, C431).
        giant &= ~((top * detected >= s.giant_sure) & (not_a_die < 1 - s.giant_sure))
    die = not_a_die < s.max_not_a_die
    if s.rescue_not_a_die is not None and seen.whole is not None:
        # The reader sees a face alone (a small die on a printed hex looks like print);
        # the check sees the cube around it. NaN (not looked at) rescues nothing.
        die |= (not_a_die < s.rescue_not_a_die) & (seen.whole >= s.rescue_whole)
    keep = die & ~stray & plain & ~giant
    # Found only by enlarging a photo where nothing was: specks, unless read plainly.
    keep &= ~filled(seen.lone, "lone") | (top >= s.lone_sure)
    if seen.whole is not None:
        # A token, a printed dot or a side face: in context it is plainly no die.
        keep &= ~(seen.whole < s.min_whole_die)  # NaN (not looked at) keeps the rules' word
    if seen.die_boxes is not None:
        if s.off_die_sure is not None:
            # A face on no whole die: a token, a print or a speck, unless read plainly.
            keep &= ~np.isnan(seen.die_boxes).any(axis=1) | (top >= s.off_die_sure)
        if s.max_face_drop is not None:
            # Low on its die: the front face of a die seen from the side, not its top.
            keep &= ~low_on_die(seen.boxes, seen.die_boxes, s.max_face_drop)
        # One die, one face: a side face seen at an angle is no second die.
        keep &= ~lower_faces(seen.boxes, seen.die_boxes, keep)
    return replace(seen, kept=keep)
