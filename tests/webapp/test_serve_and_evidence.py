"""Serving at the table (QR code, HTTPS) and the evidence photo store."""

from __future__ import annotations

import hashlib
import io
import json
import ssl
import threading
import urllib.request

import cv2
import numpy as np
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
    ok, png = cv2.imencode(".png", np.zeros((4, 4, 3), np.uint8))
    assert sniff_type(png.tobytes()) == "image/png"
    ok, jpg = cv2.imencode(".jpg", np.zeros((4, 4, 3), np.uint8))
    assert sniff_type(jpg.tobytes()) == "image/jpeg"
    assert sniff_type(b"<html><script>") == "application/octet-stream"
    assert sniff_type(io.BytesIO(b"RIFF\x00\x00\x00\x00WEBPVP8 ").read()) == "image/webp"
