"""Server time from photo upload to options, for a 2000 px phone photo; game state and
live-update latency.

Runs the real app (Flask test client, no network) over a temporary data folder:
each request decodes the JPEG, reads the dice with the shipped model, draws the
annotated copy, stores both under their SHA-256 and answers with the options.
Then: GET of a game's state (a fresh game; an imported 20,000-event game, cached
and after the cache is dropped), the start page with 200 games, and over a real
server on loopback the time from a write to its `event: version` on a live stream.

    python benchmarks/bench_webapp.py [--runs 20] [--photo sample_images/...jpg]

Prints one JSON object: first request (includes loading the model), then median,
p90 and max of the following requests, the model's own share (read_ms), and the
state, start page and live-update timings (medians, ms).
"""

from __future__ import annotations

import argparse
import io
import json
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import cv2
import numpy as np

ROOT = Path(__file__).resolve().parents[1]

DEFAULT_PHOTO = ROOT / "sample_images" / "byler_d6" / "IMG_20191209_100714.jpg"


def phone_photo(path: Path, long_side: int = 2000) -> bytes:
    """The sample scaled to what the page uploads: ~2000 px long side, JPEG quality 90."""
    image = cv2.imread(str(path))
    assert image is not None, path
    h, w = image.shape[:2]
    scale = long_side / max(h, w)
    image = cv2.resize(image, (round(w * scale), round(h * scale)), interpolation=cv2.INTER_CUBIC)
    ok, buf = cv2.imencode(".jpg", image, [cv2.IMWRITE_JPEG_QUALITY, 90])
    assert ok
    return buf.tobytes()


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--runs", type=int, default=20)
    parser.add_argument("--photo", type=Path, default=DEFAULT_PHOTO)
    args = parser.parse_args()

    from dicecam.webapp import create_app

    data = phone_photo(args.photo)
    with tempfile.TemporaryDirectory() as tmp:
        app = create_app({"DATA_DIR": tmp, "ADVICE": False})
        client = app.test_client()
        gid = _body(client.post("/api/games", json={"variant": "spiffel", "players": ["Anna"]}))["id"]
        times, reads = [], []
        for i in range(args.runs + 1):
            form: dict[str, object] = {"photo": (io.BytesIO(data), "photo.jpg")}
            if i:
                form["retake"] = "1"  # same turn: replace the throw, so the 3-throw limit never bites
            start = time.perf_counter()
            resp = client.post(f"/api/games/{gid}/throws", data=form, content_type="multipart/form-data")
            elapsed = (time.perf_counter() - start) * 1000
            if resp.status_code != 201:
                print(json.dumps({"error": resp.json}), file=sys.stderr)
                return 1
            times.append(elapsed)
            reads.append(_body(resp)["read_ms"])
        decoded = cv2.imdecode(np.frombuffer(data, np.uint8), cv2.IMREAD_COLOR)
        assert decoded is not None
        h, w = decoded.shape[:2]
        rest = sorted(times[1:])
        extra = state_timings(app, client, args.runs)
        extra["live_update_ms"] = live_latency(app, args.runs)
        print(json.dumps({
            "photo": f"{w}x{h} JPEG, {len(data) / 1024:.0f} KiB",
            "runs": args.runs,
            "first_ms": round(times[0], 1),
            "median_ms": round(statistics.median(rest), 1),
            "p90_ms": round(rest[int(0.9 * (len(rest) - 1))], 1),
            "max_ms": round(rest[-1], 1),
            "model_read_median_ms": round(statistics.median(reads[1:]), 1),
            "dice": len(_body(resp)["dice"]),
            **extra,
        }))
    return 0


def _body(resp: Any) -> dict[str, Any]:
    """The JSON object a request answered."""
    body = resp.get_json()
    assert isinstance(body, dict), resp.status
    return body


def _median_ms(fn, runs: int) -> float:
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        fn()
        times.append((time.perf_counter() - start) * 1000)
    return round(statistics.median(times), 1)


def state_timings(app, client, runs: int) -> dict:
    """GET of a game's state, small and huge (20,000 events), and the start page with 200 games."""
    small = client.post("/api/games", json={"variant": "spiffel", "players": ["Anna", "Ben"]}).json["id"]
    events = [{"player": p, "throw": [2, 3, 4, 6, 2, 3]} for _ in range(10_000) for p in ("A", "B")]
    start = time.perf_counter()
    huge = client.post("/api/games/import", json={"variant": "wuerfelpoker", "players": ["A", "B"], "events": events})
    import_ms = (time.perf_counter() - start) * 1000
    huge_id = huge.json["id"]
    cache = app.extensions["dicecam.games"]

    def uncached() -> None:
        cache.drop(huge_id)
        client.get(f"/api/games/{huge_id}")

    for _ in range(200):
        client.post("/api/games", json={"variant": "yahtzee", "players": ["Anna"]})
    return {
        "state_small_ms": _median_ms(lambda: client.get(f"/api/games/{small}"), runs),
        "import_20000_events_ms": round(import_ms, 1),
        "state_20000_events_ms": _median_ms(lambda: client.get(f"/api/games/{huge_id}"), runs),
        "state_20000_events_uncached_ms": _median_ms(uncached, max(3, runs // 4)),
        "start_page_200_games_ms": _median_ms(lambda: client.get("/"), runs),
    }


def live_latency(app, runs: int) -> float:
    """Median time from a write's answer to `event: version` on a live stream (loopback)."""
    import threading
    import urllib.request

    from dicecam.webapp.serve import make_server

    server = make_server(app, "127.0.0.1", 0)
    server.prepare()
    thread = threading.Thread(target=server.serve, daemon=True)
    thread.start()
    base = f"http://127.0.0.1:{server.bind_addr[1]}"
    client = app.test_client()
    gid = client.post("/api/games", json={"variant": "wuerfelpoker", "players": ["A", "B"]}).json["id"]
    times = []
    try:
        with urllib.request.urlopen(f"{base}/api/games/{gid}/events", timeout=30) as stream:
            while not stream.readline().startswith(b"data:"):
                pass
            for _ in range(runs):
                start = time.perf_counter()
                client.post(f"/api/games/{gid}/throws", json={"dice": [2, 3, 4, 6, 2, 3]})
                tid = client.get(f"/api/games/{gid}").json["throw"]["throw_id"]
                written = time.perf_counter()
                client.post(f"/api/games/{gid}/entries", json={"throw_id": tid, "keep": []})
                for line in iter(stream.readline, b""):
                    if line.startswith(b"data:") and time.perf_counter() > written:
                        break
                times.append((time.perf_counter() - start) * 1000)
    finally:
        server.stop()
        thread.join(10)
    return round(statistics.median(times), 1)


if __name__ == "__main__":
    raise SystemExit(main())
