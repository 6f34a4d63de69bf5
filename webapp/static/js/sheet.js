/* The score sheet, drawn from the state's display facts (no rule of any game here):
 * boxes by column and player for the sheet games, turns for Würfelpoker. Where a
 * player's sheet has several columns, one player is shown at a time (whose turn it is,
 * unless a tab picks another), so it fits a phone. */
import {$, el, clear} from './dom.js';
import {T, fmt, num} from './i18n.js';
import {enter} from './actions.js';
import {confirmDialog} from './dialogs.js';
import {ui, refreshView, tipWaits} from './store.js';
import {boxName} from './recap.js';
import {advisedTag} from './options.js';

/** The players whose sheet is shown. */
function shownPlayers(state) {
  const d = state.display;
  if (d.columns.length < 2 || state.players.length < 2) return state.players;
  // A new turn, or a new throw to enter, shows the current player's sheet again.
  const throwId = state.throw ? state.throw.throw_id : null;
  if (ui.sheetTurnOf !== state.current_player || ui.sheetThrow !== throwId) ui.sheetPlayer = null;
  const chosen = ui.sheetPlayer && state.players.includes(ui.sheetPlayer) ? ui.sheetPlayer : null;
  return [chosen || state.current_player || state.players[0]];
}

function renderTabs(state, shown) {
  const tabs = clear($('sheet-tabs'));
  const one = shown.length === 1 && state.players.length > 1;
  tabs.hidden = !one;
  if (!one) return;
  for (const p of state.players) {
    const selected = p === shown[0];
    // Plain toggle buttons (aria-pressed): one tap shows that player's sheet.
    tabs.appendChild(el('button', {type: 'button', ariaPressed: String(selected),
      className: 'sheet-tab' + (selected ? ' selected' : '') + (p === state.current_player ? ' current' : ''),
      dataset: {player: p},
      onclick: () => {
        ui.sheetPlayer = p === state.current_player ? null : p;
        ui.sheetTurnOf = state.current_player;
        ui.sheetThrow = state.throw ? state.throw.throw_id : null;
        refreshView();
      }},
    el('span', {className: 'sheet-tab-name'}, p),
    el('span', {className: 'sheet-tab-total'}, num(state.totals[p]))));
  }
}

/** The cells the current player may fill now: their option by "box:column". */
function previews(state) {
  const out = {};
  if (!state.throw || state.finished) return out;
  for (const o of state.throw.options) out[o.box + ':' + (o.column || 1)] = o;
  return out;
}

async function pickCell(state, o) {
  // One tap enters a box; a scratch (0 points) asks first, it cannot be earned back.
  if (o.points === 0) {
    const box = boxName(state.display, o.label, o.column);
    const ok = await confirmDialog({title: fmt('scratch_confirm', {box}), ok: T.scratch_ok, danger: true});
    if (!ok) return;
  }
  enter({box: o.box, column: o.column});
}

function renderBoxSheet(state, table) {
  const d = state.display;
  const cols = d.columns.length || 1;
  const shown = shownPlayers(state);
  renderTabs(state, shown);
  table.classList.toggle('one-player', shown.length === 1 && state.players.length > 1);
  const preview = previews(state);
  const waits = tipWaits(state);
  const cur = (p) => (p === state.current_player ? 'current' : '');

  const thead = el('thead');
  const head = el('tr', null, el('th', {scope: 'col', className: 'corner'}, el('span', {className: 'visually-hidden'}, T.box)));
  for (const p of shown) {
    const th = el('th', {scope: 'colgroup', className: 'player-head ' + cur(p)}, p);
    th.colSpan = cols;
    head.appendChild(th);
  }
  thead.appendChild(head);
  if (cols > 1) {
    const sub = el('tr', {className: 'col-head'}, el('th', {className: 'corner'}, ''));
    for (const p of shown) {
      for (const c of d.columns) sub.appendChild(el('th', {scope: 'col', className: cur(p)}, c.label));
    }
    thead.appendChild(sub);
  }
  table.appendChild(thead);
  const body = el('tbody');

  function boxRow(box) {
    const tr = el('tr', {className: 'box-row', dataset: {box: box.box}}, el('th', {scope: 'row'}, box.label));
    for (const p of shown) {
      state.sheet[p].columns.forEach((col, ci) => {
        const v = col.boxes[box.box];
        const td = el('td', {className: cur(p)});
        const o = p === state.current_player && v === null ? preview[box.box + ':' + (ci + 1)] : null;
        if (o) {
          const name = boxName(d, box.label, o.column);
          const best = o.advised && !waits;
          const what = o.points === 0 ? fmt('scratch_cell', {box: name}) : fmt('enter_cell', {box: name, points: num(o.points)});
          td.appendChild(el('button', {type: 'button',
            className: 'cell-pick' + (best ? ' best' : '') + (o.points === 0 ? ' zero' : ''),
            // The advisor's cell is highlighted; a screen reader hears it named as the list names it.
            ariaLabel: best ? what + ', ' + advisedTag(state) : what,
            dataset: {box: box.box, column: o.column === null ? '' : String(o.column), points: String(o.points)},
            onclick: () => pickCell(state, o)}, num(o.points)));
        } else if (v !== null && v !== undefined) {
          td.textContent = v === 0 && d.scratch_mark ? d.scratch_mark : num(v);
          if (v === 0) td.classList.add('zero');
        }
        tr.appendChild(td);
      });
    }
    body.appendChild(tr);
  }

  function sumRow(label, pick, cls) {
    const tr = el('tr', {className: 'sum-row ' + (cls || '')}, el('th', {scope: 'row'}, label));
    for (const p of shown) {
      for (const col of state.sheet[p].columns) {
        const v = pick(col);
        tr.appendChild(el('td', {className: cur(p) + (cls === 'bonus-row' && v > 0 ? ' earned' : '')}, num(v)));
      }
    }
    body.appendChild(tr);
  }

  function playerRow(label, pick, cls, data) {
    const tr = el('tr', {className: 'sum-row ' + cls}, el('th', {scope: 'row'}, label));
    for (const p of shown) {
      const v = pick(p);
      const td = el('td', {className: cur(p) + (cls.includes('bonus-row') && v > 0 ? ' earned' : ''), dataset: data ? data(p) : undefined}, num(v));
      td.colSpan = cols;
      tr.appendChild(td);
    }
    body.appendChild(tr);
  }

  d.boxes.filter((b) => b.section === 'upper').forEach(boxRow);
  sumRow(T.upper, (c) => c.upper);
  if (d.upper_bonus) sumRow(d.upper_bonus.label, (c) => c.bonus, 'bonus-row');
  d.boxes.filter((b) => b.section !== 'upper').forEach(boxRow);
  sumRow(T.lower, (c) => c.lower);
  if (cols > 1) {
    sumRow(T.total, (c) => c.total, 'col-total');
    // Würfelspiel: each column's sum times its weight, so the total can be checked by eye.
    sumRow(T.weighted, (c) => c.weighted, 'weighted-row');
  } else if (d.extra_bonus) {
    sumRow(T.total, (c) => c.total, 'col-total');
  }
  if (d.extra_bonus) playerRow(d.extra_bonus.label, (p) => state.sheet[p].extra_bonus, 'bonus-row extra-row');
  playerRow(T.grand_total, (p) => state.totals[p], 'total-row', (p) => ({total: p}));
  table.appendChild(body);
}

function renderPushSheet(state, table) {
  $('sheet-tabs').hidden = true;
  const target = state.display.push.target;
  const cur = (p) => (p === state.current_player ? 'current' : '');
  const thead = el('thead');
  const head = el('tr', null, el('th', {className: 'corner'}, el('span', {className: 'visually-hidden'}, T.turns)));
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
    const share = Math.min(100, Math.round(100 * score / target));
    const bar = el('div', {className: 'progress', role: 'img', ariaLabel: fmt('to_target', {n: num(Math.max(0, target - score)), target: num(target)})}, el('i'));
    bar.firstChild.style.width = share + '%';
    togo.appendChild(el('td', {className: cur(p)}, bar));
  }
  body.appendChild(total);
  body.appendChild(togo);
  table.appendChild(body);
}

/** Shadows at the sheet's edges say there is more to scroll to. */
function markScroll() {
  const box = $('sheet-scroll');
  box.classList.toggle('more-left', box.scrollLeft > 2);
  box.classList.toggle('more-right', box.scrollLeft + box.clientWidth < box.scrollWidth - 2);
}

export function renderSheet(state) {
  const table = clear($('sheet'));
  if (state.display.family === 'push') renderPushSheet(state, table);
  else renderBoxSheet(state, table);
  markScroll();
}

$('sheet-scroll').addEventListener('scroll', markScroll, {passive: true});
window.addEventListener('resize', markScroll);
