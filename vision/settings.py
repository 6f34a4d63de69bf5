"""Every threshold of the dice reader in one frozen settings object."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, fields, replace
from typing import Any

from dicecam.vision.detections import UNSURE_BELOW


@dataclass(frozen=True)
class ReaderSettings:
    """How the reader decides; the defaults were chosen on the train photos (docs/READING.md).

    Detection: `min_score` is the detector's peak threshold (None: the one stored in the
    detector file, chosen for that network); a weak peak, from `weak_score` up to
    `min_score`, is read too and kept only when the reader's top probability for it is at
    least `weak_sure` (`weak_score` None: no weak peaks). Read without a count, weak peaks start
    at `free_weak_score` (None: as told) and are kept only when read at `free_weak_sure` or more:
    told a count, the search finds a Catan pair's small second die; without one, only a fainter
    peak read plainly does (C421: models/HISTORY.md). Peaks under `faint_below` (None: none; a
    read without a count sets it to `weak_score`) are faint: at most `faint_at_most` of them, the
    strongest, are read, and one read too doubtful for the rules to keep gets none of the second
    looks below (faint peaks are mostly a board's print: read all with their views, they cost a
    heap 15 ms). A photo whose dice come out under `zoom_below` detector pixels gets a closer
    look enlarged to about `zoom_target` detector pixels a die, at most `zoom_max_side` pixels
    wide (0 turns it off), over the
    part of the photo within `zoom_margin` typical dice of those found (inf: all of it); where the
    first look found nothing at all, the whole photo is looked at twice as close (unless
    `zoom_when_empty` is off) and the dice of that look are kept only when read at
    `lone_sure` or more (a speck on a cloth, enlarged, looks like a small die). With
    `zoom_by_dice`, the closer look is sized again by the boxes the rules keep where those
    are much smaller than the boxes it was sized by (tokens beside a throw). With
    `count_look_by_dice`, a throw whose count the rules do not fill gets that look around
    its kept dice (where they are small for the detector) before the whole photo is searched.
    Without a count, a photo of at most `free_look_side` pixels (None: none) whose rules
    keep a throw's 1-6 dice is looked at once more at its own size (a larger photo gets
    none, it would cost too much): the dice only that look finds are reported unsure, and
    none under a kept die where its front face would be. The look costs 10-18 ms on a 640 px
    photo; one whose passes so far and the look would look at more than `free_look_budget`
    times the first look's pixels (None: no limit) gets none, as a game-table photo whose
    closer look already took its time would go over 50 ms (C301, C312: models/HISTORY.md).
    With `free_look_search`, where the kept dice came out under `zoom_below` detector pixels
    that look is a search network's pass at the search's scale, its weak peaks from
    `free_search_weak_score` (None: as the count's search): the models folder's
    `free_search.onnx` where it has one (C447fb, a student of the count's network taught
    labelled dice, folded: about the own-size look's cost), else the count's (C440, 2x the cost).
    It finds a Catan pair's second die, too small for the detector at the photo's own size.
    With `free_search_larger`, a photo over `free_look_side` whose kept dice are that small
    gets that pass too (C449; the pass looks at most `search_max_side` pixels wide whatever the
    photo's size), within that budget (the photo judged as its `free_look_side` px copy). Off:
    on the dev split enlarged to 1,600 px it reads 5 more throws exactly but puts 25 more photos
    over 50 ms (C449b, models/HISTORY.md). Of the look's new boxes only the `free_look_at_most`
    strongest (None: all) are read: a throw's missing dice are a few, a board's tokens a dozen
    (C450: 3-8 fewer dev photos over 50 ms, the same throws read).

    Reading: a box the face reader finds "not a die" with probability `max_not_a_die` or
    more is dropped; a box smaller than `reread_below` times the photo's typical die is read
    again from a crop of typical size; one under `min_relative_size` is dropped unless read
    with a confidence of at least `keep_small_above`; one over `max_relative_size` times the
    typical die (a bowl, a group of dice seen as one) is dropped, unless read plainly: its top
    probability times min(1, peak / 0.5) `giant_sure` or more and "not a die" under
    1 - `giant_sure` (None: never; C431). A crop read with a top
    probability under `turn_below` is read again turned, mirrored (and with `colours`, in
    other colours), unless it is "not a die" with probability `views_below_not_a_die` or
    more (1 reads every one again) or, unless `views_when_likeliest_no_die`, likelier
    "not a die" than any face (neither gets the check's view either); one read from
    `turn_below` up to `check_below` once more mirrored, only to check its reading (0
    checks none). At most `max_second_looks` crops a photo get those extra reads, the
    likeliest dice first, so a cluttered photo costs about what a clean one does.

    Known count: where a throw's count is known and the rules keep fewer dice, with
    `search_missing` the whole photo is looked at once more at `search_scale` times the
    first look's scale (at most `search_max_side` pixels wide), weak peaks from
    `search_weak_score` included (None: `weak_score`), and its new boxes read with the others before the count's
    likeliest are chosen; with `search_network`, that look is the models folder's search
    network's (`search.onnx`, stride 8: about half the detector's cost there) where it has
    one. A search network's pass over a photo larger than `search_max_side` / 2 (a phone's
    photo) with `twin_from_halving` is its twin's over the photo's halving (F96: its shrink a
    bilinear one, the twin's 2x folded in, 0.4-0.6 ms less a told photo's median at 1,600 px).
    With `count_zoom_by_search`, a throw (at most six dice) whose first pass boxes fewer
    than its count gets that pass as its first look's closer look too, made once for both
    (C414). Read without that search (live frames, `read(..., search=False)`), with
    `frame_look_max_side` (0: off) the whole photo is looked at once more enlarged so
    the typical die is `zoom_target` detector pixels (twice the first look where none was
    found), at most that many pixels a side. With `check_count_fill` and the whole-die check, the likeliest
    boxes the rules drop (2m+2 where m dice are missing) are looked at by the check first,
    so that what fills the count ranks by its word too; where a box it has not looked at is
    still among the m likeliest after that, it looks at the 2m+2 likeliest unseen again, in
    `count_fill_rounds` rounds at most (C332).

    Whole die: a kept box that the whole-die check (where the models folder has one)
    gives under `min_whole_die` of being a die is dropped. With `rescue_not_a_die` set, a
    box the rules drop only as "not a die" (from `max_not_a_die` up to it) is looked at
    too and kept where the check gives it `rescue_whole` or more; so is a weak peak read with
    a top probability from `weak_rescue` up to `weak_sure` (None: not rescued). Where the detector also boxes
    whole dice, each box lies on the whole die (a peak of `whole_die_peak` or more; None:
    not used) nearest its centre, and of one whole die's kept faces only the uppermost
    is kept (the others are its side faces); a box on no whole die is kept only when read
    with a top probability of `off_die_sure` or more (None: the rules alone decide). Where
    the detector knows each cell's whole die (its edges), a kept box whose top edge lies
    more than `max_face_drop` of its die's height below the die's top (a front face) is
    dropped (None: not used).

    Overlaps: a read of at most a throw's six dice (told the count or not) asks about each
    die whose box overlaps another's by `ask_overlapping` or more of the smaller box (None:
    off): a throw's dice lie apart, so such boxes are one die's top and side face, or a die
    and something on it. With `count_apart`, told a throw's count, such boxes make one die
    of it: the likelier counts, the other fills the count only where no other box is left
    (the one kept beside it is still asked), and a throw they would have filled is short
    and searched (C333).

    Top look: each die of such a read that the read left unsure (under `low_confidence`;
    every die where `top_look_only_unsure` is false), and that the view check (the models
    folder's `view.onnx`) gives `top_look_view` or more of being seen from low down (None:
    not asked; a folder without the check moves no die), is read once more from the upper
    `top_look_share` of its box (None: off), stretched square, by the folder's top reader
    (`top_reader.onnx`, else the reader); where that read names another value with
    probability `top_look_sure` or more, the die takes it and is still asked. A die seen from
    low down is boxed whole, top and front face, and its centre is read as the front face's
    value; its top face is the box's upper part. Seen from above that part cuts the face,
    so sure dice and views from above are left as read (C328; its lines chosen again on folds by
    source photo, C365: models/HISTORY.md).

    Decoys asked: each die of such a read reported sure is read once more by the models
    folder's decoy reader (`decoy_reader.onnx`, taught game-table decoys as "not a die");
    where it says "not a die" with probability `decoy_asks` or more (None: off; a folder
    without it asks none), the die is asked, its value and box kept (C341). A die read 1 is
    asked from `decoy_asks_one` (None: as the others): a numeral die's digit or a token's
    hole is one central mark, and most sure decoys are read 1 (C347). With
    `decoy_asks_any_read` reads of more dice than a throw's six are asked about too, at
    `decoy_asks` alone: a keypad's or a toy brick's marks add boxes past six (C424c). Each
    sure die of any read that the models folder's domino check (`domino_check.onnx`) gives `domino_asks` or
    more (None: off) of being half a domino is asked too: only a crop wide enough to show a
    domino's other half tells it from a die (C355). Told a count where the rules keep more
    boxes than it, the kept boxes the check gives `domino_passes` or more (None: off), and
    those the decoy reader reads "not a die" at `decoy_passes` or more (None: off), rank after
    the others, so a half or a decoy fills the count only where nothing else can (C357, C358).
    Without a count, a die of the read, sure or not, that the check gives `domino_drops` or
    more (None: off) is left out: a half is no die (C378; no held-out real die came above 0.92).
    Told a count, the kept boxes it leaves out (offered to the player grey) lose those too (C381).
    With `chip_check` and a models folder's chip check (`chip_check.onnx`, the same network and crop
    taught poker chips against dice, C435), the domino check's word on a box is the larger of the two.
    Where both drop lines apply, the chip check alone leaves out what it gives `chip_drops` or more
    (None, as shipped: only the larger at `domino_drops`; at 0.9 the chip check left out rendered
    blue, green and black dice, C436).
    Told a throw's count where the first look keeps that many boxes or more, those the check gives
    `pieces_aside` or more (None: off) are set aside before the closer looks and the search:
    they neither make the count nor set the typical die (poker chips twice a die's size read as dice
    had a throw's small die dropped as too small and never looked for), and come back after, kept
    by no rule, to fill the count only as any dropped box does (C433). With `pieces_stay_aside` the
    closer look and the search do not box them again (C438: the search boxed set-aside chips again,
    they were judged dice, and a Catan pair's small dice it found were dropped as too small beside them).
    The models folder's side check (`side_check.onnx`) is the domino check's kind of network
    taught a die's side faces, its top face above them: a sure die it gives `side_asks` or more
    is asked, told a count the kept boxes it gives `side_passes` or more rank last, and without
    one those it gives `side_drops` or more are left out (None: off; C397).

    Printed faces: dice of a read lying in a row of `printed_rows` or more (None: off) whose
    values count up one by one at even steps, the next face within `printed_reach` of a face's
    size of where the step puts it, are asked, and told a count such kept boxes rank last: a
    score sheet prints a die's faces, one to six, down a column (`vision.printed`, C429). With
    `printed_typical`, boxes the face reader's first reading puts in such rows do not set the
    photo's typical die: a sheet's six small faces would, and the throw's dice, about three times
    their size, would be dropped as giants (C430).

    Confidence: each die's is at most the chance the shipped fit gives it of being right
    (`vision.confidence`), where the models folder has one and `capped` is true; dice
    under `low_confidence` are shown to players as unsure. A weak peak lowers a die's
    confidence, unless the whole-die check gives it `whole_lifts_peak` or more (None: always).
    """

    min_score: float | None = None
    weak_score: float | None = 0.3
    weak_sure: float = 0.8
    free_weak_score: float | None = 0.2
    free_weak_sure: float = 0.9
    faint_below: float | None = None
    faint_at_most: int = 8
    free_look_side: int | None = 640
    free_look_budget: float | None = 4.0
    free_look_search: bool = True
    free_search_weak_score: float | None = 0.4
    free_search_larger: bool = False
    free_look_at_most: int | None = 6
    twin_from_halving: bool = True
    zoom_below: float = 24.0
    zoom_target: float = 32.0
    zoom_max_side: int = 1024
    zoom_margin: float = 4.0
    zoom_when_empty: bool = True
    zoom_by_dice: bool = True
    count_look_by_dice: bool = True
    lone_sure: float = 0.9
    max_not_a_die: float = 0.2
    reread_below: float = 0.85
    min_relative_size: float = 0.65
    keep_small_above: float = 0.7
    max_relative_size: float = 2.2
    turn_below: float = 0.7
    check_below: float = 0.9
    colours: bool = True
    max_second_looks: int = 24
    views_below_not_a_die: float = 0.5
    views_when_likeliest_no_die: bool = False
    search_missing: bool = True
    search_scale: float = 2.5
    search_max_side: int = 1280
    search_weak_score: float | None = None
    search_network: bool = True
    count_zoom_by_search: bool = True
    frame_look_max_side: int = 1024
    check_count_fill: bool = True
    count_fill_rounds: int = 3
    min_whole_die: float = 0.3
    rescue_not_a_die: float | None = 0.6
    rescue_whole: float = 0.9
    weak_rescue: float | None = 0.5
    whole_die_peak: float | None = None
    off_die_sure: float | None = None
    max_face_drop: float | None = None
    capped: bool = True
    whole_lifts_peak: float | None = 0.8
    ask_overlapping: float | None = 0.3
    count_apart: bool = True
    top_look_share: float | None = 0.75
    top_look_sure: float = 0.6
    top_look_only_unsure: bool = True
    top_look_view: float | None = 0.7
    decoy_asks: float | None = 0.95
    decoy_asks_one: float | None = 0.7
    decoy_asks_any_read: bool = True
    domino_asks: float | None = 0.95
    domino_passes: float | None = 0.5
    domino_drops: float | None = 0.99
    pieces_aside: float | None = 0.9
    pieces_stay_aside: bool = True
    chip_drops: float | None = None
    chip_check: bool = True
    decoy_passes: float | None = 0.8
    side_asks: float | None = 0.9
    side_passes: float | None = 0.5
    side_drops: float | None = 0.95
    printed_rows: int | None = 3
    printed_reach: float = 0.2
    printed_typical: bool = True
    giant_sure: float | None = 0.93
    low_confidence: float = UNSURE_BELOW

    def uncounted(self) -> ReaderSettings:
        """These settings as a read without a count uses them: its weak peaks' lines."""
        if self.free_weak_score is None or self.weak_score is None or self.free_weak_score >= self.weak_score:
            return self
        return self.but(weak_score=self.free_weak_score, faint_below=self.weak_score,
                        weak_sure=max(self.weak_sure, self.free_weak_sure))

    def but(self, **changes: Any) -> ReaderSettings:
        """These settings with `changes`; `ValueError` naming an unknown setting."""
        known = {f.name for f in fields(self)}
        unknown = sorted(set(changes) - known)
        if unknown:
            raise ValueError(f"unknown reader setting(s): {', '.join(unknown)} (known: {', '.join(sorted(known))})")
        return replace(self, **changes)


class SettingError(ValueError):
    """A reader setting named or written wrong (`--option NAME=VALUE`)."""


#: How a switch's value may be written.
_SWITCH = {"true": True, "on": True, "yes": True, "1": True, "false": False, "off": False, "no": False, "0": False}


def parse_options(specs: Iterable[str]) -> dict[str, Any]:
    """`NAME=VALUE` strings as `ReaderSettings` changes, each value read as its setting's
    type: a number (`inf` too), `none` where the setting can be off, true/false for a switch.
    `SettingError` names a setting that does not exist or a value it cannot take."""
    kinds = {f.name: str(f.type) for f in fields(ReaderSettings)}
    changes: dict[str, Any] = {}
    for spec in specs:
        name, sep, text = (part.strip() for part in spec.partition("="))
        if not sep or not name or not text:
            raise SettingError(f"a reader option is NAME=VALUE, e.g. zoom_margin=8, not {spec!r}")
        if name not in kinds:
            raise SettingError(f"unknown reader setting {name!r} (known: {', '.join(sorted(kinds))})")
        kind, word = kinds[name], text.lower()
        try:
            if word == "none" and "None" in kind:
                changes[name] = None
            elif kind == "bool":
                changes[name] = _SWITCH[word]
            elif kind == "int":
                changes[name] = int(text)
            else:
                changes[name] = float(text)
        except (KeyError, ValueError):
            takes = {"bool": "true or false", "int": "a whole number"}.get(kind, "a number")
            off = " or none" if "None" in kind else ""
            raise SettingError(f"reader setting {name} takes {takes}{off}, not {text!r}") from None
    return changes
