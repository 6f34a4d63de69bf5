/* What to say while the advisor works: honest about the one-time table build, with
 * how long it has been running on this phone's clock. */
import {T, fmt} from './i18n.js';
import {ui} from './store.js';

function elapsed(since) {
  const s = Math.max(0, Math.round((Date.now() - since) / 1000));
  return Math.floor(s / 60) + ':' + String(s % 60).padStart(2, '0');
}

/** The line for an advice `status` that is not ready ("pending" or "building"). */
export function advisorNote(status) {
  if (status !== 'building') return T.advice_pending;
  if (!ui.buildingSince) ui.buildingSince = Date.now();
  return T.advice_building + ' ' + fmt('advice_elapsed', {time: elapsed(ui.buildingSince)});
}

/** The advisor answered (or is off): the next build is timed afresh. */
export function advisorDone() { ui.buildingSince = null; }
