/* What to say while the advisor works: honest about the one-time table build, with
 * how long it has been running on this phone's clock. */
import {T, fmt} from './i18n.js';
import {getState, ui} from './store.js';

function clock(seconds) {
  const s = Math.max(0, Math.round(seconds));
  return Math.floor(s / 60) + ':' + String(s % 60).padStart(2, '0');
}

const steps = [];  // the build steps seen so far ("table:…", "passes:…")

/** The line for an advice `status` that is not ready ("pending" or "building"):
 * how long the build has run on this phone's clock and, where the server says, how far
 * its current step has got. */
export function advisorNote(status) {
  if (status !== 'building') return T.advice_pending;
  if (!ui.buildingSince) ui.buildingSince = Date.now();
  const build = getState().advice_build;
  // The server's clock where it says (the build may have started before this phone looked).
  const time = clock(build ? build.seconds : (Date.now() - ui.buildingSince) / 1000);
  if (!build || !build.total) return T.advice_building + ' ' + fmt('advice_elapsed', {time});
  if (!steps.includes(build.step)) steps.push(build.step);
  const percent = Math.floor(100 * build.done / build.total);
  return T.advice_building + ' ' + fmt('advice_progress', {time, step: steps.indexOf(build.step) + 1, percent});
}

/** The advisor answered (or is off): the next build is timed afresh. */
export function advisorDone() { ui.buildingSince = null; }
