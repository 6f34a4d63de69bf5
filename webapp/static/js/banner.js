/* Whose turn it is, which throw, and every player's total. The banner is redrawn whole on
 * every change; a screen reader hears only the turn passing or the game's end, once
 * (#turn-status). */
import {$, el, clear, setText} from './dom.js';
import {T, fmt, num} from './i18n.js';

let shownLine = null;  // the turn line last drawn (null: not drawn yet)

/** Say the turn line where it changed; not on opening the page, where it is read as it stands. */
function sayTurn(line) {
  if (shownLine !== null && line !== shownLine) setText($('turn-status'), line);
  shownLine = line;
}

export function renderBanner(state) {
  const box = clear($('banner'));
  const d = state.display;
  if (state.finished) {
    const w = state.winner;
    const text = Array.isArray(w) ? fmt('tie', {players: w.join(', ')}) : fmt('winner', {player: w});
    sayTurn(text);
    box.appendChild(el('div', {className: 'banner-main finished'},
      el('span', {className: 'trophy', ariaHidden: 'true'}, '★'), el('strong', null, text)));
  } else {
    const line = el('div', {className: 'banner-main'});
    const turn = fmt('turn_of', {player: state.current_player});
    sayTurn(turn);
    line.appendChild(el('strong', {className: 'current-player', id: 'current-player'}, turn));
    let chip;
    if (d.throws_per_turn) {
      const max = d.throws_per_turn;
      const n = Math.min(state.throw ? state.throw_number : state.throw_number + 1, max);
      chip = el('span', {className: 'pill', id: 'throw-pill'}, fmt('throw_n', {n, max}));
      const dots = el('span', {className: 'throw-dots', ariaHidden: 'true'});
      for (let i = 1; i <= max; i++) dots.appendChild(el('i', {className: i <= state.throw_number ? 'done' : ''}));
      chip.appendChild(dots);
    } else {
      const ts = state.turn_state || {};
      chip = el('span', {className: 'pill', id: 'throw-pill'}, T.turn_total + ': ' + num(ts.turn_total || 0));
    }
    line.appendChild(chip);
    box.appendChild(line);
  }
  const board = el('div', {className: 'scoreboard', role: 'list', ariaLabel: T.scores});
  for (const p of state.players) {
    const isWinner = state.finished && (state.winner === p || (Array.isArray(state.winner) && state.winner.includes(p)));
    board.appendChild(el('div', {role: 'listitem', className: 'score-chip' + (p === state.current_player ? ' active' : '') + (isWinner ? ' winner' : ''), dataset: {player: p}},
      el('span', {className: 'score-name'}, p),
      el('span', {className: 'score-total'}, num(state.totals[p]))));
  }
  box.appendChild(board);
}
