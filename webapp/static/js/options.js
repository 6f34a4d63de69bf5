/* The advisor's tip and the list of entries the open throw allows: boxes that score
 * first (best first), then scratches, each labelled for what it is. */
import {$, el, clear, setText, spokenText} from './dom.js';
import {T, fmt, num, rounded} from './i18n.js';
import {diceRow} from './dice.js';
import {enter} from './actions.js';
import {ui, tipWaits, refreshView} from './store.js';
import {boxName} from './recap.js';
import {advisorNote, advisorDone} from './advisor-note.js';

/** Würfelpoker counts in whole points, the sheet games' expectations to a tenth. */
const digitsOf = (state) => (state.display.family === 'push' ? 0 : 1);

/** "Erwartung 231,4" ("≈" where the advisor estimates) and "· −3,2" against `top`:
 * the loss is the difference of the rounded values, so what is shown adds up. */
function evText(state, expected, top, exact) {
  const d = digitsOf(state);
  let text = T.expected + ' ' + (exact === false ? '≈' : '') + num(expected, d);
  if (top !== null && top !== undefined) {
    const loss = rounded(top, d) - rounded(expected, d);
    if (rounded(loss, d) > 0) text += ' · −' + num(loss, d);
  }
  return text;
}

// More scoring boxes than MANY: the first FEW are listed, the others folded.
const MANY = 8;
const FEW = 6;

const isStand = (a, keep) => keep.length === a.dice.length;
const waiting = (status) => status === 'pending' || status === 'building';

let saidFor = null;  // the throw whose tip #advice-status last said

/** The tip in a few words, once for each throw and each change: the box #advice is redrawn
 * whole (its clock ticks while the advisor builds), so it is not a live region itself. */
function sayAdvice(t, words) {
  const fresh = saidFor !== t.throw_id;
  saidFor = t.throw_id;
  const status = $('advice-status');
  if (words) setText(status, words, fresh);
  else if (fresh) status.textContent = '';
}

export function renderAdvice(state) {
  const t = state.throw;
  const box = clear($('advice'));
  const a = t.advice;
  const pending = waiting(t.advice_status);
  box.classList.toggle('advice-pending', pending);
  box.classList.remove('advice-wait');
  if (pending) {
    box.hidden = false;
    box.appendChild(el('span', null, advisorNote(t.advice_status)));
    // Not the clock: that the advisor builds its tables is said once; a short wait is not said.
    sayAdvice(t, t.advice_status === 'building' ? T.advice_building : '');
    return;
  }
  advisorDone();
  if (!a || !a.best) { box.hidden = true; sayAdvice(t, ''); return; }
  box.hidden = false;
  if (tipWaits(state)) {
    // The best move would change if an unsure die showed another face: look first.
    box.classList.add('advice-wait');
    const one = (t.unsure || []).length === 1;
    box.appendChild(el('p', {className: 'advice-wait-text'}, one ? T.tip_waits_one : T.tip_waits));
    box.appendChild(el('button', {type: 'button', className: 'btn btn-small', id: 'looked-btn',
      onclick: () => { ui.looked.add(t.throw_id); refreshView(); }}, one ? T.unsure_ok_one : T.unsure_ok));
    sayAdvice(t, one ? T.tip_waits_one : T.tip_waits);
    return;
  }
  const best = a.best;
  const head = el('div', {className: 'advice-head'});
  if (a.stage === 'keep') {
    if (isStand(a, best.keep)) head.appendChild(el('span', null, T.keep_all_hint));
    else if (!best.keep.length) head.appendChild(el('span', null, T.reroll_all_hint));
    else head.appendChild(el('span', null, T.keep_hint + ' ', diceRow(best.keep, fmt('dice_list', {dice: best.keep.join(' ')}))));
  } else if (a.stage === 'box') {
    const opt = t.options.find((o) => o.box === best.box && (o.column || null) === (best.column || null));
    const name = boxName(state.display, opt ? opt.label : best.box, best.column);
    head.appendChild(el('span', null, best.points === 0 ? fmt('scratch_tip', {box: name}) : fmt('box_tip', {box: name})));
  } else if (a.stage === 'push') {
    head.appendChild(el('span', null, T.advice + ': ', diceRow(best.keep), ' ' + (best.bank ? T.then_bank : T.then_again)));
  } else {
    box.hidden = true;
    sayAdvice(t, '');
    return;
  }
  box.appendChild(head);
  sayAdvice(t, spokenText(head));
  box.appendChild(el('div', {className: 'advice-ev', title: a.exact === false ? T.estimate : ''}, evText(state, best.expected, null, a.exact)));
  if (a.stage === 'keep' && a.actions.length > 1) {
    const list = el('ol', {className: 'alt-list'});
    for (const x of a.actions.slice(1, 7)) {
      const what = isStand(a, x.keep) ? el('span', null, T.keep_all) : (x.keep.length ? diceRow(x.keep) : el('span', null, T.reroll_all));
      list.appendChild(el('li', {className: 'alt'}, what, el('span', {className: 'alt-ev'}, evText(state, x.expected, best.expected, a.exact))));
    }
    box.appendChild(el('details', {id: 'keep-alts', className: 'alt-fold'}, el('summary', null, T.keep_alternatives), list));
  }
}

/** What the advisor's box is called where it is marked: "Tipp", or "bestes Feld" while the
 * tip is to keep dice (the sheet's best cell says the same to a screen reader). */
export function advisedTag(state) {
  const a = state.throw && state.throw.advice;
  const keepStage = !!(a && a.stage === 'keep' && a.best && !isStand(a, a.best.keep));
  return keepStage ? T.best_box : T.advice;
}

/** Which option gets the tag, and what it says. */
function marker(state) {
  const t = state.throw;
  if (t.ranked_by === 'advice') {
    if (tipWaits(state)) return {pick: () => false, text: ''};
    return {pick: (o) => o.advised, text: advisedTag(state)};
  }
  // Ranked by points only (no advisor): the first box that scores has the most points.
  const first = t.options.find((o) => o.points > 0 || o.keep);
  return {pick: (o) => o === first, text: T.most_points};
}

function sheetOption(state, o, mark, expectedTop) {
  const t = state.throw;
  const d = state.display;
  const marked = mark.pick(o);
  const weighted = o.weighted !== undefined && o.weighted !== o.points;
  const ev = t.ranked_by === 'advice' && o.expected !== null && o.expected !== undefined
    ? el('span', {className: 'option-ev', title: t.advice_exact === false ? T.estimate : ''},
      el('span', {className: 'nowrap'}, evText(state, o.expected, expectedTop, t.advice_exact)))
    : null;
  return el('button', {type: 'button', className: 'option' + (marked ? ' best' : '') + (o.points === 0 ? ' zero' : ''),
    dataset: {box: o.box, column: o.column === null ? '' : String(o.column), points: String(o.points)},
    onclick: () => enter({box: o.box, column: o.column})},
  el('span', {className: 'option-main'},
    el('span', {className: 'option-top'},
      el('span', {className: 'option-label'}, boxName(d, o.label, o.column)),
      o.joker ? el('span', {className: 'tag tag-joker'}, T.joker) : null,
      o.bonus > 0 ? el('span', {className: 'tag tag-bonus'}, fmt('bonus_tag', {points: num(o.bonus)})) : null,
      marked ? el('span', {className: 'tag tag-best'}, mark.text) : null,
      o.points === 0 ? el('span', {className: 'tag tag-scratch'}, T.scratch) : null),
    ev),
  el('span', {className: 'option-points', ariaLabel: weighted ? fmt('points_weighted', {points: num(o.points), weighted: num(o.weighted)}) : fmt('points_n', {points: num(o.points)})},
    num(o.points),
    weighted ? el('span', {className: 'option-weighted'}, ' → ' + num(o.weighted)) : null));
}

function pushOption(state, o, mark, expectedTop) {
  const t = state.throw;
  const marked = mark.pick(o);
  const ev = t.ranked_by === 'advice' && o.expected !== null && o.expected !== undefined
    // Parts that wrap as wholes: "dann weiterwürfeln ·" / "Erwartung 397 · −653".
    ? el('span', {className: 'option-ev', title: t.advice_exact === false ? T.estimate : ''},
      el('span', {className: 'nowrap'}, (o.bank ? T.then_bank : T.then_again) + ' ·'), ' ',
      el('span', {className: 'nowrap'}, evText(state, o.expected, expectedTop, t.advice_exact)))
    : null;
  return el('button', {type: 'button', className: 'option' + (marked ? ' best' : ''), dataset: {keep: o.keep.join(',')},
    onclick: () => enter({keep: o.keep})},
  el('span', {className: 'option-main'},
    el('span', {className: 'option-top'},
      diceRow(o.keep, fmt('set_aside_dice', {dice: o.keep.join(' ')})),
      o.hot_dice ? el('span', {className: 'tag tag-joker'}, T.hot_dice_tag) : null,
      el('span', {className: 'option-label muted'}, '→ ' + num(o.turn_total)),
      marked ? el('span', {className: 'tag tag-best'}, mark.text) : null),
    ev),
  el('span', {className: 'option-points'}, '+' + num(o.points)));
}

export function renderOptions(state) {
  const t = state.throw;
  const sheet = state.display.family !== 'push';
  const list = clear($('options'));
  const a = t.advice;
  const keepStage = !!(a && a.stage === 'keep' && a.best && !isStand(a, a.best.keep));
  $('options-title').textContent = sheet ? (keepStage ? T.options_now : T.options) : T.options_push;
  $('options-title').hidden = !t.options.length && !t.bust;
  if (!sheet && t.bust) {
    list.appendChild(el('li', {className: 'bust'},
      el('p', null, T.bust),
      el('button', {type: 'button', className: 'btn btn-danger btn-big', id: 'bust-btn', onclick: () => enter({keep: []})}, T.bust_ok)));
    return;
  }
  const mark = marker(state);
  const known = t.options.map((o) => o.expected).filter((x) => x !== null && x !== undefined);
  const top = known.length ? Math.max(...known) : null;
  if (!sheet) {
    for (const o of t.options) list.appendChild(el('li', null, pushOption(state, o, mark, top)));
    return;
  }
  // Boxes that score first, then the scratches in a fold of their own, each in the
  // advisor's order (or by points): a scoring box never hides among the scratches.
  const scoring = t.options.filter((o) => o.points > 0);
  const scratches = t.options.filter((o) => o.points === 0);
  // A long list (Würfelspiel: up to 39 boxes) shows the best few; the rest are a tap away.
  const shown = scoring.length > MANY ? scoring.slice(0, FEW) : scoring;
  for (const o of shown) list.appendChild(el('li', null, sheetOption(state, o, mark, top)));
  if (shown.length < scoring.length) {
    const inner = el('ol', {className: 'options'});
    for (const o of scoring.slice(FEW)) inner.appendChild(el('li', null, sheetOption(state, o, mark, top)));
    const fold = el('details', {id: 'more-fold'}, el('summary', null, fmt('more_boxes_n', {n: scoring.length - FEW})), inner);
    fold.open = scoring.slice(FEW).some((o) => mark.pick(o));
    list.appendChild(el('li', {className: 'scratch-fold'}, fold));
  }
  if (scratches.length) {
    const inner = el('ol', {className: 'options'});
    for (const o of scratches) inner.appendChild(el('li', null, sheetOption(state, o, mark, top)));
    const fold = el('details', {id: 'scratch-fold'}, el('summary', null, fmt('scratch_fold_n', {n: scratches.length})), inner);
    // The advisor's pick is never folded away; nor are scratches when nothing scores.
    fold.open = scratches.some((o) => mark.pick(o)) || !scoring.length;
    list.appendChild(el('li', {className: 'scratch-fold'}, fold));
  }
}
