/* Live mode (issue 35, docs/LIVE.md): the rear camera in the page, the dice outlined as
 * they are read, and the throw taken by itself when they come to rest.
 *
 * Frames (about 640 px, JPEG 0.7) go to the server one at a time and are read there by
 * the same reader as a photo; `camera-settle.js` decides from the picture and the
 * readings when the scene is still; then a full-size still goes up as a normal photo
 * throw. The camera stops when live mode closes or the page is hidden; no frame is
 * sent once it is closed. */
import {$, el, clear, scrollBehavior} from './dom.js';
import {T, fmt} from './i18n.js';
import {request} from './api.js';
import {apiBase, getState, setState, subscribe, who} from './store.js';
import {fail} from './actions.js';
import {toast} from './feedback.js';
import {diceRow} from './dice.js';
import {advisedPositions} from './throw-view.js';
import {Settle, motion} from './camera-settle.js';

const FRAME_SIDE = 640;       // long side of the frames read live
const FRAME_QUALITY = 0.7;
const STILL_QUALITY = 0.92;   // the still is the throw's evidence
const FRAME_GAP_MS = 200;     // at most 5 frames a second from one phone: six phones share two cores
const BUSY_WAIT_MS = 120;     // the server skipped a frame: try the next one after this
const THUMB_W = 96;           // the grey thumbnail the picture's movement is judged on
const THUMB_H = 72;
const THUMB_MS = 100;

const live = {
  open: false,
  paused: false,        // dice to set aside first (Würfelpoker): camera on, nothing read
  busy: false,          // a still is being taken and read
  resume: false,        // reopen when the page is shown again
  stream: null,
  video: null,
  settle: null,
  abort: null,
  thumbTimer: null,
  prevThumb: null,
  audio: null,
  frames: 0,            // readings shown since live mode opened
  times: [],            // when the last readings arrived (for the rate shown to tests and people)
  reading: null,
  throwId: null,        // the open throw this phone knows of: a new one from elsewhere means this scene is in
  session: 0,           // bumped on close: loops of an old session end themselves
  phaseShown: '',
};

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
/** The frames' address; it names the still's long side, at which the reader judges whether the
 * dice would come out too small to read (`small_dice`). */
const framesUrl = () => {
  const side = live.video ? Math.max(live.video.videoWidth, live.video.videoHeight) : 0;
  return apiBase() + '/frames' + (side > 0 ? `?still_side=${side}` : '');
};

/** Whether this phone can throw now (a photo would be taken), or has dice to set aside first. */
function step(state) {
  if (!state || state.finished) return 'none';
  const n = state.display.throws_per_turn;
  if (!state.throw) return 'photo';
  if (n) return state.throw_number >= n ? 'done' : 'photo';
  return 'aside';  // Würfelpoker: set dice aside before the next throw
}

/** Live needs a secure page (https or localhost) and a camera API. */
function supported() {
  return !!(window.isSecureContext && navigator.mediaDevices && navigator.mediaDevices.getUserMedia);
}

// ------------------------------------------------------------------ the panel

function panel() {
  return $('live');
}

function build() {
  const video = el('video', {id: 'live-video', muted: true, playsInline: true, autoplay: true,
    ariaLabel: T.live_video});
  video.setAttribute('playsinline', '');
  video.setAttribute('muted', '');
  live.video = video;
  clear(panel()).append(
    el('div', {className: 'live-head'},
      el('h2', {id: 'live-title'}, T.live),
      el('button', {type: 'button', className: 'btn btn-small', id: 'live-close', onclick: () => close()}, T.live_close)),
    el('div', {className: 'live-wrap', id: 'live-wrap'}, video, el('div', {className: 'live-overlay', id: 'live-overlay', ariaHidden: 'true'})),
    el('p', {className: 'live-status', id: 'live-status', role: 'status', ariaLive: 'polite'}, T.live_starting),
    el('p', {className: 'hint-note', id: 'live-small', hidden: true}, T.live_small_dice),
    el('p', {className: 'hint-note', id: 'live-more', hidden: true}, T.live_left_out),
    el('div', {className: 'live-extra', id: 'live-extra'}),
    el('div', {className: 'live-keep', id: 'live-keep', ariaLive: 'polite'}),
  );
}

function say(text) {
  const node = $('live-status');
  if (node && node.textContent !== text) node.textContent = text;
}

/** The button under the status line: "take it anyway" where the count is off. */
function offerAnyway(show) {
  const box = $('live-extra');
  if (!box) return;
  const has = !!$('live-anyway');
  if (show && !has) {
    box.appendChild(el('button', {type: 'button', className: 'btn btn-primary', id: 'live-anyway',
      onclick: () => take()}, T.live_take_anyway));
  } else if (!show && has) {
    clear(box);
  }
}

const centreOf = (box) => [(box[0] + box[2]) / 2, (box[1] + box[3]) / 2];

/** The dice of the last throw the advisor would keep, as shares of the photo. */
function keptDice(state) {
  const t = state.throw;
  if (!t || !t.width || step(state) !== 'photo') return [];
  return advisedPositions(state).map((i) => t.dice[i]).filter((d) => d && d.box)
    .map((d) => ({value: d.value, box: [d.box[0] / t.width, d.box[1] / t.height, d.box[2] / t.width, d.box[3] / t.height]}));
}

/** The open throw as a reading (boxes as shares of its photo; none for dice typed in). */
function throwReading(state) {
  const t = state.throw;
  if (!t) return null;
  return {dice: t.dice.map((d) => ({value: d.value, guess: false,
    box: d.box && t.width ? [d.box[0] / t.width, d.box[1] / t.height, d.box[2] / t.width, d.box[3] / t.height] : null}))};
}

/** Which live dice are the ones to keep: same value, near where the photo had them. */
function keepMarks(dice, kept) {
  const used = new Set();
  return dice.map((d) => {
    const [x, y] = centreOf(d.box);
    const size = Math.max(d.box[2] - d.box[0], d.box[3] - d.box[1]);
    const j = kept.findIndex((k, i) => {
      if (used.has(i) || k.value !== d.value) return false;
      const [kx, ky] = centreOf(k.box);
      return Math.hypot(kx - x, ky - y) <= 0.75 * size;
    });
    if (j < 0) return false;
    used.add(j);
    return true;
  });
}

function drawOverlay(reading) {
  const overlay = $('live-overlay');
  if (!overlay) return;
  clear(overlay);
  if (!reading) return;
  const marks = keepMarks(reading.dice, keptDice(getState()));
  reading.dice.forEach((d, i) => {
    const box = el('div', {className: 'live-die' + (d.unsure || d.guess ? ' unsure' : '') + (marks[i] ? ' keep' : ''),
      dataset: {value: String(d.value)}},
    el('span', {className: 'live-value'}, String(d.value) + (d.unsure || d.guess ? '?' : '') + (marks[i] ? ' ✓' : '')));
    overlay.appendChild(placed(box, d.box));
  });
  // Dice seen beyond the count: outlined grey, no value (not counted).
  (reading.left_out_boxes || []).forEach((b) => overlay.appendChild(placed(el('div', {className: 'live-die left-out'}), b)));
}

/** `node` laid over the picture at `box` ([x0, y0, x1, y1] as shares of the frame). */
function placed(node, box) {
  node.style.left = (100 * box[0]) + '%';
  node.style.top = (100 * box[1]) + '%';
  node.style.width = (100 * (box[2] - box[0])) + '%';
  node.style.height = (100 * (box[3] - box[1])) + '%';
  return node;
}

/** The advisor's dice to keep, in words (a paragraph), or null. */
function keepLine(state) {
  const t = state.throw;
  if (!t || step(state) !== 'photo') return null;
  const a = t.advice;
  if (t.advice_waits && advisedPositions(state).length === 0 && a && a.best) return el('p', null, T.live_check_unsure);
  if (!a || !a.best || a.stage !== 'keep' || !a.best.positions) return null;
  const keep = a.best.positions.map((i) => t.dice[i].value);
  if (keep.length === t.dice.length) return el('p', null, T.keep_all_hint);
  if (!keep.length) return el('p', null, T.reroll_all_hint);
  // The words name the dice; their faces are for the eye.
  const faces = diceRow(keep);
  faces.setAttribute('aria-hidden', 'true');
  return el('p', null, fmt('live_keep', {dice: keep.join(' ')}) + ' ', faces);
}

/** After throw 1 or 2: the advisor's dice to keep, in words, under the picture. A live
 * region: drawn again only when it says something else. */
function drawKeep(state) {
  const box = $('live-keep');
  if (!box) return;
  const line = keepLine(state);
  const words = line ? line.textContent : '';
  if (box.textContent === words) return;
  clear(box);
  if (line) box.appendChild(line);
}

function phaseText(s) {
  switch (s.phase) {
    case 'moving': return T.live_moving;
    case 'looking': return T.live_looking;
    case 'empty': return T.live_empty;
    case 'wrong': return fmt('live_count', {seen: s.seen, n: s.expected});
    case 'more': return T.live_more;
    case 'same': return T.live_same;
    case 'taken': return T.live_taken;
    default: return '';
  }
}

function show(s) {
  const p = panel();
  p.dataset.phase = s.phase;
  p.dataset.seen = String(s.seen);
  p.dataset.frames = String(live.frames);
  p.dataset.still = String(Math.min(99999, Math.round(s.still)));  // ms at rest: how quick a take is, for tests
  if (!live.busy) say(phaseText(s));
  offerAnyway(!live.busy && (s.phase === 'wrong' || s.phase === 'more' || s.phase === 'same'));
}

// ------------------------------------------------------------------ the camera

function grey(canvas, ctx) {
  const data = ctx.getImageData(0, 0, canvas.width, canvas.height).data;
  const out = new Uint8Array(canvas.width * canvas.height);
  for (let i = 0, j = 0; j < out.length; i += 4, j++) out[j] = (data[i] * 77 + data[i + 1] * 150 + data[i + 2] * 29) >> 8;
  return out;
}

function startThumbs() {
  const canvas = el('canvas', {width: THUMB_W, height: THUMB_H});
  const ctx = canvas.getContext('2d', {willReadFrequently: true});
  live.prevThumb = null;
  live.thumbTimer = setInterval(() => {
    const v = live.video;
    if (!live.open || !v || v.readyState < 2) return;
    ctx.drawImage(v, 0, 0, THUMB_W, THUMB_H);
    const thumb = grey(canvas, ctx);
    const now = performance.now();
    if (live.prevThumb) live.settle.motion(now, motion(live.prevThumb, thumb));
    live.prevThumb = thumb;
    if (!live.paused) evaluate(now);
  }, THUMB_MS);
}

/** The video's picture as a JPEG, `side` px on its long side at most (null: full size). */
async function capture(side, quality) {
  const v = live.video;
  let source = v;
  let w = v.videoWidth;
  let h = v.videoHeight;
  let bitmap = null;
  if (side === null && window.ImageCapture && live.stream) {
    // The camera's own frame at the track's full size, where the browser offers it.
    try {
      bitmap = await new window.ImageCapture(live.stream.getVideoTracks()[0]).grabFrame();
      source = bitmap;
      w = bitmap.width;
      h = bitmap.height;
    } catch (e) {
      bitmap = null;
    }
  }
  const scale = side ? Math.min(1, side / Math.max(w, h)) : 1;
  const canvas = el('canvas', {width: Math.round(w * scale), height: Math.round(h * scale)});
  canvas.getContext('2d').drawImage(source, 0, 0, canvas.width, canvas.height);
  if (bitmap && bitmap.close) bitmap.close();
  return new Promise((resolve) => canvas.toBlob(resolve, 'image/jpeg', quality));
}

/** Post frames one at a time while live mode is open; at most one in flight. */
async function frameLoop(session) {
  while (live.open && live.session === session) {
    if (live.paused || live.busy || document.hidden || !live.video || live.video.readyState < 2) {
      await sleep(FRAME_GAP_MS);
      continue;
    }
    const started = performance.now();
    let answer = null;
    try {
      const blob = await capture(FRAME_SIDE, FRAME_QUALITY);
      if (!blob || !live.open || live.session !== session) break;
      live.abort = new AbortController();
      const resp = await fetch(framesUrl(), {method: 'POST', body: blob, credentials: 'same-origin',
        headers: {'Content-Type': 'image/jpeg', Accept: 'application/json'}, signal: live.abort.signal});
      if (resp.ok) answer = await resp.json();
      else if (resp.status === 404 || resp.status === 409) { close(); break; }
    } catch (e) {
      if (!live.open || live.session !== session) break;  // closed while a frame was out
    } finally {
      live.abort = null;
    }
    if (!live.open || live.session !== session) break;
    if (answer) {
      received(started, answer);
      await sleep(Math.max(0, FRAME_GAP_MS - (performance.now() - started)));
    } else {
      await sleep(BUSY_WAIT_MS);  // busy or offline: skip this frame
    }
  }
}

function received(captured, answer) {
  const state = getState();
  live.settle.setExpected(answer.expected);
  live.reading = answer;
  live.settle.reading(captured, answer);
  live.frames += 1;
  const now = performance.now();
  live.times.push(now);
  while (live.times.length && now - live.times[0] > 2000) live.times.shift();
  drawOverlay(answer);
  // Dice that would come out tiny in the still are where readings go wrong: ask to move closer now.
  const small = $('live-small');
  if (small) small.hidden = !answer.small_dice;
  // More dice in view than the throw: the count may take the wrong ones, so ask for them to go now.
  const more = $('live-more');
  if (more) more.hidden = !answer.left_out;
  if (answer.version > state.version) refresh();
  evaluate(now);
}

let refreshing = false;
/** The game moved on elsewhere (a frame says so): fetch it. */
async function refresh() {
  if (refreshing) return;
  refreshing = true;
  try {
    setState(await request('GET', apiBase()));
  } catch (e) {
    // the next frame asks again
  } finally {
    refreshing = false;
  }
}

function evaluate(now) {
  if (!live.open || live.paused) return;
  const s = live.settle.status(now);
  show(s);
  if (s.phase === 'ready' && !live.busy) take();
}

function beep() {
  try {
    const ctx = live.audio;
    if (ctx) {
      const osc = ctx.createOscillator();
      const gain = ctx.createGain();
      osc.frequency.value = 880;
      gain.gain.value = 0.12;
      osc.connect(gain).connect(ctx.destination);
      osc.start();
      osc.stop(ctx.currentTime + 0.12);
    }
  } catch (e) { /* no sound: the vibration and the screen still say it */ }
  if (navigator.vibrate && navigator.userActivation && navigator.userActivation.hasBeenActive) navigator.vibrate(80);
}

/** Take the throw now (settled, or the player said "take it anyway"): a full-size still,
 * entered as a photo throw. */
async function take() {
  if (live.busy || !live.open) return;
  const seen = live.reading;
  // The game as these dice were seen: if another phone enters them while this one
  // captures and sends, the server refuses this copy as stale instead of taking them twice.
  const version = getState().version;
  const knew = live.throwId;
  live.busy = true;
  offerAnyway(false);
  say(T.live_taking);
  try {
    const blob = await capture(null, STILL_QUALITY);
    if (!live.open) return;
    beep();
    const form = new FormData();
    form.append('photo', blob, 'live.jpg');
    if (who()) form.append('by', who());
    form.append('version', String(version));
    const res = await request('POST', apiBase() + '/throws', form);
    live.settle.took(seen);
    live.throwId = res.throw_id;
    setState(res.state);
    toast(fmt('live_took', {n: res.number}));
  } catch (err) {
    // Refused or failed: this scene is not taken again by itself (the player can take it anyway).
    live.settle.took(seen);
    const other = err.status === 409 && err.game && err.game.throw;
    if (other && other.throw_id !== knew) {
      // Another phone at the table took these dice first: the throw is in, not an error.
      setState(err.game);
      toast(fmt('live_took', {n: other.number}));
    } else {
      fail(err);
    }
  } finally {
    live.busy = false;
  }
}

async function open() {
  if (live.open || !supported()) return;
  live.open = true;
  live.session += 1;
  live.frames = 0;
  live.times = [];
  live.reading = null;
  live.settle = new Settle(getState().expected_dice);
  live.throwId = getState().throw ? getState().throw.throw_id : null;
  // Opened over a throw already in (by photo, by hand, by another phone): those dice are
  // not taken again; the camera waits for them to move.
  const already = throwReading(getState());
  if (already && step(getState()) === 'photo') live.settle.took(already);
  const p = panel();
  build();
  p.hidden = false;
  document.body.classList.add('live-on');
  $('live-btn').setAttribute('aria-expanded', 'true');
  if (!live.audio && (window.AudioContext || window.webkitAudioContext)) {
    try { live.audio = new (window.AudioContext || window.webkitAudioContext)(); } catch (e) { live.audio = null; }
  }
  try {
    const stream = await navigator.mediaDevices.getUserMedia({audio: false,
      // 1280 px is plenty for dice seen from above, and keeps the still quick to send and read.
      video: {facingMode: {ideal: 'environment'}, width: {ideal: 1280}, height: {ideal: 960}}});
    if (!live.open) { stream.getTracks().forEach((t) => t.stop()); return; }
    live.stream = stream;
    live.video.srcObject = stream;
    await live.video.play().catch(() => {});
    live.video.addEventListener('loadedmetadata', fitWrap);
    fitWrap();
  } catch (err) {
    const text = err && err.name === 'NotAllowedError' ? T.live_denied
      : err && err.name === 'NotFoundError' ? T.live_no_camera : T.live_failed;
    close();
    toast(text, true);
    return;
  }
  say(T.live_moving);
  startThumbs();
  sync(getState());
  frameLoop(live.session);
  p.scrollIntoView({behavior: scrollBehavior(), block: 'start'});
}

/** The picture box takes the video's shape, so the dice's shares land on the dice. */
function fitWrap() {
  const v = live.video;
  if (v && v.videoWidth) $('live-wrap').style.aspectRatio = v.videoWidth + ' / ' + v.videoHeight;
}

/** Stop the camera and every loop; nothing is sent after this. */
function close(keepResume = false) {
  if (!keepResume) live.resume = false;
  live.open = false;
  live.session += 1;
  if (live.abort) live.abort.abort();
  clearInterval(live.thumbTimer);
  live.thumbTimer = null;
  if (live.stream) live.stream.getTracks().forEach((t) => t.stop());
  live.stream = null;
  if (live.video) live.video.srcObject = null;
  live.video = null;
  const p = panel();
  if (p) { p.hidden = true; clear(p); delete p.dataset.phase; }
  document.body.classList.remove('live-on');
  const btn = $('live-btn');
  if (btn) btn.setAttribute('aria-expanded', 'false');
}

/** Follow the game's state: pause for a set-aside, close after the turn's last throw. */
function sync(state) {
  const now = step(state);
  if (live.open && (now === 'done' || now === 'none')) close();
  const btn = $('live-btn');
  if (btn) btn.disabled = !supported() || (!live.open && now !== 'photo');
  if (!live.open) return;
  live.paused = now === 'aside';
  const id = state.throw ? state.throw.throw_id : null;
  if (id && id !== live.throwId && !live.busy) {
    // Another phone (or a hand) entered this throw: the dice in view are in, not to be taken again.
    live.settle.took(live.reading || throwReading(state));
  }
  live.throwId = id;
  if (live.settle) live.settle.setExpected(state.expected_dice);
  if (live.paused) {
    panel().dataset.phase = 'paused';
    say(T.live_paused);
    offerAnyway(false);
  }
  drawKeep(state);
  drawOverlay(live.reading);
}

/** Wire the Live button (game.js calls this once). */
export function initLive() {
  const btn = $('live-btn');
  if (!btn) return;
  const why = $('live-why');
  if (!supported()) {
    btn.disabled = true;
    if (why) {
      // The command is kept on one line, so it can be read and typed as it is.
      const command = 'dicecam serve --https';
      const [before, ...after] = T.live_insecure.split(command);
      clear(why).append(before, ...(after.length ? [el('code', {className: 'live-cmd'}, command), after.join(command)] : []));
      why.hidden = false;
    }
  }
  btn.addEventListener('click', () => (live.open ? close() : open()));
  subscribe(sync);
  sync(getState());
  document.addEventListener('visibilitychange', () => {
    if (document.hidden && live.open) {
      live.resume = true;
      close(true);
    } else if (!document.hidden && live.resume) {
      live.resume = false;
      if (step(getState()) === 'photo') open();
    }
  });
  window.addEventListener('pagehide', () => close());
}
