"""The page for a screen reader and a keyboard, on German and English phones: every control
named in the page's language, one heading naming each page, focus that is seen and comes
back where it was, "reading the dice" and errors announced, inactive buttons still
readable, no motion where the phone asks for less; live regions that speak a line once
when it changes, one tab stop per die named by its value, remove buttons that name their
player, the sheet's best cell said to be the best, and a form refused without JavaScript
opening at its reason."""

from __future__ import annotations

import pytest

from .conftest import LOCALES, PHONE
from .play import FIVE_DICE, SIX_DICE, manual_throw, photo_throw, start_game, text, wait_turn

# Roles a player operates: each must have a name.
CONTROLS = {"button", "link", "textbox", "checkbox", "radio", "combobox", "spinbutton", "menuitem",
            "tab", "switch", "slider", "listbox", "searchbox", "DisclosureTriangle", "img", "image"}

# Contrast of `fg` over `bg` (CSS colours; an alpha is laid over white first).
CONTRAST_JS = """
const rgba = (s) => {
  const m = s.match(/[\\d.]+/g) || [0, 0, 0, 0];
  return [+m[0], +m[1], +m[2], m.length > 3 ? +m[3] : 1];
};
const lin = (c) => { c /= 255; return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4; };
const lum = ([r, g, b]) => 0.2126 * lin(r) + 0.7152 * lin(g) + 0.0722 * lin(b);
const over = (top, under) => [0, 1, 2].map((i) => top[i] * top[3] + under[i] * (1 - top[3]));
const backdrop = (e) => {  // the nearest opaque background behind e, with what lies over it
  const layers = [];
  let opacity = 1;
  for (let a = e; a; a = a.parentElement) {
    const st = getComputedStyle(a);
    opacity *= +st.opacity;
    const bg = rgba(st.backgroundColor);
    if (bg[3] > 0) layers.push(bg);
    if (bg[3] >= 1) break;
  }
  let bg = [255, 255, 255];
  for (const l of layers.reverse()) bg = over(l, bg);
  return {bg, opacity};
};
const ratio = (a, b) => {
  const l1 = lum(a), l2 = lum(b);
  return (Math.max(l1, l2) + 0.05) / (Math.min(l1, l2) + 0.05);
};
"""

TEXT_CONTRAST_JS = "(sel) => {" + CONTRAST_JS + """
  const e = document.querySelector(sel);
  const {bg, opacity} = backdrop(e);
  const fg = rgba(getComputedStyle(e).color);
  return ratio(over([fg[0], fg[1], fg[2], fg[3] * opacity], bg), bg);
}"""

# The focused element's ring against what lies around it (its parent's background).
FOCUS_RING_JS = "() => {" + CONTRAST_JS + """
  const e = document.activeElement;
  const st = getComputedStyle(e);
  if (st.outlineStyle === 'none' || !parseFloat(st.outlineWidth)) return 0;
  return ratio(rgba(st.outlineColor), backdrop(e.parentElement).bg);
}"""


def nameless(phone) -> list[str]:
    """The controls and images in the accessibility tree without a name."""
    cdp = phone.context.new_cdp_session(phone.page)
    try:
        out = []
        for n in cdp.send("Accessibility.getFullAXTree")["nodes"]:
            role = n.get("role", {}).get("value")
            if n.get("ignored") or role not in CONTROLS or n.get("name", {}).get("value", "").strip():
                continue
            node = cdp.send("DOM.describeNode", {"backendNodeId": n["backendDOMNodeId"]})["node"]
            out.append(f"{role}: <{node['nodeName'].lower()} {' '.join(node.get('attributes', []))}>")
        return out
    finally:
        cdp.detach()


def _finished_turn(phone, base: str) -> str:
    """A Spiffel game with one typed throw entered; its id."""
    gid = start_game(phone, base, "spiffel", ["Anna", "Ben"])
    manual_throw(phone, [2, 2, 3, 3, 3])
    phone.page.locator("#options .option").first.click()
    phone.page.wait_for_function("() => !document.getElementById('undo-btn').disabled")
    return gid


@pytest.mark.parametrize("lang", ["de", "en"])
def test_every_control_has_a_name(phones, base, lang):
    phone = phones(lang)
    page = phone.page
    page.goto(f"{base}/?lang={lang}")
    page.check("input[name=variant][value=wuerfelpoker]")  # the target field shows
    assert nameless(phone) == []
    assert page.get_by_role("spinbutton", name=text("target", lang)).is_visible()
    start_game(phone, base, "spiffel", ["Anna", "Ben"])
    photo_throw(phone, FIVE_DICE, 5)
    assert nameless(phone) == []
    page.locator("#dice-strip .die[data-index]").first.click()
    page.wait_for_selector("#picker:not([hidden])")
    assert nameless(phone) == []


@pytest.mark.parametrize("lang", ["de", "en"])
def test_each_page_has_one_heading_naming_it(phones, base, lang):
    phone = phones(lang)
    page = phone.page
    gid = _finished_turn(phone, base)
    variant = page.locator(".topbar .title").inner_text()
    assert page.locator("h1").all_inner_texts() == [variant]
    page.goto(f"{base}/g/{gid}/log?lang={lang}")
    assert page.locator("h1").all_inner_texts() == [text("log_title", lang) + " · " + variant]
    page.locator(".log-item").first.click()
    page.wait_for_url("**/throws/**")
    assert page.locator("h1").all_inner_texts() == ["Anna · " + text("throw_n", lang, n=1, max=3)]


@pytest.mark.parametrize("lang", ["de", "en"])
def test_focus_comes_back_to_the_menu_after_the_invitation(phones, base, lang):
    phone = phones(lang)
    page = phone.page
    start_game(phone, base, "spiffel", ["Anna", "Ben"])
    page.focus("#menu-btn")
    page.keyboard.press("Enter")
    page.wait_for_selector(".menu-panel", state="visible")
    page.keyboard.press("Tab")
    assert page.evaluate("document.activeElement.id") == "join-btn"
    page.keyboard.press("Enter")
    page.wait_for_selector("#join:not([hidden])")
    assert page.evaluate("document.getElementById('join').contains(document.activeElement)")
    page.keyboard.press("Escape")
    page.wait_for_selector("#join", state="hidden")
    assert page.evaluate("document.activeElement.id") == "menu-btn"
    assert page.locator("#menu-btn").evaluate("e => e.matches(':focus-visible')")


@pytest.mark.parametrize("lang", ["de", "en"])
def test_reading_a_photo_and_a_refused_one_are_announced(phones, base, lang, tmp_path):
    phone = phones(lang)
    page = phone.page
    start_game(phone, base, "spiffel", ["Anna", "Ben"])
    region = page.locator("#busy-status")
    assert region.count() == 1
    assert region.get_attribute("role") == "status" and region.text_content() == ""
    # Every text the status region says while the photo is read.
    page.evaluate("""() => { window.said = [];
      const box = document.getElementById('busy-status');
      new MutationObserver(() => window.said.push(box.textContent))
        .observe(box, {childList: true, characterData: true, subtree: true}); }""")
    photo_throw(phone, FIVE_DICE, 5)
    said = page.evaluate("window.said")
    assert text("reading", lang) in said, said
    assert region.text_content() == ""  # said once, then quiet
    # A refused photo is an error: said at once.
    not_a_photo = tmp_path / "notes.jpg"
    not_a_photo.write_text("a shopping list, not a photo")
    page.click("#retake-btn")
    page.set_input_files("#photo-input", str(not_a_photo))
    page.wait_for_selector("#toast.toast-error")
    assert page.locator("#toast").get_attribute("role") == "alert"
    assert page.locator("#toast").get_attribute("aria-live") == "assertive"


@pytest.mark.parametrize("lang", ["de", "en"])
def test_inactive_buttons_stay_readable(phones, base, lang):
    phone = phones(lang)
    page = phone.page
    start_game(phone, base, "spiffel", ["Anna", "Ben"])
    assert page.locator("#undo-btn").is_disabled()
    assert page.evaluate(TEXT_CONTRAST_JS, "#undo-btn") >= 4.5
    page.click("#manual-btn")
    page.wait_for_selector("#manual:not([hidden])")
    page.evaluate("() => Promise.all(document.getAnimations().map(a => a.finished))")
    for sel in ("#manual-ok", "#manual-back"):  # a primary and a plain button, both inactive
        assert page.locator(sel).is_disabled()
        assert page.evaluate(TEXT_CONTRAST_JS, sel) >= 4.5, sel


@pytest.mark.parametrize("lang", ["de", "en"])
def test_the_focus_ring_stands_out_from_the_page(phones, base, lang):
    phone = phones(lang)
    page = phone.page
    _finished_turn(phone, base)
    # Tabbed to (not clicked): a plain button on a card, an option, a sheet cell.
    for sel in ("#undo-btn", "#manual-btn"):
        page.focus(sel)
        page.keyboard.press("Shift+Tab")
        page.keyboard.press("Tab")
        assert page.evaluate("document.activeElement.id") == sel[1:]
        assert page.evaluate(FOCUS_RING_JS) >= 3, sel
    manual_throw(phone, [1, 2, 3, 4, 6])
    for sel in ("#options .option", "#sheet .cell-pick"):
        page.locator(sel).first.focus()
        page.keyboard.press("Shift+Tab")
        page.keyboard.press("Tab")
        assert page.evaluate(FOCUS_RING_JS) >= 3, sel


@pytest.mark.parametrize("lang", ["de", "en"])
def test_no_motion_when_the_phone_asks_for_less(phones, base, lang):
    phone = phones(lang)
    page = phone.page
    page.emulate_media(reduced_motion="reduce")
    # How the page asks to scroll, recorded.
    page.add_init_script("""window.scrolls = [];
      const own = Element.prototype.scrollIntoView;
      Element.prototype.scrollIntoView = function (opts) {
        window.scrolls.push(opts && opts.behavior);
        return own.call(this, opts);
      };""")
    start_game(phone, base, "spiffel", ["Anna", "Ben"])
    page.click("#manual-btn")
    page.wait_for_selector("#manual:not([hidden])")
    assert page.evaluate("document.getAnimations().length") == 0
    assert page.locator("#manual .modal-card").evaluate("e => getComputedStyle(e).animationName") == "none"
    page.click("#manual-cancel")
    # The busy camera button does not spin.
    page.evaluate("() => document.getElementById('camera-label').classList.add('busy')")
    assert page.locator(".camera-icon").evaluate("e => getComputedStyle(e).animationName") == "none"
    page.evaluate("() => document.getElementById('camera-label').classList.remove('busy')")
    photo_throw(phone, FIVE_DICE, 5)
    scrolls = page.evaluate("window.scrolls")
    assert scrolls and all(b != "smooth" for b in scrolls), scrolls


# Every live region of the page (aria-live, role=status or alert) records what it says.
LISTEN_JS = """() => { window.said = [];
  for (const r of document.querySelectorAll('[aria-live], [role=status], [role=alert]')) {
    new MutationObserver(() => window.said.push(r.id + ': ' + r.textContent))
      .observe(r, {childList: true, characterData: true, subtree: true});
  } }"""

# The page drawn again with nothing changed: once from its own state, once from a copy, as a
# followed game brings it (the event stream, advice polled, another phone's look).
REDRAW_JS = """async () => {
  const store = await import('/static/js/store.js');
  store.refreshView();
  store.setState(JSON.parse(JSON.stringify(store.getState())));
}"""

# The live regions that hold more than a line of text: whole sections, lists, controls.
CROWDED_JS = """() => [...document.querySelectorAll('[aria-live], [role=status], [role=alert]')]
  .filter((r) => r.children.length).map((r) => r.id || r.className)"""


def _said(page) -> list[str]:
    return page.evaluate("window.said.splice(0)")


@pytest.mark.parametrize("lang", ["de", "en"])
def test_live_regions_speak_only_when_something_changed(phones, base, lang):
    phone = phones(lang)
    page = phone.page
    start_game(phone, base, "spiffel", ["Anna", "Ben"])
    photo_throw(phone, SIX_DICE, 5)  # six dice in the photo: the note about the one left out shows
    page.wait_for_selector("#left-out-note:not([hidden])")
    # A live region is a line of text: the banner, the tip, the dice typed are not read out whole.
    assert page.evaluate(CROWDED_JS) == []
    for region in ("#banner", "#review", "#advice", "#manual-slots", "#sheet-scroll", "#options"):
        assert page.locator(region).evaluate(
            "e => !e.closest('[aria-live], [role=status], [role=alert]')"), region
    page.evaluate(LISTEN_JS)
    page.evaluate(REDRAW_JS)
    page.evaluate(REDRAW_JS)
    assert _said(page) == []  # nothing changed, nothing said
    # The turn passing is said once, in a few words.
    page.locator("#options .option").first.click()
    wait_turn(phone, "Ben")
    page.wait_for_function("t => document.getElementById('turn-status').textContent === t",
                           arg=text("turn_of", lang, player="Ben"))
    assert [s for s in _said(page) if s.startswith("turn-status")] == [
        "turn-status: " + text("turn_of", lang, player="Ben")]
    page.evaluate(REDRAW_JS)
    assert _said(page) == []
    # Dice typed in: each tap says how many so far and which, not the whole row of slots.
    page.click("#manual-btn")
    page.wait_for_selector("#manual:not([hidden])")
    page.click("#manual-faces [data-add='3']")
    page.click("#manual-faces [data-add='5']")
    status = page.locator("#manual-status")
    assert status.get_attribute("role") == "status"
    assert status.text_content() == text("manual_progress", lang, n=2, max=5, dice="3 5")
    page.click("#manual-back")
    assert status.text_content() == text("manual_progress", lang, n=1, max=5, dice="3")
    assert [s for s in _said(page) if not s.startswith("manual-status")] == []
    page.click("#manual-cancel")


def _tab_stops(page, start: str, until: str) -> list[dict]:
    """What Tab stops at from `start` until an element matching `until` has the focus."""
    page.focus(start)
    stops: list[dict] = []
    for _ in range(60):
        page.keyboard.press("Tab")
        stop = page.evaluate("""(until) => { const e = document.activeElement;
          return {index: e.dataset.index === undefined ? null : +e.dataset.index, id: e.id,
                  name: e.getAttribute('aria-label'), end: e.matches(until)}; }""", until)
        if stop["end"]:
            return stops
        stops.append(stop)
    raise AssertionError(f"Tab never reached {until}: {stops}")


@pytest.mark.parametrize("lang", ["de", "en"])
def test_each_die_is_one_tab_stop_named_by_its_value(phones, base, lang):
    phone = phones(lang)
    page = phone.page
    start_game(phone, base, "spiffel", ["Anna", "Ben"])
    values = photo_throw(phone, FIVE_DICE, 5)
    page.wait_for_selector("#dice-strip .die-closeup")  # the photo's close-ups and tap targets are drawn
    assert page.locator("#overlay .die-hit[data-index]").count() == 5
    # The photo's tap target, the close-up and the value: one stop per die, the value's button.
    stops = [s for s in _tab_stops(page, "#retake-btn", "#options .option") if s["index"] is not None]
    assert [s["index"] for s in stops] == [0, 1, 2, 3, 4], stops
    for i, v in enumerate(values):
        name = text("die_n", lang, n=i + 1, value=v)
        assert stops[i]["name"].startswith(name), stops[i]
        assert page.get_by_role("button", name=name).count() == 1, name
    # Its actions are the picker's: the keyboard corrects a die and stays on it.
    page.locator("#dice-strip .die[data-index='1']").focus()
    page.keyboard.press("Enter")
    page.wait_for_selector("#picker:not([hidden])")
    assert page.locator("#picker-title").inner_text() == text("fix_die_n", lang, n=2, value=values[1])
    new = 6 if values[1] != 6 else 5
    page.locator(f"#picker-faces [data-pick='{new}']").focus()
    page.keyboard.press("Enter")
    page.wait_for_function(
        "v => document.querySelector('#dice-strip .die[data-index=\"1\"]').dataset.value === String(v)", arg=new)
    assert page.evaluate("document.activeElement.matches('#dice-strip .die[data-index=\"1\"]')")
    assert page.evaluate("document.activeElement.getAttribute('aria-label')").startswith(
        text("die_n", lang, n=2, value=new))
    # A finger still corrects a die from the photo and from its close-up.
    for target in ("#overlay .die-hit[data-index='2']", "#dice-strip .die-closeup[data-index='3']"):
        page.locator(target).click()
        page.wait_for_selector("#picker:not([hidden])")
        n = int(target[-3]) + 1
        assert page.locator("#picker-title").inner_text() == text("fix_die_n", lang, n=n, value=values[n - 1])
        page.click("#picker-cancel")
        page.wait_for_selector("#picker", state="hidden")


@pytest.mark.parametrize("lang", ["de", "en"])
def test_each_remove_button_names_its_player(phones, base, lang):
    phone = phones(lang)
    page = phone.page
    page.goto(f"{base}/?lang={lang}")
    remove = page.locator("#player-list .remove-player")

    def names() -> list[str]:
        return remove.evaluate_all("els => els.map(e => e.getAttribute('aria-label'))")

    assert names() == [text("remove_player_n", lang, n=1), text("remove_player_n", lang, n=2)]
    page.locator("input[name=players]").nth(0).fill("Ann")
    assert names() == [text("remove_player_named", lang, name="Ann"), text("remove_player_n", lang, n=2)]
    page.click("#add-player")
    page.locator("input[name=players]").nth(2).fill("Cleo")
    assert names() == [text("remove_player_named", lang, name="Ann"), text("remove_player_n", lang, n=2),
                       text("remove_player_named", lang, name="Cleo")]
    # The name a screen reader hears, for the row it removes.
    page.get_by_role("button", name=text("remove_player_named", lang, name="Ann"), exact=True).click()
    assert page.locator("input[name=players]").evaluate_all("els => els.map(e => e.value)") == ["", "Cleo"]
    assert names() == [text("remove_player_n", lang, n=1), text("remove_player_named", lang, name="Cleo")]
    page.locator("input[name=players]").nth(1).fill("")
    assert names() == [text("remove_player_n", lang, n=1), text("remove_player_n", lang, n=2)]


@pytest.mark.parametrize("lang", ["de", "en"])
def test_the_best_cell_of_the_sheet_is_said_to_be_the_best(phones, advice_base, lang):
    phone = phones(lang)
    page = phone.page
    start_game(phone, advice_base, "yahtzee", ["Anna", "Ben"])
    for throw, tag in (([6, 1, 6, 2, 6], "best_box"), ([6, 6, 6, 2, 2], None), ([6, 6, 6, 5, 5], "advice")):
        manual_throw(phone, throw)
        if tag is None:
            continue
        page.wait_for_function("() => !document.querySelector('#advice.advice-pending')"
                               " && document.querySelector('#sheet .cell-pick.best')", timeout=120_000)
        # The list tags the advisor's box; its cell on the sheet is highlighted, and says so.
        assert page.locator("#options .option.best .tag-best").inner_text() == text(tag, lang)
        best = page.locator("#sheet .cell-pick.best")
        assert best.count() == 1
        name = best.get_attribute("aria-label")
        assert name.endswith(", " + text(tag, lang)), name
        assert page.get_by_role("button", name=name, exact=True).count() == 1
        # What the eye sees is unchanged: the points alone.
        assert best.inner_text() == best.get_attribute("data-points")
        others = page.locator("#sheet .cell-pick:not(.best)").evaluate_all(
            "els => els.map(e => e.getAttribute('aria-label'))")
        assert others and not [o for o in others if o.endswith(", " + text(tag, lang))]
        # The tip is said once, in words; drawn again, it is not said again.
        status = page.locator("#advice-status")
        assert status.text_content().startswith(text("keep_hint" if tag == "best_box" else "advice", lang))
        page.evaluate(LISTEN_JS)
        page.evaluate(REDRAW_JS)
        assert _said(page) == []


@pytest.mark.parametrize("lang", ["de", "en"])
def test_a_form_refused_without_javascript_opens_at_its_reason(browser, base, lang):
    """Without JavaScript the start form posts itself, and a refused one comes back as the
    start page: on a phone the reason stands a screen or more below the top, so the page
    opens there, with what was typed still in the form."""
    context = browser.new_context(locale=LOCALES[lang], java_script_enabled=False, **PHONE)
    try:
        page = context.new_page()
        page.goto(f"{base}/?lang={lang}")
        page.check("input[name=variant][value=wuerfelware]")  # a game for two or more
        page.locator("input[name=players]").nth(0).fill("Ann")
        api = page.request.post(f"{base}/api/games?lang={lang}", data={"variant": "wuerfelware", "players": ["Ann"]})
        assert api.status == 422
        with page.expect_navigation():
            page.click("#new-game button[type=submit]")
        error = page.locator("#form-error")
        assert error.inner_text() == api.json()["error"]
        box = error.bounding_box()
        shown = page.viewport_size
        assert box is not None and shown is not None and 0 <= box["y"] and box["y"] + box["height"] <= shown["height"]
        assert page.locator("input[name=players]").nth(0).input_value() == "Ann"
    finally:
        context.close()
