"""Würfelpoker on a phone in German and English: photo and typed throws, set-asides shown
for the turn, hot dice, banking, a bust, undo, the log and every throw page, export and
re-import, and numbers written the way each language writes them."""

from __future__ import annotations

import json

import pytest

from .checks import check_screen
from .play import SIX_DICE, TWO_DICE, confirm, manual_throw, open_menu, photo_throw, start_game, text, toast, wait_turn

THOUSANDS = {"de": "1.050", "en": "1,050"}
BANKED = {"de": "1.450", "en": "1,450"}


def set_aside(page, keep: str, total: str) -> None:
    page.click(f"#options .option[data-keep='{keep}']")
    page.wait_for_function("t => document.getElementById('turn-total').textContent === t", arg=total)


@pytest.mark.parametrize("lang", ["de", "en"])
def test_wuerfelpoker_on_a_phone(phones, base, screens, lang, tmp_path):
    phone = phones(lang)
    page = phone.page
    start_game(phone, base, "wuerfelpoker", ["Anna", "Ben"],
               look=lambda: check_screen(phone, "wuerfelpoker-0-start-page", screens))
    check_screen(phone, "wuerfelpoker-1-game", screens)

    # Typed in: three 1s and a 5 make 1050, written as the language writes it.
    manual_throw(phone, [1, 1, 1, 5, 2, 3])
    assert page.locator("#next-step-text").inner_text() == text("set_aside_first", lang)
    check_screen(phone, "wuerfelpoker-2-throw", screens)
    set_aside(page, "1,1,1,5", THOUSANDS[lang])
    assert THOUSANDS[lang] in toast(page)
    assert page.locator("#set-aside .dice-row").count() == 1

    # The two dice left, photographed: both 1s, so all six are set aside (hot dice).
    assert photo_throw(phone, TWO_DICE, 2) == [1, 1]
    set_aside(page, "1,1", {"de": "1.250", "en": "1,250"}[lang])
    assert page.locator(".hot").is_visible()
    assert page.locator("#set-aside .dice-row").count() == 2
    page.click("#rules-fold summary")  # what scores, as the rules say it
    assert {"de": "10.000", "en": "10,000"}[lang] in page.locator("#rules-fold").inner_text()
    check_screen(phone, "wuerfelpoker-3-hot-dice", screens)

    # Six dice again, a photo; set aside the 1s and bank.
    assert sorted(photo_throw(phone, SIX_DICE, 6)) == [1, 1, 2, 3, 5, 5]
    set_aside(page, "1,1", {"de": "1.450", "en": "1,450"}[lang])
    page.click("#bank-btn")
    said = toast(page)
    assert said.startswith("Anna:") and {"de": "1.450", "en": "1,450"}[lang] in said
    wait_turn(phone, "Ben")
    assert page.locator("#set-aside").count() == 0
    assert page.locator(".score-chip[data-player=Anna] .score-total").inner_text() == BANKED[lang]

    # Ben: nothing scores.
    manual_throw(phone, [2, 3, 4, 6, 2, 3])
    page.wait_for_selector("#bust-btn")
    check_screen(phone, "wuerfelpoker-4-bust", screens)
    page.click("#bust-btn")
    assert toast(page) == text("recap_bust", lang, player="Ben")
    wait_turn(phone, "Anna")

    # Undo names the bust, and Ben's throw is open again.
    page.click("#undo-btn")
    assert text("recap_bust", lang, player="Ben") in confirm(page)
    wait_turn(phone, "Ben")
    page.wait_for_selector("#bust-btn")

    # The log and every throw page.
    page.goto(page.url.split("?")[0] + "/log")
    page.wait_for_selector(".log-item")
    check_screen(phone, "wuerfelpoker-5-log", screens)
    links = page.locator(".log-item").evaluate_all("els => els.map(e => e.href)")
    assert len(links) == 4
    for link in links:  # every throw page, in the browser; the last (the first thrown) is looked at
        page.goto(link)
        page.wait_for_selector(".evidence time")
        assert "UTC" not in page.locator(".evidence").inner_text()
    check_screen(phone, "wuerfelpoker-6-throw-page", screens)

    # Export and import: the same scores.
    page.goto(links[0].split("/throws/")[0])
    open_menu(page)
    with page.expect_download() as download:
        page.click("#export-link")
    exported = tmp_path / "game.json"
    download.value.save_as(exported)
    assert json.loads(exported.read_text())["variant"] == "wuerfelpoker"
    page.goto(f"{base}/?lang={lang}")
    page.click("#import-fold summary")
    page.set_input_files("input[name=file]", str(exported))
    page.click("#import-submit")
    page.wait_for_url("**/g/**")
    wait_turn(phone, "Ben")
    assert page.locator(".score-chip[data-player=Anna] .score-total").inner_text() == BANKED[lang]
