"""A real browser (Debian's chromium via Playwright) playing at the table.

Nothing is downloaded: Playwright's pip wheel carries its driver and the browser is
the system's /usr/bin/chromium (installed by .ci/run with apt-get).
"""

from __future__ import annotations

import pytest
from helpers_webapp import SAMPLES

ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking",
        "--disable-component-update", "--disable-sync", "--no-first-run"]


pytestmark = pytest.mark.browser


@pytest.fixture(scope="module")
def browser(chromium):
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=chromium, args=ARGS)
        yield browser
        browser.close()


@pytest.fixture
def phone(browser):
    """A phone-sized page in German; fails the test on any script error."""
    context = browser.new_context(viewport={"width": 390, "height": 844}, locale="de-DE",
                                  is_mobile=True, has_touch=True)
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.set_default_timeout(30_000)
    yield page
    context.close()
    assert errors == []


def start_game(page, base: str, variant: str, players: list[str]) -> None:
    page.goto(base + "/")
    page.check(f"input[name=variant][value={variant}]")
    for i, name in enumerate(players):
        if i >= 2:
            page.click("#add-player")
        page.locator("input[name=players]").nth(i).fill(name)
    page.click("button[type=submit]")
    page.wait_for_url("**/g/**")


def strip_values(page) -> list[int]:
    return [int(v) for v in page.locator("#dice-strip .die[data-index]").evaluate_all("els => els.map(e => e.dataset.value)")]


def test_photo_correct_a_die_pick_a_box_and_see_the_sheet(phone, live_server):
    page = phone
    start_game(page, live_server, "spiffel", ["Anna", "Ben"])
    assert page.locator("#current-player").inner_text() == "Anna ist dran"

    page.set_input_files("#photo-input", str(SAMPLES / "byler_d6" / "IMG_20191209_100714.jpg"))
    page.wait_for_selector("#overlay .die-hit, .toast-error")
    toast = page.locator(".toast-error")
    assert not toast.is_visible(), toast.inner_text()  # e.g. the model is not installed
    assert "annotated" in page.locator("#annotated").get_attribute("src")
    values = strip_values(page)
    assert len(values) == 5

    # Tap the first die on the photo and make it a different value.
    new_value = 6 if values[0] != 6 else 1
    page.locator("#overlay .die-hit").first.click()
    page.click(f"#picker-faces [data-pick='{new_value}']")
    page.wait_for_function(
        "v => document.querySelector('#dice-strip .die[data-index=\"0\"]').dataset.value === String(v)",
        arg=new_value,
    )
    corrected = strip_values(page)
    assert corrected == [new_value] + values[1:]

    # Chance scores the sum of the dice; pick it and watch the sheet.
    chance = page.locator(".option[data-box=chance]")
    assert chance.locator(".option-points").inner_text() == str(sum(corrected))
    chance.click()
    page.wait_for_function("() => document.querySelector('#current-player').textContent === 'Ben ist dran'")
    assert page.locator(".score-chip[data-player=Anna] .score-total").inner_text() == str(sum(corrected))
    chance_row = page.locator("#sheet tr.box-row", has_text="Chance")
    assert chance_row.locator("td").first.inner_text() == str(sum(corrected))
    assert page.locator("#result").is_hidden()

    # The throw log holds the photo and the correction.
    page.goto(page.url + "/log")
    assert page.locator(".log-item").count() == 1
    assert "korrigiert" in page.locator(".log-item").inner_text()


def test_wuerfelpoker_by_hand_set_aside_bank_and_undo(phone, live_server):
    page = phone
    start_game(page, live_server, "wuerfelpoker", ["Anna", "Ben"])
    page.click("#manual-btn")
    for v in (1, 1, 5, 5, 3, 6):
        page.click(f"#manual-faces [data-add='{v}']")
    page.click("#manual-ok")
    page.click(".option[data-keep='1,1,5,5']")
    page.wait_for_function("() => document.querySelector('#turn-total').textContent === '300'")
    page.click("#bank-btn")
    page.wait_for_function("() => document.querySelector('#current-player').textContent === 'Ben ist dran'")
    assert page.locator(".score-chip[data-player=Anna] .score-total").inner_text() == "300"

    page.once("dialog", lambda d: d.accept())
    page.click("#undo-btn")
    page.wait_for_function("() => document.querySelector('#current-player').textContent === 'Anna ist dran'")
    assert page.locator(".score-chip[data-player=Anna] .score-total").inner_text() == "0"
    assert page.locator("#turn-total").inner_text() == "300"
