"""Each die of a photo throw is shown as the photo shows it, above the value read: on a
phone the whole photo shows a die as a few pixels, and a reading is checked at a glance."""

from __future__ import annotations

import pytest

from .checks import check_screen
from .play import FIVE_DICE, ONE_UNSURE_DIE, current_throw, manual_throw, photo_throw, start_game, text

CONTEXT = 1.5  # the tile's side over the die box's longer side (closeup.js CLOSEUP_CONTEXT)

# Where each close-up tile lies on screen and where its background puts the photo.
TILES_JS = """(sel) => [...document.querySelectorAll(sel)].map((tile, i) => {
  const r = tile.getBoundingClientRect(), st = getComputedStyle(tile);
  const px = (v) => v.split(' ').map(parseFloat);
  return {index: tile.dataset.index === undefined ? i : +tile.dataset.index,
          left: r.left, top: r.top, side: r.width, height: r.height,
          size: px(st.backgroundSize), pos: px(st.backgroundPosition), image: st.backgroundImage,
          label: tile.getAttribute('aria-label'), unsure: tile.classList.contains('uncertain')};
})"""


def _tiles(page, sel: str = "#dice-strip .die-closeup") -> list[dict]:
    page.wait_for_function("sel => [...document.querySelectorAll(sel)].some(t => t.style.backgroundImage)", arg=sel)
    return page.evaluate(TILES_JS, sel)


def _check_geometry(tiles: list[dict], throw: dict, dice: list[dict]) -> None:
    """Each tile shows the uploaded photo, drawn so its die's centre is the tile's and the
    die's box fills 1/1.5 of it."""
    assert len(tiles) == len(dice)
    for tile, die in zip(tiles, dice, strict=True):
        x0, y0, x1, y1 = die["box"]
        assert throw["photo_url"] in tile["image"]
        k = tile["size"][0] / throw["width"]  # screen px per photo px
        assert tile["size"][1] == pytest.approx(throw["height"] * k, abs=0.5)
        assert max(x1 - x0, y1 - y0) * k == pytest.approx(tile["side"] / CONTEXT, abs=0.5)
        assert tile["pos"][0] + (x0 + x1) / 2 * k == pytest.approx(tile["side"] / 2, abs=0.5)
        assert tile["pos"][1] + (y0 + y1) / 2 * k == pytest.approx(tile["side"] / 2, abs=0.5)


@pytest.mark.parametrize("lang", ["de", "en"])
def test_each_die_of_a_photo_throw_is_shown_from_the_photo_above_its_value(phones, base, screens, lang):
    phone = phones(lang)
    page = phone.page
    gid = start_game(phone, base, "spiffel", ["Anna", "Ben"])
    photo_throw(phone, FIVE_DICE, 5)
    throw = current_throw(phone, base, gid)
    tiles = _tiles(page)
    assert [t["index"] for t in tiles] == list(range(5))
    _check_geometry(tiles, throw, throw["dice"])
    # For the eye and the finger: the value's button below is the die for a keyboard and a
    # screen reader (one tab stop per die, test_accessibility).
    assert page.locator("#dice-strip .die-closeup[aria-hidden=true]:not(button)").count() == 5
    # Each tile stands over its own value, in one column (measured at one moment: the page scrolls).
    columns = page.evaluate("""() => [...document.querySelectorAll('#dice-strip .die-closeup')].map((tile) => {
      const face = document.querySelector(`#dice-strip .die[data-index='${tile.dataset.index}']`);
      const a = tile.getBoundingClientRect(), b = face.getBoundingClientRect();
      return [a.left + a.width / 2 - (b.left + b.width / 2), b.top - a.bottom];
    })""")
    assert len(columns) == 5
    for off_centre, gap in columns:
        assert abs(off_centre) <= 1 and 0 <= gap <= 8
    # The photo was loaded, not only named.
    assert page.evaluate("""(url) => new Promise((ok) => { const i = new Image();
        i.onload = () => ok(i.naturalWidth > 0); i.onerror = () => ok(false); i.src = url; })""",
                         throw["photo_url"])
    check_screen(phone, "closeups", screens)

    # Tapping a close-up corrects its die, as tapping the value does; the picker shows the die
    # large, from the photo, above the faces to choose from.
    page.locator("#dice-strip .die-closeup[data-index='1']").click()
    page.wait_for_selector("#picker:not([hidden])")
    [large] = _tiles(page, "#picker-closeup")
    _check_geometry([large], throw, [throw["dice"][1]])
    assert large["side"] > 2 * tiles[1]["side"] and large["label"] == text("closeup_of", lang, n=2)
    check_screen(phone, "closeups-picker", screens, full_page=False)
    value = 6 if throw["dice"][1]["value"] != 6 else 5
    page.click(f"#picker-faces [data-pick='{value}']")
    page.wait_for_function(
        "v => document.querySelector('#dice-strip .die[data-index=\"1\"]').dataset.value === String(v)", arg=value)
    assert _tiles(page)[1]["pos"] == tiles[1]["pos"]

    # The throw's evidence page shows the dice as first read, each from the photo.
    page.goto(f"{base}/g/{gid}/throws/{throw['throw_id']}?lang={lang}")
    shown = _tiles(page, "#closeups .die-closeup")
    _check_geometry(shown, throw, throw["dice_read"])
    values = page.locator("#closeups .die").evaluate_all("els => els.map(e => +e.dataset.value)")
    assert values == [d["value"] for d in throw["dice_read"]] and values[1] != value
    assert page.locator(".closeup-caption").inner_text() == text("closeups_caption", lang)
    # The die the player changed says so on its tile, in words for a screen reader too.
    changed = page.locator("#closeups .die-closeup.changed")
    assert changed.count() == 1 and changed.inner_text() == f"→ {value}"
    assert changed.get_attribute("aria-label") == text("closeup_changed", lang, n=2, read=values[1], now=value)
    assert [t["label"] for t in shown].count(text("closeup_of", lang, n=1)) == 1
    check_screen(phone, "closeups-evidence", screens)


def test_unsure_dice_are_marked_on_their_close_up_too(phones, base):
    phone = phones("de")
    page = phone.page
    start_game(phone, base, "spiffel", ["Anna", "Ben"])
    page.set_input_files("#photo-input", str(ONE_UNSURE_DIE))
    page.wait_for_selector("#dice-strip .die.uncertain")
    unsure_faces = page.locator("#dice-strip .die.uncertain[data-index]").evaluate_all(
        "els => els.map(e => +e.dataset.index)")
    tiles = _tiles(page)
    assert unsure_faces and [t["index"] for t in tiles if t["unsure"]] == unsure_faces


def test_dice_typed_in_have_no_close_up(phones, base):
    phone = phones("de")
    page = phone.page
    start_game(phone, base, "spiffel", ["Anna", "Ben"])
    manual_throw(phone, [1, 2, 3, 4, 5])
    assert page.locator("#dice-strip .die-closeup").count() == 0
    page.locator("#dice-strip .die[data-index='0']").click()  # nothing to show in the picker either
    page.wait_for_selector("#picker:not([hidden])")
    assert page.locator("#picker-closeup").is_hidden()
    page.click("#picker-cancel")
    # A photo throw with a die added by hand: close-ups for the dice in the photo alone.
    photo_throw(phone, FIVE_DICE, 5)
    page.locator("#dice-strip .die[data-index='4']").click()
    page.click("#picker-remove")
    page.wait_for_function("() => document.querySelectorAll('#dice-strip .die[data-index]').length === 4")
    page.click("#add-die")
    page.click("#picker-faces [data-pick='6']")
    page.wait_for_function("() => document.querySelectorAll('#dice-strip .die[data-index]').length === 5")
    assert [t["index"] for t in _tiles(page)] == [0, 1, 2, 3]


def test_a_photo_the_browser_cannot_show_falls_back_to_the_annotated_copy(phones, base):
    phone = phones("de")
    page = phone.page
    gid = start_game(phone, base, "spiffel", ["Anna", "Ben"])
    # As an iPhone's HEIC photo sent as it was: the server read it, this browser cannot draw it.
    page.route("**/throws/*/photo", lambda route: route.fulfill(status=200, content_type="image/heic",
                                                              body=b"\x00\x00\x00\x18ftypheic" + bytes(64)))
    photo_throw(phone, FIVE_DICE, 5)
    throw = current_throw(phone, base, gid)
    page.wait_for_function(
        "url => [...document.querySelectorAll('#dice-strip .die-closeup')]"
        ".every(t => getComputedStyle(t).backgroundImage.includes(url))", arg=throw["annotated_url"])
