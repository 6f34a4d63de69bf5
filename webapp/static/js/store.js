/* The game as the page knows it: the server's state JSON, and the page's own flags.
 * Every change goes through setState(), which re-renders. */

const stateNode = document.getElementById('state-data');
let state = stateNode ? JSON.parse(stateNode.textContent) : null;
const listeners = [];

/** What this phone is doing right now (not shared with other phones). */
export const ui = {
  busy: false,          // a photo is being shrunk or read
  busyText: '',
  retake: false,        // the next photo replaces the open throw
  looked: new Set(),    // throws whose unsure dice a player has looked at on this phone
  sheetPlayer: null,    // whose sheet is shown where one player is shown at a time (null: whose turn)
  sheetTurnOf: null,    // the player whose turn it was when sheetPlayer was chosen
  sheetThrow: null,     // and the open throw then
  buildingSince: null,  // when this phone first saw the advisor building its tables
};

export function getState() { return state; }

/** Take the server's newer state and draw it. */
export function setState(next) {
  if (!next) return;
  state = next;
  for (const fn of listeners) fn(state);
}

/** Call `fn(state)` after every change. */
export function subscribe(fn) { listeners.push(fn); }

/** Redraw without a new state (a flag of this phone changed). */
export function refreshView() { setState(state); }

const whoKey = () => 'dicecam.who.' + state.id;
/** The player this phone belongs to ("" for anyone). */
export function who() {
  try { return localStorage.getItem(whoKey()) || ''; } catch (e) { return ''; }
}
export function setWho(name) {
  try { localStorage.setItem(whoKey(), name); } catch (e) { /* private mode: not remembered */ }
}

/** The game's API address (from the page). */
export function apiBase() { return document.getElementById('game').dataset.api; }

/** Whether the open throw's tip has to wait for a look at its unsure dice. */
export function tipWaits(s = state) {
  const t = s.throw;
  return !!(t && t.advice_waits && !ui.looked.has(t.throw_id));
}
