#!/usr/bin/env python3
"""Smoke test of an installed dicecam (not the checkout): read a photo, serve a table.

    .ci/smoke_install.py /path/to/venv/bin/dicecam SAMPLES_DIR

Run it with the virtual environment's own Python from a folder outside the checkout
(.ci/run does). It uses the standard library only, so it needs nothing the wheel does
not bring. Checks:

1. `dicecam recognize --json` reads the five dice of a sample photo (the shipped models
   are package data, found without the checkout);
2. `dicecam serve` starts on a free loopback port; a game is created, the same photo
   is uploaded as a throw and comes back read, with the boxes it may fill;
3. the page and its scripts are served (templates and static files are in the wheel).
"""

from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
import uuid
from pathlib import Path

PHOTO = "matteop65_wood/valid_70.jpg"
LABELLED = [1, 4, 4, 5, 5]  # sample_images/labels.jsonl


def _fail(message: str) -> None:
    print(f"smoke: FAILED: {message}", file=sys.stderr)
    sys.exit(1)


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _request(url: str, *, data: bytes | None = None, headers: dict | None = None,
             timeout: float = 60) -> tuple[int, bytes]:
    req = urllib.request.Request(url, data=data, headers=headers or {})
    try:
        with urllib.request.urlopen(req, timeout=timeout) as resp:
            return resp.status, resp.read()
    except urllib.error.HTTPError as exc:
        return exc.code, exc.read()


def _multipart(field: str, name: str, content: bytes) -> tuple[bytes, str]:
    boundary = uuid.uuid4().hex
    body = (f"--{boundary}\r\nContent-Disposition: form-data; name=\"{field}\"; filename=\"{name}\"\r\n"
            "Content-Type: image/jpeg\r\n\r\n").encode() + content + f"\r\n--{boundary}--\r\n".encode()
    return body, f"multipart/form-data; boundary={boundary}"


def recognize(dicecam: str, photo: Path) -> None:
    start = time.perf_counter()
    out = subprocess.run([dicecam, "recognize", "--json", str(photo)], capture_output=True, text=True,
                         timeout=300)
    if out.returncode != 0:
        _fail(f"dicecam recognize exited {out.returncode}: {out.stderr.strip()}")
    values = sorted(d["value"] for d in json.loads(out.stdout)["dice"])
    if values != LABELLED:
        _fail(f"dicecam recognize read {values}, the photo shows {LABELLED}")
    print(f"smoke: dicecam recognize read {values} ({time.perf_counter() - start:.1f} s with start-up)")


def serve(dicecam: str, photo: Path) -> None:
    port = _free_port()
    base = f"http://127.0.0.1:{port}"
    data = tempfile.mkdtemp(prefix="dicecam-smoke-")
    env = {**os.environ, "DICECAM_DATA": data}
    server = subprocess.Popen([dicecam, "serve", "--host", "127.0.0.1", "--port", str(port)], env=env,
                              stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    try:
        start = time.perf_counter()
        while True:
            if server.poll() is not None:
                _fail(f"dicecam serve exited {server.returncode}: {server.stdout.read() if server.stdout else ''}")
            try:
                status, _ = _request(f"{base}/api/variants", timeout=5)
                if status == 200:
                    break
            except OSError:
                pass
            if time.perf_counter() - start > 60:
                _fail("dicecam serve did not answer within 60 s")
            time.sleep(0.3)
        print(f"smoke: dicecam serve answered after {time.perf_counter() - start:.1f} s")

        status, body = _request(f"{base}/api/games", data=json.dumps(
            {"variant": "spiffel", "players": ["Anna"]}).encode(), headers={"Content-Type": "application/json"})
        if status != 201:
            _fail(f"creating a game answered {status}: {body[:300]!r}")
        game = json.loads(body)["id"]

        form, content_type = _multipart("photo", photo.name, photo.read_bytes())
        status, body = _request(f"{base}/api/games/{game}/throws", data=form,
                                headers={"Content-Type": content_type})
        if status != 201:
            _fail(f"uploading the photo answered {status}: {body[:300]!r}")
        throw = json.loads(body)
        values = sorted(d["value"] for d in throw["dice"])
        if values != LABELLED or not throw["options"]:
            _fail(f"the uploaded photo read {values} with {len(throw['options'])} options")
        print(f"smoke: the photo upload read {values}, {len(throw['options'])} boxes to choose from")

        status, page = _request(f"{base}/g/{game}")
        if status != 200 or b"<script" not in page:
            _fail(f"the game page answered {status}")
        scripts = [part.split(b'"', 1)[0].decode() for part in page.split(b'src="')[1:]]
        for src in (s for s in scripts if s.startswith("/")):
            status, _ = _request(base + src)
            if status != 200:
                _fail(f"{src} answered {status}")
        print(f"smoke: the game page and its {len(scripts)} script(s) are served")
    finally:
        server.send_signal(signal.SIGINT)
        try:
            server.wait(timeout=20)
        except subprocess.TimeoutExpired:
            server.kill()


def main() -> None:
    if len(sys.argv) != 3:
        _fail("usage: smoke_install.py DICECAM_SCRIPT SAMPLES_DIR")
    dicecam, samples = sys.argv[1], Path(sys.argv[2])
    if Path.cwd().resolve() == Path(__file__).resolve().parents[1]:
        _fail("run it outside the checkout, so that the installed package is what is tested")
    recognize(dicecam, samples / PHOTO)
    serve(dicecam, samples / PHOTO)
    print("smoke: passed")


if __name__ == "__main__":
    main()
