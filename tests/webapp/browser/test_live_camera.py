"""Live mode (issue 35) in Chromium with a fake camera fed a video of real photos.

The video (`live_video.py`) shows an empty table, five dice sliding in, the five still,
a still scene of four dice, five other dice still, and back; Chromium loops it. The
page is served on `localhost` (a secure context, as a phone needs for its camera).
"""

from __future__ import annotations

import json
import threading
import time
import urllib.request
from collections.abc import Iterator
from urllib.parse import parse_qs, urlsplit

import cv2
import numpy as np
import pytest

from .checks import check_screen
from .conftest import ARGS, phones_of
from .live_video import LiveVideo, make_video
from .play import photo_throw, start_game, text

INSECURE_HOST = "dicecam-table.test"  # a LAN name on plain HTTP: not a secure context

# Every 100 ms: the video's clock, the live panel's phase and what it says.
_RECORD_JS = """() => {
  window.__live = [];
  setInterval(() => {
    const v = document.getElementById('live-video');
    const p = document.getElementById('live');
    const s = document.getElementById('live-status');
    window.__live.push({now: Date.now(), vt: v ? v.currentTime : null, open: !p.hidden,
      phase: p.dataset.phase || null, seen: p.dataset.seen || null, frames: +(p.dataset.frames || 0),
      still: +(p.dataset.still || 0),
      status: s ? s.textContent : null, anyway: !!document.getElementById('live-anyway'),
      keep: document.querySelectorAll('.live-die.keep').length,
      keepText: (document.getElementById('live-keep') || {}).textContent || '',
      title: (document.getElementById('result-title') || {}).textContent || '',
      options: document.querySelectorAll('#options .option').length});
  }, 100);
}"""


@pytest.fixture(scope="module")
def video(tmp_path_factory) -> LiveVideo:
    return make_video(tmp_path_factory.mktemp("live-video"))


@pytest.fixture(scope="module")
def camera_browser(playwright, chromium, video):
    """Chromium whose camera is the video, with LAN name for the insecure page."""
    args = [*ARGS, "--use-fake-ui-for-media-stream", "--use-fake-device-for-media-stream",
            f"--use-file-for-fake-video-capture={video.path}",
            f"--host-resolver-rules=MAP {INSECURE_HOST} 127.0.0.1", "--autoplay-policy=no-user-gesture-required"]
    browser = playwright.chromium.launch(executable_path=chromium, args=args)
    yield browser
    browser.close()


@pytest.fixture(scope="module")
def live_port(tmp_path_factory) -> Iterator[int]:
    """The app (advice off) on a live server that also answers to the LAN name."""
    from dicecam.webapp import create_app
    from dicecam.webapp.serve import make_server

    data = tmp_path_factory.mktemp("live-data")
    patch = pytest.MonkeyPatch()
    patch.setenv("DICECAM_DATA", str(data))
    app = create_app({"TESTING": True, "DATA_DIR": str(data), "ADVICE": False,
                      "ALLOWED_HOSTS": ["localhost", INSECURE_HOST]})
    server = make_server(app, "127.0.0.1", 0)
    server.prepare()
    thread = threading.Thread(target=server.serve, daemon=True)
    thread.start()
    yield server.bind_addr[1]
    server.stop()
    thread.join(timeout=10)
    patch.undo()


def frame_times(page, urls: list[str] | None = None) -> list[float]:
    """A list that fills with the time (ms) of every frame the page sends from now on
    (and `urls`, where given, with their addresses)."""
    sent: list[float] = []

    def seen(r) -> None:
        if urlsplit(r.url).path.endswith("/frames"):
            sent.append(time.time() * 1000)
            if urls is not None:
                urls.append(r.url)

    page.on("request", seen)
    return sent


def wait_for_frames(page, count: int = 2) -> None:
    """Until live mode has had `count` frames read."""
    page.wait_for_function(f"() => +(document.getElementById('live').dataset.frames || 0) >= {count}")


@pytest.fixture
def live_phones(camera_browser) -> Iterator:
    """Phones in the fake-camera browser, each checked for errors as `phones` checks them."""
    with phones_of(camera_browser) as open_phone:
        yield open_phone


def get_json(url: str):
    with urllib.request.urlopen(url, timeout=10) as resp:
        return json.load(resp)


def get_bytes(url: str) -> bytes:
    with urllib.request.urlopen(url, timeout=10) as resp:
        return resp.read()


class ThrowWatch:
    """Polls the game's throws from outside the browser, noting when each appeared."""

    def __init__(self, base: str, gid: str) -> None:
        self.url = f"{base}/api/games/{gid}/throws"
        self.seen: list[tuple[float, dict]] = []
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True)
        self._thread.start()

    def _run(self) -> None:
        while not self._stop.is_set():
            try:
                throws = get_json(self.url)
            except OSError:  # the server is gone (a failed test's teardown)
                return
            for t in throws[len(self.seen):]:
                self.seen.append((time.time() * 1000, t))
            self._stop.wait(0.1)

    def stop(self) -> list[tuple[float, dict]]:
        self._stop.set()
        self._thread.join(timeout=5)
        return self.seen


def video_time(log: list[dict], when_ms: float) -> float:
    """The video's clock at wall time `when_ms`, from the page's record."""
    before = [e for e in log if e["vt"] is not None and e["now"] <= when_ms]
    assert before, "the throw came before the video played"
    last = before[-1]
    return last["vt"] + (when_ms - last["now"]) / 1000


def rest_to_options(log: list[dict], lang: str, throws: int) -> list[float]:
    """For each throw: from the dice coming to rest (the last movement the page saw) to the
    throw's options on screen, in ms (to within the record's 100 ms)."""
    out = []
    for n in range(1, throws + 1):
        title = text("throw_n", lang, n=n, max=3)
        shown = next((e for e in log if e["options"] and e["title"].startswith(title)), None)
        if shown is not None:
            out.append(shown["still"])
    return out


def which_still(video: LiveVideo, photo: bytes) -> tuple[str, float]:
    """The still scene a photo shows (the nearest by mean grey difference) and that difference."""
    image = cv2.imdecode(np.frombuffer(photo, np.uint8), cv2.IMREAD_COLOR)
    assert image is not None, "the throw's photo is not an image"
    diffs = {name: float(np.abs(image.astype(np.int16) - still.astype(np.int16)).mean())
             for name, still in video.stills.items()}
    name = min(diffs, key=diffs.__getitem__)
    return name, diffs[name]


def reader_values(image: np.ndarray, count: int) -> list[int]:
    from dicecam.vision.reader import DiceReader

    return sorted(d["value"] for d in DiceReader().read(image, count=count).to_list())


@pytest.mark.parametrize("lang", ["de", "en"])
def test_live_mode_takes_one_throw_per_settled_scene(live_phones, live_port, video, screens, lang):
    base = f"http://localhost:{live_port}"
    phone = live_phones(lang)
    page = phone.page
    frame_urls: list[str] = []
    frames_sent = frame_times(page, frame_urls)
    gid = start_game(phone, base, "spiffel", ["Anna", "Ben"])
    assert page.evaluate("window.isSecureContext")
    assert page.locator("#live-why").is_hidden()
    watch = ThrowWatch(base, gid)
    page.click("#live-btn")
    page.wait_for_function("() => { const v = document.getElementById('live-video'); return v && v.currentTime > 0; }")
    page.evaluate(_RECORD_JS)

    # The four dice: nothing taken, and the page says what it sees.
    page.wait_for_function("() => document.getElementById('live').dataset.phase === 'wrong'", timeout=40_000)
    assert page.locator("#live-status").inner_text() == text("live_count", lang, seen=4, n=5)
    assert page.locator("#live-anyway").inner_text() == text("live_take_anyway", lang)
    check_screen(phone, "live-wrong-count", screens)
    # Each frame names the still the camera takes (the fake camera's 640x480), at which its
    # dice (31-40 px there) are not too small to read: no hint to move closer.
    assert frame_urls and all(parse_qs(urlsplit(u).query) == {"still_side": ["640"]} for u in frame_urls)
    assert page.locator("#live-small").is_hidden()

    # Throw 3 is the turn's last: live mode closes itself and the options are shown.
    page.wait_for_selector("#live", state="hidden", timeout=60_000)
    closed = time.time() * 1000
    page.wait_for_timeout(1500)
    log = page.evaluate("window.__live")
    throws = watch.stop()
    print(f"live {lang}: rest to options on screen (ms):", rest_to_options(log, lang, len(throws)))
    check_screen(phone, "live-after-last-throw", screens)
    assert page.locator("#options .option").count() > 0
    assert page.locator("#live-video").count() == 0
    assert page.locator("#live-btn").is_disabled()  # no throw left this turn
    assert [t for t in frames_sent if t > closed + 300] == [], "frames were sent after live mode closed"

    assert [t["number"] for _, t in throws] == [1, 2, 3]
    expected_scenes = ["still_a", "still_b", "still_a"]
    for (appeared, t), want in zip(throws, expected_scenes):
        # Taken from the still scene (never a frame of moving dice) ...
        shows, diff = which_still(video, get_bytes(base + t["photo_url"]))
        assert shows == want and diff < 4, (t["number"], shows, diff)
        # ... with the dice of the still photo ...
        assert sorted(d["value"] for d in t["dice"]) == reader_values(video.stills[want], 5)
        assert t["source"] == "photo" and t["photo_sha256"] and t["annotated_sha256"]
        # ... while that still scene lasted. How soon after it began depends on how fast
        # the machine reads frames (a busy CI runner took 3.6 s), so only the scene's
        # bounds are asserted, with slack for the video's clock (it runs a little behind
        # the file's) and for the throw's own round trip; that the still was taken, not a
        # moving frame, is proven by the photo above.
        scene = video.scene(want)
        at = video_time(log, appeared) % video.period
        assert scene.start - 0.5 <= at <= scene.end + 1.0, (t["number"], at, scene)

    # Exactly one throw per settled scene: each throw came from a different pass of a still.
    passes = [(int(video_time(log, appeared) // video.period), which_still(video, get_bytes(base + t["photo_url"]))[0])
              for appeared, t in throws]
    assert len(set(passes)) == len(passes)

    # While the dice moved, the page said so; the four dice were named and never taken:
    # once the page said "4 of 5" it kept saying so (with "take anyway") to the scene's end.
    # When it first said so depends on how fast the machine reads frames, so that is not
    # asserted.
    four = video.scene("still_four")
    during_four = [e for e in log if e["vt"] is not None and e["vt"] < video.period
                   and four.start <= e["vt"] <= four.end - 0.2]
    said = next((i for i, e in enumerate(during_four) if e["phase"] == "wrong"), None)
    assert said is not None, during_four[-3:]
    assert all(e["phase"] == "wrong" and e["anyway"] for e in during_four[said:]), during_four[said:][:3]
    assert not any(e["phase"] == "taken" for e in during_four), during_four[:3]
    assert any(e["phase"] == "moving" for e in log)
    assert any(e["phase"] == "taken" for e in log)


def test_a_wrong_count_can_be_taken_anyway(live_phones, live_port, video):
    base = f"http://localhost:{live_port}"
    phone = live_phones("de")
    page = phone.page
    gid = start_game(phone, base, "spiffel", ["Anna", "Ben"])
    page.click("#live-btn")
    page.wait_for_function("() => document.getElementById('live').dataset.phase === 'wrong'", timeout=40_000)
    before = len(get_json(f"{base}/api/games/{gid}/throws"))
    page.click("#live-anyway")
    page.wait_for_function("() => document.querySelectorAll('#dice-strip .die[data-index]').length > 0"
                           " && document.getElementById('result-title').textContent.includes('2')")
    throws = get_json(f"{base}/api/games/{gid}/throws")
    assert len(throws) == before + 1
    shows, diff = which_still(video, get_bytes(base + throws[-1]["photo_url"]))
    assert shows == "still_four" and diff < 4
    # Read as a throw of five: the four dice, and a fifth for the player to check or remove.
    values = [d["value"] for d in throws[-1]["dice"]]
    assert sorted(values)[:4] == reader_values(video.stills["still_four"], 4) or len(values) == 4
    page.click("#live-close")


def test_the_camera_stops_when_hidden_and_on_close_and_sends_nothing_after(live_phones, live_port):
    base = f"http://localhost:{live_port}"
    phone = live_phones("en")
    page = phone.page
    sent = frame_times(page)
    start_game(phone, base, "spiffel", ["Anna", "Ben"])
    page.click("#live-btn")
    wait_for_frames(page)

    page.evaluate("""() => {
      Object.defineProperty(document, 'hidden', {configurable: true, get: () => true});
      Object.defineProperty(document, 'visibilityState', {configurable: true, get: () => 'hidden'});
      document.dispatchEvent(new Event('visibilitychange'));
    }""")
    hidden = time.time() * 1000
    assert page.locator("#live").is_hidden() and page.locator("#live-video").count() == 0
    page.wait_for_timeout(1500)
    assert [t for t in sent if t > hidden + 300] == []

    # Shown again: live mode comes back by itself.
    page.evaluate("""() => {
      Object.defineProperty(document, 'hidden', {configurable: true, get: () => false});
      Object.defineProperty(document, 'visibilityState', {configurable: true, get: () => 'visible'});
      document.dispatchEvent(new Event('visibilitychange'));
    }""")
    wait_for_frames(page)

    page.click("#live-close")
    closed = time.time() * 1000
    assert page.locator("#live").is_hidden()
    page.wait_for_timeout(1500)
    assert [t for t in sent if t > closed + 300] == []
    assert page.locator("#live-btn").get_attribute("aria-expanded") == "false"


@pytest.mark.parametrize("lang", ["de", "en"])
def test_on_plain_http_the_live_button_says_why_and_photos_still_work(live_phones, live_port, screens, lang):
    from .play import FIVE_DICE

    phone = live_phones(lang)
    page = phone.page
    start_game(phone, f"http://{INSECURE_HOST}:{live_port}", "spiffel", ["Anna", "Ben"])
    assert page.evaluate("window.isSecureContext") is False
    assert page.locator("#live-btn").is_disabled()
    assert page.locator("#live-why").inner_text() == text("live_insecure", lang)
    check_screen(phone, "live-insecure", screens)
    assert sorted(photo_throw(phone, FIVE_DICE, 5)) == [2, 2, 3, 3, 3]


# --- the settle logic itself (camera-settle.js), as a table -------------------------------

_SETTLE_JS = """async (cases) => {
  const m = await import('/static/js/camera-settle.js');
  const die = (value, x, y, s = 0.06, guess = false) => ({value, box: [x, y, x + s, y + s], guess});
  const reading = (dice) => ({dice});
  const A = reading([die(3, .40, .30), die(2, .50, .30), die(3, .45, .40), die(3, .60, .45), die(2, .30, .50)]);
  const out = {};
  out.same_jitter = m.sameReading(A, reading(A.dice.map((d) => die(d.value, d.box[0] + .01, d.box[1] - .01))));
  out.same_value_changed = m.sameReading(A, reading([die(4, .40, .30), ...A.dice.slice(1)]));
  out.same_moved = m.sameReading(A, reading([die(3, .10, .80), ...A.dice.slice(1)]));
  out.same_fewer = m.sameReading(A, reading(A.dice.slice(1)));
  const moved = (d) => die(d.value, .1 + d.box[0] * 1.3, .05 + d.box[1] * 1.3);
  out.scene_shifted_scaled = m.sameScene(A, reading(A.dice.map(moved)));
  out.scene_one_moved = m.sameScene(A, reading([die(3, .10, .80), ...A.dice.slice(1)]));
  out.motion_noise = m.motion(new Uint8Array([10, 20, 30, 40]), new Uint8Array([12, 21, 25, 40]));
  out.motion_one = m.motion(new Uint8Array([10, 20, 30, 40]), new Uint8Array([10, 90, 30, 40]));

  // A timeline: motion samples every 100 ms, readings every 200 ms, in order.
  const run = (steps, expected = 5) => {
    const s = new m.Settle(expected);
    const phases = [];
    let t = 0;
    for (const [ms, moving, r, took] of steps) {
      for (const end = t + ms; t < end; t += 100) {
        s.motion(t, moving ? 0.05 : 0);
        if (r && t % 200 === 0) s.reading(t, r);
        const st = s.status(t);
        if (!phases.length || phases[phases.length - 1] !== st.phase) phases.push(st.phase);
        if (st.phase === 'ready' && took !== false) s.took(st.reading);
      }
    }
    return phases;
  };
  const B = reading([die(1, .2, .2), die(4, .3, .2), die(4, .4, .2), die(5, .5, .2), die(5, .6, .2)]);
  const guessed = reading([...A.dice.slice(0, 4), die(6, .7, .7, .06, true)]);
  const four = reading(A.dice.slice(0, 4));
  out.roll_then_rest = run([[1000, true, null], [2000, false, A]]);
  out.rest_then_roll_then_other = run([[1000, true, null], [2000, false, A], [600, true, null], [2000, false, B]]);
  out.rest_then_roll_then_same = run([[1000, true, null], [2000, false, A], [600, true, null], [2000, false, A]]);
  out.one_flicker_after_taking = run([[1000, true, null], [2000, false, A], [100, true, A], [2000, false, A]]);
  out.a_guess = run([[1000, true, null], [3000, false, guessed]]);
  out.four_of_five = run([[1000, true, null], [3000, false, four]]);
  out.nothing = run([[1000, true, null], [3000, false, reading([])]]);
  out.one_more = run([[1000, true, null], [3000, false, {...A, left_out: 1}]]);
  out.never_still = run([[4000, true, A]]);
  return out;
}"""


def test_the_settle_rules(live_phones, live_port):
    phone = live_phones("de")
    phone.page.goto(f"http://localhost:{live_port}/?lang=de")
    out = phone.page.evaluate(_SETTLE_JS, None)
    assert out["same_jitter"] is True
    assert out["same_value_changed"] is False
    assert out["same_moved"] is False
    assert out["same_fewer"] is False
    assert out["scene_shifted_scaled"] is True
    assert out["scene_one_moved"] is False
    assert out["motion_noise"] == 0
    assert out["motion_one"] == pytest.approx(1 / 4)
    assert out["roll_then_rest"] == ["moving", "looking", "ready", "taken"]
    assert out["rest_then_roll_then_other"] == ["moving", "looking", "ready", "taken", "moving", "looking", "ready",
                                                "taken"]
    # The same dice in the same places after a jolt: not a second throw.
    assert out["rest_then_roll_then_same"] == ["moving", "looking", "ready", "taken", "moving", "same"]
    # One flicker of the picture is not a new scene.
    assert out["one_flicker_after_taking"] == ["moving", "looking", "ready", "taken"]
    assert out["a_guess"] == ["moving", "looking", "wrong"]
    assert out["four_of_five"] == ["moving", "looking", "wrong"]
    assert out["nothing"] == ["moving", "looking", "empty"]
    # Five sure dice and one more in view: which five are the throw's is a guess, so none is taken.
    assert out["one_more"] == ["moving", "looking", "more"]
    assert out["never_still"] == ["moving"]


def post_json(url: str, body: dict) -> dict:
    req = urllib.request.Request(url, data=json.dumps(body).encode(), method="POST",
                                 headers={"Content-Type": "application/json"})
    with urllib.request.urlopen(req, timeout=10) as resp:
        return json.load(resp)


def warm_advisor(base: str, variant: str = "spiffel", timeout_s: float = 600) -> None:
    """Have the advisor's tables for `variant` built (once per session, seconds to minutes)."""
    gid = post_json(f"{base}/api/games", {"variant": variant, "players": ["Anna", "Ben"]})["id"]
    post_json(f"{base}/api/games/{gid}/throws", {"dice": [1, 2, 3, 4, 6]})
    end = time.monotonic() + timeout_s
    while get_json(f"{base}/api/games/{gid}")["throw"]["advice_status"] != "ready":
        assert time.monotonic() < end, "the advisor never answered"
        time.sleep(1)


@pytest.mark.parametrize("lang", ["de", "en"])
def test_after_a_live_throw_the_dice_to_keep_are_marked_over_the_picture(live_phones, advice_base, screens, lang):
    base = advice_base.replace("127.0.0.1", "localhost")
    warm_advisor(base)
    phone = live_phones(lang)
    page = phone.page
    gid = start_game(phone, base, "spiffel", ["Anna", "Ben"])
    page.click("#live-btn")
    # The advice arrives with the throw (or moments later), while its dice still lie there.
    page.wait_for_function("t => document.querySelectorAll('.live-die.keep').length > 0"
                           " || ((document.getElementById('live-keep') || {}).textContent || '') === t",
                           arg=text("reroll_all_hint", lang), timeout=60_000, polling=50)
    shown = page.evaluate("""() => ({
      keep: [...document.querySelectorAll('.live-die.keep')].map((e) => +e.dataset.value),
      text: document.getElementById('live-keep').textContent,
      title: document.getElementById('result-title').textContent})""")
    check_screen(phone, "live-keep", screens)
    state = get_json(f"{base}/api/games/{gid}")
    t = state["throw"]
    assert shown["title"].startswith(text("throw_n", lang, n=t["number"], max=3))
    assert t["advice"]["stage"] == "keep"
    keep = sorted(t["dice"][i]["value"] for i in t["advice"]["best"]["positions"])
    if len(keep) == len(t["dice"]):
        assert shown["text"] == text("keep_all_hint", lang)
    elif not keep:
        assert shown["text"] == text("reroll_all_hint", lang)
    else:
        assert shown["text"].startswith(text("live_keep", lang, dice=" ".join(str(v) for v in keep)))
    # Each die to keep is marked where it lies, and no other.
    assert sorted(shown["keep"]) == keep
    page.click("#live-close")


def test_wuerfelpoker_pauses_for_the_set_aside_and_reads_on_after_it(live_phones, live_port):
    base = f"http://localhost:{live_port}"
    phone = live_phones("de")
    page = phone.page
    sent = frame_times(page)
    gid = start_game(phone, base, "wuerfelpoker", ["Anna", "Ben"])
    page.click("#live-btn")
    wait_for_frames(page)

    # Another phone types a throw in: this one follows, and waits for the set-aside.
    t = post_json(f"{base}/api/games/{gid}/throws", {"dice": [1, 1, 5, 5, 3, 6]})
    page.wait_for_function("() => document.getElementById('live').dataset.phase === 'paused'")
    paused = time.time() * 1000
    assert page.locator("#live-status").inner_text() == text("live_paused", "de")
    assert page.locator("#live").is_visible()
    page.wait_for_timeout(1200)
    assert [s for s in sent if s > paused + 300] == [], "frames were read while the dice wait to be set aside"

    post_json(f"{base}/api/games/{gid}/entries", {"throw_id": t["throw_id"], "keep": [1, 1]})
    page.wait_for_function("() => document.getElementById('live').dataset.phase !== 'paused'")
    frames = int(page.locator("#live").get_attribute("data-frames"))
    page.wait_for_function("n => +document.getElementById('live').dataset.frames > n", arg=frames)
    assert get_json(f"{base}/api/games/{gid}")["expected_dice"] == 4
    page.click("#live-close")


def test_two_phones_live_on_one_table_enter_each_throw_once(live_phones, live_port, video):
    base = f"http://localhost:{live_port}"
    anna, ben = live_phones("de"), live_phones("en")
    gid = start_game(anna, base, "spiffel", ["Anna", "Ben"])
    ben.page.goto(f"{base}/g/{gid}?lang=en")
    ben.page.wait_for_function("() => document.documentElement.dataset.live === 'stream'")
    # Both see the same camera picture (one fake device), so both settle on each scene at
    # about the same moment: one throw goes in, the other is refused as stale.
    anna.page.click("#live-btn")
    ben.page.click("#live-btn")
    watch = ThrowWatch(base, gid)
    # Both phones see the four dice after the first five: by then one throw, not two.
    anna.page.wait_for_function("() => document.getElementById('live').dataset.phase === 'wrong'", timeout=40_000)
    assert len(watch.seen) == 1
    # After the other five have lain still for a while: two throws.
    end = time.monotonic() + 30
    while len(watch.seen) < 2 and time.monotonic() < end:
        time.sleep(0.1)
    time.sleep(2.0)
    throws = watch.stop()
    shows = [which_still(video, get_bytes(base + t["photo_url"]))[0] for _, t in throws]
    assert shows[:2] == ["still_a", "still_b"] and len(throws) == 2, shows


# The still is encoded at this quality (camera.js STILL_QUALITY); frames are not.
HOLD_STILLS = """() => {
  const toBlob = HTMLCanvasElement.prototype.toBlob;
  window.heldStills = [];
  HTMLCanvasElement.prototype.toBlob = function (done, type, quality) {
    if (quality !== 0.92) return toBlob.call(this, done, type, quality);
    window.heldStills.push(() => toBlob.call(this, done, type, quality));
  };
}"""


@pytest.mark.parametrize("lang", ["de", "en"])
def test_dice_entered_elsewhere_while_this_phone_captures_them_go_in_once(live_phones, live_port, video, screens,
                                                                           lang):
    base = f"http://localhost:{live_port}"
    phone = live_phones(lang)
    page = phone.page
    gid = start_game(phone, base, "spiffel", ["Anna", "Ben"])
    page.evaluate(HOLD_STILLS)
    watch = ThrowWatch(base, gid)
    page.click("#live-btn")
    # The phone has settled on the dice and is capturing its still: held there while
    # another phone enters the same dice, and this one learns of it from its frames.
    page.wait_for_function("() => window.heldStills.length === 1", timeout=40_000)
    post_json(f"{base}/api/games/{gid}/throws", {"dice": reader_values(video.stills["still_a"], 5)})
    page.wait_for_function("() => document.querySelectorAll('#dice-strip .die[data-index]').length === 5")
    page.evaluate("() => window.heldStills.forEach((go) => go())")
    page.wait_for_function("() => !document.getElementById('toast').hidden")
    page.wait_for_timeout(1000)
    assert len(watch.stop()) == 1, "the dice were entered twice"
    # Said as the throw being in, not as an error.
    assert page.locator("#toast").inner_text() == text("live_took", lang, n=1)
    assert page.get_attribute("#toast", "role") == "status"
    check_screen(phone, "live-taken-elsewhere", screens, full_page=False)
    page.click("#live-close")


@pytest.mark.parametrize("first", ["live", "typed"])
def test_live_opened_over_dice_already_entered_does_not_enter_them_again(live_phones, live_port, video, first):
    base = f"http://localhost:{live_port}"
    phone = live_phones("de")
    page = phone.page
    gid = start_game(phone, base, "spiffel", ["Anna", "Ben"])
    watch = ThrowWatch(base, gid)
    if first == "live":
        page.click("#live-btn")
        page.wait_for_function("() => document.getElementById('live').dataset.phase === 'taken'", timeout=40_000)
        page.click("#live-close")
    else:
        # Throw 1 typed in with the values the camera is about to see, before live mode opens.
        post_json(f"{base}/api/games/{gid}/throws", {"dice": reader_values(video.stills["still_a"], 5)})
        page.wait_for_function("() => document.querySelectorAll('#dice-strip .die[data-index]').length === 5")
    page.click("#live-btn")
    page.wait_for_function("() => document.getElementById('live').dataset.phase === 'wrong'", timeout=40_000)
    assert len(watch.seen) == 1, "the dice already entered were taken again"
    end = time.monotonic() + 30
    while len(watch.seen) < 2 and time.monotonic() < end:
        time.sleep(0.1)
    throws = watch.stop()
    assert [t["number"] for _, t in throws] == [1, 2]
    assert which_still(video, get_bytes(base + throws[1][1]["photo_url"]))[0] == "still_b"
    page.click("#live-close")
