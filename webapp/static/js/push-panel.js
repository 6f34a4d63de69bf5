/* Würfelpoker between throws: the turn's points so far, bank or throw on. */
import {$, el, clear} from './dom.js';
import {T, fmt, num} from './i18n.js';
import {enter} from './actions.js';

export function renderPushPanel(state) {
  const panel = $('push-panel');
  if (state.family !== 'push' || state.finished) { panel.hidden = true; return; }
  const ts = state.turn_state || {turn_total: 0, dice_left: 6, hot_dice: false};
  panel.hidden = false;
  clear(panel);
  panel.appendChild(el('div', {className: 'push-total'},
    el('span', {className: 'muted'}, T.turn_total),
    el('strong', {id: 'turn-total'}, num(ts.turn_total)),
    el('span', {className: 'muted'}, ts.dice_left + ' ' + T.dice_left)));
  if (ts.hot_dice) panel.appendChild(el('p', {className: 'hot'}, T.hot_dice));
  const row = el('div', {className: 'action-row'});
  const bank = el('button', {type: 'button', className: 'btn btn-primary', id: 'bank-btn', onclick: () => enter({bank: true})}, T.bank + ' (' + num(ts.turn_total) + ')');
  bank.disabled = !(ts.turn_total > 0) || !!state.throw;
  const again = el('button', {type: 'button', className: 'btn', id: 'again-btn', onclick: () => $('photo-input').click()}, T.throw_again);
  again.disabled = !!state.throw || !(ts.turn_total > 0);
  row.appendChild(bank);
  row.appendChild(again);
  panel.appendChild(row);
  const hint = state.bank_advice;
  if (hint && hint.status === 'ready' && !state.throw) {
    (hint.bank ? bank : again).classList.add('advised');
    const words = {bank: num(hint.expected_bank), again: num(hint.expected_again)};
    panel.appendChild(el('p', {className: 'advice', id: 'bank-advice'}, fmt(hint.bank ? 'bank_tip' : 'again_tip', words)));
  } else if (hint && !state.throw) {
    panel.appendChild(el('p', {className: 'advice advice-pending'}, hint.status === 'building' ? T.advice_building : T.advice_pending));
  }
}
