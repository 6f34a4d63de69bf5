"""Würfelpoker through the API: set-asides, hot dice, bust, bank (the seed's examples)."""

from __future__ import annotations

from helpers_webapp import log_of, new_game, throw


def keep(client, gid, tid, dice):
    resp = client.post(f"/api/games/{gid}/entries", json={"throw_id": tid, "keep": dice})
    assert resp.status_code == 200, resp.json
    return resp.json


def test_options_are_the_legal_set_asides(client):
    gid = new_game(client, "wuerfelpoker")["id"]
    t = throw(client, gid, [1, 1, 5, 5, 3, 6])
    options = {tuple(sorted(o["keep"])): o["points"] for o in t["options"]}
    assert options[(1, 1, 5, 5)] == 300
    assert options[(1,)] == 100 and options[(5,)] == 50
    assert all(set(k) <= {1, 5} for k in options)


def test_seed_example_set_aside_then_bust_loses_the_turn(client):
    gid = new_game(client, "wuerfelpoker")["id"]
    t = throw(client, gid, [1, 1, 5, 5, 3, 6])
    state = keep(client, gid, t["throw_id"], [1, 1, 5, 5])
    assert state["turn_state"] == {"turn_total": 300, "dice_left": 2, "hot_dice": False}
    assert state["expected_dice"] == 2
    t = throw(client, gid, [4, 2])
    assert t["options"] == [] and t["bust"] is True
    assert t["number"] == 2
    state = keep(client, gid, t["throw_id"], [])
    assert state["totals"]["Anna"] == 0
    assert state["current_player"] == "Ben"


def test_seed_example_hot_dice_then_bank(client):
    gid = new_game(client, "wuerfelpoker")["id"]
    for dice, kept in [([5, 5, 1, 3, 4, 4], [5, 5, 1]), ([1, 4, 6], [1]), ([5, 1], [5, 1])]:
        state = keep(client, gid, throw(client, gid, dice)["throw_id"], kept)
    assert state["turn_state"]["turn_total"] == 450
    assert state["turn_state"]["hot_dice"] is True and state["expected_dice"] == 6
    state = keep(client, gid, throw(client, gid, [1, 1, 4, 4, 6, 6])["throw_id"], [1, 1])
    resp = client.post(f"/api/games/{gid}/entries", json={"bank": True})
    assert resp.status_code == 200
    assert resp.json["totals"] == {"Anna": 650, "Ben": 0}
    assert resp.json["current_player"] == "Ben"


def test_a_new_throw_waits_for_the_set_aside(client):
    gid = new_game(client, "wuerfelpoker")["id"]
    throw(client, gid, [1, 1, 5, 5, 3, 6])
    resp = client.post(f"/api/games/{gid}/throws", json={"dice": [1, 2, 3, 4, 5, 6]})
    assert resp.status_code == 409


def test_bad_set_asides_and_banks_are_refused(client):
    gid = new_game(client, "wuerfelpoker")["id"]
    assert client.post(f"/api/games/{gid}/entries", json={"bank": True}).status_code == 422
    t = throw(client, gid, [1, 1, 5, 5, 3, 6])
    bodies: list[dict[str, object]] = [{"keep": [3]}, {"keep": [6, 6]}, {"keep": []}, {"keep": "1"}]
    for body in bodies:
        resp = client.post(f"/api/games/{gid}/entries", json={"throw_id": t["throw_id"], **body})
        assert resp.status_code in (400, 422), body
        assert resp.json["error"]
    assert log_of(client, gid)["events"] == []


def test_wrong_number_of_dice_gives_no_options_until_corrected(client):
    gid = new_game(client, "wuerfelpoker")["id"]
    t = throw(client, gid, [1, 5, 2])
    assert t["options"] == [] and t["bust"] is False and t["expected_dice"] == 6
    fixed = client.post(f"/api/games/{gid}/throws/{t['throw_id']}/dice", json={"dice": [1, 5, 2, 2, 3, 4]}).json
    assert {tuple(o["keep"]) for o in fixed["options"]} >= {(1, 5), (1,), (5,)}


def test_reaching_the_target_ends_the_game(client):
    gid = new_game(client, "wuerfelpoker", target=1000)["id"]
    keep(client, gid, throw(client, gid, [1, 1, 1, 2, 3, 4])["throw_id"], [1, 1, 1])
    state = client.post(f"/api/games/{gid}/entries", json={"bank": True}).json
    assert state["finished"] is True and state["winner"] == "Anna"
    resp = client.post(f"/api/games/{gid}/throws", json={"dice": [1, 2, 3, 4, 5, 6]})
    assert resp.status_code == 409
