/* The game as the page knows it: the server's state JSON, and the page's own flags.
 * Every change goes through setState(), which re-renders. */

const stateNode = document.getElementById('state-data');
let state = stateNode ? JSON.parse(stateNode.textContent) : null;
const listeners = [];

/** What this phone is doing right now (not shared with other phones). */
export const ui = {
  busy: false,          // a photo is being shrunk or read
  retake: false,        // the next photo replaces the open throw
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

/** Redraw without a new state (a local flag changed). */
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
