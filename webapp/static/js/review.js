/* A finished game's review: per player the choices that cost the most. */
import {$, el, clear} from './dom.js';
import {T, fmt, num} from './i18n.js';
import {diceRow} from './dice.js';
import {boxName} from './recap.js';
import {advisorNote} from './advisor-note.js';

export function renderReview(state) {
  const box = clear($('review'));
  const r = state.review;
  box.hidden = !r;
  if (!r) return;
  box.appendChild(el('h2', null, T.review_title));
  if (r.status !== 'ready') { box.appendChild(el('p', {className: 'muted'}, r.status === 'building' ? advisorNote('building') : T.review_pending)); return; }
  box.appendChild(el('p', {className: 'muted small'}, T.review_intro));
  const named = (x) => boxName(state.display, x.label, x.column) + ' (' + num(x.points) + ')';
  for (const p of state.players) {
    const turns = r.players[p] || [];
    box.appendChild(el('h3', {className: 'review-player'}, p));
    if (!turns.length) { box.appendChild(el('p', {className: 'review-clean'}, T.review_clean)); continue; }
    const list = el('ol', {className: 'review-list'});
    for (const x of turns) {
      list.appendChild(el('li', {className: 'review-item', dataset: {turn: String(x.turn)}},
        el('span', {className: 'review-top'},
          el('span', {className: 'muted'}, fmt('review_turn', {n: x.turn})),
          diceRow(x.dice),
          el('strong', {className: 'review-loss'}, '−' + (r.exact ? '' : '≈') + num(x.loss, 1))),
        el('span', null, fmt('review_instead', {chosen: named(x.chosen), best: named(x.best)}))));
    }
    box.appendChild(list);
  }
}
