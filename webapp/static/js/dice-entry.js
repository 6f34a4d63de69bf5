/* Dice by hand: the picker that corrects (adds, removes) one die of the open throw,
 * and the dialog that types in a whole throw. */
import {$, el, clear, setText} from './dom.js';
import {T, fmt} from './i18n.js';
import {dieFace} from './dice.js';
import {getState} from './store.js';
import {correct, sendThrow} from './actions.js';
import {openDialog, closeDialog} from './dialogs.js';
import {placeCloseup} from './closeup.js';

/** Six big die-face buttons in `grid`, each carrying its value as data-<key>. */
function fillFaceButtons(grid, key, current) {
  clear(grid);
  for (let v = 1; v <= 6; v++) {
    const b = dieFace(v, 'button', fmt('face_n', {n: v}));
    if (v === current) b.classList.add('current');
    b.classList.add('die-big');
    b.dataset[key] = String(v);
    grid.appendChild(b);
  }
}

// ------------------------------------------------------------------ die picker

let pickerTarget = null;  // index of the die being corrected, or -1 to add one

export function openPicker(index) {
  pickerTarget = index;
  const t = getState().throw;
  const die = index >= 0 ? t.dice[index] : null;
  // The die itself, large, where its value is chosen: the photo decides, not the reading.
  const closeup = $('picker-closeup');
  closeup.hidden = !(die && die.box && t.photo_url && t.width);
  if (!closeup.hidden) {
    closeup.setAttribute('aria-label', fmt('closeup_of', {n: index + 1}));
    placeCloseup(closeup, die.box, t.width, t.height, t.photo_url, t.annotated_url);
  }
  fillFaceButtons($('picker-faces'), 'pick', die ? die.value : null);
  $('picker-title').textContent = die ? fmt('fix_die_n', {n: index + 1, value: die.value}) : T.add_die_title;
  $('picker-remove').hidden = index < 0;
  const current = $('picker-faces').querySelector('.current');
  openDialog($('picker'), {first: current, onClose: () => { pickerTarget = null; }});
}

$('picker-faces').addEventListener('click', (ev) => {
  const b = ev.target.closest('[data-pick]');
  if (!b || pickerTarget === null) return;
  const value = Number(b.dataset.pick);
  const dice = getState().throw.dice.map((d) => ({value: d.value, box: d.box}));
  if (pickerTarget < 0) dice.push({value, box: null});
  else dice[pickerTarget].value = value;
  closeDialog();
  correct(dice);
});
$('picker-remove').addEventListener('click', () => {
  const target = pickerTarget;
  const dice = getState().throw.dice.filter((_, i) => i !== target);
  closeDialog();
  correct(dice);
});
$('picker-cancel').addEventListener('click', closeDialog);

// ------------------------------------------------------------------ manual entry

let manualValues = [];

export function openManual() {
  manualValues = [];
  fillFaceButtons($('manual-faces'), 'add');
  $('manual-status').textContent = '';
  drawManual();
  openDialog($('manual'));
}

function drawManual() {
  const need = getState().expected_dice;
  const slots = clear($('manual-slots'));
  for (let i = 0; i < need; i++) {
    slots.appendChild(i < manualValues.length ? dieFace(manualValues[i]) : el('span', {className: 'die die-empty'}));
  }
  $('manual-ok').disabled = manualValues.length !== need;
  $('manual-back').disabled = manualValues.length === 0;
}

/** After a tap: the dice typed so far, in a few words (the slots are drawn, not read out). */
function sayManual() {
  const n = manualValues.length;
  setText($('manual-status'), n ? fmt('manual_progress', {n, max: getState().expected_dice, dice: manualValues.join(' ')})
    : T.manual_none);
}

$('manual-faces').addEventListener('click', (ev) => {
  const b = ev.target.closest('[data-add]');
  if (!b || manualValues.length >= getState().expected_dice) return;
  manualValues.push(Number(b.dataset.add));
  drawManual();
  sayManual();
  if (manualValues.length === getState().expected_dice) $('manual-ok').focus();
});
$('manual-back').addEventListener('click', () => { manualValues.pop(); drawManual(); sayManual(); });
$('manual-cancel').addEventListener('click', closeDialog);
$('manual-ok').addEventListener('click', () => {
  const values = manualValues.slice();
  closeDialog();
  sendThrow(values);
});
