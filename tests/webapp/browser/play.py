"""Steps of a game as a player takes them on the page, for the browser suite."""

from __future__ import annotations

from pathlib import Path

from dicecam.webapp.i18n import TEXTS

SAMPLES = Path(__file__).resolve().parents[3] / "sample_images"
# Real photos with their labelled dice (sample_images/labels.jsonl).
FIVE_DICE = SAMPLES / "byler_d6" / "IMG_20191209_100714.jpg"       # 2 2 3 3 3
FIVE_DICE_WOOD = SAMPLES / "matteop65_wood" / "valid_70.jpg"        # 1 4 4 5 5
SIX_DICE = SAMPLES / "byler_d6" / "IMG_20191209_100248.jpg"         # 1 1 2 3 5 5
TWO_DICE = SAMPLES / "matteop65_wood" / "valid_3.jpg"               # 1 1
ONE_UNSURE_DIE = SAMPLES / "chase_dji" / "DJI_20241005232636_0141_D_detection_1.jpg"  # a close-up read unsurely


def text(key: str, lang: str, **values) -> str:
    """The catalogue's text, filled in as the page fills it."""
    out = TEXTS[key][lang]
    for k, v in values.items():
        out = out.replace("{" + k + "}", str(v))
    return out


def start_game(phone, base: str, variant: str, players: list[str], look=None) -> str:
    """Start a game from the start page; the game's id. `look()` runs on the filled form."""
    page = phone.page
    page.goto(f"{base}/?lang={phone.lang}")
    page.check(f"input[name=variant][value={variant}]")
    for i, name in enumerate(players):
        if i >= 2:
            page.click("#add-player")
        page.locator("input[name=players]").nth(i).fill(name)
    if look is not None:
        look()
    page.click("button[type=submit]")
    page.wait_for_url("**/g/**")
    page.wait_for_selector("#current-player")
    return page.url.rsplit("/", 1)[1].split("?")[0]


def current_throw(phone, base: str, game_id: str) -> dict:
    """The game's open throw as the API answers it, in the phone's language."""
    return phone.page.request.get(f"{base}/api/games/{game_id}?lang={phone.lang}").json()["throw"]


def strip_values(page) -> list[int]:
    return [int(v) for v in page.locator("#dice-strip .die[data-index]").evaluate_all(
        "els => els.map(e => e.dataset.value)")]


def photo_throw(phone, path: Path, count: int) -> list[int]:
    """Take a photo throw; wait until its dice are on screen; their values."""
    page = phone.page
    before = page.locator("#result-title").inner_text() if page.locator("#result").is_visible() else None
    page.set_input_files("#photo-input", str(path))
    page.wait_for_function(
        "([n, before]) => document.querySelectorAll('#dice-strip .die[data-index]').length === n"
        " && !document.body.classList.contains('is-busy')"
        " && document.getElementById('result-title').textContent !== before",
        arg=[count, before])
    assert not page.locator(".toast-error").is_visible(), page.locator(".toast-error").inner_text()
    return strip_values(page)


def retake_photo(phone, path: Path) -> None:
    """Take the open throw's photo again ("Foto wiederholen"); wait until the new one is shown."""
    page = phone.page
    before = page.locator("#annotated").get_attribute("src")
    page.click("#retake-btn")
    page.set_input_files("#photo-input", str(path))
    page.wait_for_function("(src) => document.getElementById('annotated').getAttribute('src') !== src"
                           " && !document.body.classList.contains('is-busy')", arg=before)


def manual_throw(phone, values: list[int]) -> None:
    page = phone.page
    before = page.locator("#result-title").inner_text() if page.locator("#result").is_visible() else None
    page.click("#manual-btn")
    page.wait_for_selector("#manual:not([hidden])")
    for v in values:
        page.click(f"#manual-faces [data-add='{v}']")
    page.click("#manual-ok")
    page.wait_for_function(
        "([vals, before]) => document.getElementById('result-title').textContent !== before"
        " && [...document.querySelectorAll('#dice-strip .die[data-index]')]"
        ".map(e => +e.dataset.value).join() === vals.join()",
        arg=[values, before])


def toast(page) -> str:
    page.wait_for_selector("#toast:not([hidden])")
    return page.locator("#toast").inner_text()


def wait_turn(phone, player: str) -> None:
    phone.page.wait_for_function(
        "t => document.getElementById('current-player') && document.getElementById('current-player').textContent === t",
        arg=text("turn_of", phone.lang, player=player))


def confirm(page, ok: bool = True) -> str:
    """Answer the confirmation dialog; its title and body."""
    page.wait_for_selector("#confirm:not([hidden])")
    said = page.locator("#confirm-title").inner_text() + "\n" + page.locator("#confirm-body").inner_text()
    page.click("#confirm-ok" if ok else "#confirm-cancel")
    page.wait_for_selector("#confirm", state="hidden")
    return said


def open_menu(page) -> None:
    page.click("#menu-btn")
    page.wait_for_selector(".menu-panel", state="visible")
