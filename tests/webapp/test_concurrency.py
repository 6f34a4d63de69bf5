"""Two phones acting on the same turn at once, over a real server with real threads."""

from __future__ import annotations

from helpers_webapp import at_once, call


def test_two_phones_entering_the_same_throw_one_wins_one_gets_409(live_server):
    status, game = call(live_server, "POST", "/api/games", {"variant": "spiffel", "players": ["Anna", "Ben"]})
    assert status == 201
    gid = game["id"]
    for round_no in range(12):
        _, t = call(live_server, "POST", f"/api/games/{gid}/throws", {"dice": [2, 2, 3, 3, 3]})
        player = t["player"]
        # Both phones saw the same state and each taps a different open box.
        version = t["state"]["version"]
        first, second = t["options"][0]["box"], t["options"][1]["box"]
        path = f"/api/games/{gid}/entries"
        results = at_once(
            (live_server, "POST", path, {"throw_id": t["throw_id"], "box": first, "version": version}),
            (live_server, "POST", path, {"throw_id": t["throw_id"], "box": second, "version": version}),
        )
        statuses = sorted(s for s, _ in results)
        assert statuses == [200, 409], (round_no, results)
        loser = next(body for s, body in results if s == 409)
        assert loser["error"]
        _, log = call(live_server, "GET", f"/api/games/{gid}/log")
        assert len(log["events"]) == round_no + 1
        mine = [e for e in log["events"] if e["player"] == player]
        # Nothing entered twice: each of this player's entries is a different box.
        assert len({e["box"] for e in mine}) == len(mine)


def test_simultaneous_identical_entries_are_not_entered_twice(live_server):
    _, game = call(live_server, "POST", "/api/games", {"variant": "spiffel", "players": ["Anna"]})
    gid = game["id"]
    _, t = call(live_server, "POST", f"/api/games/{gid}/throws", {"dice": [6, 6, 6, 6, 6]})
    body = {"throw_id": t["throw_id"], "box": "five_kind"}  # no version: the throw itself is the guard
    results = at_once(*[(live_server, "POST", f"/api/games/{gid}/entries", body)] * 4)
    assert sorted(s for s, _ in results) == [200, 409, 409, 409]
    _, state = call(live_server, "GET", f"/api/games/{gid}")
    assert state["totals"] == {"Anna": 50}
    _, log = call(live_server, "GET", f"/api/games/{gid}/log")
    assert len(log["events"]) == 1


def test_simultaneous_throws_never_exceed_three_per_turn(live_server):
    _, game = call(live_server, "POST", "/api/games", {"variant": "spiffel", "players": ["Anna"]})
    gid = game["id"]
    results = at_once(*[(live_server, "POST", f"/api/games/{gid}/throws", {"dice": [1, 2, 3, 4, 6]})] * 5)
    assert sorted(s for s, _ in results) == [201, 201, 201, 409, 409]
    numbers = sorted(body["number"] for s, body in results if s == 201)
    assert numbers == [1, 2, 3]
