/* The score sheet: boxes by column and player (Kniffel family), or turns (Würfelpoker). */
import {$, el, clear} from './dom.js';
import {T, num} from './i18n.js';
import {enter} from './actions.js';

const UPPER = ['ones', 'twos', 'threes', 'fours', 'fives', 'sixes'];

function cellText(state, value) {
  if (value === null || value === undefined) return '';
  if (value === 0 && state.variant === 'spiffel') return 'XXX';
  return num(value);
}

export function renderSheet(state) {
  const table = clear($('sheet'));
  if (state.family === 'push') return renderPushSheet(state, table);
  const cols = state.columns;
  const preview = {};
  let bestKey = null;
  if (state.throw && !state.finished) {
    state.throw.options.forEach((o, i) => {
      const key = o.box + ':' + (o.column || 1);
      preview[key] = o;
      if (i === 0) bestKey = key;
    });
  }
  const cur = (p) => (p === state.current_player ? 'current' : '');
  const thead = el('thead');
  const head = el('tr', null, el('th', {scope: 'col', className: 'corner'}, ''));
  for (const p of state.players) {
    const th = el('th', {scope: 'col', className: 'player-head ' + cur(p)}, p);
    th.colSpan = cols;
    head.appendChild(th);
  }
  thead.appendChild(head);
  if (cols > 1) {
    const sub = el('tr', {className: 'col-head'}, el('th', {className: 'corner'}, ''));
    for (const p of state.players) {
      for (let c = 1; c <= cols; c++) sub.appendChild(el('th', {className: cur(p)}, '×' + c));
    }
    thead.appendChild(sub);
  }
  table.appendChild(thead);
  const body = el('tbody');

  function boxRow(box) {
    const tr = el('tr', {className: 'box-row'}, el('th', {scope: 'row'}, state.labels[box]));
    for (const p of state.players) {
      state.sheet[p].columns.forEach((col, ci) => {
        const v = col.boxes[box];
        const td = el('td', {className: cur(p)});
        const key = box + ':' + (ci + 1);
        if (v === null && p === state.current_player && preview[key]) {
          const o = preview[key];
          td.appendChild(el('button', {type: 'button', className: 'cell-pick' + (key === bestKey ? ' best' : '') + (o.points === 0 ? ' zero' : ''),
            ariaLabel: state.labels[box] + ' ' + o.points, dataset: {box, column: cols > 1 ? String(ci + 1) : ''},
            onclick: () => enter({box, column: o.column})}, String(o.points)));
        } else {
          td.textContent = cellText(state, v);
          if (v === 0) td.classList.add('zero');
        }
        tr.appendChild(td);
      });
    }
    body.appendChild(tr);
  }

  function sumRow(label, pick, cls) {
    const tr = el('tr', {className: 'sum-row ' + (cls || '')}, el('th', {scope: 'row'}, label));
    for (const p of state.players) {
      for (const col of state.sheet[p].columns) {
        const v = pick(col, p);
        tr.appendChild(el('td', {className: cur(p) + (cls === 'bonus-row' && v > 0 ? ' earned' : '')}, num(v)));
      }
    }
    body.appendChild(tr);
  }

  state.boxes.filter((b) => UPPER.includes(b)).forEach(boxRow);
  sumRow(T.upper, (c) => c.upper);
  sumRow(T.bonus + ' (+35)', (c) => c.bonus, 'bonus-row');
  state.boxes.filter((b) => !UPPER.includes(b)).forEach(boxRow);
  sumRow(T.lower, (c) => c.lower);
  const anyExtra = state.players.some((p) => state.sheet[p].extra_bonus > 0);
  if (anyExtra) {
    const tr = el('tr', {className: 'sum-row bonus-row'}, el('th', {scope: 'row'}, T.extra_bonus));
    for (const p of state.players) {
      const td = el('td', {className: cur(p) + (state.sheet[p].extra_bonus ? ' earned' : '')}, num(state.sheet[p].extra_bonus));
      td.colSpan = cols;
      tr.appendChild(td);
    }
    body.appendChild(tr);
  }
  sumRow(T.total, (c) => c.total, cols > 1 ? 'col-total' : 'total-row');
  if (cols > 1 || anyExtra) {
    const gt = el('tr', {className: 'sum-row total-row'}, el('th', {scope: 'row'}, T.grand_total));
    for (const p of state.players) {
      const td = el('td', {className: cur(p), dataset: {total: p}}, num(state.totals[p]));
      td.colSpan = cols;
      gt.appendChild(td);
    }
    body.appendChild(gt);
  }
  table.appendChild(body);
}

function renderPushSheet(state, table) {
  const target = state.options.target;
  const cur = (p) => (p === state.current_player ? 'current' : '');
  const thead = el('thead');
  const head = el('tr', null, el('th', {className: 'corner'}, ''));
  for (const p of state.players) head.appendChild(el('th', {scope: 'col', className: 'player-head ' + cur(p)}, p));
  thead.appendChild(head);
  table.appendChild(thead);
  const body = el('tbody');
  const rounds = Math.max(0, ...state.players.map((p) => state.sheet[p].turns.length));
  for (let r = 0; r < rounds; r++) {
    const tr = el('tr', {className: 'box-row'}, el('th', {scope: 'row'}, String(r + 1)));
    for (const p of state.players) {
      const v = state.sheet[p].turns[r];
      tr.appendChild(el('td', {className: cur(p) + (v === 0 ? ' zero' : '')}, v === undefined ? '' : (v === 0 ? '–' : num(v))));
    }
    body.appendChild(tr);
  }
  const total = el('tr', {className: 'sum-row total-row'}, el('th', {scope: 'row'}, T.score));
  const togo = el('tr', {className: 'sum-row'}, el('th', {scope: 'row'}, T.target_short + ' ' + num(target)));
  for (const p of state.players) {
    const score = state.sheet[p].score;
    total.appendChild(el('td', {className: cur(p), dataset: {total: p}}, num(score)));
    const bar = el('div', {className: 'progress'}, el('i'));
    bar.firstChild.style.width = Math.min(100, 100 * score / target) + '%';
    togo.appendChild(el('td', {className: cur(p)}, bar));
  }
  body.appendChild(total);
  body.appendChild(togo);
  table.appendChild(body);
}
