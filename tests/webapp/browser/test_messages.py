"""What goes wrong is said in the page's language: a refused start, an unreadable photo,
dice too small and more dice in the photo than in the throw, on German and English phones."""

from __future__ import annotations

import pytest

from .checks import check_screen, untranslated
from .play import FIVE_DICE, SIX_DICE, confirm, current_throw, photo_throw, retake_photo, start_game, strip_values, text


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


@pytest.mark.parametrize("lang", ["de", "en"])
def test_dice_small_in_the_photo_bring_a_hint_to_move_closer(phones, base, screens, lang, tmp_path):
    import cv2

    phone = phones(lang)
    page = phone.page
    start_game(phone, base, "spiffel", ["Anna", "Ben"])
    # The same throw taken from further away: its dice come out under the readable side.
    far = tmp_path / "far.jpg"
    image = cv2.imread(str(FIVE_DICE))
    assert image is not None
    cv2.imwrite(str(far), cv2.resize(image, None, fx=0.6, fy=0.6, interpolation=cv2.INTER_AREA))
    photo_throw(phone, far, 5)
    note = page.locator("#small-dice-note")
    assert note.is_visible() and note.inner_text() == text("small_dice", lang)
    check_screen(phone, "small-dice", screens)

    # Taken again closer, as the hint says: the hint goes.
    retake_photo(phone, FIVE_DICE)
    assert not note.is_visible()


@pytest.mark.parametrize("lang", ["de", "en"])
def test_more_dice_in_the_photo_than_in_the_throw_are_named(phones, base, screens, lang):
    phone = phones(lang)
    page = phone.page
    gid = start_game(phone, base, "spiffel", ["Anna", "Ben"])
    # Six dice in the shot of a five-dice throw: one is left out, drawn grey, and the page says so.
    photo_throw(phone, SIX_DICE, 5)
    note = page.locator("#left-out-note")
    assert note.is_visible() and note.inner_text() == text("left_out_one", lang)
    check_screen(phone, "left-out", screens)
    # The throw log says it too, for whoever looks at the game later.
    page.goto(f"{base}/g/{gid}/log?lang={lang}")
    assert text("left_out_evidence", lang, n=1) in page.locator(".log-list").inner_text()
    check_screen(phone, "left-out-log", screens)
    page.goto(f"{base}/g/{gid}?lang={lang}")
    page.wait_for_selector("#left-out-note:not([hidden])")

    # Taken again with the throw's five dice only: nothing is left out, the note goes.
    retake_photo(phone, FIVE_DICE)
    assert not note.is_visible()


@pytest.mark.parametrize("lang", ["de", "en"])
def test_a_die_the_count_left_out_is_counted_with_a_tap(phones, base, screens, lang):
    phone = phones(lang)
    page = phone.page
    gid = start_game(phone, base, "spiffel", ["Anna", "Ben"])
    read = photo_throw(phone, SIX_DICE, 5)
    grey = page.locator("#overlay .die-hit.left-out")
    assert grey.count() == 1
    [left] = current_throw(phone, base, gid)["left_out_dice"]
    value = left["value"]
    assert grey.get_attribute("aria-label") == text("left_out_die", lang, value=value)
    assert sorted([*read, value]) == [1, 1, 2, 3, 5, 5]  # the photo's six dice, five counted
    grey.click()
    said = confirm(page)
    assert said.startswith(text("take_left_out", lang))
    assert text("take_left_out_body", lang, value=value, n=6) in said
    # Counted: six dice, the page says the throw has one too many, the new die has its close-up.
    page.wait_for_function("() => document.querySelectorAll('#dice-strip .die[data-index]').length === 6")
    assert strip_values(page) == [*read, value]
    assert page.locator("#dice-warning").is_visible() and grey.count() == 0
    assert not page.locator("#left-out-note").is_visible()  # nothing left to count
    assert page.locator("#dice-strip .die-closeup[data-index='5']").count() == 1
    assert page.locator("#overlay .die-hit[data-index='5'] .die-hit-value").inner_text() == str(value)
    check_screen(phone, "left-out-taken", screens)
    # The die that does not belong removed: five dice, the warning gone.
    page.locator("#dice-strip .die[data-index='0']").click()
    page.click("#picker-remove")
    page.wait_for_function("() => document.querySelectorAll('#dice-strip .die[data-index]').length === 5")
    assert strip_values(page) == [*read[1:], value] and not page.locator("#dice-warning").is_visible()
    # The evidence page shows the die counted from those left out, and the one removed.
    throw_id = current_throw(phone, base, gid)["throw_id"]
    page.goto(f"{base}/g/{gid}/throws/{throw_id}?lang={lang}")
    badges = page.locator("#closeups .closeup-badge").all_inner_texts()
    assert sorted(badges) == sorted(["✕", f"+ {value}"])
    assert page.locator("#closeups .die-closeup").nth(5).get_attribute("aria-label") == text(
        "closeup_added", lang, n=6, now=value)
    check_screen(phone, "left-out-taken-evidence", screens)


@pytest.mark.parametrize("lang", ["de", "en"])
def test_a_photo_with_no_dice_says_so_and_what_to_do(phones, base, screens, lang, tmp_path):
    import cv2
    import numpy as np

    phone = phones(lang)
    page = phone.page
    start_game(phone, base, "spiffel", ["Anna", "Ben"])
    empty = tmp_path / "table.jpg"
    cv2.imwrite(str(empty), np.full((600, 800, 3), (60, 110, 40), np.uint8))  # bare green felt
    assert photo_throw(phone, empty, 0) == []
    warning = page.locator("#dice-warning")
    assert warning.is_visible() and warning.inner_text() == text("no_dice_read", lang)
    # No die to tap: the hint to tap one to correct it is not shown.
    assert not page.locator("#fix-hint").is_visible()
    check_screen(phone, "no-dice", screens)
    # Taken again with the throw's dice: the usual hint is back and the warning goes.
    retake_photo(phone, FIVE_DICE)
    assert page.locator("#fix-hint").is_visible() and not warning.is_visible()
