"""The advisor on the phone (advice on): the keep hint and the ranked boxes, a tip that
waits for a look at an unsure die, and a finished game's analysis in both languages."""

from __future__ import annotations

import random

import pytest

from dicecam.scoring import Game
from dicecam.scoring.advisor import advise

from .checks import check_screen
from .play import ONE_UNSURE_DIE, manual_throw, text, toast, wait_turn

COUNT = "n => document.querySelectorAll('#dice-strip .die[data-index]').length === n"
ADVICE_WAIT_MS = 120_000  # the first Yahtzee table build on a busy 2-core machine


def api_game(phone, base: str, variant: str, log: dict | None = None) -> str:
    """A game made through the API with this phone's cookies (so it is this phone's)."""
    if log is None:
        resp = phone.page.request.post(f"{base}/api/games", data={"variant": variant, "players": ["Anna", "Ben"]})
    else:
        resp = phone.page.request.post(f"{base}/api/games/import", data=log)
    assert resp.status == 201, resp.text()
    return resp.json()["id"]


def wait_advice(page) -> None:
    page.wait_for_function("() => !document.querySelector('#advice.advice-pending')", timeout=ADVICE_WAIT_MS)


def test_the_keep_hint_and_the_boxes_ranked_by_expected_score(phones, advice_base, screens):
    phone = phones("de")
    page = phone.page
    gid = api_game(phone, advice_base, "yahtzee")
    page.goto(f"{advice_base}/g/{gid}?lang=de")
    manual_throw(phone, [6, 1, 6, 2, 6])
    wait_advice(page)
    marked = page.locator("#dice-strip .die.keep").evaluate_all("els => els.map(e => +e.dataset.index)")
    assert marked == [0, 2, 4]
    assert page.locator("#advice").inner_text().startswith(text("keep_hint", "de"))
    assert page.locator("#options-title").inner_text() == text("options_now", "de")
    first = page.locator("#options .option").first
    assert text("expected", "de") in first.inner_text() and text("best_box", "de") in first.inner_text()
    second = page.locator("#options .option").nth(1).inner_text()
    assert "−" in second and "," in second  # a loss, written the German way
    check_screen(phone, "advice-keep", screens)

    # After throw 3 the tip names a box, and says the same number its option says.
    manual_throw(phone, [6, 6, 6, 2, 2])
    manual_throw(phone, [6, 6, 6, 5, 5])
    wait_advice(page)
    tip = page.locator("#advice .advice-ev").inner_text()
    advised = page.locator("#options .option.best")
    assert advised.count() == 1 and tip in advised.inner_text()
    advised.click()
    wait_turn(phone, "Ben")


@pytest.mark.parametrize("lang", ["de", "en"])
def test_a_tip_that_hangs_on_an_unsure_die_waits_for_a_look(phones, advice_base, screens, lang):
    phone = phones(lang)
    page = phone.page
    gid = api_game(phone, advice_base, "yahtzee")
    page.goto(f"{advice_base}/g/{gid}?lang={lang}")
    # A close-up the reader is unsure of; the throw is then made five dice by hand:
    # one unsure die kept as read, the others set to another face v.
    page.set_input_files("#photo-input", str(ONE_UNSURE_DIE))
    page.wait_for_selector("#dice-strip .die.uncertain")
    unsure_value = int(page.locator("#dice-strip .die.uncertain").first.get_attribute("data-value"))
    v = 6 if unsure_value != 6 else 5
    while True:
        dice = page.locator("#dice-strip .die[data-index]")
        n = dice.count()
        sure = [i for i in range(n) if "uncertain" not in dice.nth(i).get_attribute("class")]
        extra_unsure = [i for i in range(n) if i not in sure][1:]
        if n > 5 or extra_unsure:  # too many dice, or more than one unsure: drop one
            drop = (extra_unsure or sure)[-1]
            dice.nth(drop).click()
            page.click("#picker-remove")
            page.wait_for_function(COUNT, arg=n - 1)
            continue
        wrong = [i for i in sure if dice.nth(i).get_attribute("data-value") != str(v)]
        if wrong:
            dice.nth(wrong[0]).click()
            page.click(f"#picker-faces [data-pick='{v}']")
            page.wait_for_function(
                "([i, v]) => document.querySelector(`#dice-strip .die[data-index='${i}']`).dataset.value === String(v)",
                arg=[wrong[0], v])
            continue
        if n < 5:
            page.click("#add-die")
            page.click(f"#picker-faces [data-pick='{v}']")
            page.wait_for_function(COUNT, arg=n + 1)
            continue
        break
    wait_advice(page)
    # Were the unsure die a v, the tip would change (five of a kind): it waits, and says why.
    assert page.locator("#dice-strip .die.uncertain").count() == 1
    assert page.locator("#unsure-note").is_visible()
    assert page.locator("#advice").inner_text().startswith(text("tip_waits_one", lang))
    assert page.locator("#dice-strip .die.keep").count() == 0
    assert page.locator("#options .tag-best").count() == 0
    check_screen(phone, "advice-unsure", screens)
    page.click("#looked-btn")
    assert page.locator("#advice").inner_text().startswith(text("keep_hint", lang))
    assert page.locator("#dice-strip .die.keep").count() >= 4
    assert page.locator("#options .tag-best").count() == 1


def nearly_finished_yahtzee() -> dict:
    """A game file with one turn left (Ben's): every turn but the first goes where the
    advisor says; Anna's first turn scratches 6-6-6-6-5 in the ones."""
    rng = random.Random(7)
    game = Game.new("yahtzee", ["Anna", "Ben"])
    game = game.play({"player": "Anna", "dice": [6, 6, 6, 6, 5], "box": "ones"})
    while True:
        dice = [rng.randint(1, 6) for _ in range(5)]
        best = advise(game, dice, 3).best
        assert best is not None
        after = game.play({"player": game.current_player, "dice": dice, "box": best.box})
        if after.finished:
            return game.to_dict()
        game = after


@pytest.mark.parametrize("lang", ["de", "en"])
def test_a_finished_games_analysis(phones, advice_base, screens, lang):
    phone = phones(lang)
    page = phone.page
    gid = api_game(phone, advice_base, "yahtzee", nearly_finished_yahtzee())
    page.goto(f"{advice_base}/g/{gid}?lang={lang}")
    wait_turn(phone, "Ben")
    manual_throw(phone, [1, 1, 2, 2, 3])
    page.locator("#options .option").first.click()
    assert toast(page).startswith("Ben:")
    page.wait_for_selector(".banner-main.finished")
    page.wait_for_selector(".review-item", timeout=ADVICE_WAIT_MS)
    review = page.locator("#review").inner_text()
    assert review.startswith(text("review_title", lang))
    assert text("review_turn", lang, n=1) in review  # Anna's scratch of four 6s
    assert page.locator("#actions").is_hidden() and page.locator("#delete-btn").is_visible()
    check_screen(phone, "finished-analysis", screens)
