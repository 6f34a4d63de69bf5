"""Two phones at one table: what one enters shows on the other within a second (the
server's event stream), each in its own language; a QR code joins a third."""

from __future__ import annotations

import time

from .checks import check_screen
from .play import FIVE_DICE, manual_throw, open_menu, start_game, text, wait_turn

FOLLOW_MS = 1000


def test_a_second_phone_follows_within_a_second(phones, base, screens):
    anna, ben = phones("de"), phones("en")
    gid = start_game(anna, base, "spiffel", ["Anna", "Ben"])
    ben.page.goto(f"{base}/g/{gid}?lang=en")
    wait_turn(ben, "Anna")
    # Ben's phone listens on the event stream before Anna acts.
    ben.page.wait_for_function("() => document.documentElement.dataset.live === 'stream'")

    manual_throw(anna, [2, 2, 3, 3, 3])
    ben.page.wait_for_function(
        "() => [...document.querySelectorAll('#dice-strip .die[data-index]')]"
        ".map(e => e.dataset.value).join() === '2,2,3,3,3'",
        timeout=FOLLOW_MS)

    anna.page.click("#options .option[data-box=full_house]")
    started = time.monotonic()
    wait_turn(anna, "Ben")
    ben.page.wait_for_function(
        "t => document.getElementById('current-player').textContent === t",
        arg=text("turn_of", "en", player="Ben"), timeout=FOLLOW_MS)
    assert time.monotonic() - started < 2 * FOLLOW_MS / 1000  # both phones, not just the second
    assert ben.page.locator(".score-chip[data-player=Anna] .score-total").inner_text() == "25"

    # The join panel: the game's link as a QR code and as text.
    open_menu(ben.page)
    ben.page.click("#join-btn")
    ben.page.wait_for_selector("#join:not([hidden])")
    ben.page.wait_for_function("() => document.getElementById('join-qr').naturalWidth > 0")
    assert ben.page.locator("#join-link").inner_text().endswith(f"/g/{gid}")
    check_screen(ben, "join", screens)
    ben.page.keyboard.press("Escape")
    ben.page.wait_for_selector("#join", state="hidden")


def told_anna_was_faster(phone) -> None:
    """The phone says, as a refusal, that Anna's Full House went in first."""
    phone.page.wait_for_selector("#toast.toast-error")
    said = phone.page.locator("#toast").inner_text()
    assert said.startswith(text("conflict_by", phone.lang, entry="")) and "Anna: Full House · 25" in said


def test_the_other_phone_is_told_when_it_was_faster(phones, base):
    anna, ben = phones("de"), phones("de")
    gid = start_game(anna, base, "yahtzee", ["Anna", "Ben"])
    manual_throw(anna, [6, 6, 6, 2, 2])
    # Ben's phone hears nothing new (as if its Wi-Fi stalled): its game stays as it was.
    stale = ben.page.request.get(f"{base}/api/games/{gid}?lang=de").text()
    ben.context.route(f"**/api/games/{gid}/events*", lambda route: route.fulfill(
        status=200, content_type="text/event-stream", body="retry: 60000\n\n"))
    def old_game(route):
        if route.request.method != "GET":
            return route.continue_()
        return route.fulfill(status=200, content_type="application/json", body=stale)

    ben.context.route(f"**/api/games/{gid}?*", old_game)
    ben.page.goto(f"{base}/g/{gid}?lang=de")
    ben.page.wait_for_selector("#options .option")
    anna.page.click("#options .option[data-box=full_house]")
    wait_turn(anna, "Ben")
    ben.page.click("#options .option[data-box=three_kind]")
    told_anna_was_faster(ben)
    wait_turn(ben, "Ben")  # the fresh game came with the refusal


def test_a_photo_chosen_before_the_other_phone_moved_on_is_not_filed_under_the_next_player(phones, base):
    anna, ben = phones("de"), phones("de")
    gid = start_game(anna, base, "yahtzee", ["Anna", "Ben"])
    manual_throw(anna, [6, 6, 6, 2, 2])
    ben.page.goto(f"{base}/g/{gid}?lang=de")
    ben.page.wait_for_function("() => document.documentElement.dataset.live === 'stream'")
    # Ben chooses a photo of Anna's dice; it is held while it shrinks (a slow phone)...
    ben.page.evaluate("""() => {
      const decode = window.createImageBitmap;
      window.held = [];
      window.createImageBitmap = (...args) => new Promise((resolve, reject) => {
        window.held.push(() => decode(...args).then(resolve, reject));
      });
    }""")
    ben.page.set_input_files("#photo-input", str(FIVE_DICE))
    ben.page.wait_for_function("() => window.held.length === 1")
    # ...and meanwhile Anna fills her box.
    anna.page.click("#options .option[data-box=full_house]")
    wait_turn(anna, "Ben")
    ben.page.evaluate("() => window.held.forEach((go) => go())")
    told_anna_was_faster(ben)
    throws = anna.page.request.get(f"{base}/api/games/{gid}/throws").json()
    assert [t["player"] for t in throws] == ["Anna"], "the photo went in as Ben's throw"


def test_a_finished_game_can_be_deleted_with_a_confirmation(phones, base):
    anna = phones("de")
    game = {"variant": "wuerfelpoker", "players": ["Anna", "Ben"], "options": {"target": 50}}
    resp = anna.page.request.post(f"{base}/api/games", data=game)
    gid = resp.json()["id"]
    anna.page.goto(f"{base}/g/{gid}?lang=de")
    manual_throw(anna, [5, 2, 3, 4, 6, 6])
    anna.page.click("#options .option[data-keep='5']")
    anna.page.click("#bank-btn")
    anna.page.wait_for_selector(".banner-main.finished")
    anna.page.click("#delete-btn")
    anna.page.wait_for_selector("#confirm:not([hidden])")
    assert anna.page.locator("#confirm-body").inner_text() == text("delete_confirm", "de")
    anna.page.click("#confirm-ok")
    anna.page.wait_for_url(f"{base}/")
    assert anna.page.request.get(f"{base}/api/games/{gid}").status == 404
