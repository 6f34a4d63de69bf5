"""Serving at the table (QR code, HTTPS) and the evidence photo store."""

from __future__ import annotations

import hashlib
import io
import json
import shutil
import socket
import ssl
import subprocess
import sys
import threading
import time
import urllib.request
from pathlib import Path

import cv2
import numpy as np
import pytest
from helpers_webapp import json_body
from hypothesis import given, settings
from hypothesis import strategies as st

from dicecam.webapp.evidence import PhotoStore, sniff_type
from dicecam.webapp.serve import ensure_certificate, make_server, public_url, qr_lines


def decode_qr(lines: list[str]) -> str:
    """Turn the half-block drawing back into pixels and let OpenCV read it."""
    rows = []
    for line in lines:
        rows.append([c in "▀█" for c in line])
        rows.append([c in "▄█" for c in line])
    modules = np.where(np.array(rows), 0, 255).astype(np.uint8)
    image = cv2.resize(modules, None, fx=8, fy=8, interpolation=cv2.INTER_NEAREST)
    text, _, _ = cv2.QRCodeDetector().detectAndDecode(image)
    return text


def test_the_terminal_qr_code_scans_back_to_the_address():
    url = "https://192.168.178.23:8000/"
    assert decode_qr(qr_lines(url)) == url


def test_the_printed_address_is_a_lan_address_when_listening_everywhere():
    url = public_url("0.0.0.0", 8000, https=True)
    assert url.startswith("https://") and url.endswith(":8000/")
    assert "0.0.0.0" not in url
    assert public_url("127.0.0.1", 5000, https=False) == "http://127.0.0.1:5000/"


def test_https_serves_with_a_self_signed_certificate_kept_in_the_data_folder(app, tmp_path):
    folder = tmp_path / "tls"
    cert, key = ensure_certificate(folder, ["192.168.1.50"])
    first = cert.read_bytes()
    assert ensure_certificate(folder, ["192.168.1.50"])[0].read_bytes() == first  # reused
    assert ensure_certificate(folder, ["10.0.0.7"])[0].read_bytes() != first  # new address: new certificate

    server = make_server(app, "127.0.0.1", 0, certificate=(cert, key))
    server.prepare()
    thread = threading.Thread(target=server.serve, daemon=True)
    thread.start()
    try:
        context = ssl.create_default_context(cafile=str(cert))
        url = f"https://127.0.0.1:{server.bind_addr[1]}/api/variants"
        with urllib.request.urlopen(url, context=context, timeout=30) as resp:
            assert resp.status == 200
            assert json.load(resp)[0]["id"] == "spiffel"
    finally:
        server.stop()
        thread.join(10)


def test_dicecam_serve_refuses_a_taken_port_with_one_line(tmp_path, capsys):
    import socket

    from dicecam.cli import main

    taken = socket.socket()
    taken.bind(("127.0.0.1", 0))
    taken.listen()
    try:
        status = main(["serve", "--host", "127.0.0.1", "--port", str(taken.getsockname()[1]), "--data", str(tmp_path)])
    finally:
        taken.close()
    assert status == 2
    err = capsys.readouterr().err.strip()
    assert err.startswith("dicecam serve:") and "\n" not in err


@settings(max_examples=30, deadline=None)
@given(data=st.binary(min_size=1, max_size=2048))
def test_photos_are_stored_under_their_sha256_and_come_back_unchanged(tmp_path_factory, data):
    store = PhotoStore(tmp_path_factory.mktemp("photos"))
    sha = store.put(data)
    assert sha == hashlib.sha256(data).hexdigest()
    assert store.get(sha) == data
    assert store.put(data) == sha  # stored once
    assert store.path(sha).name == sha
    assert store.verify(sha)


def test_a_photo_store_refuses_names_that_are_not_hashes(tmp_path):
    store = PhotoStore(tmp_path)
    for bad in ("../etc/passwd", "abc", "G" * 64, ""):
        try:
            store.path(bad)
        except ValueError:
            continue
        raise AssertionError(bad)


def test_image_types_come_from_the_bytes():
    _, png = cv2.imencode(".png", np.zeros((4, 4, 3), np.uint8))
    assert sniff_type(png.tobytes()) == "image/png"
    _, jpg = cv2.imencode(".jpg", np.zeros((4, 4, 3), np.uint8))
    assert sniff_type(jpg.tobytes()) == "image/jpeg"
    assert sniff_type(b"<html><script>") == "application/octet-stream"
    assert sniff_type(io.BytesIO(b"RIFF\x00\x00\x00\x00WEBPVP8 ").read()) == "image/webp"


# --- slow clients and held connections (issue 33.6) ------------------------------------


def _get(base: str, path: str, timeout: float = 5) -> tuple[int, float]:
    start = time.monotonic()
    with urllib.request.urlopen(base + path, timeout=timeout) as resp:
        resp.read()
        return resp.status, time.monotonic() - start


def _trickle(port: int) -> socket.socket:
    """A client that has started a request and sends it a byte at a time."""
    s = socket.create_connection(("127.0.0.1", port))
    s.sendall(b"GET /api/variants HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: ")
    return s


def test_trickling_clients_and_live_streams_do_not_starve_a_normal_request(live_server):
    port = int(live_server.rsplit(":", 1)[1])
    status, game = _post_json(live_server, "/api/games", {"variant": "spiffel", "players": ["Anna"]})
    slow = [_trickle(port) for _ in range(20)]
    streams = [urllib.request.urlopen(f"{live_server}/api/games/{game['id']}/events", timeout=10) for _ in range(20)]
    try:
        for s in slow:
            s.sendall(b"x")
        for stream in streams:
            assert stream.readline().startswith(b"retry:")
        status, took = _get(live_server, f"/api/games/{game['id']}")
        assert status == 200 and took < 1.0
    finally:
        for s in slow:
            s.close()
        for stream in streams:
            stream.close()


def test_a_request_that_takes_too_long_to_arrive_loses_its_connection(app, monkeypatch):
    from dicecam.webapp import serve

    monkeypatch.setattr(serve, "HEADERS_S", 1.0)
    server = make_server(app, "127.0.0.1", 0)
    server.prepare()
    thread = threading.Thread(target=server.serve, daemon=True)
    thread.start()
    try:
        s = _trickle(server.bind_addr[1])
        s.settimeout(5)
        start = time.monotonic()
        answer = b""
        try:
            while time.monotonic() - start < 4:
                s.sendall(b"x")  # one byte every 0.2 s: each read succeeds, the whole never arrives
                time.sleep(0.2)
        except OSError:
            pass  # the server closed the connection
        try:
            answer = s.recv(4096)
        except OSError:
            pass
        assert time.monotonic() - start < 3.5
        assert answer == b"" or answer.startswith(b"HTTP/1.1 408")
        s.close()
    finally:
        server.stop()
        thread.join(10)


def _post_json(base: str, path: str, body: dict) -> tuple[int, dict]:
    req = urllib.request.Request(
        base + path, data=json.dumps(body).encode(), method="POST", headers={"Content-Type": "application/json"}
    )
    with urllib.request.urlopen(req, timeout=10) as resp:
        return resp.status, json.load(resp)


# --- a read-only data folder (issue 33.8) ---------------------------------------------


READ_ONLY_PROBE = """
import json, sys
from dicecam.webapp import create_app
app = create_app({"DATA_DIR": sys.argv[1], "ADVICE": False})
client = app.test_client()
gid = sys.argv[2]
out = {"read_only": app.config["READ_ONLY"]}
for path in ("/", f"/g/{gid}", f"/g/{gid}/log", f"/api/games/{gid}", "/api/games", f"/games/{gid}/qr.svg"):
    out[path] = client.get(path).status_code
resp = client.post(f"/api/games/{gid}/throws", json={"dice": [1, 2, 3, 4, 5]})
out["post"] = [resp.status_code, resp.json["code"], resp.json["error"]]
print(json.dumps(out))
"""


def _read_only(folder: Path, *command: str) -> subprocess.CompletedProcess:
    """Run `command` with `folder` mounted read-only (a private mount namespace; even root cannot write)."""
    script = f'mount --bind "{folder}" "{folder}" && mount -o remount,bind,ro "{folder}" && exec "$@"'
    return subprocess.run(
        ["unshare", "-m", "--propagation", "private", "sh", "-c", script, "sh", *command],
        capture_output=True, text=True, timeout=120,
    )


@pytest.fixture
def read_only_folder(tmp_path):
    """A data folder with one game in it, written and closed as a finished server leaves it."""
    from dicecam.webapp import create_app

    if shutil.which("unshare") is None or _read_only(tmp_path, "true").returncode:
        pytest.skip("needs a private mount namespace (unshare -m) to make a folder read-only")
    data = tmp_path / "data"
    app = create_app({"DATA_DIR": str(data), "ADVICE": False})
    gid = json_body(app.test_client().post("/api/games", json={"variant": "spiffel", "players": ["Anna"]}))["id"]
    app.extensions["dicecam.sqlite_keeper"].close()
    return data, gid


def test_a_read_only_data_folder_still_shows_every_page(read_only_folder):
    data, gid = read_only_folder
    result = _read_only(data, sys.executable, "-c", READ_ONLY_PROBE, str(data), gid)
    assert result.returncode == 0, result.stderr
    out = json.loads(result.stdout)
    assert out.pop("read_only") is True
    status, code, message = out.pop("post")
    assert (status, code) == (503, "read_only") and "schreibgeschützt" in message
    assert set(out.values()) == {200}, out


def test_dicecam_serve_on_a_read_only_folder_says_so_in_one_line_and_exits_2(read_only_folder):
    data, _ = read_only_folder
    result = _read_only(data, sys.executable, "-m", "dicecam", "serve", "--port", "0", "--data", str(data))
    assert result.returncode == 2, (result.stdout, result.stderr)
    err = result.stderr.strip()
    assert err.startswith("dicecam serve:") and "read-only" in err and "\n" not in err


def test_dicecam_serve_takes_a_models_folder(tmp_path, capsys, monkeypatch):
    from dicecam.cli import main
    from dicecam.vision.reader import DEFAULT_MODELS
    from dicecam.webapp import serve as serving

    assert main(["serve", "--models", str(tmp_path / "nowhere"), "--data", str(tmp_path)]) == 2
    assert "--models" in capsys.readouterr().err
    seen: dict[str, str] = {}
    monkeypatch.setattr(serving, "serve",
                        lambda app, host, port, https=False: seen.update(models=app.config["MODELS_DIR"]))
    assert main(["serve", "--models", str(DEFAULT_MODELS), "--data", str(tmp_path / "data"),
                 "--port", "0"]) in (0, None)
    assert seen["models"] == str(DEFAULT_MODELS)
