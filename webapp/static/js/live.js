/* Following the game as other phones change it: the server's event stream says when the
 * game's version moves on (within a second); where the stream is not available, the page
 * asks every few seconds. Advice that is still being worked out is asked for again too,
 * since it arrives without a new version. */
import {request} from './api.js';
import {T} from './i18n.js';
import {toast} from './feedback.js';
import {apiBase, getState, setState, ui} from './store.js';

const POLL_MS = 3000;
const GONE = -1;  // the version the server announces for a deleted game
const ADVICE_POLL_MS = 1500;
const RETRY_STREAM_MS = 30000;

let source = null;
let streaming = false;
let pollTimer = null;
let retryTimer = null;
let fetching = false;

const waits = (status) => status === 'pending' || status === 'building';

/** Whether the advisor has yet to answer for what is on screen. */
function advicePending(s) {
  return (s.throw && waits(s.throw.advice_status)) || (s.bank_advice && waits(s.bank_advice.status)) ||
    (s.review && waits(s.review.status));
}

/** What the advisor has said so far. */
function adviceOf(s) {
  const t = s.throw;
  return JSON.stringify([t && t.advice_status, t && t.options, s.bank_advice, s.review, s.advice_build]);
}

/** Fetch the game and draw it if anything changed. */
async function fetchState() {
  if (fetching || ui.busy) return;
  fetching = true;
  try {
    const next = await request('GET', apiBase());
    const now = getState();
    if (next.version !== now.version || adviceOf(next) !== adviceOf(now)) setState(next);
  } catch (e) {
    // Offline for a moment: the next round asks again.
  } finally {
    fetching = false;
  }
}

/** How this phone follows the game now, for anyone looking (data-live on <html>). */
function mark() {
  document.documentElement.dataset.live = streaming ? 'stream' : 'poll';
}

function schedule() {
  mark();
  clearTimeout(pollTimer);
  const wait = advicePending(getState()) ? ADVICE_POLL_MS : (streaming ? null : POLL_MS);
  if (wait === null) return;
  pollTimer = setTimeout(async () => {
    if (!document.hidden) await fetchState();
    schedule();
  }, wait);
}

function openStream() {
  const url = getState().links && getState().links.events;
  if (source || !url || !window.EventSource || document.hidden) return;
  source = new EventSource(url);
  source.addEventListener('open', () => { streaming = true; schedule(); });
  source.addEventListener('version', (ev) => {
    let data = null;
    try { data = JSON.parse(ev.data); } catch (e) { return; }
    if (!data) return;
    if (data.version === GONE) { gone(); return; }
    if (data.version !== getState().version) fetchState();
  });
  source.addEventListener('error', () => {
    streaming = false;
    schedule();
    if (source && source.readyState === EventSource.CLOSED) {
      // Refused (too many streams, or no stream on this server): ask every few seconds,
      // and try the stream again later.
      source = null;
      clearTimeout(retryTimer);
      retryTimer = setTimeout(openStream, RETRY_STREAM_MS);
    }
  });
}

/** The game was deleted (on another phone): say so and go to the start page. */
function gone() {
  closeStream();
  toast(T.game_deleted, true);
  setTimeout(() => { window.location.href = '/'; }, 2500);
}

function closeStream() {
  if (source) source.close();
  source = null;
  streaming = false;
}

/** Start following the game. */
export function follow() {
  openStream();
  schedule();
  document.addEventListener('visibilitychange', () => {
    if (document.hidden) {
      closeStream();
    } else {
      fetchState();
      openStream();
    }
    schedule();
  });
}

/** After every new state: advice may now be pending, so the pace may change. */
export function pace() { schedule(); }
