"""A fake camera for the live-mode browser test: a `.y4m` video made at test time from
real photos in `sample_images/`, for Chromium's `--use-file-for-fake-video-capture`.

The video is a table seen from above, in scenes (`SCENES`): an empty table, five dice
sliding in (shifted, motion-blurred), the five lying still, a jolt to a still scene of
four dice (the wrong count for a five-dice game), a jolt to five other dice lying still,
and a jolt back to the empty table. Chromium loops the file, so the loop is one more
change of scene: after it the first five dice come to rest again.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np

SAMPLES = Path(__file__).resolve().parents[3] / "sample_images"
WIDTH, HEIGHT, FPS = 640, 480, 10

# (photo, rows kept of a 640 px high photo): each becomes a 640x480 picture of a table.
FIVE_A = ("byler_d6/IMG_20191209_100714.jpg", 80)    # 2 2 3 3 3 on a grey desk
FOUR = ("matteop65_wood/valid_52.jpg", 0)            # 2 3 5 6 on wood: one die short
FIVE_B = ("matteop65_wood/valid_70.jpg", 0)          # 1 4 4 5 5 on wood
SIX = ("byler_d6/IMG_20191209_100248.jpg", 80)       # 1 1 2 3 5 5: one more than a Kniffel throw


@dataclass(frozen=True)
class Scene:
    """One stretch of the video: `still` scenes show one unchanging picture."""

    name: str
    start: float         # seconds into the file
    end: float
    still: bool
    dice: int            # dice in the picture at the end of the stretch


@dataclass(frozen=True)
class LiveVideo:
    path: Path
    fps: int
    scenes: tuple[Scene, ...]
    stills: dict[str, np.ndarray]   # name -> the still picture as the camera delivers it (BGR)

    @property
    def period(self) -> float:
        return self.scenes[-1].end

    def scene(self, name: str) -> Scene:
        return next(s for s in self.scenes if s.name == name)


def table_photo(spec: tuple[str, int]) -> tuple[np.ndarray, list[list[float]]]:
    """A sample photo as a 640x480 picture, and its labelled dice boxes in it."""
    name, top = spec
    image = cv2.imread(str(SAMPLES / name), cv2.IMREAD_COLOR)
    assert image is not None, name
    image = image[top : top + HEIGHT, :WIDTH].copy()
    assert image.shape[:2] == (HEIGHT, WIDTH), (name, image.shape)
    for line in (SAMPLES / "labels.jsonl").read_text().splitlines():
        row = json.loads(line)
        if row["image"] == name:
            boxes = [[b[0], b[1] - top, b[2], b[3] - top] for b in (d["box"] for d in row["dice"])]
            return image, boxes
    raise LookupError(name)


def _grown(box: list[float], share: float) -> tuple[int, int, int, int]:
    x0, y0, x1, y1 = box
    gx, gy = (x1 - x0) * share, (y1 - y0) * share
    return (max(0, int(x0 - gx)), max(0, int(y0 - gy)), min(WIDTH, int(x1 + gx + 1)), min(HEIGHT, int(y1 + gy + 1)))


def empty_table(image: np.ndarray, boxes: list[list[float]]) -> np.ndarray:
    """The same table with its dice painted out."""
    mask = np.zeros(image.shape[:2], np.uint8)
    for box in boxes:
        x0, y0, x1, y1 = _grown(box, 0.35)
        mask[y0:y1, x0:x1] = 255
    return cv2.inpaint(image, mask, 9, cv2.INPAINT_TELEA)


def _blur(image: np.ndarray, length: int) -> np.ndarray:
    """Horizontal motion blur over `length` pixels."""
    if length < 2:
        return image
    kernel = np.zeros((length, length), np.float32)
    kernel[length // 2, :] = 1.0 / length
    return cv2.filter2D(image, -1, kernel)


def sliding_in(image: np.ndarray, boxes: list[list[float]], empty: np.ndarray, steps: int) -> list[np.ndarray]:
    """The dice of `image` sliding onto the empty table from the left, slowing down, blurred."""
    frames = []
    areas = [_grown(b, 0.3) for b in boxes]
    patches = [((x0, y0, x1, y1), image[y0:y1, x0:x1]) for x0, y0, x1, y1 in areas]
    for k in range(steps):
        left = (1 - (k + 1) / steps) ** 2           # share of the way still to go
        shift = round(420 * left)
        speed = round(420 * ((1 - k / steps) ** 2 - left))
        frame = empty.copy()
        for (x0, y0, x1, y1), patch in patches:
            nx0 = x0 - shift
            if nx0 + (x1 - x0) <= 0:
                continue
            moving = _blur(patch, min(speed, 40))
            cut = max(0, -nx0)
            frame[y0:y1, nx0 + cut : nx0 + (x1 - x0)] = moving[:, cut:]
        frames.append(frame)
    return frames


def jolt(a: np.ndarray, b: np.ndarray, steps: int) -> list[np.ndarray]:
    """The phone moved: `a` slides away blurred while `b` fades in."""
    frames = []
    for k in range(steps):
        w = (k + 1) / (steps + 1)
        shift = int(60 * np.sin(np.pi * w))
        moved = np.roll(_blur(a if w < 0.5 else b, 25), shift, axis=1)
        frames.append(cv2.addWeighted(moved, 1 - w, _blur(b, 15), w, 0))
    return frames


def as_camera(image: np.ndarray) -> np.ndarray:
    """The picture as the camera delivers it: through the video's I420 colour format."""
    return cv2.cvtColor(cv2.cvtColor(image, cv2.COLOR_BGR2YUV_I420), cv2.COLOR_YUV2BGR_I420)


def write_y4m(path: Path, frames: list[np.ndarray], fps: int) -> None:
    with open(path, "wb") as out:
        out.write(f"YUV4MPEG2 W{WIDTH} H{HEIGHT} F{fps}:1 Ip A1:1 C420jpeg\n".encode())
        for frame in frames:
            out.write(b"FRAME\n")
            out.write(cv2.cvtColor(frame, cv2.COLOR_BGR2YUV_I420).tobytes())


def make_video(folder: Path) -> LiveVideo:
    """Write the test's video into `folder`; its scenes and stills."""
    five_a, boxes_a = table_photo(FIVE_A)
    four, _ = table_photo(FOUR)
    five_b, _ = table_photo(FIVE_B)
    empty_a = empty_table(five_a, boxes_a)
    plan: list[tuple[str, list[np.ndarray], bool, int]] = [
        ("empty", [empty_a] * int(2.0 * FPS), True, 0),
        ("rolling_a", sliding_in(five_a, boxes_a, empty_a, int(1.5 * FPS)), False, 5),
        ("still_a", [five_a] * int(4.0 * FPS), True, 5),
        ("to_four", jolt(five_a, four, int(1.0 * FPS)), False, 4),
        ("still_four", [four] * int(4.5 * FPS), True, 4),
        ("to_b", jolt(four, five_b, int(1.0 * FPS)), False, 5),
        ("still_b", [five_b] * int(4.0 * FPS), True, 5),
        ("to_empty", jolt(five_b, empty_a, int(1.0 * FPS)), False, 0),
    ]
    frames: list[np.ndarray] = []
    scenes = []
    for name, part, still, dice in plan:
        start = len(frames) / FPS
        frames.extend(part)
        scenes.append(Scene(name, start, len(frames) / FPS, still, dice))
    path = folder / "live-table.y4m"
    write_y4m(path, frames, FPS)
    stills = {"still_a": as_camera(five_a), "still_four": as_camera(four), "still_b": as_camera(five_b),
              "empty": as_camera(empty_a)}
    return LiveVideo(path, FPS, tuple(scenes), stills)


def far_video(folder: Path, *, seconds: float = 5.0) -> Path:
    """A video of the first five dice lying still, seen from twice as far: the picture
    shrunk to half in the middle of its own empty table; its file."""
    five_a, boxes_a = table_photo(FIVE_A)
    far = empty_table(five_a, boxes_a)
    half = cv2.resize(five_a, (WIDTH // 2, HEIGHT // 2), interpolation=cv2.INTER_AREA)
    far[HEIGHT // 4 : HEIGHT // 4 + HEIGHT // 2, WIDTH // 4 : WIDTH // 4 + WIDTH // 2] = half
    path = folder / "live-far.y4m"
    write_y4m(path, [far] * int(seconds * FPS), FPS)
    return path


def six_video(folder: Path, *, seconds: float = 5.0) -> Path:
    """A video of six dice lying still (one more than a five-dice throw: a die set aside or
    another player's in view); its file."""
    six, _ = table_photo(SIX)
    path = folder / "live-six.y4m"
    write_y4m(path, [six] * int(seconds * FPS), FPS)
    return path
