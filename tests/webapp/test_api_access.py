"""A game's link is its key (issue 33.5): listing, other sites' pages, unknown host names."""

from __future__ import annotations

import pytest
from helpers_webapp import log_of, new_game, throw


def lan_client(app, address: str = "192.168.178.40"):
    """A browser on another machine of the LAN (its own cookie jar)."""
    client = app.test_client()
    client.environ_base["REMOTE_ADDR"] = address
    return client


@pytest.fixture
def phone(app):
    return lan_client(app)


@pytest.fixture
def other_phone(app):
    return lan_client(app, "192.168.178.41")


def test_a_phone_lists_only_the_games_it_created_imported_or_opened(client, phone, other_phone):
    mine = new_game(phone)["id"]
    theirs = new_game(other_phone)["id"]
    imported = phone.post("/api/games/import", json=log_of(client, theirs)).json["id"]
    assert {g["id"] for g in phone.get("/api/games").json} == {mine, imported}
    assert [g["id"] for g in other_phone.get("/api/games").json] == [theirs]
    page = phone.get("/").get_data(as_text=True)
    assert mine in page and imported in page and theirs not in page
    # Opening the link is joining: now the other phone lists it too.
    assert other_phone.get(f"/g/{mine}").status_code == 200
    assert {g["id"] for g in other_phone.get("/api/games").json} == {theirs, mine}


def test_the_machine_running_the_server_sees_every_game(client, phone, other_phone):
    ids = {new_game(phone)["id"], new_game(other_phone)["id"]}
    assert {g["id"] for g in client.get("/api/games").json} == ids  # the test client is 127.0.0.1
    page = client.get("/").get_data(as_text=True)
    assert all(i in page for i in ids)


def test_a_stranger_without_the_link_finds_nothing(app, phone):
    gid = new_game(phone)["id"]
    stranger = lan_client(app, "192.168.178.99")
    assert stranger.get("/api/games").json == []
    assert gid not in stranger.get("/").get_data(as_text=True)
    assert stranger.get("/api/games/notthegame").status_code == 404


def test_a_forged_cookie_lists_nothing(app, phone):
    gid = new_game(phone)["id"]
    forger = lan_client(app, "192.168.178.99")
    forger.set_cookie("dicecam", f'{{"games": ["{gid}"]}}', domain="localhost")
    assert forger.get("/api/games").json == []


def test_the_list_is_capped(app, phone):
    from dicecam.webapp.access import MAX_REMEMBERED

    ids = [new_game(phone, players=["Anna"])["id"] for _ in range(MAX_REMEMBERED + 3)]
    listed = [g["id"] for g in phone.get("/api/games").json]
    assert len(listed) == MAX_REMEMBERED and set(listed) == set(ids[3:])


@pytest.mark.parametrize(
    "headers",
    [
        {"Origin": "http://evil.example"},
        {"Origin": "null"},
        {"Origin": "http://localhost:9999"},  # another program on this machine
        {"Sec-Fetch-Site": "cross-site"},
        {"Sec-Fetch-Site": "same-site"},
    ],
)
def test_another_sites_page_cannot_change_a_game(client, headers):
    gid = new_game(client)["id"]
    t = throw(client, gid, [2, 2, 3, 3, 3])
    client.post(f"/api/games/{gid}/entries", json={"throw_id": t["throw_id"], "box": "chance"})
    before = log_of(client, gid)
    for method, path, body in [
        ("post", f"/api/games/{gid}/undo", {}),
        ("post", f"/api/games/{gid}/throws", {"dice": [1, 1, 1, 1, 1]}),
        ("post", "/api/games", {"variant": "spiffel", "players": ["Mallory"]}),
        ("post", "/api/games/import", before),
        ("delete", f"/api/games/{gid}", None),
    ]:
        resp = getattr(client, method)(path, json=body, headers=headers)
        assert resp.status_code == 403, (path, resp.json)
        assert resp.json["code"] == "cross_site"
    assert log_of(client, gid) == before
    assert len(client.get("/api/games").json) == 1
    # Reading is not a change: a link shared on another site still opens the game.
    assert client.get(f"/g/{gid}", headers=headers).status_code == 200


def test_the_page_itself_may_change_the_game(client):
    gid = new_game(client)["id"]
    same = {"Origin": "http://localhost", "Sec-Fetch-Site": "same-origin"}
    resp = client.post(f"/api/games/{gid}/throws", json={"dice": [1, 2, 3, 4, 5]}, headers=same)
    assert resp.status_code == 201


def test_undo_refuses_a_text_plain_body(client):
    """A form or `fetch` from another site may send text/plain without asking the browser."""
    gid = new_game(client)["id"]
    t = throw(client, gid, [2, 2, 3, 3, 3])
    client.post(f"/api/games/{gid}/entries", json={"throw_id": t["throw_id"], "box": "chance"})
    resp = client.post(f"/api/games/{gid}/undo", data="{}", content_type="text/plain")
    assert resp.status_code == 415
    assert len(log_of(client, gid)["events"]) == 1


@pytest.mark.parametrize("host", ["attacker.example", "attacker.example:8000", "localhost.evil.example"])
def test_unknown_host_names_are_refused(client, host):
    """DNS rebinding: another site makes its name point at this server."""
    gid = new_game(client)["id"]
    for path in ("/", "/api/games", f"/api/games/{gid}", f"/g/{gid}"):
        resp = client.get(path, headers={"Host": host})
        assert resp.status_code == 400, path
    assert client.get("/api/games", headers={"Host": host}).json["code"] == "host"


@pytest.mark.parametrize("host", ["localhost:8000", "127.0.0.1:8000", "192.168.178.23:8000", "[::1]:8000", "[fe80::1]"])
def test_addresses_and_localhost_are_served(client, host):
    assert client.get("/api/variants", headers={"Host": host}).status_code == 200


def test_configured_names_are_served(make_app, tmp_path, monkeypatch):
    monkeypatch.setenv("DICECAM_ALLOWED_HOSTS", "dice.fritz.box, spieltisch")
    client = make_app(tmp_path).test_client()
    for host in ("dice.fritz.box", "spieltisch:8000"):
        assert client.get("/api/variants", headers={"Host": host}).status_code == 200
    assert client.get("/api/variants", headers={"Host": "other.fritz.box"}).status_code == 400


def test_the_cookie_secret_outlives_a_restart(make_app, tmp_path):
    first = lan_client(make_app(tmp_path))
    gid = new_game(first)["id"]
    cookie = first.get_cookie("dicecam")
    second = lan_client(make_app(tmp_path))
    second.set_cookie("dicecam", cookie.value, domain="localhost")
    assert [g["id"] for g in second.get("/api/games").json] == [gid]
    assert oct((tmp_path / "secret_key").stat().st_mode & 0o777) == "0o600"
