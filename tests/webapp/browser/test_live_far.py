"""Live mode asks for a better picture before any still is taken: with the dice far away,
to move closer; with more dice in view than the throw, for the others to go (Chromium's
fake camera fed a video of real dice seen from twice as far, or of six dice)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from .checks import check_screen
from .conftest import ARGS, phones_of
from .live_video import far_video, six_video
from .play import start_game, text


def camera_browser(playwright, chromium, path):
    """Chromium whose fake camera plays the video at `path`."""
    args = [*ARGS, "--use-fake-ui-for-media-stream", "--use-fake-device-for-media-stream",
            f"--use-file-for-fake-video-capture={path}", "--autoplay-policy=no-user-gesture-required"]
    return playwright.chromium.launch(executable_path=chromium, args=args)


@pytest.fixture(scope="module")
def far_browser(playwright, chromium, tmp_path_factory):
    """Chromium whose camera sees five dice lying far off."""
    browser = camera_browser(playwright, chromium, far_video(tmp_path_factory.mktemp("live-far")))
    yield browser
    browser.close()


@pytest.fixture(scope="module")
def six_browser(playwright, chromium, tmp_path_factory):
    """Chromium whose camera sees six dice lying still."""
    browser = camera_browser(playwright, chromium, six_video(tmp_path_factory.mktemp("live-six")))
    yield browser
    browser.close()


@pytest.fixture
def far_phones(far_browser) -> Iterator:
    with phones_of(far_browser) as open_phone:
        yield open_phone


@pytest.fixture
def six_phones(six_browser) -> Iterator:
    with phones_of(six_browser) as open_phone:
        yield open_phone


@pytest.mark.parametrize("lang", ["de", "en"])
def test_dice_far_off_in_live_mode_bring_a_hint_to_move_closer(far_phones, base, screens, lang):
    phone = far_phones(lang)
    page = phone.page
    start_game(phone, base, "spiffel", ["Anna", "Ben"])
    assert page.evaluate("window.isSecureContext")
    page.click("#live-btn")
    page.wait_for_function("() => +(document.getElementById('live').dataset.frames || 0) >= 2", timeout=30_000)
    page.wait_for_selector("#live-small:not([hidden])", timeout=10_000)
    assert page.locator("#live-small").inner_text() == text("live_small_dice", lang)
    check_screen(phone, "live-far", screens)
    page.click("#live-close")


@pytest.mark.parametrize("lang", ["de", "en"])
def test_more_dice_in_view_than_the_throw_bring_a_hint_to_clear_them(six_phones, base, screens, lang):
    phone = six_phones(lang)
    page = phone.page
    start_game(phone, base, "spiffel", ["Anna", "Ben"])
    page.click("#live-btn")
    page.wait_for_function("() => +(document.getElementById('live').dataset.frames || 0) >= 2", timeout=30_000)
    page.wait_for_selector("#live-more:not([hidden])", timeout=10_000)
    assert page.locator("#live-more").inner_text() == text("live_left_out", lang)
    assert page.locator("#live-small").is_hidden()
    # The die the count left out is outlined on the picture, without a value.
    assert page.locator("#live-overlay .live-die.left-out").count() == 1
    assert page.locator("#live-overlay .live-die.left-out .live-value").count() == 0
    # Held still, nothing is taken by itself: the page says why and offers to take it anyway.
    page.wait_for_function("() => document.getElementById('live').dataset.phase === 'more'", timeout=15_000)
    assert page.locator("#live-status").inner_text() == text("live_more", lang)
    assert page.locator("#live-anyway").is_visible()
    check_screen(phone, "live-more", screens)
    page.click("#live-close")
