/* What a player does to the game: each sends one request, draws the answer and says
 * in words what happened. */
import {$, scrollBehavior} from './dom.js';
import {T, fmt} from './i18n.js';
import {request} from './api.js';
import {apiBase, getState, setState, ui, who, refreshView} from './store.js';
import {toast} from './feedback.js';
import {shrink} from './photo.js';
import {confirmDialog} from './dialogs.js';
import {recapText} from './recap.js';

const api = (method, path, body) => request(method, apiBase() + path, body);

function withBy(body) {
  if (who()) body.by = who();
  return body;
}

/** Show what went wrong; when the game moved on elsewhere, show it as it is now and
 * say what the other phone did. */
export function fail(err) {
  if (err.status === 409 && err.game) {
    const before = getState();
    setState(err.game);
    const last = err.game.last_entry;
    // An entry made elsewhere is named; a throw, correction or undo elsewhere is not one.
    const entered = err.game.events > before.events;
    toast(entered && last ? fmt('conflict_by', {entry: recapText(err.game.display, last)}) : err.message, true);
    return;
  }
  toast(err.message, true);
  if (err.status === 409 || err.status === 404) reload();
}

/** Fetch the game as it is now. */
export function reload() {
  return api('GET', '').then(setState).catch(() => {});
}

function busy(text) {
  ui.busy = !!text;
  ui.busyText = text || '';
  refreshView();
}

export async function uploadPhoto(file) {
  busy(T.shrinking);
  try {
    const blob = await shrink(file);
    busy(T.reading);
    const form = new FormData();
    form.append('photo', blob, 'photo.jpg');
    if (who()) form.append('by', who());
    form.append('version', String(getState().version));
    if (ui.retake) form.append('retake', '1');
    const res = await api('POST', '/throws', form);
    ui.busy = false;
    setState(res.state);
    // The result's heading (whose throw) stays clear of the sticky bar: see scroll-margin-top.
    const result = $('result');
    if (result.scrollIntoView) result.scrollIntoView({behavior: scrollBehavior(), block: 'start'});
  } catch (err) {
    fail(err);
  } finally {
    ui.retake = false;
    $('photo-input').value = '';
    busy(false);
  }
}

export function sendThrow(values) {
  return api('POST', '/throws', withBy({dice: values, version: getState().version}))
    .then((res) => setState(res.state)).catch(fail);
}

export function correct(dice) {
  const t = getState().throw;
  const body = withBy({version: getState().version, dice: dice.map((d) => ({value: d.value, box: d.box}))});
  return api('POST', '/throws/' + encodeURIComponent(t.throw_id) + '/dice', body)
    .then((res) => setState(res.state)).catch(fail);
}

/** Count die `i` of those the photo showed beyond the throw (after asking): the player then
 * removes the one that does not belong, as the dialog says. */
export async function takeLeftOut(i) {
  const t = getState().throw;
  const die = t && (t.left_out_dice || [])[i];
  if (!die) return;
  const ok = await confirmDialog({title: T.take_left_out, ok: T.take_left_out_ok,
    body: fmt('take_left_out_body', {value: die.value, n: t.dice.length + 1})});
  if (ok) await correct([...t.dice, die]);
}

/** Make an entry (a box, a set-aside, a bank) and say what went in. */
export function enter(body) {
  const state = getState();
  body.version = state.version;
  if (state.throw && !body.bank) body.throw_id = state.throw.throw_id;
  return api('POST', '/entries', withBy(body)).then((next) => {
    setState(next);
    toast(next.last_entry ? recapText(next.display, next.last_entry) : T.saved);
  }).catch(fail);
}

/** Take back the last entry, after saying which one. */
export async function undo() {
  const state = getState();
  const what = state.last_entry ? recapText(state.display, state.last_entry) : '';
  const ok = await confirmDialog({title: T.undo_confirm, body: what, ok: T.undo});
  if (!ok) return;
  try {
    const next = await api('POST', '/undo', withBy({version: getState().version}));
    setState(next);
    toast(what ? fmt('undone_toast', {entry: what}) : T.undone);
  } catch (err) {
    fail(err);
  }
}

/** Delete a finished game with its photos, after asking; back to the start page. */
export async function deleteGame() {
  const ok = await confirmDialog({title: T.delete_game, body: T.delete_confirm, ok: T.delete, danger: true});
  if (!ok) return;
  try {
    await api('DELETE', '');
    window.location.href = '/';
  } catch (err) {
    fail(err);
  }
}
