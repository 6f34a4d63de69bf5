/* The game page: photo in, options out, running sheet. ES modules, no build step.
 * One render() draws everything from the state; user data only ever goes in as text. */
import {$, scrollBehavior} from './dom.js';
import {T} from './i18n.js';
import {getState, subscribe, ui, who, setWho} from './store.js';
import {uploadPhoto, undo, deleteGame, takeLeftOut} from './actions.js';
import {renderBanner} from './banner.js';
import {renderThrowView} from './throw-view.js';
import {renderAdvice, renderOptions} from './options.js';
import {renderPushPanel} from './push-panel.js';
import {renderSheet} from './sheet.js';
import {renderReview} from './review.js';
import {openManual, openPicker} from './dice-entry.js';
import {openJoin} from './join.js';
import {follow, pace} from './live.js';
import {initLive} from './camera.js';

/** What the big button does now: take a photo, or (no throw left, or dice to set
 * aside first) lead to the options below. */
function nextStep(state) {
  if (state.finished) return 'none';
  const d = state.display;
  if (!state.throw) return 'photo';
  if (d.throws_per_turn) return state.throw_number >= d.throws_per_turn ? 'options' : 'photo';
  return 'options';  // Würfelpoker: set dice aside before the next throw
}

function renderActions(state) {
  $('actions').hidden = state.finished;
  const step = nextStep(state);
  const toOptions = step === 'options' && !ui.busy;
  $('camera-label').hidden = toOptions;
  $('next-step').hidden = !toOptions;
  if (toOptions) {
    const push = state.display.family === 'push';
    $('next-step-text').textContent = push ? T.set_aside_first : T.score_now;
    $('next-step-hint').textContent = push ? T.set_aside_first_hint : T.score_now_hint;
  }
  $('camera-label').classList.toggle('busy', ui.busy);
  document.body.classList.toggle('is-busy', ui.busy);
  $('photo-input').disabled = step !== 'photo' || ui.busy;
  $('manual-btn').disabled = step !== 'photo' || ui.busy;
  $('camera-text').textContent = ui.busy ? ui.busyText : T.take_photo;
  // "Reading the dice …" said to a screen reader too, once each time it changes.
  const said = ui.busy ? ui.busyText : '';
  if ($('busy-status').textContent !== said) $('busy-status').textContent = said;
  $('retake-btn').hidden = !(state.throw && state.throw.source === 'photo');
  $('undo-btn').disabled = !state.can_undo;
  $('delete-btn').hidden = !state.finished;
}

function renderResult(state) {
  const t = state.throw;
  $('result').hidden = !t || state.finished;
  if (!t || state.finished) return;
  renderThrowView(state);
  renderAdvice(state);
  renderOptions(state);
}

function render(state) {
  document.body.classList.toggle('finished', !!state.finished);
  // A re-render (advice arriving, another phone) must not snap open folds shut.
  const open = ['scratch-fold', 'more-fold', 'keep-alts', 'rules-fold'].filter((id) => $(id) && $(id).open);
  renderBanner(state);
  renderReview(state);
  renderActions(state);
  renderResult(state);
  renderPushPanel(state);
  renderSheet(state);
  for (const id of open) if ($(id)) $(id).open = true;
  pace();
}

// ------------------------------------------------------------------ wiring

$('photo-input').addEventListener('change', function () {
  const file = this.files && this.files[0];
  if (file) uploadPhoto(file);
});
$('manual-btn').addEventListener('click', openManual);
$('retake-btn').addEventListener('click', () => {
  ui.retake = true;
  $('photo-input').disabled = false;
  $('photo-input').click();
});
$('next-step').addEventListener('click', () => {
  const title = $('options-title');
  title.scrollIntoView({behavior: scrollBehavior(), block: 'start'});
  const first = $('options').querySelector('button');
  if (first) first.focus({preventScroll: true});
});
$('undo-btn').addEventListener('click', undo);
$('delete-btn').addEventListener('click', deleteGame);
// The menu closes under the dialog: focus comes back to the menu's button, not to a hidden item.
$('join-btn').addEventListener('click', () => { $('menu').open = false; $('menu-btn').focus(); openJoin(); });

function tapDie(ev) {
  const hit = ev.target.closest('[data-index]');
  const left = ev.target.closest('[data-left]');
  if (left) takeLeftOut(Number(left.dataset.left));
  else if (hit) openPicker(Number(hit.dataset.index));
  else if (ev.target.closest('#add-die')) openPicker(-1);
}
$('overlay').addEventListener('click', tapDie);
$('dice-strip').addEventListener('click', tapDie);

const whoSelect = $('who');
whoSelect.value = who();
whoSelect.addEventListener('change', () => setWho(whoSelect.value));

// The menu closes on Escape and on a tap elsewhere, like the dialogs.
document.addEventListener('keydown', (ev) => { if (ev.key === 'Escape' && $('menu').open) { $('menu').open = false; $('menu-btn').focus(); } });
document.addEventListener('click', (ev) => { if ($('menu').open && !$('menu').contains(ev.target)) $('menu').open = false; });

subscribe(render);
render(getState());
follow();
initLive();  // live camera mode (camera.js)
