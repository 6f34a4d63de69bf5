"""What every screen of the page must hold, checked in the browser: one language, tap
targets a finger can hit, nothing wider than the phone, readable contrast."""

from __future__ import annotations

import re
from functools import cache
from pathlib import Path

MIN_TARGET = 44  # px, WCAG 2.5.5
MIN_CONTRAST = 4.5
MIN_CONTRAST_LARGE = 3.0

_TARGETS_JS = """(min) => {
  const sel = 'a[href], button, input:not([type=hidden]), select, textarea, summary, [role=tab],'
    + ' [tabindex]:not([tabindex="-1"])';
  const bad = [];
  for (const e of document.querySelectorAll(sel)) {
    // A radio or checkbox is tapped through its label, which is then the target.
    const label = (e.type === 'radio' || e.type === 'checkbox') && e.closest('label');
    const r = (label || e).getBoundingClientRect();
    const st = getComputedStyle(e);
    if (r.width === 0 || r.height === 0 || st.visibility === 'hidden' || e.closest('[hidden]')) continue;
    if (r.width < min - 0.5 || r.height < min - 0.5) {
      const name = (e.getAttribute('aria-label') || e.textContent).trim().slice(0, 30);
      const size = `${r.width.toFixed(0)}x${r.height.toFixed(0)}`;
      bad.push(`${e.tagName.toLowerCase()}#${e.id}.${e.className} "${name}" ${size}`);
    }
  }
  return bad;
}"""

_WIDTH_JS = """() => {
  const w = document.documentElement.clientWidth;
  const bad = [];
  for (const e of document.body.querySelectorAll('*')) {
    if (e.closest('.sheet-scroll')) continue;  // the sheet's own scroller may be wider
    const r = e.getBoundingClientRect();
    if (r.width === 0 && r.height === 0) continue;
    if (r.right > w + 1 || r.left < -1) {
      bad.push(`${e.tagName.toLowerCase()}#${e.id}.${e.className} ${r.left.toFixed(0)}..${r.right.toFixed(0)}`);
    }
  }
  const wide = document.documentElement.scrollWidth;
  if (wide > w + 1) bad.push('the page scrolls sideways: ' + wide);
  return bad;
}"""

_CONTRAST_JS = """([min, minLarge]) => {
  const rgba = (s) => {
    const m = s.match(/[\\d.]+/g) || [0, 0, 0, 0];
    return [+m[0], +m[1], +m[2], m.length > 3 ? +m[3] : 1];
  };
  const lin = (c) => { c /= 255; return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4; };
  const lum = ([r, g, b]) => 0.2126 * lin(r) + 0.7152 * lin(g) + 0.0722 * lin(b);
  const over = (top, under) => [0, 1, 2].map((i) => top[i] * top[3] + under[i] * (1 - top[3])).concat([1]);
  const bad = [];
  for (const e of document.body.querySelectorAll('*')) {
    const own = [...e.childNodes].some((n) => n.nodeType === 3 && n.textContent.trim());
    if (!own) continue;
    const r = e.getBoundingClientRect();
    if (r.width === 0 || r.height === 0 || e.closest('[hidden], [aria-hidden=true]')) continue;
    if (e.closest('button:disabled, input:disabled, select:disabled')) continue;  // disabled controls are exempt
    // The backgrounds behind the text, nearest first; a picture or gradient is not judged.
    const layers = [];
    let opacity = 1;
    let image = false;
    for (let a = e; a; a = a.parentElement) {
      const st = getComputedStyle(a);
      opacity *= +st.opacity;
      if (st.backgroundImage !== 'none' && !a.classList.contains('sheet-scroll')) image = true;
      const bg = rgba(st.backgroundColor);
      if (bg[3] > 0) layers.push(bg);
      if (bg[3] >= 1) break;
    }
    if (image) continue;
    let bg = [255, 255, 255, 1];
    for (const l of layers.reverse()) bg = over(l, bg);
    const st = getComputedStyle(e);
    const fgRaw = rgba(st.color);
    const fg = over([fgRaw[0], fgRaw[1], fgRaw[2], fgRaw[3] * opacity], bg);
    const l1 = lum(fg), l2 = lum(bg);
    const ratio = (Math.max(l1, l2) + 0.05) / (Math.min(l1, l2) + 0.05);
    const size = parseFloat(st.fontSize);
    const large = size >= 24 || (size >= 18.66 && +st.fontWeight >= 700);
    if (ratio < (large ? minLarge : min) - 0.005) {
      const text = e.textContent.trim().slice(0, 30);
      bad.push(`${e.tagName.toLowerCase()}.${e.className} "${text}" ${ratio.toFixed(2)}:1`);
    }
  }
  return bad;
}"""

_LABELS_JS = """() => {
  const out = [document.body.innerText];
  for (const e of document.querySelectorAll('[aria-label], [title], [alt], [placeholder]')) {
    const r = e.getBoundingClientRect();
    if (r.width === 0 && r.height === 0) continue;
    for (const a of ['aria-label', 'title', 'alt', 'placeholder']) if (e.getAttribute(a)) out.push(e.getAttribute(a));
  }
  return out.join('\\n');
}"""


def _strings(value) -> list[str]:
    if isinstance(value, str):
        return [value]
    if isinstance(value, dict):
        return [s for v in value.values() for s in _strings(v)]
    if isinstance(value, (list, tuple)):
        return [s for v in value for s in _strings(v)]
    return []


@cache
def _corpus(lang: str) -> tuple[str, ...]:
    """Every text the page may show in `lang`: its catalogue, scoring's names and labels."""
    from dicecam.scoring import Game, all_variants
    from dicecam.webapp.i18n import TEXTS

    texts = [entry[lang] for entry in TEXTS.values()]
    for v in all_variants():
        players = ["Anna", "Ben"]
        texts += _strings(Game.new(v.id, players).display(lang).to_dict())
        texts += [v.name(lang), v.summary(lang)]
        texts += [v.label(b, lang) for b in v.boxes]
    return tuple(texts)


@cache
def foreign_phrases(lang: str) -> tuple[str, ...]:
    """Phrases of the other language that never occur in `lang`'s texts (so seeing one
    on a `lang` page means something was left untranslated)."""
    other = "en" if lang == "de" else "de"
    own = "\n".join(_corpus(lang))
    phrases = set()
    for text in _corpus(other):
        for part in re.split(r"\{\w+\}", text):
            part = part.strip(" .,:;·–-!?()\n")
            if len(part) >= 5 and re.search(r"[A-Za-zÄÖÜäöüß]{3}", part) and part not in own:
                phrases.add(part)
    return tuple(sorted(phrases, key=len, reverse=True))


def untranslated(page, lang: str) -> list[str]:
    shown = page.evaluate(_LABELS_JS)
    return [p for p in foreign_phrases(lang)
            if re.search(r"(?<![\w])" + re.escape(p) + r"(?![\w])", shown)]


def check_screen(phone, name: str, screens: Path | None = None, *, targets: bool = True,
                 full_page: bool = True) -> None:
    """Fail on any foreign-language text, small tap target, element wider than the
    phone or text under 4.5:1; then write a full-page screenshot `name`."""
    page = phone.page
    # Judge the page as styled: on a loaded machine a new page's elements can be waited for
    # before its stylesheet has come (every link then measured at its text's bare size).
    page.wait_for_load_state("load")
    # Judge what stays on screen, not a dialog halfway through its slide-in.
    page.evaluate("() => Promise.all(document.getAnimations()"
                  ".filter(a => a.effect.getTiming().iterations !== Infinity).map(a => a.finished))")
    problems = []
    problems += [f"untranslated: {p!r}" for p in untranslated(page, phone.lang)]
    if targets:
        problems += [f"tap target under {MIN_TARGET} px: {b}" for b in page.evaluate(_TARGETS_JS, MIN_TARGET)]
    problems += [f"wider than the phone: {b}" for b in page.evaluate(_WIDTH_JS)]
    problems += [f"contrast: {b}" for b in page.evaluate(_CONTRAST_JS, [MIN_CONTRAST, MIN_CONTRAST_LARGE])]
    if screens is not None and full_page:
        # From the top, so the sticky bar sits where it belongs in the full-page picture.
        scrolled = page.evaluate("() => { const y = scrollY; scrollTo(0, 0); return y; }")
        page.screenshot(path=str(screens / f"{name}-{phone.lang}.png"), full_page=True)
        page.evaluate("y => scrollTo(0, y)", scrolled)
    elif screens is not None:  # a dialog: what the phone's screen shows
        page.screenshot(path=str(screens / f"{name}-{phone.lang}.png"))
    assert not problems, f"{name} ({phone.lang}):\n" + "\n".join(problems)
