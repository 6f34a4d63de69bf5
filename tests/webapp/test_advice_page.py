"""The advisor on the page: options ranked by expected final score, keep hints after
throws 1 and 2, Würfelpoker's set-aside and bank hints, and the review of a game.

The advisor's tables are built in the background (the app never waits for a build),
so these tests poll the game like a phone does until the advice is there. One
advisor cache serves the whole session; the Yahtzee and Spiffel tables take seconds.
"""

from __future__ import annotations

import random
import time

import pytest
from helpers_webapp import log_of, new_game, throw

from dicecam.scoring import Game, get_variant
from dicecam.scoring.advisor import advise

POLL_LIMIT_S = 600  # a generous bound for a table build on a busy 2-core machine


@pytest.fixture(scope="session")
def advisor_cache(tmp_path_factory):
    # One folder per session, shared with the browser suite's advice tests
    # (tests/webapp/browser/conftest.py), so each table is built once.
    patch = pytest.MonkeyPatch()
    folder = tmp_path_factory.getbasetemp() / "advisor-cache"
    folder.mkdir(exist_ok=True)
    patch.setenv("DICECAM_CACHE", str(folder))
    yield
    patch.undo()


@pytest.fixture
def app(tmp_path, monkeypatch, advisor_cache):
    """The app with the advisor on (the shared fixture turns it off)."""
    from dicecam.webapp import create_app

    data = tmp_path / "data"
    monkeypatch.setenv("DICECAM_DATA", str(data))
    return create_app({"TESTING": True, "DATA_DIR": str(data), "ADVICE": True})


def poll(client, game_id: str, done, *, lang: str = "de") -> dict:
    """GET the game until `done(state)`, as the page's poll does."""
    deadline = time.monotonic() + POLL_LIMIT_S
    while True:
        state = client.get(f"/api/games/{game_id}?lang={lang}").json
        if done(state):
            return state
        assert time.monotonic() < deadline, "the advice never arrived"
        time.sleep(0.2)


def advised(state: dict) -> bool:
    return state["throw"]["advice_status"] == "ready"


def test_box_options_ranked_by_expected_final_score_best_first(client):
    gid = new_game(client, "yahtzee")["id"]
    for _ in range(3):
        throw(client, gid, [6, 6, 6, 6, 5])
    t = poll(client, gid, advised)["throw"]

    options = t["options"]
    assert t["ranked_by"] == "advice" and t["advice_exact"] is True
    expected = [o["expected"] for o in options]
    assert expected == sorted(expected, reverse=True)
    assert [o["advised"] for o in options] == [True] + [False] * (len(options) - 1)
    assert options[0]["loss"] == 0
    for o in options:
        assert o["loss"] == pytest.approx(options[0]["expected"] - o["expected"], abs=0.011)
    # Every legal box is still offered, valued as the advisor values it.
    game = Game.from_dict(log_of(client, gid))
    assert sorted(o["box"] for o in options) == sorted(o["box"] for o in game.options([6, 6, 6, 6, 5]))
    direct = {a.box: a.expected for a in advise(game, [6, 6, 6, 6, 5], 3).actions}
    for o in options:
        assert o["expected"] == pytest.approx(direct[o["box"]], abs=0.006)
    # On an empty sheet the sixes (24, towards the upper bonus) beat the 29-point boxes:
    # ranked by expected score, not by points.
    assert options[0]["box"] == "sixes"
    assert options[0]["points"] < max(o["points"] for o in options)
    assert t["advice"]["stage"] == "box" and t["advice"]["best"]["box"] == "sixes"


def test_until_the_tables_are_built_options_are_ranked_by_points(client, tmp_path, monkeypatch):
    # A fresh cache: the Spiffel table has to be built, which takes seconds.
    monkeypatch.setenv("DICECAM_CACHE", str(tmp_path / "fresh-cache"))
    gid = new_game(client, "spiffel")["id"]

    t = throw(client, gid, [6, 6, 6, 6, 5])  # answered at once, not after the build
    assert t["advice_status"] == "building"
    assert t["ranked_by"] == "points" and t["advice"] is None
    gains = [o["gain"] for o in t["options"]]
    assert gains == sorted(gains, reverse=True)
    assert all("expected" not in o for o in t["options"])

    # While it builds, the state says how far (the advisor's own progress reports).
    heard = poll(client, gid, lambda s: s["advice_build"] is not None or advised(s))
    if not advised(heard):
        build = heard["advice_build"]
        assert build["step"].startswith("table:") and 0 <= build["done"] <= build["total"] and build["total"] > 0
        assert build["seconds"] >= 0

    state = poll(client, gid, advised)
    t = state["throw"]
    assert t["ranked_by"] == "advice"
    assert all(isinstance(o["expected"], float) for o in t["options"])
    assert state["advice_build"] is None


def test_keep_advice_after_the_first_throw_marks_the_dice(client):
    gid = new_game(client, "yahtzee")["id"]
    throw(client, gid, [6, 1, 6, 2, 6])
    state = poll(client, gid, advised)
    t = state["throw"]

    a = t["advice"]
    assert a["stage"] == "keep" and a["throw"] == 1
    # Three sixes on an empty sheet: keep them, throw the 1 and the 2 again.
    assert a["best"]["keep"] == [6, 6, 6]
    assert a["best"]["positions"] == [0, 2, 4]
    # The alternatives come ranked, each with its loss against the best.
    losses = [x["loss"] for x in a["actions"]]
    assert len(losses) > 5 and losses[0] == 0 and losses == sorted(losses)
    # A box may still be entered after throw 1, and the boxes carry their values too.
    assert t["ranked_by"] == "advice" and t["options"][0]["advised"]
    assert t["options"][0]["expected"] <= a["best"]["expected"]
    resp = client.post(f"/api/games/{gid}/entries",
                       json={"throw_id": t["throw_id"], "box": t["options"][0]["box"]})
    assert resp.status_code == 200, resp.json
    assert resp.json["current_player"] == "Ben"


def test_wuerfelpoker_marks_the_set_aside_and_then_bank_or_throw_on(client):
    gid = new_game(client, "wuerfelpoker")["id"]
    t = throw(client, gid, [1, 1, 1, 5, 2, 3])
    if t["advice_status"] != "ready":
        t = poll(client, gid, advised)["throw"]

    options = t["options"]
    assert t["advice"]["stage"] == "push"
    # Every legal set-aside is still offered.
    legal = Game.from_dict(log_of(client, gid)).options([1, 1, 1, 5, 2, 3])
    assert sorted(sorted(o["keep"]) for o in options) == sorted(sorted(o["keep"]) for o in legal)
    expected = [o["expected"] for o in options]
    assert expected == sorted(expected, reverse=True) and options[0]["advised"]
    for o in options:
        assert o["bank"] == (o["expected_bank"] >= o["expected_again"])
        assert o["expected"] == pytest.approx(max(o["expected_bank"], o["expected_again"]), abs=0.006)
    # Banking right after setting aside banks exactly the turn total.
    for o in options:
        assert o["expected_bank"] == pytest.approx(o["turn_total"])

    best = options[0]
    resp = client.post(f"/api/games/{gid}/entries", json={"throw_id": t["throw_id"], "keep": best["keep"]})
    assert resp.status_code == 200, resp.json
    state = poll(client, gid, lambda s: s["bank_advice"] and s["bank_advice"]["status"] == "ready")
    hint = state["bank_advice"]
    assert hint["bank"] == best["bank"]
    assert hint["expected_bank"] == pytest.approx(best["expected_bank"])
    assert hint["expected_again"] == pytest.approx(best["expected_again"])


def finished_yahtzee(blunder: dict) -> dict:
    """A finished two-player game file: Anna's first turn is `blunder`; every other
    turn (random dice) goes into the box the advisor ranks best."""
    rng = random.Random(5)
    game = Game.new("yahtzee", ["Anna", "Ben"])
    game = game.play({"player": "Anna", **blunder})
    while not game.finished:
        dice = [rng.randint(1, 6) for _ in range(5)]
        best = advise(game, dice, 3).best
        assert best is not None
        game = game.play({"player": game.current_player, "dice": dice, "box": best.box})
    return game.to_dict()


def test_review_after_a_finished_game_lists_the_costliest_choice(client):
    # 6-6-6-6-5 written into the ones for 0 points, on the first turn.
    log = finished_yahtzee({"dice": [6, 6, 6, 6, 5], "box": "ones"})
    resp = client.post("/api/games/import", json=log)
    assert resp.status_code == 201, resp.json
    gid = resp.json["id"]

    state = poll(client, gid, lambda s: s["review"]["status"] == "ready")
    review = state["review"]
    assert review["exact"] is True
    (worst,) = review["players"]["Anna"]
    assert worst["turn"] == 1 and worst["dice"] == [6, 6, 6, 6, 5]
    assert worst["chosen"]["box"] == "ones" and worst["chosen"]["points"] == 0
    assert worst["best"]["box"] != "ones" and worst["best"]["points"] > 0
    assert worst["loss"] > 10
    assert worst["chosen"]["label"] == get_variant("yahtzee").label("ones", "de")
    # Ben always took the advisor's best box: nothing to show.
    assert review["players"]["Ben"] == []

    page = client.get(f"/g/{gid}/log?lang=de").get_data(as_text=True)
    assert "Spielanalyse" in page and "Keine teure Entscheidung" in page
    assert f"{get_variant('yahtzee').label('ones', 'de')} (0) statt" in page
    page = client.get(f"/g/{gid}/log?lang=en").get_data(as_text=True)
    assert "Game review" in page and "No costly choice" in page
    assert f"{get_variant('yahtzee').label('ones', 'en')} (0) instead of" in page


def test_no_review_while_the_game_runs(client):
    gid = new_game(client, "yahtzee")["id"]
    assert client.get(f"/api/games/{gid}").json["review"] is None
