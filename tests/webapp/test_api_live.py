"""Following a game from another phone (issue 32, server side): the live event stream, the QR
code of the game's link, and the fresh game carried by every 409."""

from __future__ import annotations

import json
import re
import threading
import time
import urllib.error
import urllib.request

import cv2
import numpy as np
import pytest
from helpers_webapp import new_game, throw

from dicecam.webapp.serve import make_server


@pytest.fixture
def server(app):
    """The app on a real server thread (streams need real sockets); yields its base URL."""
    srv = make_server(app, "127.0.0.1", 0)
    srv.prepare()
    thread = threading.Thread(target=srv.serve, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{srv.bind_addr[1]}"
    srv.stop()
    thread.join(10)


def post(base: str, path: str, body: dict) -> dict:
    req = urllib.request.Request(
        base + path, data=json.dumps(body).encode(), method="POST", headers={"Content-Type": "application/json"}
    )
    with urllib.request.urlopen(req, timeout=10) as resp:
        return json.load(resp)


def events(stream, until: float):
    """Yield (event, data) and ("ping", None) from an open text/event-stream until `until`."""
    name = None
    while time.monotonic() < until:
        line = stream.readline().decode()
        if not line:
            return
        line = line.rstrip("\n")
        if line.startswith(": ping"):
            yield "ping", None
        elif line.startswith("event: "):
            name = line[len("event: "):]
        elif line.startswith("data: "):
            yield name, json.loads(line[len("data: "):])


def test_a_change_reaches_a_listening_phone_within_a_second(server):
    gid = post(server, "/api/games", {"variant": "spiffel", "players": ["Anna", "Ben"]})["id"]
    with urllib.request.urlopen(f"{server}/api/games/{gid}/events", timeout=10) as stream:
        assert stream.headers["Content-Type"].startswith("text/event-stream")
        assert stream.readline() == b"retry: 3000\n"
        seen = events(stream, time.monotonic() + 10)
        assert next(seen) == ("version", {"version": 1})
        for expected in (2, 3):
            written = time.monotonic()
            post(server, f"/api/games/{gid}/throws", {"dice": [1, 2, 3, 4, 6]})  # another phone throws
            assert next(seen) == ("version", {"version": expected})
            assert time.monotonic() - written < 1.0


def test_a_quiet_stream_pings_and_ends_by_itself(make_app, tmp_path):
    app = make_app(tmp_path, LIVE_PING_S=0.2, LIVE_STREAM_S=1.0)
    gid = new_game(app.test_client())["id"]
    srv = make_server(app, "127.0.0.1", 0)
    srv.prepare()
    thread = threading.Thread(target=srv.serve, daemon=True)
    thread.start()
    try:
        start = time.monotonic()
        with urllib.request.urlopen(f"http://127.0.0.1:{srv.bind_addr[1]}/api/games/{gid}/events", timeout=10) as s:
            got = list(events(s, start + 5))
        assert got[0] == ("version", {"version": 1})
        assert got.count(("ping", None)) >= 3
        assert 0.9 < time.monotonic() - start < 3  # ended after about LIVE_STREAM_S
    finally:
        srv.stop()
        thread.join(10)


def test_over_the_stream_cap_a_phone_is_told_to_poll(make_app, tmp_path):
    app = make_app(tmp_path, LIVE_STREAMS=2)
    gid = new_game(app.test_client())["id"]
    srv = make_server(app, "127.0.0.1", 0)
    srv.prepare()
    thread = threading.Thread(target=srv.serve, daemon=True)
    thread.start()
    url = f"http://127.0.0.1:{srv.bind_addr[1]}/api/games/{gid}/events"
    try:
        held = [urllib.request.urlopen(url, timeout=10) for _ in range(2)]
        with pytest.raises(urllib.error.HTTPError) as refused:
            urllib.request.urlopen(url, timeout=10)
        assert refused.value.code == 503 and refused.value.headers["Retry-After"]
        assert json.load(refused.value)["code"] == "busy_live"
        held[0].close()
        # The slot comes back within about a second of the phone going away, with nothing written.
        deadline = time.monotonic() + 2.5
        while app.extensions["dicecam.streams"].active > 1 and time.monotonic() < deadline:
            time.sleep(0.05)
        assert app.extensions["dicecam.streams"].active == 1
        with urllib.request.urlopen(url, timeout=10) as again:
            assert again.status == 200
        held[1].close()
    finally:
        srv.stop()
        thread.join(10)


def test_a_deleted_game_ends_its_streams(server, app):
    from dicecam.scoring import Game, get_variant

    game = Game.new("yahtzee", ["Anna"])
    for box in get_variant("yahtzee").boxes:
        game = game.play({"player": "Anna", "dice": [6, 6, 6, 5, 5], "box": box})
    gid = post(server, "/api/games/import", game.to_dict())["id"]
    with urllib.request.urlopen(f"{server}/api/games/{gid}/events", timeout=10) as stream:
        seen = events(stream, time.monotonic() + 10)
        assert next(seen) == ("version", {"version": 1})
        req = urllib.request.Request(f"{server}/api/games/{gid}", method="DELETE")
        assert urllib.request.urlopen(req, timeout=10).status == 204
        assert next(seen) == ("gone", {})
        assert list(seen) == []


def test_an_unknown_game_has_no_stream(client):
    assert client.get("/api/games/nope/events").status_code == 404


def scan(svg: str) -> str:
    """Draw the SVG's unit squares and read the QR code back with OpenCV."""
    box = re.search(r'viewBox="0 0 (\d+) \d+"', svg)
    assert box is not None, svg[:200]
    size = int(box.group(1))
    image = np.full((size, size), 255, np.uint8)
    for x, y in re.findall(r"M(\d+) (\d+)h1v1h-1z", svg):
        image[int(y), int(x)] = 0
    # OpenCV's decoder misses a few valid codes at any one scale (about 1 in 300 links):
    # a phone's scanner tries again on the next frame, so the test tries other scales
    # and OpenCV's second detector before calling the code unreadable.
    for detector in (cv2.QRCodeDetector(), cv2.QRCodeDetectorAruco()):
        for scale in (10, 7, 13):
            big = cv2.resize(image, None, fx=scale, fy=scale, interpolation=cv2.INTER_NEAREST)
            text, _, _ = detector.detectAndDecode(big)
            if text:
                return text
    return ""


def test_the_qr_code_opens_the_game_on_another_phone(app):
    phone = app.test_client()
    phone.environ_base["REMOTE_ADDR"] = "192.168.178.40"
    gid = new_game(phone)["id"]
    resp = phone.get(f"/games/{gid}/qr.svg", headers={"Host": "192.168.178.23:8000"})
    assert resp.status_code == 200 and resp.mimetype == "image/svg+xml"
    assert scan(resp.get_data(as_text=True)) == f"http://192.168.178.23:8000/g/{gid}"


def test_on_the_server_machine_the_qr_code_carries_the_announced_address(app, client):
    app.config["PUBLIC_URL"] = "http://192.168.178.23:8000/"
    gid = new_game(client)["id"]
    svg = client.get(f"/games/{gid}/qr.svg").get_data(as_text=True)  # opened on localhost
    assert scan(svg) == f"http://192.168.178.23:8000/g/{gid}"
    assert client.get("/games/nope/qr.svg").status_code == 404


def test_the_short_link_opens_the_game_page(client):
    gid = new_game(client)["id"]
    resp = client.get(f"/games/{gid}")
    assert resp.status_code == 302 and resp.headers["Location"].endswith(f"/g/{gid}")


@pytest.mark.parametrize("kind", ["entry", "throw", "dice", "undo"])
def test_every_409_carries_the_game_as_it_is_now(client, kind):
    gid = new_game(client)["id"]
    t = throw(client, gid, [2, 2, 3, 3, 3])
    stale = client.get(f"/api/games/{gid}").json["version"]
    client.post(f"/api/games/{gid}/throws/{t['throw_id']}/dice", json={"dice": [2, 2, 3, 3, 4]})  # the other phone
    path, body = {
        "entry": ("entries", {"throw_id": t["throw_id"], "box": "chance", "version": stale}),
        "throw": ("throws", {"dice": [1, 1, 1, 1, 1], "version": stale}),
        "dice": (f"throws/{t['throw_id']}/dice", {"dice": [6, 6, 6, 6, 6], "version": stale}),
        "undo": ("undo", {"version": stale}),
    }[kind]
    resp = client.post(f"/api/games/{gid}/{path}", json=body)
    assert resp.status_code == 409 and resp.json["code"] == "conflict"
    assert resp.json["game"] == client.get(f"/api/games/{gid}").json
