"""The live benchmark's frames and stills are what the page sends (benchmarks/bench_live.py)."""

from __future__ import annotations

import bench_live  # benchmarks/ is on pytest's pythonpath
import cv2
import numpy as np

from dicecam.webapp.camera import FRAME_MAX_BYTES


def test_frames_are_640x480_jpegs_the_endpoint_takes():
    frames = bench_live.frames()
    assert len(frames) == 12 and len(set(frames)) == 12  # each with its own noise
    for data in frames:
        assert len(data) < FRAME_MAX_BYTES
        image = cv2.imdecode(np.frombuffer(data, np.uint8), cv2.IMREAD_COLOR)
        assert image is not None and image.shape == (480, 640, 3)


def test_a_still_goes_up_as_a_photo_form():
    body, ctype = bench_live.multipart({"version": "1"}, b"\xff\xd8jpeg")
    boundary = ctype.split("boundary=")[1]
    assert body.startswith(f"--{boundary}\r\n".encode()) and body.endswith(f"--{boundary}--\r\n".encode())
    assert b'name="photo"; filename="live.jpg"' in body and b"\xff\xd8jpeg" in body


def test_percentiles():
    assert bench_live.pct([3, 1, 2], 0.5) == 2
    assert bench_live.pct([5, 1, 4, 2, 3], 0.9) == 5
    assert np.isnan(bench_live.pct([], 0.5))
