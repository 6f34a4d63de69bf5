/* The open throw: the annotated photo with a tap target per die, and the row of dice. */
import {$, el, clear} from './dom.js';
import {T, fmt} from './i18n.js';
import {dieFace} from './dice.js';

function isSheet(state) { return state.family !== 'push'; }

/** Indices of the dice the advisor would keep (or set aside in Würfelpoker). */
export function advisedPositions(t) {
  const a = t && t.advice;
  if (!a || !a.best || !a.best.positions || (a.stage !== 'keep' && a.stage !== 'push')) return [];
  return a.best.positions;
}

export function renderThrowView(state) {
  const t = state.throw;
  $('result-title').textContent = fmt('throw_n', {n: t.number, max: isSheet(state) ? state.max_throws : '∞'}).replace(/ (von|of) ∞$/, '') + ' · ' + t.player;
  $('result-meta').textContent = t.source === 'photo' ? '' : T.no_photo;

  const positions = advisedPositions(t);
  const keepMarks = t.dice.map((_, i) => positions.includes(i));
  const keepLabel = isSheet(state) ? T.keep_tag : T.set_aside_tag;
  const low = t.low_confidence || 0.7;
  const unsure = (d) => d.confidence !== null && d.confidence < low;

  const wrap = $('photo-wrap');
  const overlay = clear($('overlay'));
  if (t.annotated_url) {
    wrap.hidden = false;
    const img = $('annotated');
    if (img.getAttribute('src') !== t.annotated_url) img.src = t.annotated_url;
    t.dice.forEach((d, i) => {
      if (!d.box || !t.width) return;
      const b = el('button', {type: 'button', className: 'die-hit' + (unsure(d) ? ' uncertain' : '') + (keepMarks[i] ? ' keep' : ''),
        ariaLabel: T.fix_die + ' ' + d.value + (keepMarks[i] ? ' (' + keepLabel + ')' : ''), dataset: {index: String(i)}},
        el('span', {className: 'die-hit-value'}, String(d.value) + (keepMarks[i] ? ' ✓' : '')));
      b.style.left = (100 * d.box[0] / t.width) + '%';
      b.style.top = (100 * d.box[1] / t.height) + '%';
      b.style.width = (100 * (d.box[2] - d.box[0]) / t.width) + '%';
      b.style.height = (100 * (d.box[3] - d.box[1]) / t.height) + '%';
      overlay.appendChild(b);
    });
  } else {
    wrap.hidden = true;
  }

  const strip = clear($('dice-strip'));
  t.dice.forEach((d, i) => {
    const face = dieFace(d.value, 'button');
    face.dataset.index = String(i);
    face.classList.add('die-big');
    if (unsure(d)) { face.classList.add('uncertain'); face.title = T.uncertain; }
    if (keepMarks[i]) { face.classList.add('keep'); face.title = keepLabel; }
    strip.appendChild(face);
  });
  if (t.dice.length < t.expected_dice || t.dice.length === 0) {
    strip.appendChild(el('button', {type: 'button', className: 'die die-big die-add', id: 'add-die', ariaLabel: T.add_die}, '+'));
  }
  const warn = $('dice-warning');
  warn.hidden = t.dice.length === t.expected_dice;
  warn.textContent = fmt('dice_count', {n: t.expected_dice, got: t.dice.length});
}
