"""The four sheet games played on a phone in German and English: photo and typed throws
through throws 1-3, a correction, entries from the option list and from the sheet (with
its confirmation), undo, the throw log and every throw page, export and re-import."""

from __future__ import annotations

import json

import pytest

from dicecam.scoring import get_variant

from .checks import check_screen
from .play import (
    FIVE_DICE,
    FIVE_DICE_WOOD,
    confirm,
    manual_throw,
    open_menu,
    photo_throw,
    start_game,
    strip_values,
    text,
    toast,
    wait_turn,
)


@pytest.mark.parametrize("lang", ["de", "en"])
@pytest.mark.parametrize("variant", ["spiffel", "wuerfelware", "wuerfelspiel", "yahtzee"])
def test_a_sheet_game_on_a_phone(phones, base, screens, variant, lang, tmp_path):
    phone = phones(lang)
    page = phone.page
    labels = {b: get_variant(variant).label(b, lang) for b in get_variant(variant).boxes}
    start_game(phone, base, variant, ["Anna", "Ben"],
               look=lambda: check_screen(phone, f"{variant}-0-start-page", screens))
    check_screen(phone, f"{variant}-1-game", screens)
    assert page.locator("#current-player").inner_text() == text("turn_of", lang, player="Anna")
    # The camera button shows where the keyboard is.
    page.focus("#photo-input")
    assert page.locator("#camera-label").evaluate("e => getComputedStyle(e).outlineStyle") != "none"

    # Throw 1, a photo: five dice read, each a die to tap.
    read = photo_throw(phone, FIVE_DICE, 5)
    assert sorted(read) == [2, 2, 3, 3, 3]
    # The page scrolls to the throw; whose throw it is stays clear of the sticky bar.
    page.wait_for_function("() => document.getElementById('result-title').getBoundingClientRect().top"
                           " >= document.querySelector('.topbar').getBoundingClientRect().bottom"
                           " && document.getElementById('result').getBoundingClientRect().top < 200")
    assert page.locator("#throw-pill").inner_text().startswith(text("throw_n", lang, n=1, max=3))
    check_screen(phone, f"{variant}-2-throw1", screens)

    # A correction: the picker takes focus, Escape closes it and gives focus back.
    page.locator("#dice-strip .die[data-index='0']").click()
    page.wait_for_selector("#picker:not([hidden])")
    assert page.evaluate("() => document.getElementById('picker').contains(document.activeElement)")
    check_screen(phone, f"{variant}-2b-picker", screens, full_page=False)
    page.keyboard.press("Escape")
    page.wait_for_selector("#picker", state="hidden")
    assert page.evaluate("() => document.activeElement.dataset.index") == "0"
    page.locator("#dice-strip .die[data-index='0']").click()
    page.click("#picker-faces [data-pick='6']")
    page.wait_for_function("() => document.querySelector('#dice-strip .die[data-index=\"0\"]').dataset.value === '6'")
    assert strip_values(page) == [6, *read[1:]]

    # Throw 2 typed in, throw 3 a photo again; then the big button leads to the options.
    manual_throw(phone, [6, 6, 6, 1, 2])
    assert sorted(photo_throw(phone, FIVE_DICE_WOOD, 5)) == [1, 4, 4, 5, 5]
    assert page.locator("#camera-label").is_hidden()
    assert page.locator("#next-step-text").inner_text() == text("score_now", lang)
    assert page.locator("#photo-input").is_disabled() and page.locator("#manual-btn").is_disabled()
    check_screen(phone, f"{variant}-3-throw3", screens)
    page.click("#next-step")
    page.wait_for_function("() => document.getElementById('options-title').getBoundingClientRect().top < innerHeight")

    # Boxes that score come first, scratches after them, each labelled.
    options = page.locator("#options > li > .option")
    points = [int(p) for p in options.evaluate_all("els => els.map(e => e.dataset.points)")]
    assert points and all(p > 0 for p in points)
    page.click("#scratch-fold summary")
    scratches = page.locator("#scratch-fold .option")
    assert scratches.count() > 0
    assert all(p == "0" for p in scratches.evaluate_all("els => els.map(e => e.dataset.points)"))
    assert text("scratch", lang) in scratches.first.inner_text()

    # An entry from the list; the toast names player, box (and column) and points.
    first = options.first
    box, column = first.get_attribute("data-box"), first.get_attribute("data-column")
    pts = int(first.get_attribute("data-points"))
    first.click()
    said = toast(page)
    assert said.startswith(f"Anna: {labels[box]}") and str(pts) in said
    if variant == "wuerfelspiel":
        assert f"×{column}" in said and f"→ {pts * int(column)}" in said
    wait_turn(phone, "Ben")
    if variant == "wuerfelspiel":  # one player's sheet at a time: Anna's is a tap away
        page.click("#sheet-tabs [data-player=Anna]")
    row = page.locator(f"#sheet tr.box-row[data-box={box}] td")
    assert str(pts) in row.all_inner_texts()
    check_screen(phone, f"{variant}-4-entered", screens)

    # Ben enters from the sheet: a scratch asks first; cancel enters nothing.
    manual_throw(phone, [1, 2, 3, 4, 6])
    cell = page.locator("#sheet .cell-pick[data-box=five_kind]").first
    assert cell.get_attribute("data-points") == "0"
    cell.click()
    page.wait_for_selector("#confirm:not([hidden])")
    check_screen(phone, f"{variant}-5b-confirm", screens, full_page=False)
    asked = confirm(page, ok=False)
    assert labels["five_kind"] in asked
    assert page.locator("#current-player").inner_text() == text("turn_of", lang, player="Ben")
    check_screen(phone, f"{variant}-5-sheet-pick", screens)
    page.locator("#sheet .cell-pick[data-box=five_kind]").first.click()
    confirm(page, ok=True)
    said = toast(page)
    assert said.startswith(f"Ben: {labels['five_kind']}")
    wait_turn(phone, "Anna")

    # Undo says what it takes back, then what it took back.
    page.click("#undo-btn")
    asked = confirm(page, ok=True)
    assert f"Ben: {labels['five_kind']}" in asked
    assert toast(page).startswith(text("undone_toast", lang, entry="")[:6])
    wait_turn(phone, "Ben")
    assert strip_values(page) == [1, 2, 3, 4, 6]

    # The throw log and every throw page (local times, no UTC).
    open_menu(page)
    check_screen(phone, f"{variant}-6-menu", screens)
    page.click("#log-link")
    page.wait_for_selector(".log-item")
    check_screen(phone, f"{variant}-7-log", screens)
    assert text("corrected", lang) in page.locator(".log-list").inner_text()
    links = page.locator(".log-item").evaluate_all("els => els.map(e => e.href)")
    assert len(links) == 4
    for link in links:  # every throw page, in the browser; the last (the first thrown) is looked at
        page.goto(link)
        page.wait_for_selector(".evidence time")
        assert "UTC" not in page.locator(".evidence").inner_text()
    check_screen(phone, f"{variant}-8-throw-page", screens)

    # Export, then import the file on the start page: the same game comes back.
    page.goto(links[0].split("/throws/")[0])
    open_menu(page)
    with page.expect_download() as download:
        page.click("#export-link")
    exported = tmp_path / "game.json"
    download.value.save_as(exported)
    log = json.loads(exported.read_text())
    assert log["variant"] == variant and len(log["events"]) == 1
    page.goto(f"{base}/?lang={lang}")
    page.click("#import-fold summary")
    page.set_input_files("input[name=file]", str(exported))
    page.click("#import-submit")
    page.wait_for_url("**/g/**")
    wait_turn(phone, "Ben")
    assert page.locator(".score-chip[data-player=Anna] .score-total").inner_text() == str(
        pts * (int(column) if variant == "wuerfelspiel" else 1))
