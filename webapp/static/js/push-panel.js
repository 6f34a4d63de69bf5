/* Würfelpoker between throws: the dice set aside this turn, the turn's points so far,
 * and bank or throw on. */
import {$, el, clear} from './dom.js';
import {T, fmt, num} from './i18n.js';
import {diceRow} from './dice.js';
import {enter} from './actions.js';
import {advisorNote} from './advisor-note.js';

/** A bare number as the language writes it; scoring's own texts ("1.000", "face × 100") as they are. */
const points = (text) => (/^\d+$/.test(text) ? num(Number(text)) : text);

/** What scores, as the variant states it (a fold, for whoever asks at the table). */
function rulesCard(push) {
  const list = el('dl', {className: 'rules-list'});
  for (const c of push.combinations) {
    list.appendChild(el('dt', null, c.label));
    list.appendChild(el('dd', null, points(c.points)));
  }
  return el('details', {id: 'rules-fold', className: 'rules-fold'},
    el('summary', null, T.what_scores), list,
    // scoring writes the goal's number as its language does; a bare one from an older server is written here
    el('p', {className: 'muted small'}, push.goal.replace(/\d{4,}/g, (n) => num(Number(n)))));
}

export function renderPushPanel(state) {
  const panel = $('push-panel');
  if (state.display.family !== 'push' || state.finished) { panel.hidden = true; return; }
  const ts = state.turn_state || {turn_total: 0, dice_left: state.display.dice_per_throw, hot_dice: false};
  panel.hidden = false;
  clear(panel);
  panel.appendChild(el('div', {className: 'push-total'},
    el('span', {className: 'muted'}, T.turn_total),
    el('strong', {id: 'turn-total'}, num(ts.turn_total)),
    el('span', {className: 'muted'}, fmt('dice_left_n', {n: ts.dice_left}))));
  const aside = state.set_aside || [];
  if (aside.length) {
    const row = el('div', {className: 'set-aside', id: 'set-aside'}, el('span', {className: 'muted small'}, T.set_aside_now));
    for (const keep of aside) row.appendChild(diceRow(keep, fmt('set_aside_dice', {dice: keep.join(' ')})));
    panel.appendChild(row);
  }
  if (ts.hot_dice) panel.appendChild(el('p', {className: 'hot'}, T.hot_dice));
  const row = el('div', {className: 'action-row'});
  const bank = el('button', {type: 'button', className: 'btn btn-primary', id: 'bank-btn', onclick: () => enter({bank: true})}, fmt('bank_n', {points: num(ts.turn_total)}));
  bank.disabled = !(ts.turn_total > 0) || !!state.throw;
  const again = el('button', {type: 'button', className: 'btn', id: 'again-btn', onclick: () => $('photo-input').click()}, T.throw_again);
  again.disabled = !!state.throw || !(ts.turn_total > 0);
  row.appendChild(bank);
  row.appendChild(again);
  panel.appendChild(row);
  panel.appendChild(rulesCard(state.display.push));
  const hint = state.bank_advice;
  if (hint && hint.status === 'ready' && !state.throw) {
    (hint.bank ? bank : again).classList.add('advised');
    const words = {bank: num(hint.expected_bank), again: num(hint.expected_again)};
    panel.appendChild(el('p', {className: 'advice', id: 'bank-advice'}, fmt(hint.bank ? 'bank_tip' : 'again_tip', words)));
  } else if (hint && !state.throw) {
    panel.appendChild(el('p', {className: 'advice advice-pending'}, advisorNote(hint.status)));
  }
}
