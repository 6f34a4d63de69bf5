"""The sheet for 1 to 6 players on a 360 px wide phone, in both languages: nothing but the
sheet's own scroller is wider than the screen; Würfelspiel shows one player's three
columns at a time and they fit without scrolling."""

from __future__ import annotations

import pytest

from .checks import check_screen
from .play import manual_throw

NAMES = ["Annabelle", "Benedikt", "Cleopatra", "Dagobert", "Eleonore", "Friedrich"]


@pytest.mark.parametrize("lang", ["de", "en"])
@pytest.mark.parametrize("variant", ["wuerfelspiel", "spiffel"])
@pytest.mark.parametrize("count", [1, 2, 6])
def test_the_sheet_fits_a_small_phone(phones, base, screens, variant, lang, count):
    phone = phones(lang)
    page = phone.page
    page.set_viewport_size({"width": 360, "height": 740})
    resp = page.request.post(f"{base}/api/games", data={"variant": variant, "players": NAMES[:count]})
    assert resp.status == 201, resp.text()
    page.goto(f"{base}/g/{resp.json()['id']}?lang={lang}")
    manual_throw(phone, [2, 2, 3, 3, 3])  # the first player's open boxes become buttons
    check_screen(phone, f"layout-{variant}-{count}-players-360", screens)
    scroller = page.locator("#sheet-scroll")
    overflow = scroller.evaluate("e => e.scrollWidth - e.clientWidth")
    if variant == "wuerfelspiel":
        assert overflow <= 1  # one player's three columns fit
        assert page.locator("#sheet-tabs").is_visible() == (count > 1)
        assert page.locator("#sheet thead .player-head").all_inner_texts() == [NAMES[0]]
    elif count == 6:
        # Six players scroll sideways; the box names stay put, and a shadow says there is more.
        assert overflow > 0
        assert "more-right" in scroller.get_attribute("class")
        scroller.evaluate("e => e.scrollBy(100, 0)")
        page.wait_for_function("() => document.getElementById('sheet-scroll').classList.contains('more-left')")
        th = page.locator("#sheet tbody th").first
        assert th.bounding_box()["x"] >= scroller.bounding_box()["x"] - 1
