"""What goes wrong is said in the page's language: a refused start and an unreadable
photo, on German and English phones."""

from __future__ import annotations

import pytest

from .checks import check_screen, untranslated
from .play import start_game, text


@pytest.mark.parametrize("lang", ["de", "en"])
def test_refusals_on_the_page_are_in_its_language(phones, base, screens, lang, tmp_path):
    phone = phones(lang)
    page = phone.page
    page.goto(f"{base}/?lang={lang}")
    page.check("input[name=variant][value=wuerfelware]")
    page.locator("input[name=players]").first.fill("Anna")
    page.click("button[type=submit]")
    page.wait_for_selector("#form-error:not([hidden])")
    said = page.locator("#form-error").inner_text()
    # German from the catalogue; English may be scoring's own sentence, which names the game.
    assert said == text("rule_players_too_few", "de", min_players=2) if lang == "de" else "2" in said
    check_screen(phone, "refused-start", screens)

    start_game(phone, base, "spiffel", ["Anna", "Ben"])
    not_a_photo = tmp_path / "notes.jpg"
    not_a_photo.write_text("a shopping list, not a photo")
    page.set_input_files("#photo-input", str(not_a_photo))
    page.wait_for_selector("#toast.toast-error")
    assert not untranslated(page, lang), page.locator("#toast").inner_text()
    check_screen(phone, "refused-photo", screens)
