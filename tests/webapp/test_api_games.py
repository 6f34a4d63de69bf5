"""The JSON API: games, throws, entries, undo, export/import (Flask test client)."""

from __future__ import annotations

import pytest
from helpers_webapp import log_of, new_game, throw

from dicecam.webapp import create_app

STATE_KEYS = {"id", "variant", "players", "current_player", "sheet", "totals", "finished", "winner"}


def test_create_game_returns_201_and_the_contract_state(client):
    resp = client.post("/api/games", json={"variant": "spiffel", "players": ["Anna", "Ben"], "options": {}})
    assert resp.status_code == 201
    state = resp.json
    assert STATE_KEYS <= set(state)
    assert state["variant"] == "spiffel"
    assert state["players"] == ["Anna", "Ben"]
    assert state["current_player"] == "Anna"
    assert state["totals"] == {"Anna": 0, "Ben": 0}
    assert state["finished"] is False and state["winner"] is None
    assert resp.headers["Location"].endswith(state["id"])
    assert client.get(f"/api/games/{state['id']}").json["players"] == ["Anna", "Ben"]


def test_alias_names_the_same_variant(client):
    assert new_game(client, "kniffel")["variant"] == "spiffel"


def test_game_ids_are_long_random_and_distinct(client):
    ids = {new_game(client)["id"] for _ in range(20)}
    assert len(ids) == 20
    # token_urlsafe(16): 128 bits, 22 characters; nothing sequential to guess.
    assert all(len(i) >= 22 for i in ids)


@pytest.mark.parametrize(
    "body, status",
    [
        ({"variant": "schach", "players": ["Anna"]}, 422),
        ({"variant": "spiffel", "players": []}, 422),
        ({"variant": "spiffel", "players": ["Anna", "anna"]}, 422),
        ({"variant": "wuerfelware", "players": ["Anna"]}, 422),
        ({"variant": "spiffel", "players": ["x" * 41]}, 422),
        ({"variant": "spiffel", "players": "Anna"}, 400),
        ({"variant": 3, "players": ["Anna"]}, 400),
        ({"variant": "wuerfelpoker", "players": ["A", "B"], "options": {"target": 7}}, 422),
        ({"variant": "spiffel", "players": ["A"], "options": {"colour": "red"}}, 422),
    ],
)
def test_bad_new_games_are_refused_and_nothing_is_stored(client, body, status):
    resp = client.post("/api/games", json=body)
    assert resp.status_code == status
    assert resp.json["error"]
    assert client.get("/api/games").json == []


def test_non_json_body_is_a_400_json_error(client):
    resp = client.post("/api/games", data="players=Anna", content_type="application/json")
    assert resp.status_code == 400
    assert "JSON" in resp.json["error"]


def test_a_body_that_does_not_say_json_is_a_415(client):
    # A text/plain POST is what another site's page may send without asking (issue 33.5).
    resp = client.post("/api/games", data='{"variant": "spiffel", "players": ["Anna"]}', content_type="text/plain")
    assert resp.status_code == 415
    assert "application/json" in resp.json["error"]
    assert client.get("/api/games").json == []


def test_unknown_game_is_a_404_json_error(client):
    for method, path in [
        ("get", "/api/games/nope"),
        ("post", "/api/games/nope/throws"),
        ("post", "/api/games/nope/entries"),
        ("post", "/api/games/nope/undo"),
        ("get", "/api/games/nope/log"),
    ]:
        resp = getattr(client, method)(path, json={"dice": [1, 2, 3, 4, 5], "throw_id": "x", "box": "chance"})
        assert resp.status_code == 404, path
        assert resp.json["code"] == "not_found"


def test_errors_follow_the_browser_language(client):
    de = client.get("/api/games/nope").json["error"]
    en = client.get("/api/games/nope", headers={"Accept-Language": "en-GB,en;q=0.9"}).json["error"]
    assert de == "Dieses Spiel gibt es nicht."
    assert en == "There is no such game."


def test_a_throw_lists_every_legal_box_best_first(client):
    game = new_game(client)
    res = throw(client, game["id"], [2, 2, 3, 3, 3])
    assert {"throw_id", "dice", "options", "annotated_url"} <= set(res)
    assert [d["value"] for d in res["dice"]] == [2, 2, 3, 3, 3]
    assert res["annotated_url"] is None  # typed in, no photo
    best = res["options"][0]
    assert (best["box"], best["column"], best["points"]) == ("full_house", None, 25)
    assert len(res["options"]) == 13  # every box is open on the first turn
    points = [o["points"] for o in res["options"]]
    assert points == sorted(points, reverse=True)
    by_box = {o["box"]: o["points"] for o in res["options"]}
    assert by_box["chance"] == 13 and by_box["threes"] == 9 and by_box["small_straight"] == 0


def test_an_entry_fills_the_sheet_and_passes_the_turn(client):
    game = new_game(client)
    t = throw(client, game["id"], [2, 2, 3, 3, 3])
    body = {"throw_id": t["throw_id"], "box": "full_house", "column": None}
    resp = client.post(f"/api/games/{game['id']}/entries", json=body)
    assert resp.status_code == 200
    state = resp.json
    assert state["totals"] == {"Anna": 25, "Ben": 0}
    assert state["sheet"]["Anna"]["columns"][0]["boxes"]["full_house"] == 25
    assert state["current_player"] == "Ben"
    assert state["throw"] is None
    assert log_of(client, game["id"])["events"] == [
        {"player": "Anna", "dice": [2, 2, 3, 3, 3], "box": "full_house"}
    ]


def test_throw_number_counts_to_three_and_a_fourth_is_refused(client):
    game = new_game(client)
    gid = game["id"]
    numbers = [throw(client, gid, [1, 2, 3, 4, 6])["number"] for _ in range(3)]
    assert numbers == [1, 2, 3]
    assert client.get(f"/api/games/{gid}").json["throw_number"] == 3
    before = client.get(f"/api/games/{gid}").json
    resp = client.post(f"/api/games/{gid}/throws", json={"dice": [1, 1, 1, 1, 1]})
    assert resp.status_code == 409
    assert "dreimal" in resp.json["error"]
    after = client.get(f"/api/games/{gid}").json
    assert after["version"] == before["version"] and after["throw"] == before["throw"]


def test_only_the_latest_throw_of_the_turn_can_be_entered(client):
    gid = new_game(client)["id"]
    first = throw(client, gid, [6, 6, 6, 6, 6])
    throw(client, gid, [1, 2, 3, 4, 6])
    resp = client.post(f"/api/games/{gid}/entries", json={"throw_id": first["throw_id"], "box": "five_kind"})
    assert resp.status_code == 409
    assert log_of(client, gid)["events"] == []


def test_filling_a_filled_box_is_refused_and_changes_nothing(client):
    gid = new_game(client, players=["Anna"])["id"]
    t = throw(client, gid, [1, 1, 1, 2, 2])
    client.post(f"/api/games/{gid}/entries", json={"throw_id": t["throw_id"], "box": "ones"})
    t = throw(client, gid, [1, 1, 1, 1, 2])
    before = log_of(client, gid)
    resp = client.post(f"/api/games/{gid}/entries", json={"throw_id": t["throw_id"], "box": "ones"})
    assert resp.status_code == 422
    assert "1er" in resp.json["error"] and "schon" in resp.json["error"]
    assert log_of(client, gid) == before
    # The throw is still open: the player can pick another box.
    ok = client.post(f"/api/games/{gid}/entries", json={"throw_id": t["throw_id"], "box": "four_kind"})
    assert ok.status_code == 200 and ok.json["totals"]["Anna"] == 3 + 6


def test_an_entry_for_a_player_whose_turn_it_is_not_is_refused(client):
    gid = new_game(client)["id"]
    t = throw(client, gid, [2, 2, 3, 3, 3])
    resp = client.post(f"/api/games/{gid}/entries", json={"throw_id": t["throw_id"], "box": "chance", "player": "Ben"})
    assert resp.status_code == 409
    assert "Ben" in resp.json["error"] and "Anna" in resp.json["error"]
    assert log_of(client, gid)["events"] == []


def test_an_entry_with_an_old_version_is_refused(client):
    gid = new_game(client)["id"]
    t = throw(client, gid, [2, 2, 3, 3, 3])
    version = client.get(f"/api/games/{gid}").json["version"]
    client.post(f"/api/games/{gid}/throws/{t['throw_id']}/dice", json={"dice": [2, 2, 3, 3, 4]})
    body = {"throw_id": t["throw_id"], "box": "chance", "version": version}
    resp = client.post(f"/api/games/{gid}/entries", json=body)
    assert resp.status_code == 409
    assert log_of(client, gid)["events"] == []


@pytest.mark.parametrize(
    "body, status",
    [
        ({"throw_id": None, "box": "chance"}, 400),
        ({"throw_id": "unknown", "box": "chance"}, 404),
        ({"box": 7}, 400),
        ({"box": "jackpot"}, 422),
        ({"box": "chance", "column": 1}, 422),  # Spiffel has one column
        ({"box": "chance", "dice": [1, 2, 3]}, 422),
        ({"box": "chance", "dice": [1, 2, 3, 4, 9]}, 422),
        ({"box": "chance", "dice": [1, 2, 3, 4, True]}, 422),
        ({"box": "chance", "version": "x"}, 400),
    ],
)
def test_bad_entries_are_refused_and_change_nothing(client, body, status):
    gid = new_game(client)["id"]
    t = throw(client, gid, [2, 2, 3, 3, 3])
    body = {"throw_id": t["throw_id"], **body}
    before = client.get(f"/api/games/{gid}").json
    resp = client.post(f"/api/games/{gid}/entries", json=body)
    assert resp.status_code == status, resp.json
    assert resp.json["error"]
    after = client.get(f"/api/games/{gid}").json
    assert after["version"] == before["version"]
    assert after["throw"]["dice"] == before["throw"]["dice"]
    assert log_of(client, gid)["events"] == []


def test_correcting_a_die_records_who_and_what_and_updates_the_options(client):
    gid = new_game(client)["id"]
    t = throw(client, gid, [2, 2, 3, 3, 3])
    resp = client.post(
        f"/api/games/{gid}/throws/{t['throw_id']}/dice", json={"dice": [2, 3, 3, 3, 3], "by": "Ben"}
    )
    assert resp.status_code == 200
    assert [d["value"] for d in resp.json["dice"]] == [2, 3, 3, 3, 3]
    assert {o["box"]: o["points"] for o in resp.json["options"]}["four_kind"] == 14
    record = client.get(f"/api/games/{gid}/throws/{t['throw_id']}").json
    assert [d["value"] for d in record["dice_read"]] == [2, 2, 3, 3, 3]
    [correction] = record["corrections"]
    assert correction["by"] == "Ben"
    assert correction["before"] == [2, 2, 3, 3, 3] and correction["after"] == [2, 3, 3, 3, 3]


def test_an_entry_may_carry_corrected_dice(client):
    gid = new_game(client)["id"]
    t = throw(client, gid, [2, 2, 3, 3, 3])
    resp = client.post(
        f"/api/games/{gid}/entries",
        json={"throw_id": t["throw_id"], "box": "large_straight", "dice": [1, 2, 3, 4, 5], "by": "Anna"},
    )
    assert resp.status_code == 200
    assert resp.json["totals"]["Anna"] == 40
    record = client.get(f"/api/games/{gid}/throws/{t['throw_id']}").json
    assert record["corrections"][0]["after"] == [1, 2, 3, 4, 5]
    assert record["entry"]["box"] == "large_straight" and record["entry"]["points"] == 40
    assert record["entry"]["by"] == "Anna"


def test_undo_takes_back_the_entry_and_reopens_its_throw(client):
    gid = new_game(client)["id"]
    t = throw(client, gid, [2, 2, 3, 3, 3])
    client.post(f"/api/games/{gid}/entries", json={"throw_id": t["throw_id"], "box": "chance"})
    resp = client.post(f"/api/games/{gid}/undo", json={"by": "Anna"})
    assert resp.status_code == 200
    state = resp.json
    assert state["totals"] == {"Anna": 0, "Ben": 0}
    assert state["current_player"] == "Anna"
    assert state["throw"]["throw_id"] == t["throw_id"]
    record = client.get(f"/api/games/{gid}/throws/{t['throw_id']}").json
    assert record["history"][0]["undone"]["box"] == "chance"
    # The right box now.
    again = client.post(f"/api/games/{gid}/entries", json={"throw_id": t["throw_id"], "box": "full_house"})
    assert again.json["totals"]["Anna"] == 25


def test_undo_on_a_new_game_is_refused(client):
    gid = new_game(client)["id"]
    resp = client.post(f"/api/games/{gid}/undo")
    assert resp.status_code == 409
    assert resp.json["error"]


def test_undo_discards_throws_of_the_turn_it_takes_away(client):
    gid = new_game(client)["id"]
    t = throw(client, gid, [2, 2, 3, 3, 3])
    client.post(f"/api/games/{gid}/entries", json={"throw_id": t["throw_id"], "box": "chance"})
    ben = throw(client, gid, [6, 6, 6, 6, 6])  # Ben's throw, then Anna's entry is undone
    client.post(f"/api/games/{gid}/undo")
    assert client.get(f"/api/games/{gid}/throws/{ben['throw_id']}").json["status"] == "void"
    client.post(f"/api/games/{gid}/entries", json={"throw_id": t["throw_id"], "box": "threes"})
    # Ben's old throw must not come back as his current throw.
    assert client.get(f"/api/games/{gid}").json["throw"] is None


def test_retake_replaces_the_open_throw_without_counting_a_throw(client):
    gid = new_game(client)["id"]
    first = throw(client, gid, [1, 2, 3, 4, 6])
    second = throw(client, gid, [2, 2, 3, 3, 3], retake=True)
    assert second["number"] == 1
    state = client.get(f"/api/games/{gid}").json
    assert state["throw"]["throw_id"] == second["throw_id"] and state["throw_number"] == 1
    assert client.get(f"/api/games/{gid}/throws/{first['throw_id']}").json["status"] == "void"


def test_wuerfelspiel_entries_name_their_column_and_totals_are_weighted(client):
    gid = new_game(client, "wuerfelspiel", players=["Anna"])["id"]
    t = throw(client, gid, [2, 2, 3, 3, 3])
    cols = sorted(o["column"] for o in t["options"] if o["box"] == "full_house")
    assert cols == [1, 2, 3]
    missing = client.post(f"/api/games/{gid}/entries", json={"throw_id": t["throw_id"], "box": "full_house"})
    assert missing.status_code == 422
    resp = client.post(f"/api/games/{gid}/entries", json={"throw_id": t["throw_id"], "box": "full_house", "column": 3})
    assert resp.json["totals"]["Anna"] == 75
    assert resp.json["sheet"]["Anna"]["columns"][2]["boxes"]["full_house"] == 25


def test_export_and_import_make_the_same_game(client):
    gid = new_game(client)["id"]
    for dice, box in [([2, 2, 3, 3, 3], "full_house"), ([1, 2, 3, 4, 5], "large_straight")]:
        t = throw(client, gid, dice)
        client.post(f"/api/games/{gid}/entries", json={"throw_id": t["throw_id"], "box": box})
    exported = client.get(f"/api/games/{gid}/log?download=1")
    assert "attachment" in exported.headers["Content-Disposition"]
    resp = client.post("/api/games/import", json=exported.json)
    assert resp.status_code == 201
    assert resp.json["id"] != gid
    assert resp.json["totals"] == {"Anna": 25, "Ben": 40}
    assert log_of(client, resp.json["id"]) == exported.json


def test_importing_a_broken_file_names_the_event_and_stores_nothing(client):
    bad = {"variant": "spiffel", "players": ["Anna"], "events": [
        {"player": "Anna", "dice": [1, 1, 1, 1, 1], "box": "ones"},
        {"player": "Anna", "dice": [1, 1, 1, 1, 1], "box": "ones"},
    ]}
    resp = client.post("/api/games/import", json=bad)
    assert resp.status_code == 422
    assert "2" in resp.json["error"]
    assert client.get("/api/games").json == []


def test_a_game_survives_a_server_restart(make_app):
    first = make_app().test_client()
    gid = new_game(first)["id"]
    t = throw(first, gid, [2, 2, 3, 3, 3])
    first.post(f"/api/games/{gid}/entries", json={"throw_id": t["throw_id"], "box": "full_house"})
    pending = throw(first, gid, [6, 6, 6, 5, 5])

    second = make_app().test_client()
    state = second.get(f"/api/games/{gid}").json
    assert state["totals"] == {"Anna": 25, "Ben": 0}
    assert state["throw"]["throw_id"] == pending["throw_id"]
    assert [g["id"] for g in second.get("/api/games").json] == [gid]


def test_the_data_folder_comes_from_dicecam_data(tmp_path, monkeypatch):
    monkeypatch.setenv("DICECAM_DATA", str(tmp_path / "elsewhere"))
    app = create_app({"TESTING": True})
    assert app.config["DATA_DIR"] == str(tmp_path / "elsewhere")
    assert (tmp_path / "elsewhere" / "dicecam.sqlite3").exists()


def test_the_openapi_file_documents_every_api_route(client, app):
    import yaml

    spec = yaml.safe_load(client.get("/api/openapi.yaml").get_data(as_text=True))
    assert spec["openapi"].startswith("3.")
    documented = {(path, method) for path, ops in spec["paths"].items() for method in ops if method != "parameters"}
    served = set()
    for rule in app.url_map.iter_rules():
        if rule.rule.startswith("/api/") and rule.endpoint != "api.openapi":
            path = rule.rule.removeprefix("/api")
            for name in ("game_id", "throw_id"):
                path = path.replace(f"<{name}>", "{" + name + "}")
            path = path.replace("<any(photo, annotated):kind>", "{kind}")
            served |= {(path, m.lower()) for m in rule.methods - {"HEAD", "OPTIONS"}}
    assert served == documented
