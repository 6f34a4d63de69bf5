/* The game page: photo in, options out, running sheet. ES modules, no build step.
 * One render() draws everything from the state; user data only ever goes in as text. */
import {$} from './dom.js';
import {T} from './i18n.js';
import {getState, subscribe, ui, who, setWho} from './store.js';
import {uploadPhoto, undo} from './actions.js';
import {renderBanner} from './banner.js';
import {renderThrowView} from './throw-view.js';
import {renderAdvice, renderOptions} from './options.js';
import {renderPushPanel} from './push-panel.js';
import {renderSheet} from './sheet.js';
import {renderReview} from './review.js';
import {openManual, openPicker} from './dialogs.js';
import {follow, pace} from './live.js';

function isSheet(state) { return state.family !== 'push'; }

function cameraText(state) {
  if (state.finished) return T.finished;
  if (isSheet(state) && state.throw_number >= state.max_throws && state.throw) return T.options;
  return T.take_photo;
}

function canThrow(state) {
  if (state.finished) return false;
  if (isSheet(state)) return !(state.throw && state.throw_number >= state.max_throws);
  return !state.throw;
}

function renderActions(state) {
  $('actions').hidden = state.finished;
  const can = canThrow(state);
  $('camera-label').classList.toggle('disabled', !can);
  $('camera-label').classList.toggle('busy', ui.busy);
  document.body.classList.toggle('is-busy', ui.busy);
  $('photo-input').disabled = !can || ui.busy;
  $('manual-btn').disabled = !can;
  $('camera-text').textContent = ui.busy ? ui.busyText : cameraText(state);
  $('retake-btn').hidden = !(state.throw && state.throw.source === 'photo');
  $('undo-btn').disabled = !state.can_undo;
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
  const open = ['scratch-fold', 'keep-alts'].filter((id) => $(id) && $(id).open);
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
$('undo-btn').addEventListener('click', undo);

function tapDie(ev) {
  const hit = ev.target.closest('[data-index]');
  if (hit) openPicker(Number(hit.dataset.index));
  else if (ev.target.closest('#add-die')) openPicker(-1);
}
$('overlay').addEventListener('click', tapDie);
$('dice-strip').addEventListener('click', tapDie);

const whoSelect = $('who');
whoSelect.value = who();
whoSelect.addEventListener('change', () => setWho(whoSelect.value));

subscribe(render);
render(getState());
follow();
