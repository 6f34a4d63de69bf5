"""Server time from photo upload to options, for a 2000 px phone photo.

Runs the real app (Flask test client, no network) over a temporary data folder:
each request decodes the JPEG, reads the dice with the shipped model, draws the
annotated copy, stores both under their SHA-256 and answers with the options.

    python benchmarks/bench_webapp.py [--runs 20] [--photo sample_images/...jpg]

Prints one JSON object: first request (includes loading the model), then median,
p90 and max of the following requests, and the model's own share (read_ms).
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

import cv2

ROOT = Path(__file__).resolve().parents[1]

DEFAULT_PHOTO = ROOT / "sample_images" / "byler_d6" / "IMG_20191209_100714.jpg"


def phone_photo(path: Path, long_side: int = 2000) -> bytes:
    """The sample scaled to what the page uploads: ~2000 px long side, JPEG quality 90."""
    image = cv2.imread(str(path))
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
        gid = client.post("/api/games", json={"variant": "spiffel", "players": ["Anna"]}).json["id"]
        times, reads = [], []
        for i in range(args.runs + 1):
            form = {"photo": (io.BytesIO(data), "photo.jpg")}
            if i:
                form["retake"] = "1"  # same turn: replace the throw, so the 3-throw limit never bites
            start = time.perf_counter()
            resp = client.post(f"/api/games/{gid}/throws", data=form, content_type="multipart/form-data")
            elapsed = (time.perf_counter() - start) * 1000
            if resp.status_code != 201:
                print(json.dumps({"error": resp.json}), file=sys.stderr)
                return 1
            times.append(elapsed)
            reads.append(resp.json["read_ms"])
        h, w = cv2.imdecode(__import__("numpy").frombuffer(data, "uint8"), cv2.IMREAD_COLOR).shape[:2]
        rest = sorted(times[1:])
        print(json.dumps({
            "photo": f"{w}x{h} JPEG, {len(data) / 1024:.0f} KiB",
            "runs": args.runs,
            "first_ms": round(times[0], 1),
            "median_ms": round(statistics.median(rest), 1),
            "p90_ms": round(rest[int(0.9 * (len(rest) - 1))], 1),
            "max_ms": round(rest[-1], 1),
            "model_read_median_ms": round(statistics.median(reads[1:]), 1),
            "dice": len(resp.json["dice"]),
        }))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
