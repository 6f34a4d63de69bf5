/* Joining from another phone: this game's link as a QR code to scan, and as text. */
import {$} from './dom.js';
import {T} from './i18n.js';
import {getState} from './store.js';
import {openDialog, closeDialog} from './dialogs.js';
import {toast} from './feedback.js';

/** The link that opens this game (as the server announces it). */
function link() {
  const s = getState();
  return (s.links && s.links.game) || window.location.href.split('?')[0];
}

export function openJoin() {
  const img = $('join-qr');
  const qr = getState().links && getState().links.qr;
  img.hidden = !qr;
  if (qr && img.getAttribute('src') !== qr) img.src = qr;
  $('join-link').textContent = link();
  $('join-link').href = link();
  openDialog($('join'), {first: $('join-close')});
}

$('join-copy').addEventListener('click', async () => {
  try {
    await navigator.clipboard.writeText(link());
    toast(T.link_copied);
  } catch (e) {
    // No clipboard on a plain-HTTP page: select the link so it can be copied by hand.
    const range = document.createRange();
    range.selectNodeContents($('join-link'));
    const sel = window.getSelection();
    sel.removeAllRanges();
    sel.addRange(range);
  }
});

$('join-close').addEventListener('click', closeDialog);
