/* The open throw: the annotated photo with a tap target per die, and the row of dice.
 * Unsure dice are marked in both places and named in words; the dice the advisor
 * would keep are marked once the tip is shown.
 * Each die is one button, its value in the row below the photo (one tab stop, named by
 * its value): the die's tap target on the photo and its close-up above the value open the
 * same picker for a finger, and are hidden from the keyboard and the screen reader. */
import {$, el, clear, setText} from './dom.js';
import {T, fmt} from './i18n.js';
import {dieFace} from './dice.js';
import {placeCloseup} from './closeup.js';
import {tipWaits} from './store.js';

/** Indices of the dice the advisor would keep (or set aside in Würfelpoker). */
export function advisedPositions(state) {
  const a = state.throw && state.throw.advice;
  if (tipWaits(state) || !a || !a.best || !a.best.positions || (a.stage !== 'keep' && a.stage !== 'push')) return [];
  return a.best.positions;
}

function throwTitle(state, t) {
  const n = state.display.throws_per_turn;
  return (n ? fmt('throw_n', {n: t.number, max: n}) : fmt('throw_k', {n: t.number})) + ' · ' + t.player;
}

/** A die's name for a screen reader: "Würfel 2: 5, unsicher, halten". */
function dieLabel(i, d, unsure, kept, keepLabel) {
  let label = fmt('die_n', {n: i + 1, value: d.value});
  if (unsure) label += ', ' + T.uncertain;
  if (kept) label += ', ' + keepLabel;
  return label;
}

/** Tap target `b` over `box` of throw `t`'s photo: centred on the die, never under 44 px. */
function placed(b, box, t) {
  b.style.left = (100 * (box[0] + box[2]) / 2 / t.width) + '%';
  b.style.top = (100 * (box[1] + box[3]) / 2 / t.height) + '%';
  b.style.setProperty('--w', (100 * (box[2] - box[0]) / t.width) + '%');
  b.style.setProperty('--h', (100 * (box[3] - box[1]) / t.height) + '%');
  return b;
}

/** Die `i` of throw `t` as the photo shows it; tapping it corrects the die, as its value does
 * (the value's button below it is the die for the keyboard and the screen reader). */
function closeup(t, d, i, unsure) {
  const tile = el('span', {className: 'die-closeup' + (unsure ? ' uncertain' : ''), ariaHidden: 'true',
    dataset: {index: String(i)}});
  placeCloseup(tile, d.box, t.width, t.height, t.photo_url, t.annotated_url);
  return tile;
}

let shownThrow = null;  // the throw whose notes are on screen

/** A note of the open throw (a live region): shown with `text`, or hidden where it is ''.
 * It speaks when its text changes, or for a new throw; not when the page is only redrawn. */
function note(node, text, fresh) {
  if (node.hidden !== !text) node.hidden = !text;
  if (text) setText(node, text, fresh);
}

/** Which die (or the add button) has the keyboard's focus in the row, to keep it there
 * when the row is drawn again. */
function focusedInStrip(strip) {
  const active = document.activeElement;
  if (!active || !strip.contains(active)) return null;
  return active.id === 'add-die' ? 'add' : active.dataset.index;
}

function refocus(strip, which) {
  if (which === null || which === undefined) return;
  const faces = strip.querySelectorAll('.die[data-index]');
  const target = (which === 'add' ? $('add-die') : strip.querySelector(`.die[data-index="${which}"]`))
    || $('add-die') || faces[faces.length - 1];
  if (target) target.focus({preventScroll: true});
}

export function renderThrowView(state) {
  const t = state.throw;
  $('result-title').textContent = throwTitle(state, t);
  $('result-meta').textContent = t.source === 'photo' ? '' : T.no_photo;

  const kept = new Set(advisedPositions(state));
  const unsure = new Set(t.unsure || []);
  const keepLabel = state.display.family === 'push' ? T.set_aside_tag : T.keep_tag;

  const wrap = $('photo-wrap');
  const overlay = clear($('overlay'));
  if (t.annotated_url) {
    wrap.hidden = false;
    const img = $('annotated');
    if (img.getAttribute('src') !== t.annotated_url) img.src = t.annotated_url;
    img.alt = fmt('photo_of', {player: t.player});
    // The photo shows the values as first read; a badge marks only what changed since.
    const read = new Map((t.dice_read || []).map((d) => [JSON.stringify(d.box), d.value]));
    // Dice seen beyond the count (drawn grey, no value): a tap offers to count one.
    // Drawn first: where a target overlaps a die of the throw's, the throw's die takes the tap.
    (t.left_out_dice || []).forEach((d, i) => {
      if (!t.width) return;
      overlay.appendChild(placed(el('button', {type: 'button', className: 'die-hit left-out',
        ariaLabel: fmt('left_out_die', {value: d.value}), dataset: {left: String(i)}}), d.box, t));
    });
    t.dice.forEach((d, i) => {
      if (!d.box || !t.width) return;
      // A die taken from those left out has no value drawn on the photo: it shows its badge too.
      const changed = !read.has(JSON.stringify(d.box)) || read.get(JSON.stringify(d.box)) !== d.value;
      // For a finger only: the keyboard and the screen reader have the die's button in the row.
      const b = el('span', {className: 'die-hit' + (unsure.has(i) ? ' uncertain' : '') + (kept.has(i) ? ' keep' : ''),
        ariaHidden: 'true', dataset: {index: String(i)}},
      changed ? el('span', {className: 'die-hit-value'}, String(d.value)) : null,
      !changed && unsure.has(i) ? el('span', {className: 'die-hit-value unsure-mark'}, '?') : null);
      overlay.appendChild(placed(b, d.box, t));
    });
  } else {
    wrap.hidden = true;
  }

  const strip = $('dice-strip');
  const focused = focusedInStrip(strip);
  clear(strip);
  const closeups = Boolean(t.photo_url && t.width && t.dice.some((d) => d.box));
  strip.classList.toggle('with-closeups', closeups);
  t.dice.forEach((d, i) => {
    // The die's one button: named by its value; it opens the picker (correct, remove).
    const face = dieFace(d.value, 'button', dieLabel(i, d, unsure.has(i), kept.has(i), keepLabel));
    face.dataset.index = String(i);
    face.setAttribute('aria-haspopup', 'dialog');
    face.setAttribute('aria-describedby', 'fix-hint');
    face.classList.add('die-big');
    if (unsure.has(i)) face.classList.add('uncertain');
    if (kept.has(i)) face.classList.add('keep');
    // Above each value, the die itself from the photo: a reading is checked at a glance,
    // where on a phone the whole photo shows a small die as a few pixels.
    // A die typed or added by hand has no place in the photo: its value alone, in line below.
    strip.appendChild(closeups && d.box ? el('div', {className: 'die-col'}, closeup(t, d, i, unsure.has(i)), face) : face);
  });
  if (t.dice.length < t.expected_dice || t.dice.length === 0) {
    strip.appendChild(el('button', {type: 'button', className: 'die die-big die-add', id: 'add-die', ariaLabel: T.add_die,
      ariaHaspopup: 'dialog'}, '+'));
  }
  refocus(strip, focused);
  // No die at all: nothing to tap and correct; say so, and what to do instead.
  $('fix-hint').hidden = !t.dice.length;

  // The notes below are live regions: each speaks when what it says changes, or for a new throw.
  const fresh = t.throw_id !== shownThrow;
  shownThrow = t.throw_id;
  const wrongCount = t.dice.length !== t.expected_dice;
  note($('dice-warning'), !wrongCount ? ''
    : t.dice.length ? fmt('dice_count', {n: t.expected_dice, got: t.dice.length}) : T.no_dice_read, fresh);

  // Dice that came out tiny in the photo are where readings go wrong: say how to take the next one.
  note($('small-dice-note'), t.small_dice ? T.small_dice : '', fresh);

  // More dice in the photo than in the throw: the count may have taken the wrong ones (drawn
  // grey). Once a player has counted them, there is nothing more to say here.
  const open = t.left_out_open;
  note($('left-out-note'), open ? fmt(open === 1 ? 'left_out_one' : 'left_out_n', {n: open}) : '', fresh);

  // Unsure dice are named in words too: a reading that looks sure but is not costs points.
  note($('unsure-note'), unsure.size ? fmt(unsure.size === 1 ? 'unsure_one' : 'unsure_n',
    {n: unsure.size, dice: [...unsure].map((i) => i + 1).join(', ')}) : '', fresh);
}
