"""Probe a live `dicecam serve` as a hostile neighbour on the LAN would (issue 33), on loopback only.

Starts `python -m dicecam serve` on a free port of 127.0.0.1 over a temporary data
folder, then:

1. runs each probe of issue 33 and prints a table: the answer, its time, the server's
   peak memory during the probe (Linux: VmHWM, reset per probe through clear_refs),
   and whether a reference game and the start page survived;
2. measures the memory ceiling of simultaneous worst-case photo uploads;
3. a load run: 20 clients on one game, then 20 clients on 20 games (requests per
   second, p50/p99, 5xx, lost or doubled entries);
4. `kill -9` rounds in the middle of write bursts: acknowledged entries missing after
   a restart.

Everything is bounded in count and time and stops by itself (about 3 minutes on a
2-core machine). Nothing leaves the machine.

    python benchmarks/hostile.py [--quick] [--json]
"""

from __future__ import annotations

import argparse
import http.client
import io
import json
import os
import re
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import uuid
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import partial
from pathlib import Path
from typing import Any

import cv2
import numpy as np

ROOT = Path(__file__).resolve().parents[1]
SAMPLE = ROOT / "sample_images" / "byler_d6" / "IMG_20191209_100714.jpg"
CEILING_MB = 600


# ---------------------------------------------------------------- the server


class Server:
    """`dicecam serve` in a subprocess on 127.0.0.1."""

    def __init__(self, data: Path) -> None:
        self.data = data
        self.proc: subprocess.Popen | None = None
        self.port = 0

    def start(self, timeout: float = 60) -> None:
        env = dict(os.environ, PYTHONUNBUFFERED="1")
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "dicecam", "serve", "--host", "127.0.0.1", "--port", "0", "--data", str(self.data)],
            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, env=env,
        )
        deadline = time.monotonic() + timeout
        assert self.proc.stdout is not None
        while time.monotonic() < deadline:
            line = self.proc.stdout.readline()
            if not line:
                raise RuntimeError("dicecam serve ended before it was ready")
            found = re.search(r"http://127\.0\.0\.1:(\d+)/", line)
            if found:
                self.port = int(found.group(1))
                # Drain the rest of its output so the pipe never fills.
                threading.Thread(target=self.proc.stdout.read, daemon=True).start()
                return
        raise RuntimeError("dicecam serve did not announce its address")

    def stop(self) -> None:
        if self.proc and self.proc.poll() is None:
            self.proc.send_signal(signal.SIGINT)
            try:
                self.proc.wait(15)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()

    def kill9(self) -> None:
        assert self.proc is not None
        self.proc.kill()
        self.proc.wait()

    def _status(self, key: str) -> float:
        assert self.proc is not None
        try:
            text = Path(f"/proc/{self.proc.pid}/status").read_text()
        except OSError:
            return float("nan")
        found = re.search(rf"^{key}:\s+(\d+) kB", text, re.M)
        return int(found.group(1)) / 1024 if found else float("nan")

    def rss_mb(self) -> float:
        return self._status("VmRSS")

    def reset_peak(self) -> None:
        assert self.proc is not None
        try:
            Path(f"/proc/{self.proc.pid}/clear_refs").write_text("5")
        except OSError:
            pass

    def peak_mb(self) -> float:
        return self._status("VmHWM")


# ---------------------------------------------------------------- a client


@dataclass
class Answer:
    status: int
    body: bytes
    seconds: float
    headers: dict = field(default_factory=dict)

    def json(self):
        return json.loads(self.body)


def request(port: int, method: str, path: str, body: bytes | None = None, headers: dict | None = None,
            timeout: float = 60) -> Answer:
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=timeout)
    start = time.monotonic()
    try:
        conn.request(method, path, body=body, headers=headers or {})
        resp = conn.getresponse()
        data = resp.read()
        return Answer(resp.status, data, time.monotonic() - start, dict(resp.getheaders()))
    except BrokenPipeError:
        # The server answered before the whole body was sent (413 from its headers) and
        # closed: ask again the way a careful client does, headers first.
        try:
            return _headers_first(port, method, path, body or b"", headers or {}, start)
        except OSError:
            return Answer(0, b"", time.monotonic() - start)
    except (OSError, http.client.HTTPException):
        return Answer(0, b"", time.monotonic() - start)
    finally:
        conn.close()


def _headers_first(port: int, method: str, path: str, body: bytes, headers: dict, start: float) -> Answer:
    """Send the request line and headers, and read an early answer before sending the body."""
    import select

    with socket.create_connection(("127.0.0.1", port), timeout=30) as s:
        lines = [f"{method} {path} HTTP/1.1", "Host: 127.0.0.1", f"Content-Length: {len(body)}", "Connection: close"]
        lines += [f"{k}: {v}" for k, v in headers.items()]
        s.sendall(("\r\n".join(lines) + "\r\n\r\n").encode())
        if not select.select([s], [], [], 5)[0]:
            try:
                s.sendall(body)
            except OSError:
                pass
        data = b""
        try:
            while chunk := s.recv(65536):
                data += chunk
        except OSError:
            pass
    found = re.match(rb"HTTP/1\.[01] (\d{3})", data)
    _, _, rest = data.partition(b"\r\n\r\n")
    return Answer(int(found.group(1)) if found else 0, rest, time.monotonic() - start)


def post_json(port: int, path: str, body, **kw) -> Answer:
    return request(port, "POST", path, json.dumps(body, allow_nan=True).encode(),
                   {"Content-Type": "application/json", **kw.pop("headers", {})}, **kw)


def multipart(fields: dict[str, tuple[str, bytes] | str]) -> tuple[bytes, str]:
    boundary = uuid.uuid4().hex
    out = io.BytesIO()
    for name, value in fields.items():
        out.write(f"--{boundary}\r\n".encode())
        if isinstance(value, tuple):
            out.write(f'Content-Disposition: form-data; name="{name}"; filename="{value[0]}"\r\n'.encode())
            out.write(b"Content-Type: application/octet-stream\r\n\r\n" + value[1] + b"\r\n")
        else:
            out.write(f'Content-Disposition: form-data; name="{name}"\r\n\r\n{value}\r\n'.encode())
    out.write(f"--{boundary}--\r\n".encode())
    return out.getvalue(), f"multipart/form-data; boundary={boundary}"


def upload(port: int, gid: str, photo: bytes, **form: str) -> Answer:
    body, ctype = multipart({"photo": ("photo.png", photo), **form})
    return request(port, "POST", f"/api/games/{gid}/throws", body, {"Content-Type": ctype}, timeout=120)


def at_once(calls: list[Callable[[], Answer]]) -> list[Answer]:
    results: list[Answer | None] = [None] * len(calls)
    barrier = threading.Barrier(len(calls))

    def run(i: int) -> None:
        barrier.wait()
        results[i] = calls[i]()

    threads = [threading.Thread(target=run, args=(i,)) for i in range(len(calls))]
    for t in threads:
        t.start()
    for t in threads:
        t.join(300)
    return [r or Answer(0, b"", 0) for r in results]


# ---------------------------------------------------------------- test data


def sample() -> np.ndarray:
    """The sample photo, decoded."""
    image = cv2.imread(str(SAMPLE))
    assert image is not None, SAMPLE
    return image


def png(width: int, height: int, dtype=np.uint8, noise: bool = False) -> bytes:
    shape = (height, width, 3)
    image = np.random.default_rng(0).integers(0, 255, shape).astype(dtype) if noise else np.zeros(shape, dtype)
    ok, buf = cv2.imencode(".png", image)
    assert ok
    return buf.tobytes()


def jpeg_like_a_phone(long_side: int = 2000) -> bytes:
    image = sample()
    h, w = image.shape[:2]
    scale = long_side / max(h, w)
    image = cv2.resize(image, (round(w * scale), round(h * scale)))
    return cv2.imencode(".jpg", image, [cv2.IMWRITE_JPEG_QUALITY, 90])[1].tobytes()


def new_game(port: int, variant: str = "spiffel", players=("Anna", "Ben")) -> str:
    answer = post_json(port, "/api/games", {"variant": variant, "players": list(players)})
    assert answer.status == 201, answer.body
    return answer.json()["id"]


def state(port: int, gid: str) -> dict | None:
    answer = request(port, "GET", f"/api/games/{gid}")
    return answer.json() if answer.status == 200 else None


def version(port: int, gid: str) -> int:
    """The version of a game that is there."""
    found = state(port, gid)
    assert found is not None, gid
    return found["version"]


# ---------------------------------------------------------------- 1. the probes


@dataclass
class Row:
    probe: str
    expect: str
    got: str
    seconds: float
    peak_mb: float
    survived: bool


def probes(port: int, server: Server, quick: bool) -> list[Row]:
    ref = new_game(port)
    t = post_json(port, f"/api/games/{ref}/throws", {"dice": [2, 2, 3, 3, 3]}).json()
    post_json(port, f"/api/games/{ref}/entries", {"throw_id": t["throw_id"], "box": "full_house"})
    reference = state(port, ref)
    assert reference is not None

    def survived() -> bool:
        now = state(port, ref)
        page = request(port, "GET", "/")
        return page.status == 200 and now is not None and now["version"] == reference["version"]

    phone = jpeg_like_a_phone()
    worst_16 = png(7000, 7000, np.uint16)
    busts = [{"player": p, "throw": [2, 3, 4, 6, 2, 3]} for _ in range(50_000) for p in ("A", "B")]
    bust = {"variant": "wuerfelpoker", "players": ["A", "B"], "events": busts}

    def trickle_and_get(n: int) -> Answer:
        socks = []
        for _ in range(n):
            s = socket.create_connection(("127.0.0.1", port))
            s.sendall(b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: ")
            socks.append(s)
        time.sleep(0.5)
        try:
            return request(port, "GET", f"/api/games/{ref}", timeout=30)
        finally:
            for s in socks:
                s.close()

    def streams_and_get(n: int) -> Answer:
        time.sleep(1.5)  # the streams of the probe before give their slots back (about 1 s)
        held = []
        refused = 0
        for _ in range(n):
            c = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
            c.request("GET", f"/api/games/{ref}/events")
            r = c.getresponse()
            if r.status == 200:
                r.readline()
                held.append(c)
            else:
                refused += 1
                c.close()
        try:
            answer = request(port, "GET", f"/api/games/{ref}", timeout=30)
            answer.headers["refused"] = refused
            return answer
        finally:
            for c in held:
                c.close()

    def padded_jpeg() -> Answer:
        gid = new_game(port)
        before = sum(p.stat().st_size for p in (server.data / "photos").rglob("*") if p.is_file())
        answer = upload(port, gid, phone + b"\0" * 19_000_000)
        after = sum(p.stat().st_size for p in (server.data / "photos").rglob("*") if p.is_file())
        answer.headers["stored"] = after - before
        return answer

    def stale_photo() -> Answer:
        gid = new_game(port)
        stale = version(port, gid)
        post_json(port, f"/api/games/{gid}/throws", {"dice": [1, 2, 3, 4, 5]})
        before = len(list((server.data / "photos").rglob("*")))
        answer = upload(port, gid, phone, version=str(stale))
        answer.headers["stored"] = len(list((server.data / "photos").rglob("*"))) - before
        return answer

    def nan_box() -> Answer:
        gid = new_game(port)
        tid = post_json(port, f"/api/games/{gid}/throws", {"dice": [1, 2, 3, 4, 5]}).json()["throw_id"]
        return request(port, "POST", f"/api/games/{gid}/throws/{tid}/dice",
                       b'{"dice": [{"value": 3, "box": [Infinity, NaN, -Infinity, 1]}, 2, 3, 4, 5]}',
                       {"Content-Type": "application/json"})

    def version_as_text() -> Answer:
        gid = new_game(port)
        tid = post_json(port, f"/api/games/{gid}/throws", {"dice": [1, 2, 3, 4, 5]}).json()["throw_id"]
        v = str(version(port, gid))
        return post_json(port, f"/api/games/{gid}/entries", {"throw_id": tid, "box": "chance", "version": v})

    def many_parts() -> Answer:
        body, ctype = multipart({f"f{i}": "x" for i in range(5000)})
        return request(port, "POST", f"/api/games/{ref}/throws", body, {"Content-Type": ctype})

    def big_import() -> Answer:
        events = [{"player": p, "throw": [2, 3, 4, 6, 2, 3]} for _ in range(10_000) for p in ("A", "B")]
        body = {"variant": "wuerfelpoker", "players": ["A", "B"], "events": events}
        answer = post_json(port, "/api/games/import", body)
        if answer.status == 201:
            gid = answer.json()["id"]
            answer.headers["get_s"] = max(request(port, "GET", f"/api/games/{gid}").seconds for _ in range(3))
            answer.headers["page_s"] = request(port, "GET", "/").seconds
        return answer

    four_16 = lambda: at_once([lambda: upload(port, ref, worst_16)] * 4)  # noqa: E731
    # (what, expected, the attack, its answer shown): an attack answers an Answer or a list of them.
    specs: list[tuple[str, str, Callable[[], Any], Callable[[Any], str]]] = [
        ("name with a lone surrogate", "422", lambda: request(
            port, "POST", "/api/games", b'{"variant": "spiffel", "players": ["\\udc80Eve", "Ben"]}',
            {"Content-Type": "application/json"}), lambda a: str(a.status)),
        ("name with a bidi override", "422", lambda: post_json(
            port, "/api/games", {"variant": "spiffel", "players": ["Eve\u202e", "Ben"]}), lambda a: str(a.status)),
        ("13 players in an import", "422", lambda: post_json(
            port, "/api/games/import", {"variant": "spiffel", "players": [f"P{i}" for i in range(13)], "events": []}),
         lambda a: str(a.status)),
        ("16-bit 7000x7000 PNG (286 KB)", "413", lambda: upload(port, ref, worst_16), lambda a: str(a.status)),
        ("4 of those at once", "413 x4", four_16, lambda a: " ".join(sorted({str(x.status) for x in a})) + " x4"),
        ("import 100,000 bust events (5 MB)", "413", lambda: post_json(port, "/api/games/import", bust),
         lambda a: str(a.status)),
        ("import 20,000 events (the cap)", "201", big_import,
         lambda a: f"{a.status}, GET {a.headers.get('get_s', 0):.2f} s, start page {a.headers.get('page_s', 0):.2f} s"),
        ("NaN/Infinity in a box", "400", nan_box, lambda a: str(a.status)),
        ("JSON 100,000 deep (import)", "400", lambda: request(
            port, "POST", "/api/games/import", b"[" * 100_000 + b"]" * 100_000, {"Content-Type": "application/json"}),
         lambda a: str(a.status)),
        ("undo as text/plain", "415", lambda: request(
            port, "POST", f"/api/games/{ref}/undo", b"{}", {"Content-Type": "text/plain"}), lambda a: str(a.status)),
        ("undo from another site (Origin)", "403", lambda: post_json(
            port, f"/api/games/{ref}/undo", {}, headers={"Origin": "http://evil.example"}), lambda a: str(a.status)),
        ("Host: attacker.example (rebinding)", "400", lambda: request(
            port, "GET", "/api/games", headers={"Host": "attacker.example"}), lambda a: str(a.status)),
        ("20 trickling clients, then a GET", "200 < 1 s", lambda: trickle_and_get(20),
         lambda a: f"{a.status} in {a.seconds:.2f} s"),
        ("20 live streams, then a GET", "200 < 1 s", lambda: streams_and_get(20),
         lambda a: f"{a.status} in {a.seconds:.2f} s"),
        ("40 live streams (cap 32), then a GET", "8 x 503, 200", lambda: streams_and_get(40),
         lambda a: f"{a.headers['refused']} x 503, {a.status} in {a.seconds:.2f} s"),
        ("photo with a stale version", "409, 0 files", stale_photo,
         lambda a: f"{a.status}, {a.headers.get('stored')} files"),
        ("JPEG + 19 MB after its end", "201, ~0.4 MB", padded_jpeg,
         lambda a: f"{a.status}, {a.headers.get('stored', 0) / 1e6:.1f} MB stored"),
        ("/entries with version \"2\"", "200", version_as_text, lambda a: str(a.status)),
        ("5,000 form parts", "413", many_parts,
         lambda a: f"{a.status} {json.loads(a.body or b'{}').get('code', '')}"),
    ]
    if quick:
        specs = [s for s in specs if "20,000" not in s[0] and "100,000 bust" not in s[0]]
    rows = []
    for name, expect, run, show in specs:
        server.reset_peak()
        start = time.monotonic()
        answer = run()
        rows.append(Row(name, expect, show(answer), time.monotonic() - start, server.peak_mb(), survived()))
    return rows


# ---------------------------------------------------------------- 2. memory ceiling


def worst_photos() -> dict[str, bytes]:
    """The most expensive photos the decode budget lets through, one of each kind."""
    from dicecam.vision.decode import DECODE_BYTES_PER_PIXEL
    from dicecam.webapp.recognition import DECODE_BUDGET, WORK_LONG_SIDE

    # A JPEG twice the working size or more is decoded smaller: the dearest one is just under that.
    side8 = min(int((DECODE_BUDGET / DECODE_BYTES_PER_PIXEL) ** 0.5), 2 * WORK_LONG_SIDE - 1) - 8
    side16 = int((DECODE_BUDGET / DECODE_BYTES_PER_PIXEL) ** 0.5) - 8
    big = cv2.resize(sample(), (side8, side8))
    return {
        f"{side8}x{side8} JPEG": cv2.imencode(".jpg", big, [cv2.IMWRITE_JPEG_QUALITY, 95])[1].tobytes(),
        f"{side16}x{side16} 16-bit PNG": png(side16, side16, np.uint16),
    }


def ceiling(port: int, server: Server, n: int) -> list[dict]:
    """N simultaneous uploads of the most expensive photo the budget lets through."""
    from dicecam.webapp.recognition import PHOTO_SLOTS

    upload(port, new_game(port, players=["A"]), jpeg_like_a_phone())  # the model is loaded before measuring
    out = []
    for name, photo in worst_photos().items():
        games = [new_game(port, players=["A"]) for _ in range(n)]
        idle = server.rss_mb()
        server.reset_peak()
        start = time.monotonic()
        answers = at_once([partial(upload, port, g, photo) for g in games])
        out.append({
            "photo": f"{name}, {len(photo) / 1e6:.1f} MB",
            "uploads": n,
            "slots": PHOTO_SLOTS,
            "statuses": sorted({a.status for a in answers}),
            "seconds": round(time.monotonic() - start, 1),
            "idle_rss_mb": round(idle, 0),
            "peak_rss_mb": round(server.peak_mb(), 0),
            "ceiling_mb": CEILING_MB,
        })
    return out


# ---------------------------------------------------------------- 3. load


def load(port: int, *, clients: int, shared: bool, seconds: float) -> dict:
    """Each client throws and enters as fast as it can; entries carry the version they saw."""
    gids = [new_game(port, "yahtzee", players=["Anna"])] * clients if shared else [
        new_game(port, "yahtzee", players=["Anna"]) for _ in range(clients)]
    times: list[float] = []
    statuses: dict[int, int] = {}
    acknowledged: dict[str, int] = {g: 0 for g in gids}
    lock = threading.Lock()
    end = time.monotonic() + seconds
    boxes = ["chance", "ones", "twos", "threes", "fours", "fives", "sixes", "three_kind", "four_kind",
             "full_house", "small_straight", "large_straight", "five_kind"]

    def client(gid: str) -> None:
        while time.monotonic() < end:
            s = state(port, gid)
            if s is None or s["finished"]:
                return
            t = post_json(port, f"/api/games/{gid}/throws", {"dice": [1, 2, 3, 4, 6], "version": s["version"]})
            tries = []
            if t.status == 201:
                open_boxes = [o["box"] for o in t.json()["options"]]
                box = next((b for b in boxes if b in open_boxes), None)
                if box:
                    tries.append(post_json(port, f"/api/games/{gid}/entries", {
                        "throw_id": t.json()["throw_id"], "box": box, "version": t.json()["state"]["version"]}))
            with lock:
                for a in (t, *tries):
                    times.append(a.seconds)
                    statuses[a.status] = statuses.get(a.status, 0) + 1
                for a in tries:
                    if a.status == 200:
                        acknowledged[gid] += 1

    start = time.monotonic()
    threads = [threading.Thread(target=client, args=(g,)) for g in gids]
    for th in threads:
        th.start()
    for th in threads:
        th.join(seconds + 120)
    took = time.monotonic() - start
    lost = doubled = 0
    for gid in set(gids):
        events = json.loads(request(port, "GET", f"/api/games/{gid}/log").body)["events"]
        lost += max(0, acknowledged[gid] - len(events))
        doubled += max(0, len(events) - acknowledged[gid])
        boxes_used = [e["box"] for e in events]
        doubled += len(boxes_used) - len(set(boxes_used))
    times.sort()
    return {
        "clients": clients,
        "games": len(set(gids)),
        "requests": len(times),
        "req_per_s": round(len(times) / took, 1),
        "p50_ms": round(1000 * statistics.median(times), 1) if times else None,
        "p99_ms": round(1000 * times[int(0.99 * (len(times) - 1))], 1) if times else None,
        "statuses": dict(sorted(statuses.items())),
        "5xx": sum(n for s, n in statuses.items() if s >= 500 or s == 0),
        "lost": lost,
        "doubled": doubled,
    }


# ---------------------------------------------------------------- 4. kill -9


def kill_rounds(server: Server, rounds: int) -> list[dict]:
    out = []
    for n in range(rounds):
        port = server.port
        gids = [new_game(port, "yahtzee", players=["Anna"]) for _ in range(4)]
        acked: dict[str, list[dict]] = {g: [] for g in gids}
        stop = threading.Event()

        def writer(gid: str, port: int = port, stop: threading.Event = stop, acked: dict = acked) -> None:
            boxes = ["chance", "ones", "twos", "threes", "fours", "fives", "sixes", "three_kind", "four_kind",
                     "full_house", "small_straight", "large_straight", "five_kind"]
            for box in boxes:
                if stop.is_set():
                    return
                t = post_json(port, f"/api/games/{gid}/throws", {"dice": [1, 2, 3, 4, 6]}, timeout=5)
                if t.status != 201:
                    return
                e = post_json(port, f"/api/games/{gid}/entries", {"throw_id": t.json()["throw_id"], "box": box},
                              timeout=5)
                if e.status == 200:
                    acked[gid].append({"player": "Anna", "dice": [1, 2, 3, 4, 6], "box": box})

        threads = [threading.Thread(target=writer, args=(g,)) for g in gids]
        for th in threads:
            th.start()
        time.sleep(0.4 + 0.3 * n)  # in the middle of the burst
        server.kill9()
        stop.set()
        for th in threads:
            th.join(30)
        server.start()
        missing = 0
        for gid in gids:
            events = json.loads(request(server.port, "GET", f"/api/games/{gid}/log").body)["events"]
            missing += sum(1 for i, e in enumerate(acked[gid]) if i >= len(events) or events[i] != e)
        out.append({"round": n + 1, "acknowledged": sum(len(a) for a in acked.values()), "missing": missing})
    return out


# ---------------------------------------------------------------- main


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--quick", action="store_true", help="skip the slowest probes, shorter load runs")
    parser.add_argument("--json", action="store_true", help="print one JSON object instead of tables")
    args = parser.parse_args()
    report: dict = {}
    with tempfile.TemporaryDirectory(prefix="dicecam-hostile-") as tmp:
        server = Server(Path(tmp) / "data")
        server.start()
        try:
            started = time.monotonic()
            report["probes"] = [r.__dict__ for r in probes(server.port, server, args.quick)]
            report["ceiling"] = ceiling(server.port, server, 6 if args.quick else 8)
            seconds = 5 if args.quick else 10
            report["load"] = [
                load(server.port, clients=20, shared=True, seconds=seconds),
                load(server.port, clients=20, shared=False, seconds=seconds),
            ]
            report["kill9"] = kill_rounds(server, 2 if args.quick else 3)
            report["total_s"] = round(time.monotonic() - started, 1)
        finally:
            server.stop()
    if args.json:
        print(json.dumps(report, indent=1))
        return 0
    print(f"{'probe':40} {'expected':14} {'answer':40} {'time':>7} {'peak MB':>8}  game ok")
    for r in report["probes"]:
        print(f"{r['probe']:40} {r['expect']:14} {r['got']:40} {r['seconds']:6.2f}s {r['peak_mb']:8.0f}  "
              f"{'yes' if r['survived'] else 'NO'}")
    print("\nmemory, the worst photos the decode budget lets through:")
    for c in report["ceiling"]:
        print(f"  {c['uploads']} simultaneous uploads of a {c['photo']} ({c['slots']} photo slots): "
              f"answers {c['statuses']} in {c['seconds']} s; server RSS before {c['idle_rss_mb']:.0f} MB, "
              f"peak {c['peak_rss_mb']:.0f} MB (ceiling {c['ceiling_mb']} MB)")
    print("\nload:")
    for run in report["load"]:
        print(f"  {run['clients']} clients on {run['games']} game(s): {run['requests']} requests, "
              f"{run['req_per_s']}/s, p50 {run['p50_ms']} ms, p99 {run['p99_ms']} ms, answers {run['statuses']}, "
              f"5xx {run['5xx']}, lost {run['lost']}, doubled {run['doubled']}")
    print("\nkill -9 in the middle of write bursts:")
    for r in report["kill9"]:
        print(f"  round {r['round']}: {r['acknowledged']} acknowledged entries, {r['missing']} missing after restart")
    print(f"\ntotal {report['total_s']} s")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
