"""Scale-out benchmark (issue 37): one process on SQLite against 1, 2 and 4 worker
processes on PostgreSQL, with 20 simulated phones, on loopback only.

For each configuration it starts the server exactly as `dicecam serve` does
(`webapp.serve.serve`, or `serve_workers` for N workers; the advisor off, since its
cost is bench_advisor's) on 127.0.0.1 over a fresh data folder and, on PostgreSQL,
a fresh schema, then runs three phases of `--seconds` each with 20 phones (threads,
one keep-alive connection each, as a browser keeps one):

- state:   5 tables of 4 phones; each phone asks for its table's game again and again
           (`GET /api/games/<id>`, what a phone does when told the game changed);
- entries: each phone plays its own one-player Yahtzee game with JSON throws and
           entries (`POST .../throws`, `POST .../entries`), a new game when one ends;
- photos:  each phone uploads a 2000 px phone photo as a retake of its open throw
           (read by the dice model, stored under its hash, the throw replaced).

It prints answered requests per second, p50 and p99 latency, refusals (409/503) and
failures, the CPU the server (all its processes) and PostgreSQL used, in cores, and
the CPU one answered request cost both together: on a machine with more cores, about
cores / that cost is what the workers can answer. Every loop is bounded by time, the
whole run by its configurations (about 1.5 minutes with the defaults), and it stops
by itself. The PostgreSQL server is `--database` (or DICECAM_DATABASE_URL); without
one only SQLite is measured.

    python benchmarks/bench_scale.py --database postgresql://USER@127.0.0.1/DB [--seconds 6] [--json]
"""

from __future__ import annotations

import argparse
import http.client
import io
import json
import os
import re
import secrets
import signal
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import uuid
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import quote

ROOT = Path(__file__).resolve().parents[1]
SAMPLE = ROOT / "sample_images" / "byler_d6" / "IMG_20191209_100714.jpg"
PHONES = 20
TABLES = 5
BOXES = ["chance", "ones", "twos", "threes", "fours", "fives", "sixes", "three_kind", "four_kind",
         "full_house", "small_straight", "large_straight", "five_kind"]

# The server, started as `dicecam serve` starts it, with the advisor off.
LAUNCH = """
import json, sys
from dicecam.webapp import create_app
from dicecam.webapp.serve import serve, serve_workers
config, workers = json.loads(sys.argv[1]), int(sys.argv[2])
app = create_app(config)
if workers > 1:
    sys.exit(serve_workers(app, config, "127.0.0.1", 0, workers=workers))
try:
    serve(app, "127.0.0.1", 0)
except KeyboardInterrupt:
    pass
"""


# ---------------------------------------------------------------- the server


class Server:
    def __init__(self, data: Path, database_url: str | None, workers: int) -> None:
        config = {"DATA_DIR": str(data), "ADVICE": False, "DATABASE_URL": database_url}
        env = dict(os.environ, PYTHONUNBUFFERED="1")
        env.pop("DICECAM_DATABASE_URL", None)
        self.proc = subprocess.Popen(
            [sys.executable, "-c", LAUNCH, json.dumps(config), str(workers)],
            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, env=env,
        )
        self.port = 0
        deadline = time.monotonic() + 120
        assert self.proc.stdout is not None
        while time.monotonic() < deadline:
            line = self.proc.stdout.readline()
            if not line:
                raise RuntimeError("the server ended before it was ready")
            found = re.search(r"http://127\.0\.0\.1:(\d+)/", line)
            if found:
                self.port = int(found.group(1))
                threading.Thread(target=self.proc.stdout.read, daemon=True).start()
                return
        raise RuntimeError("the server did not announce its address")

    def pids(self) -> list[int]:
        children = Path(f"/proc/{self.proc.pid}/task/{self.proc.pid}/children")
        return [self.proc.pid] + ([int(p) for p in children.read_text().split()] if children.exists() else [])

    def cpu_seconds(self) -> float:
        """CPU time of the server's processes so far (Linux; 0 elsewhere)."""
        total = 0
        for pid in self.pids():
            try:
                fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
                total += int(fields[11]) + int(fields[12])  # utime, stime
            except (OSError, IndexError):
                pass
        return total / os.sysconf("SC_CLK_TCK")

    def stop(self) -> None:
        self.proc.send_signal(signal.SIGINT)
        try:
            self.proc.wait(30)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait(10)


# ---------------------------------------------------------------- a phone


class Phone:
    """One keep-alive connection, as a phone's browser keeps one."""

    def __init__(self, port: int) -> None:
        self.port = port
        self.conn: http.client.HTTPConnection | None = None

    def request(self, method: str, path: str, body: bytes | None = None, ctype: str | None = None,
                ) -> tuple[int, bytes, float]:
        headers = {"Content-Type": ctype} if ctype else {}
        start = time.monotonic()
        for attempt in (1, 2):
            if self.conn is None:
                self.conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=120)
            try:
                self.conn.request(method, path, body=body, headers=headers)
                resp = self.conn.getresponse()
                data = resp.read()
                if resp.getheader("Connection", "").lower() == "close":
                    self.close()
                return resp.status, data, time.monotonic() - start
            except (OSError, http.client.HTTPException):
                self.close()
                if attempt == 2:
                    return 0, b"", time.monotonic() - start
        raise AssertionError("unreachable")

    def json(self, method: str, path: str, body: dict | None = None) -> tuple[int, dict, float]:
        data = json.dumps(body).encode() if body is not None else None
        status, raw, took = self.request(method, path, data, "application/json" if data else None)
        try:
            return status, json.loads(raw) if raw else {}, took
        except ValueError:
            return status, {}, took

    def close(self) -> None:
        if self.conn is not None:
            self.conn.close()
            self.conn = None


def multipart(photo: bytes, **form: str) -> tuple[bytes, str]:
    boundary = uuid.uuid4().hex
    out = io.BytesIO()
    out.write(f'--{boundary}\r\nContent-Disposition: form-data; name="photo"; filename="photo.jpg"\r\n'
              "Content-Type: image/jpeg\r\n\r\n".encode() + photo + b"\r\n")
    for name, value in form.items():
        out.write(f'--{boundary}\r\nContent-Disposition: form-data; name="{name}"\r\n\r\n{value}\r\n'.encode())
    out.write(f"--{boundary}--\r\n".encode())
    return out.getvalue(), f"multipart/form-data; boundary={boundary}"


def phone_photo(long_side: int = 2000) -> bytes:
    import cv2

    image = cv2.imread(str(SAMPLE))
    if image is None:
        raise FileNotFoundError(SAMPLE)
    h, w = image.shape[:2]
    scale = long_side / max(h, w)
    image = cv2.resize(image, (round(w * scale), round(h * scale)))
    return cv2.imencode(".jpg", image, [cv2.IMWRITE_JPEG_QUALITY, 90])[1].tobytes()


# ---------------------------------------------------------------- the phases


@dataclass
class Tally:
    times: list[float] = field(default_factory=list)
    statuses: dict[int, int] = field(default_factory=dict)
    lock: threading.Lock = field(default_factory=threading.Lock)

    def add(self, status: int, took: float) -> None:
        with self.lock:
            self.times.append(took)
            self.statuses[status] = self.statuses.get(status, 0) + 1


def run_phones(port: int, seconds: float, work: Callable[[Phone, int, float, Tally], None]) -> tuple[Tally, float]:
    tally = Tally()
    end = time.monotonic() + seconds
    phones = [Phone(port) for _ in range(PHONES)]
    start = time.monotonic()
    threads = [threading.Thread(target=work, args=(p, i, end, tally), daemon=True) for i, p in enumerate(phones)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(seconds + 180)
    took = time.monotonic() - start
    for p in phones:
        p.close()
    return tally, took


def new_game(phone: Phone, variant: str, players: list[str]) -> str:
    status, body, _ = phone.json("POST", "/api/games", {"variant": variant, "players": players})
    if status != 201:
        raise RuntimeError(f"could not create a game: {status} {body}")
    return body["id"]


def phase_state(port: int, seconds: float) -> tuple[Tally, float]:
    setup = Phone(port)
    games = []
    for _ in range(TABLES):
        gid = new_game(setup, "spiffel", ["Anna", "Ben", "Cleo", "Dan"])
        for dice, box in (([2, 2, 3, 3, 3], "full_house"), ([1, 2, 3, 4, 5], "large_straight")):
            _, t, _ = setup.json("POST", f"/api/games/{gid}/throws", {"dice": dice})
            setup.json("POST", f"/api/games/{gid}/entries", {"throw_id": t["throw_id"], "box": box})
        setup.json("POST", f"/api/games/{gid}/throws", {"dice": [6, 6, 5, 4, 1]})  # an open throw
        games.append(gid)
    setup.close()

    def work(phone: Phone, i: int, end: float, tally: Tally) -> None:
        gid = games[i % TABLES]
        while time.monotonic() < end:
            status, _, took = phone.request("GET", f"/api/games/{gid}")
            tally.add(status, took)

    return run_phones(port, seconds, work)


def phase_entries(port: int, seconds: float) -> tuple[Tally, float]:
    def work(phone: Phone, i: int, end: float, tally: Tally) -> None:
        gid, filled = new_game(phone, "yahtzee", [f"P{i}"]), 0
        while time.monotonic() < end:
            if filled == len(BOXES):
                gid, filled = new_game(phone, "yahtzee", [f"P{i}"]), 0
            status, t, took = phone.json("POST", f"/api/games/{gid}/throws", {"dice": [1, 2, 3, 4, 6]})
            tally.add(status, took)
            if status != 201:
                continue
            status, _, took = phone.json("POST", f"/api/games/{gid}/entries", {
                "throw_id": t["throw_id"], "box": BOXES[filled], "version": t["state"]["version"]})
            tally.add(status, took)
            filled += status == 200

    return run_phones(port, seconds, work)


def phase_photos(port: int, seconds: float, photo: bytes) -> tuple[Tally, float]:
    def work(phone: Phone, i: int, end: float, tally: Tally) -> None:
        gid = new_game(phone, "spiffel", [f"P{i}"])
        retake = "0"
        while time.monotonic() < end:
            body, ctype = multipart(photo, retake=retake)
            status, _, took = phone.request("POST", f"/api/games/{gid}/throws", body, ctype)
            tally.add(status, took)
            if status == 201:
                retake = "1"  # the next photo replaces this throw (the turn never fills up)
            elif status == 503:
                time.sleep(1.0)  # busy: as the page does, after Retry-After

    return run_phones(port, seconds, work)


def database_cpu_seconds() -> float:
    """CPU time so far of every PostgreSQL process on this machine (Linux; 0 elsewhere)."""
    total = 0
    for proc in Path("/proc").glob("[0-9]*"):
        try:
            if (proc / "comm").read_text().strip() != "postgres":
                continue
            fields = (proc / "stat").read_text().rsplit(")", 1)[1].split()
            total += int(fields[11]) + int(fields[12])
        except (OSError, IndexError):
            pass
    return total / os.sysconf("SC_CLK_TCK")


def summary(name: str, tally: Tally, took: float, cpu: float, db_cpu: float) -> dict:
    times = sorted(tally.times)
    ok = sum(n for s, n in tally.statuses.items() if 200 <= s < 300)
    return {
        "phase": name,
        "requests": len(times),
        "ok_per_s": round(ok / took, 1),
        "p50_ms": round(1000 * statistics.median(times), 1) if times else None,
        "p99_ms": round(1000 * times[min(len(times) - 1, int(0.99 * len(times)))], 1) if times else None,
        "refused": sum(n for s, n in tally.statuses.items() if s in (409, 503)),
        "failed": sum(n for s, n in tally.statuses.items() if not (200 <= s < 300 or s in (409, 503))),
        "server_cores": round(cpu / took, 2),
        "db_cores": round(db_cpu / took, 2),
        # What one answered request costs, server and database together: what more cores buy.
        "cpu_ms_per_ok": round(1000 * (cpu + db_cpu) / ok, 1) if ok else None,
    }


# ---------------------------------------------------------------- the run


class Schemas:
    """Fresh, empty schemas on the PostgreSQL server, dropped afterwards."""

    def __init__(self, url: str) -> None:
        import psycopg

        self.url = url
        self.admin = psycopg.connect(url, autocommit=True, connect_timeout=5)
        self.made: list[str] = []

    def new(self) -> str:
        name = f"dicecam_bench_{secrets.token_hex(4)}"
        self.admin.execute(f"CREATE SCHEMA {name}")
        self.made.append(name)
        return f"{self.url}{'&' if '?' in self.url else '?'}options={quote(f'-csearch_path={name}')}"

    def close(self) -> None:
        for name in self.made:
            self.admin.execute(f"DROP SCHEMA IF EXISTS {name} CASCADE")
        self.admin.close()


def warm_up(phone: Phone, i: int, end: float, tally: Tally) -> None:
    """Every connection once, before anything is timed."""
    for _ in range(3):
        phone.request("GET", "/api/variants")


def measure(label: str, database_url: str | None, workers: int, seconds: float, photo: bytes) -> list[dict]:
    with tempfile.TemporaryDirectory(prefix="dicecam-scale-") as tmp:
        server = Server(Path(tmp) / "data", database_url, workers)
        try:
            rows = []
            run_phones(server.port, 2.0, warm_up)
            for name, phase in (("state", lambda: phase_state(server.port, seconds)),
                                ("entries", lambda: phase_entries(server.port, seconds)),
                                ("photos", lambda: phase_photos(server.port, seconds, photo))):
                before, db_before = server.cpu_seconds(), database_cpu_seconds()
                tally, took = phase()
                cpu, db_cpu = server.cpu_seconds() - before, database_cpu_seconds() - db_before
                rows.append({"server": label, **summary(name, tally, took, cpu, db_cpu if database_url else 0.0)})
                print(f"  {label:<16} {name:<8} {rows[-1]['ok_per_s']:>7} /s", file=sys.stderr, flush=True)
            return rows
        finally:
            server.stop()


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--database", default=os.environ.get("DICECAM_DATABASE_URL"),
                        help="PostgreSQL URL whose role may create schemas (default: DICECAM_DATABASE_URL)")
    parser.add_argument("--seconds", type=float, default=6.0, help="length of each phase (default 6)")
    parser.add_argument("--workers", type=int, nargs="+", default=[1, 2, 4], help="PostgreSQL worker counts")
    parser.add_argument("--json", action="store_true", help="print the rows as JSON")
    args = parser.parse_args()
    seconds = max(1.0, min(args.seconds, 60.0))
    photo = phone_photo()

    rows = measure("sqlite, 1 proc", None, 1, seconds, photo)
    if args.database:
        schemas = Schemas(args.database)
        try:
            for n in args.workers[:4]:
                rows += measure(f"postgres, {n} proc", schemas.new(), max(1, min(n, 8)), seconds, photo)
        finally:
            schemas.close()
    else:
        print("no --database: PostgreSQL not measured", file=sys.stderr)

    if args.json:
        print(json.dumps(rows, indent=1))
        return 0
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    print(f"\n{PHONES} phones, {seconds:g} s a phase, {os.cpu_count()} cores here, load average {load:.1f}\n")
    head = ("server", "phase", "requests", "ok_per_s", "p50_ms", "p99_ms", "refused", "failed", "server_cores",
            "db_cores", "cpu_ms_per_ok")
    print(" | ".join(head))
    print(" | ".join("---" for _ in head))
    for row in rows:
        print(" | ".join(str(row[h]) for h in head))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
