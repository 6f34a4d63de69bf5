/* What a player does to the game: each sends one request and draws the answer. */
import {$} from './dom.js';
import {T} from './i18n.js';
import {request} from './api.js';
import {apiBase, getState, setState, ui, who, refreshView} from './store.js';
import {toast} from './feedback.js';
import {shrink} from './photo.js';

const api = (method, path, body) => request(method, apiBase() + path, body);

function withBy(body) {
  if (who()) body.by = who();
  return body;
}

/** Show what went wrong; when the game moved on elsewhere, show it as it is now. */
export function fail(err) {
  toast(err.message, true);
  if (err.game) setState(err.game);
  else if (err.status === 409 || err.status === 404) reload();
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
    if (ui.retake) form.append('retake', '1');
    const res = await api('POST', '/throws', form);
    setState(res.state);
    const result = $('result');
    if (result.scrollIntoView) result.scrollIntoView({behavior: 'smooth', block: 'start'});
  } catch (err) {
    fail(err);
  } finally {
    ui.retake = false;
    $('photo-input').value = '';
    busy(false);
  }
}

export function sendThrow(values) {
  return api('POST', '/throws', withBy({dice: values})).then((res) => setState(res.state)).catch(fail);
}

export function correct(dice) {
  const t = getState().throw;
  const body = withBy({version: getState().version, dice: dice.map((d) => ({value: d.value, box: d.box}))});
  return api('POST', '/throws/' + encodeURIComponent(t.throw_id) + '/dice', body)
    .then((res) => setState(res.state)).catch(fail);
}

export function enter(body) {
  const state = getState();
  body.version = state.version;
  if (state.throw && !body.bank) body.throw_id = state.throw.throw_id;
  return api('POST', '/entries', withBy(body)).then((next) => {
    setState(next);
    toast(T.saved);
  }).catch(fail);
}

export function undo() {
  if (!window.confirm(T.undo_confirm)) return;
  api('POST', '/undo', withBy({version: getState().version})).then(setState).catch(fail);
}

