/* The advisor's tip and the list of entries the open throw allows. */
import {$, el, clear} from './dom.js';
import {T, num} from './i18n.js';
import {diceRow} from './dice.js';
import {enter} from './actions.js';

function isSheet(state) { return state.family !== 'push'; }

/** Würfelpoker counts in whole points, the Kniffel family to a tenth. */
function digits(state) { return isSheet(state) ? 1 : 0; }

/** "Erwartung 231,4" (with "≈" where the advisor estimates), "· −3,2" against the best. */
function evText(state, expected, loss, exact) {
  const d = digits(state);
  let text = T.expected + ' ' + (exact === false ? '≈' : '') + num(expected, d);
  // A loss that rounds to nothing is a tie, not a loss.
  if (loss && Number(loss.toFixed(d)) > 0) text += ' · −' + num(loss, d);
  return text;
}

function isStand(a, keep) { return keep.length === a.dice.length; }

export function renderAdvice(state) {
  const t = state.throw;
  const box = clear($('advice'));
  const a = t.advice;
  const waiting = t.advice_status === 'pending' || t.advice_status === 'building';
  box.classList.toggle('advice-pending', waiting);
  if (waiting) {
    box.hidden = false;
    box.appendChild(el('span', null, t.advice_status === 'building' ? T.advice_building : T.advice_pending));
    return;
  }
  if (!a || !a.best) { box.hidden = true; return; }
  box.hidden = false;
  const best = a.best;
  const head = el('div', {className: 'advice-head'});
  if (a.stage === 'keep') {
    if (isStand(a, best.keep)) head.appendChild(el('span', null, T.keep_all_hint));
    else if (!best.keep.length) head.appendChild(el('span', null, T.reroll_all_hint));
    else head.appendChild(el('span', null, T.keep_hint + ' ', diceRow(best.keep)));
  } else if (a.stage === 'box') {
    head.appendChild(el('span', null, T.advice + ': ' + (state.labels[best.box] || best.box) + (best.column ? ' ×' + best.column : '')));
  } else if (a.stage === 'push') {
    head.appendChild(el('span', null, T.advice + ': ', diceRow(best.keep), ' ' + (best.bank ? T.then_bank : T.then_again)));
  } else {
    box.hidden = true;
    return;
  }
  box.appendChild(head);
  box.appendChild(el('div', {className: 'advice-ev', title: a.exact === false ? T.estimate : ''}, evText(state, best.expected, null, a.exact)));
  if (a.stage === 'keep' && a.actions.length > 1) {
    const list = el('ol', {className: 'alt-list'});
    for (const x of a.actions.slice(1, 7)) {
      const what = isStand(a, x.keep) ? el('span', null, T.keep_all) : (x.keep.length ? diceRow(x.keep) : el('span', null, T.reroll_all));
      list.appendChild(el('li', {className: 'alt'}, what, el('span', {className: 'alt-ev'}, evText(state, x.expected, x.loss, a.exact))));
    }
    box.appendChild(el('details', {id: 'keep-alts', className: 'alt-fold'}, el('summary', null, T.keep_alternatives), list));
  }
}

export function renderOptions(state) {
  const t = state.throw;
  const sheet = isSheet(state);
  const list = clear($('options'));
  const a = t.advice;
  const keepStage = !!(a && a.stage === 'keep' && a.best && !isStand(a, a.best.keep));
  const byAdvice = t.ranked_by === 'advice';
  $('options-title').textContent = sheet ? (keepStage ? T.options_now : T.options) : T.options_push;
  $('options-title').hidden = !t.options.length && !t.bust;
  if (!sheet && t.bust) {
    list.appendChild(el('li', {className: 'bust'},
      el('p', null, T.bust),
      el('button', {type: 'button', className: 'btn btn-danger btn-big', id: 'bust-btn', onclick: () => enter({keep: []})}, T.bust_ok)));
    return;
  }
  let scratch = null;
  t.options.forEach((o, i) => {
    let btn;
    const marked = byAdvice ? o.advised : (i === 0 && (!sheet || o.points > 0));
    // After throw 1 or 2 the tip is the keep above; the best box is only the best box.
    const bestTag = marked ? el('span', {className: 'tag tag-best'}, byAdvice && !keepStage ? T.advice : T.best) : null;
    let ev = null;
    if (byAdvice && o.expected !== null && o.expected !== undefined) {
      // Parts that wrap as wholes: "dann weiterwürfeln ·" / "Erwartung 397 · −653".
      ev = el('span', {className: 'option-ev', title: t.advice_exact === false ? T.estimate : ''},
        sheet ? null : el('span', {className: 'nowrap'}, (o.bank ? T.then_bank : T.then_again) + ' ·'),
        sheet ? null : ' ',
        el('span', {className: 'nowrap'}, evText(state, o.expected, o.loss, t.advice_exact)));
    }
    if (sheet) {
      btn = el('button', {type: 'button', className: 'option' + (marked ? ' best' : '') + (o.points === 0 ? ' zero' : ''),
        dataset: {box: o.box, column: o.column === null ? '' : String(o.column)},
        onclick: () => enter({box: o.box, column: o.column})},
        el('span', {className: 'option-main'},
          el('span', {className: 'option-top'},
            el('span', {className: 'option-label'}, o.label),
            o.column ? el('span', {className: 'tag'}, '×' + o.column) : null,
            o.joker ? el('span', {className: 'tag tag-joker'}, T.joker) : null,
            bestTag,
            o.points === 0 ? el('span', {className: 'tag tag-muted'}, T.scratch) : null),
          ev),
        el('span', {className: 'option-points'}, String(o.points)));
    } else {
      btn = el('button', {type: 'button', className: 'option' + (marked ? ' best' : ''), dataset: {keep: o.keep.join(',')},
        onclick: () => enter({keep: o.keep})},
        el('span', {className: 'option-main'},
          el('span', {className: 'option-top'},
            diceRow(o.keep),
            o.hot_dice ? el('span', {className: 'tag tag-joker'}, T.hot_dice_tag) : null,
            el('span', {className: 'option-label muted'}, '→ ' + num(o.turn_total)),
            bestTag),
          ev),
        el('span', {className: 'option-points'}, '+' + num(o.points)));
    }
    // Scratch options (0 points) go into a fold below the ones that score.
    if (sheet && o.points === 0 && !marked) {
      if (!scratch) {
        scratch = el('ol', {className: 'options'});
        list.appendChild(el('li', {className: 'scratch-fold'},
          el('details', {id: 'scratch-fold'}, el('summary', null, T.scratch_fold), scratch)));
      }
      scratch.appendChild(el('li', null, btn));
    } else {
      list.appendChild(el('li', null, btn));
    }
  });
}
