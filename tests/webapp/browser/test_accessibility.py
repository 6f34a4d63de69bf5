"""The page for a screen reader and a keyboard, on German and English phones: every control
named in the page's language, one heading naming each page, focus that is seen and comes
back where it was, "reading the dice" and errors announced, inactive buttons still
readable, and no motion where the phone asks for less."""

from __future__ import annotations

import pytest

from .play import FIVE_DICE, manual_throw, photo_throw, start_game, text

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
