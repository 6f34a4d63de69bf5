"""A known count searches for the dice it lacks: a closer look over the whole photo, weak peaks too."""

from __future__ import annotations

import numpy as np
import pytest
from bench_vision import table_photo  # benchmarks/ is on pytest's pythonpath
from test_samples import PHOTOS

from dicecam.vision.candidates import filled
from dicecam.vision.decode import decode_image, load_image
from dicecam.vision.detections import Dice
from dicecam.vision.detector import DieDetector
from dicecam.vision.halvings import Halvings
from dicecam.vision.metrics import score_photo
from dicecam.vision.peaks import apart_from
from dicecam.vision.reader import DiceReader

#: Two small dice (a 4 and a 2) at the shore of a Catan board, among its number tokens.
BOARD = next(p for p in PHOTOS if p.image.startswith("roboflow_dice/dice_309"))


def board_throw(width: int, height: int) -> tuple[np.ndarray, Dice]:
    """The board photo scaled onto a table as `bench_vision.py` does, and its dice moved along."""
    image = decode_image(table_photo(width, height, source=BOARD.path))
    h, w = BOARD.size[1], BOARD.size[0]
    fit = min(height / h, width / w)
    x0, y0 = (width - round(w * fit)) // 2, (height - round(h * fit)) // 2
    boxes = BOARD.dice.boxes * fit + np.array([x0, y0, x0, y0], np.float32)
    return image, Dice(boxes, BOARD.dice.values, BOARD.dice.confidences)


@pytest.fixture(scope="module")
def without_search():
    return DiceReader(search_missing=False)


@pytest.mark.parametrize(("width", "height"), [(640, 480), (1280, 720)])
def test_told_of_two_dice_among_a_board_s_tokens_the_reader_looks_again_and_finds_both(
        reader, without_search, width, height) -> None:
    image, truth = board_throw(width, height)
    kept = reader.candidates(image).kept
    assert kept is not None and int(kept.sum()) < 2  # the first look misses one or both
    found = reader.read(image, count=2)
    assert score_photo(truth, found).exact
    # Without the second look the count is made up of the board's tokens.
    assert not score_photo(truth, without_search.read(image, count=2)).exact


def test_the_second_look_adds_only_boxes_apart_from_the_first(reader) -> None:
    image, _ = board_throw(640, 480)
    photo = Halvings(image)
    found = reader.detector.find(photo)
    more = reader.detector.search(photo, found)
    assert len(more) and apart_from(more.boxes, found.boxes).all()
    assert not more.lone.any()


class Spy:
    def __init__(self, reader: DiceReader) -> None:
        self.calls = 0
        self.search = reader._search

    def __call__(self, image, found, photo, readings=None, *, aside=None):
        self.calls += 1
        return self.search(image, found, photo, readings, aside=aside)


@pytest.mark.parametrize(("count", "searched"), [(None, 0), (0, 0), (1, 0), (2, 1), (6, 1)])
def test_the_photo_is_searched_only_when_a_known_count_lacks_dice(count, searched) -> None:
    # The search itself: the count's look around the kept die first would find the other
    # (test_told_the_count_the_dice_sized_look_spares_the_search).
    reader = DiceReader(count_look_by_dice=False)
    spy = Spy(reader)
    reader._search = spy  # type: ignore[method-assign]
    image, truth = board_throw(1920, 1080)  # the rules keep one die of its two, the 4
    found = reader.candidates(image)
    assert found.kept is not None and int(found.kept.sum()) == 1
    score = score_photo(truth, found.dice())
    assert score.precision == 1.0 and score.value_accuracy == 1.0  # a real die, read right
    reader.read(image, count=count)
    assert spy.calls == searched


def test_a_plain_throw_told_its_count_is_never_searched() -> None:
    reader = DiceReader()
    spy = Spy(reader)
    reader._search = spy  # type: ignore[method-assign]
    for photo in [p for p in PHOTOS if not p.crop and p.image.startswith("matteop65_wood")][:4]:
        reader.read(load_image(photo.path), count=len(photo.dice))
    assert spy.calls == 0


class LookSpy:
    """Records the photo part and scale of each closer look a detector takes."""

    def __init__(self, detector: DieDetector) -> None:
        self.looks: list[tuple[tuple[int, int, int, int], float]] = []
        self.closer = detector._closer

    def __call__(self, photo, window, zscale, **kwargs):
        self.looks.append((window, zscale))
        return self.closer(photo, window, zscale, **kwargs)


@pytest.mark.parametrize(("width", "height", "scale", "max_side", "wide"), [
    (640, 480, 2.5, 1280, 1280),    # 2.5 x (512 / 640) = 2.0: 1,280 px, just the bound
    (1920, 1080, 2.5, 1280, 1280),  # 2.5 x 512 = 1,280 px
    (640, 480, 2.0, 1024, 1024),    # the search before S158: twice the first look, at most 1,024
    (640, 480, 3.0, 1280, 1280),    # a larger scale is held to the bound
    (320, 240, 2.5, 1280, 1280),    # a small photo too: enlarged to 2.5 x 512
    (640, 480, 2.5, 960, 960),      # a tighter bound holds
])
def test_the_search_looks_at_the_whole_photo_at_its_scale_within_its_bound(width, height, scale, max_side,
                                                                           wide) -> None:
    reader = DiceReader(search_scale=scale, search_max_side=max_side)
    # The search network's look where the models folder has one (S279), else the detector's.
    searcher = reader.detector.searcher or reader.detector
    spy = LookSpy(searcher)
    searcher._closer = spy  # type: ignore[method-assign]
    image = np.full((height, width, 3), 120, np.uint8)
    photo = Halvings(image)
    reader.detector.search(photo, reader.detector.find(photo))
    window, zscale = spy.looks[-1]
    assert window == (0, 0, width, height)
    assert round(zscale * width) == wide


@pytest.mark.parametrize("count", [3, 6])
def test_told_more_dice_than_the_first_pass_boxes_the_search_s_one_pass_is_the_closer_look(count) -> None:
    # C414: the board's first pass boxes fewer than `count`, so the search will pass over the
    # whole photo anyway; that pass is the closer look too, and the window look is spared.
    image, truth = board_throw(1280, 720)
    windows: dict[bool, list[tuple[int, ...]]] = {}
    for shared in (True, False):
        reader = DiceReader(count_zoom_by_search=shared)
        searcher = reader.detector.searcher
        assert searcher is not None  # the shipped models have a search network
        searches, closer = LookSpy(searcher), LookSpy(reader.detector)
        searcher._closer, reader.detector._closer = searches, closer  # type: ignore[method-assign]
        dice = reader.read(image, count=count)
        assert score_photo(truth, dice).right == 2  # both dice, read right, either way
        assert [window for window, _ in searches.looks] == [(0, 0, 1280, 720)]  # one search pass
        windows[shared] = [tuple(int(v) for v in window) for window, _ in closer.looks]
    first = windows[False][0]  # the first look's closer look, around the boxes it found
    assert first not in windows[True]


def test_without_a_count_or_a_search_the_first_look_is_its_own() -> None:
    image, _ = board_throw(1280, 720)
    looked = []
    for shared in (True, False):
        reader = DiceReader(count_zoom_by_search=shared)
        spy = LookSpy(reader.detector)
        reader.detector._closer = spy  # type: ignore[method-assign]
        reader.read(image)
        reader.read(image, count=6, search=False)  # a live frame's reading
        looked.append([tuple(int(v) for v in window) for window, _ in spy.looks])
    assert looked[0] == looked[1] and looked[0]


def test_the_search_s_weak_peaks_start_where_asked() -> None:
    image, _ = board_throw(640, 480)
    photo = Halvings(image)
    plain = DiceReader()
    found = plain.detector.find(photo)
    weak = plain.detector.search(photo, found)
    strong = DiceReader(search_weak_score=plain.detector.min_score).detector.search(photo, found)
    assert weak.scores.min() < plain.detector.min_score <= strong.scores.min()
    assert len(strong) < len(weak)


class CropCounter:
    """Counts the crops the face reader's network reads."""

    def __init__(self, reader: DiceReader) -> None:
        self.crops = 0
        self.classify = reader.face.classify

    def __call__(self, crops):
        self.crops += len(crops)
        return self.classify(crops)


@pytest.mark.parametrize(("width", "height"), [(640, 480), (1920, 1080), (4032, 3024)])
def test_the_search_reads_again_only_the_crops_it_adds(width, height) -> None:
    image, _ = board_throw(width, height)
    # At 1080p and 12 MP the looks sized by the dice find both without the search (the
    # tests below): here the search is what is tested, so it must run.
    reader = DiceReader(zoom_by_dice=False, count_look_by_dice=False)
    counter = CropCounter(reader)
    reader.face.classify = counter  # type: ignore[method-assign]
    # Each look on its own: the search's reading starts from nothing.
    found = reader.candidates(image)
    first = counter.crops
    searched = reader.search(image, found)
    apart = reader.select(reader.look_at_likeliest(image, searched, 2), count=2)
    separately = counter.crops - first
    counter.crops = 0
    together = reader.read(image, count=2)
    # The same dice, values and confidences, to the last bit ...
    assert np.array_equal(together.boxes, apart.boxes) and np.array_equal(together.values, apart.values)
    assert np.array_equal(together.confidences, apart.confidences)
    # ... for fewer crops: the first look's boxes are read once, not again with the search's.
    # (At 12 MP the search's pass made the median die another size, its crops from another
    # halving, until it read the photo's halving through its twin: F96.)
    assert first < counter.crops < first + separately


def test_a_face_read_twice_with_its_readings_goes_to_the_network_once(reader) -> None:
    from dicecam.vision.face_reader import CropReadings

    image, _ = board_throw(640, 480)
    photo = Halvings(image)
    found = reader.detector.find(photo)
    counter = CropCounter(reader)
    reader.face.classify = counter
    try:
        readings = CropReadings()
        once = reader.face.read(photo, found, readings=readings)
        read = counter.crops
        again = reader.face.read(photo, found, readings=readings)
        assert read > len(found) and counter.crops == read  # views included, nothing read twice
        plain = reader.face.read(photo, found)
        assert counter.crops == 2 * read  # without them, all of it again
    finally:
        del reader.face.classify
    for a, b in ((once, again), (once, plain)):
        assert np.array_equal(a.values, b.values) and np.array_equal(a.held, b.held)
        assert np.array_equal(a.not_a_die, b.not_a_die) and np.array_equal(a.relative, b.relative)


def test_a_die_much_smaller_than_the_tokens_gets_a_closer_look_of_its_own(reader) -> None:
    """At 12 MP the board's closer look is sized by its tokens and finds one die; the look
    sized by that die (`zoom_by_dice`) finds the other, without the count's search. (The
    first look's faint peaks find it too, C421: they are off in the reader without the look.)"""
    image, truth = board_throw(4032, 3024)
    assert score_photo(truth, DiceReader(zoom_by_dice=False, free_weak_score=None).read(image)).right == 1
    assert score_photo(truth, reader.read(image)).right == 2


@pytest.mark.parametrize(("width", "height", "count_look", "searches"), [
    (1920, 1080, True, 0), (4032, 3024, True, 0), (1920, 1080, False, 1)])
def test_told_the_count_the_dice_sized_look_spares_the_search(width, height, count_look, searches) -> None:
    """At 12 MP the look sized by the kept die comes with the first look (`zoom_by_dice`);
    at 1080p, where the tokens' digits are boxed at a die's size, it comes because the count
    is short (`count_look_by_dice`; without it the photo is searched): either way the
    1,280 px search is not needed."""
    reader = DiceReader(count_look_by_dice=count_look)
    spy = Spy(reader)
    reader._search = spy  # type: ignore[method-assign]
    image, truth = board_throw(width, height)
    assert score_photo(truth, reader.read(image, count=2)).exact
    assert spy.calls == searches


@pytest.mark.parametrize("scene", ["few", "board-plain"])
def test_dice_the_size_of_the_boxes_the_look_was_sized_by_get_no_second_closer_look(reader, monkeypatch, scene):
    from bench_vision import scene_photo

    looks: list[int] = []
    monkeypatch.setattr(reader.detector, "look_closer_around", lambda *a, **k: looks.append(1))
    for width, height in ((640, 480), (4032, 3024)):
        assert len(reader.read(decode_image(scene_photo(scene, width, height))))
    assert not looks


def test_a_photo_whose_boxes_the_rules_all_drop_gets_no_dice_sized_look(reader, monkeypatch) -> None:
    """The board at 640 px: every box is a token. An empty photo's look there found the edge
    of a painted-out die, sure, and cost 25 ms (S275): none is made."""
    image, _ = board_throw(640, 480)
    looks: list[int] = []
    monkeypatch.setattr(reader.detector, "look_closer_around", lambda *a, **k: looks.append(1))
    assert not filled(reader.candidates(image).kept, "kept").any()
    assert not looks


def test_a_live_frame_short_of_its_count_gets_no_dice_sized_look_of_the_count(reader, monkeypatch) -> None:
    """Frames are never searched; their own cheaper look (`frame_look_max_side`) stays theirs."""
    image, _ = board_throw(1920, 1080)
    looks: list[bool] = []
    original = reader._closer_by_dice

    def closer(*args, **kwargs):
        looks.append(kwargs.get("short", False))
        return original(*args, **kwargs)

    monkeypatch.setattr(reader, "_closer_by_dice", closer)
    reader.read(image, count=2, search=False)
    assert looks == [False]  # only the first look's own, never the count's


def test_short_of_its_count_a_die_beside_decoys_gets_its_look_even_with_zoom_by_dice_off() -> None:
    """The count's look does not lean on the first look's: with `zoom_by_dice` off, the 12 MP
    board's kept die still gets a look sized by it before any search."""
    reader = DiceReader(zoom_by_dice=False)
    spy = Spy(reader)
    reader._search = spy  # type: ignore[method-assign]
    image, truth = board_throw(4032, 3024)
    assert score_photo(truth, reader.read(image, count=2)).exact
    assert spy.calls == 0
