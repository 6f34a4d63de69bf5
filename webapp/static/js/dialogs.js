/* Dialogs over the page: they take focus, keep it inside, close on Escape or a tap
 * beside them, and hand focus back to what opened them; and the one-question
 * confirmation built on them. */
import {$} from './dom.js';

let open = null;  // {node, returnTo, onClose}

const FOCUSABLE = 'button:not([disabled]), [href], input:not([disabled]), select, [tabindex]:not([tabindex="-1"])';

/** Show the dialog `node` (a .sheet-modal), focusing `first` (or its first control). */
export function openDialog(node, {first = null, onClose = null} = {}) {
  if (open) closeDialog();
  open = {node, returnTo: document.activeElement, onClose};
  $('toast').hidden = true;  // a message must not cover the dialog's buttons
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

// ------------------------------------------------------------------ confirmation

let answer = null;  // resolves the open confirmation

/** Ask once: resolves true when the player confirms, false on cancel, Escape or backdrop. */
export function confirmDialog({title, body = '', ok, danger = false}) {
  if (answer) answer(false);
  $('confirm-title').textContent = title;
  $('confirm-body').textContent = body;
  $('confirm-body').hidden = !body;
  const okBtn = $('confirm-ok');
  okBtn.textContent = ok;
  okBtn.className = 'btn ' + (danger ? 'btn-danger-solid' : 'btn-primary');
  return new Promise((resolve) => {
    answer = resolve;
    openDialog($('confirm'), {first: $('confirm-cancel'), onClose: () => {
      const pending = answer;
      answer = null;
      if (pending) pending(false);
    }});
  });
}

$('confirm-ok').addEventListener('click', () => {
  const resolve = answer;
  answer = null;
  if (resolve) resolve(true);
  closeDialog();
});
$('confirm-cancel').addEventListener('click', closeDialog);
