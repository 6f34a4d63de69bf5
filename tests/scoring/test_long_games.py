"""Loading a game costs linear time in its events (issue 33.3), measured by work, not time.

Two counts that do not depend on the machine: the memory one more event keeps (constant:
the log is never copied), and the Python calls a replay makes (proportional to the events).
"""

import sys
import tracemalloc

import pytest

from dicecam.scoring import Game

PLAYERS = ["Anna", "Ben", "Cleo"]


def _busts(n: int) -> dict:
    """A Würfelpoker file of `n` busts in a row (the worst case of issue 33.3)."""
    return {"variant": "wuerfelpoker", "players": PLAYERS,
            "events": [{"player": PLAYERS[i % 3], "throw": [2, 3, 4, 6, 2, 3]} for i in range(n)]}


def _sheet(n: int) -> dict:
    """A Würfelspiel file of `n` chance-less fills (up to 39 per player)."""
    game = Game.new("wuerfelspiel", PLAYERS)
    for _ in range(n):
        sheet = game.sheet_of(str(game.current_player))
        box, column = sheet.open_cells()[0]
        game = game.enter([1, 2, 3, 4, 6], {"box": box.value, "column": column})
    return game.to_dict()


def _kept_by_one_more_event(data: dict) -> int:
    """Bytes still held after playing one more event on the replayed `data`."""
    game = Game.from_dict(data)
    player = str(game.current_player)
    event: dict[str, object]
    if game.variant.id == "wuerfelpoker":
        event = {"player": player, "throw": [2, 3, 4, 6, 2, 3]}
    else:
        box, column = game.sheet_of(player).open_cells()[0]
        event = {"player": player, "dice": [1, 2, 3, 4, 6], "box": box.value, "column": column}
    tracemalloc.start()
    try:
        before = tracemalloc.get_traced_memory()[0]
        after_game = game.play(event)
        kept = tracemalloc.get_traced_memory()[0] - before
    finally:
        tracemalloc.stop()
    assert after_game.event_count == game.event_count + 1
    return kept


@pytest.mark.parametrize("make", [_busts, _sheet], ids=["push", "sheet"])
def test_one_more_event_keeps_the_same_memory_however_long_the_log(make):
    small, large = (100, 3000) if make is _busts else (10, 100)
    kept_small, kept_large = _kept_by_one_more_event(make(small)), _kept_by_one_more_event(make(large))
    # A copied log would keep 8 bytes per event: 24 KB more for 3000 busts.
    assert kept_large < kept_small + 2000, (kept_small, kept_large)


def _calls(fn) -> int:
    count = 0

    def profile(frame, event, arg):
        nonlocal count
        if event == "call":
            count += 1

    sys.setprofile(profile)
    try:
        fn()
    finally:
        sys.setprofile(None)
    return count


def test_replay_work_grows_in_proportion_to_the_events():
    n = 2000
    small, large = _busts(n), _busts(4 * n)
    Game.from_dict(small)  # warm the caches (names, keep options) before counting
    calls_small = _calls(lambda: Game.from_dict(small))
    calls_large = _calls(lambda: Game.from_dict(large))
    per_event = calls_large / (4 * n)
    assert calls_large <= 4 * calls_small + 100, (calls_small, calls_large)
    assert per_event < 40  # a handful of small steps per event


def test_a_long_log_replays_and_reads_back_exactly():
    data = _busts(9_000)
    game = Game.from_dict(data)
    assert game.event_count == len(game.events) == 9_000
    assert game.to_dict() == {**data, "options": {"target": 10000, "finish_round": False}}
    assert game.state()["sheet"]["Anna"]["turns"] == [0] * 3_000
    assert game.turn == 3_001 and game.current_player == "Anna"
    assert game.undo().event_count == 8_999
    assert game == Game.from_dict(game.to_dict()) and game != game.undo()
