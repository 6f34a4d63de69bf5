/* Short messages at the bottom of the screen. */
import {$} from './dom.js';

let timer = null;

/** Show `message` for a moment; errors stay longer and are announced at once. */
export function toast(message, isError = false) {
  const box = $('toast');
  box.textContent = message;
  box.className = 'toast' + (isError ? ' toast-error' : '');
  box.setAttribute('role', isError ? 'alert' : 'status');
  box.setAttribute('aria-live', isError ? 'assertive' : 'polite');
  box.hidden = false;
  clearTimeout(timer);
  timer = setTimeout(() => { box.hidden = true; }, isError ? 6000 : 3000);
}
