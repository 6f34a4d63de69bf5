/* Dialogs over the page: they take focus, keep it inside, close on Escape and hand
 * focus back to what opened them. The die picker and manual entry live here. */
import {$, el, clear} from './dom.js';
import {dieFace} from './dice.js';
import {getState} from './store.js';
import {correct, sendThrow} from './actions.js';

let open = null;  // {node, returnTo, onClose}

const FOCUSABLE = 'button:not([disabled]), [href], input:not([disabled]), select, [tabindex]:not([tabindex="-1"])';

/** Show the dialog `node` (a .sheet-modal), focusing `first` (or its first control). */
export function openDialog(node, {first = null, onClose = null} = {}) {
  if (open) closeDialog();
  open = {node, returnTo: document.activeElement, onClose};
  node.hidden = false;
  const target = first || node.querySelector(FOCUSABLE);
  if (target) target.focus();
}

/** Close the open dialog and give focus back to what opened it. */
export function closeDialog() {
  if (!open) return;
  const {node, returnTo, onClose} = open;
  open = null;
  node.hidden = true;
  if (onClose) onClose();
  if (returnTo && document.contains(returnTo) && returnTo.focus) returnTo.focus();
}

export function isDialogOpen() { return open !== null; }

document.addEventListener('keydown', (ev) => {
  if (!open) return;
  if (ev.key === 'Escape') { ev.preventDefault(); closeDialog(); return; }
  if (ev.key !== 'Tab') return;
  const items = [...open.node.querySelectorAll(FOCUSABLE)].filter((x) => x.offsetParent !== null);
  if (!items.length) return;
  const first = items[0];
  const last = items[items.length - 1];
  if (ev.shiftKey && document.activeElement === first) { ev.preventDefault(); last.focus(); }
  else if (!ev.shiftKey && document.activeElement === last) { ev.preventDefault(); first.focus(); }
});

// A tap on the dim backdrop closes the dialog, like Escape.
for (const modal of document.querySelectorAll('.sheet-modal')) {
  modal.addEventListener('click', (ev) => { if (ev.target === modal) closeDialog(); });
}

/** Six big die-face buttons in `grid`, each carrying its value as data-<key>. */
function fillFaceButtons(grid, key) {
  clear(grid);
  for (let v = 1; v <= 6; v++) {
    const b = dieFace(v, 'button');
    b.classList.add('die-big');
    b.dataset[key] = String(v);
    grid.appendChild(b);
  }
}

// ------------------------------------------------------------------ die picker

let pickerTarget = null;  // index of the die being corrected, or -1 to add one

export function openPicker(index) {
  pickerTarget = index;
  fillFaceButtons($('picker-faces'), 'pick');
  $('picker-remove').hidden = index < 0;
  openDialog($('picker'), {onClose: () => { pickerTarget = null; }});
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

$('manual-faces').addEventListener('click', (ev) => {
  const b = ev.target.closest('[data-add]');
  if (!b || manualValues.length >= getState().expected_dice) return;
  manualValues.push(Number(b.dataset.add));
  drawManual();
  if (manualValues.length === getState().expected_dice) $('manual-ok').focus();
});
$('manual-back').addEventListener('click', () => { manualValues.pop(); drawManual(); });
$('manual-cancel').addEventListener('click', closeDialog);
$('manual-ok').addEventListener('click', () => {
  const values = manualValues.slice();
  closeDialog();
  sendThrow(values);
});
