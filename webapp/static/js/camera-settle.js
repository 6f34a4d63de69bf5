/* When have the dice come to rest? Pure logic over two witnesses, no DOM (docs/LIVE.md):
 *
 * - the picture: a small grey thumbnail, diffed frame to frame (`motion`: the share of it
 *   that changed, so a single die rolling over a still table counts, camera noise not);
 * - the readings: the server's dice for each frame, compared with the last (`sameReading`).
 *
 * A scene is taken when both have been still for `stillMs`, the reading has agreed at
 * least `minReadings` times, and it shows the expected number of dice, each one sure
 * to be a die. One settled scene gives one throw: after `took()` nothing is taken until
 * the picture moves or the reading changes, and never the same dice in the same
 * arrangement again (lifting the phone and pointing it back is not a new throw). */

export const SETTLE = Object.freeze({
  stillMs: 800,      // picture and reading unchanged this long before a throw is taken (rest to options < 1.5 s)
  wrongMs: 1500,     // a still scene with the wrong count this long: say what is seen
  motion: 0.004,     // share of the thumbnail that changed (0..1) that is movement: a die's size at 96 px
  level: 16,         // grey levels (0..255) a thumbnail pixel must change by to count as changed
  moveSamples: 2,    // thumbnails over `motion` within `moveWindowMs` that re-arm after a throw (one flicker does not)
  moveWindowMs: 500,
  changeReadings: 2, // readings in a row unlike the taken one that re-arm after a throw
  minReadings: 3,    // agreeing readings a throw needs at least
  centreTol: 0.5,    // a die's centre may wander this share of its size between readings
  sceneTol: 0.12,    // the same arrangement: centres within this share of the dice's spread
});

/** The share (0..1) of two grey thumbnails' pixels that differ by more than `level`;
 * 1 if they cannot be compared (a new size: the view changed). */
export function motion(a, b, level = SETTLE.level) {
  if (!a || !b || a.length !== b.length || !a.length) return 1;
  let changed = 0;
  for (let i = 0; i < a.length; i++) if (Math.abs(a[i] - b[i]) > level) changed += 1;
  return changed / a.length;
}

const hasBoxes = (r) => r.dice.every((d) => Array.isArray(d.box));
const values = (r) => r.dice.map((d) => d.value).sort().join();

const centre = (d) => [(d.box[0] + d.box[2]) / 2, (d.box[1] + d.box[3]) / 2];
const size = (d) => Math.max(d.box[2] - d.box[0], d.box[3] - d.box[1]);

/** Pair each die of `a` with an unused die of `b` of the same value for which `near(da, db)`;
 * true when every die finds one. */
function matched(a, b, near) {
  if (a.length !== b.length) return false;
  const used = new Array(b.length).fill(false);
  for (const da of a) {
    let best = -1;
    let bestDist = Infinity;
    b.forEach((db, j) => {
      if (used[j] || db.value !== da.value || !near(da, db)) return;
      const [ax, ay] = centre(da);
      const [bx, by] = centre(db);
      const dist = Math.hypot(ax - bx, ay - by);
      if (dist < bestDist) { bestDist = dist; best = j; }
    });
    if (best < 0) return false;
    used[best] = true;
  }
  return true;
}

/** Two readings of one unchanged scene: the same values, each die near where it was
 * (boxes as shares of the frame). */
export function sameReading(a, b, tol = SETTLE.centreTol) {
  if (!a || !b) return false;
  if (!hasBoxes(a) || !hasBoxes(b)) return values(a) === values(b);  // a throw typed in: its values
  return matched(a.dice, b.dice, (da, db) => {
    const [ax, ay] = centre(da);
    const [bx, by] = centre(db);
    return Math.hypot(ax - bx, ay - by) <= tol * Math.max(size(da), size(db));
  });
}

/** The dice's centres with shift and scale taken out (mean 0, spread 1). */
function shape(dice) {
  const cs = dice.map(centre);
  const mx = cs.reduce((s, c) => s + c[0], 0) / cs.length;
  const my = cs.reduce((s, c) => s + c[1], 0) / cs.length;
  const spread = Math.sqrt(cs.reduce((s, c) => s + (c[0] - mx) ** 2 + (c[1] - my) ** 2, 0) / cs.length) || 1;
  return dice.map((d, i) => ({value: d.value, c: [(cs[i][0] - mx) / spread, (cs[i][1] - my) / spread]}));
}

/** The same dice in the same arrangement, wherever in the picture and however near: what
 * a phone sees when it is lifted and pointed at the same throw again. */
export function sameScene(a, b, tol = SETTLE.sceneTol) {
  if (!a || !b || a.dice.length !== b.dice.length || !a.dice.length) return false;
  if (!hasBoxes(a) || !hasBoxes(b)) return values(a) === values(b);
  const sa = shape(a.dice);
  const sb = shape(b.dice);
  const used = new Array(sb.length).fill(false);
  for (const da of sa) {
    const j = sb.findIndex((db, k) => !used[k] && db.value === da.value &&
      Math.hypot(da.c[0] - db.c[0], da.c[1] - db.c[1]) <= tol);
    if (j < 0) return false;
    used[j] = true;
  }
  return true;
}

/** Dice a throw can be taken from: the expected count, none of them a guess. */
export function complete(reading, expected) {
  return !!reading && reading.dice.length === expected && reading.dice.every((d) => !d.guess);
}

/** How many dice a reading is sure are dice. */
export function seenIn(reading) {
  return reading ? reading.dice.filter((d) => !d.guess).length : 0;
}

/**
 * The settle state of one live session. Feed it `motion(t, score)` for each thumbnail
 * and `reading(t, r)` for each answered frame (`t`: when the frame was captured, ms);
 * `status(now)` says what to do:
 *
 *   moving   the picture moves (dice rolling, phone moving)
 *   looking  still, waiting for the reading to hold (`progress` 0..1)
 *   ready    take the throw now (`reading` is what was seen)
 *   wrong    still for a while with `seen` dice of `expected`: say so, offer to take it anyway
 *   more     still for a while with more dice in view than `expected` (`left_out`): the same
 *   empty    still, and no dice in view
 *   same     still, showing the dice just taken (the phone was lifted and pointed back)
 *   taken    the throw of this scene is in; waiting for the next
 *
 * `still` is how long the picture has not moved (ms).
 */
export class Settle {
  constructor(expected, options = {}) {
    this.opts = {...SETTLE, ...options};
    this.expected = expected;
    this.lastMove = -Infinity;   // when the picture last moved
    this.moves = [];             // when recent thumbnails were over the motion threshold
    this.samples = 0;
    this.run = [];               // the latest readings that agree with each other: [{t, r}]
    this.taken = null;           // the reading a throw was taken from; null when armed
    this.last = null;            // the reading of the last throw taken, to never take it twice
    this.changes = 0;            // readings in a row unlike `taken`
  }

  setExpected(n) {
    if (n !== this.expected) { this.expected = n; this.run = []; }
  }

  motion(t, score) {
    this.samples += 1;
    if (score > this.opts.motion) {
      this.lastMove = t;
      this.moves = this.moves.filter((m) => t - m < this.opts.moveWindowMs).concat([t]);
      if (this.taken && this.moves.length >= this.opts.moveSamples) this.taken = null;  // the dice (or the view) moved
    }
  }

  reading(t, r) {
    const latest = this.run.length ? this.run[this.run.length - 1].r : null;
    if (latest && sameReading(latest, r, this.opts.centreTol)) this.run.push({t, r});
    else this.run = [{t, r}];
    if (this.taken) {
      this.changes = sameReading(this.taken, r, this.opts.centreTol) ? 0 : this.changes + 1;
      if (this.changes >= this.opts.changeReadings) this.taken = null;  // a different scene
    }
  }

  /** The throw of the scene now in view was taken (or taken anyway, or by another phone, or
 * was already in when live mode opened); dice without boxes are compared by value. */
  took(reading) {
    this.taken = reading || (this.run.length ? this.run[this.run.length - 1].r : {dice: []});
    this.last = this.taken;
    this.changes = 0;
    this.moves = [];
  }

  status(now) {
    const o = this.opts;
    const latest = this.run.length ? this.run[this.run.length - 1].r : null;
    const seen = seenIn(latest);
    const base = {seen, expected: this.expected, reading: latest, progress: 0, still: now - this.lastMove};
    if (this.taken) return {...base, phase: 'taken'};
    if (!this.samples || now - this.lastMove < o.stillMs) return {...base, phase: 'moving'};
    const held = this.run.length ? now - Math.max(this.run[0].t, this.lastMove) : 0;
    // Readings of frames taken since the picture last moved, all agreeing.
    const fresh = this.run.filter((e) => e.t >= this.lastMove).length;
    const enough = fresh >= o.minReadings && held >= o.stillMs;
    if (!enough) return {...base, phase: 'looking', progress: Math.min(1, held / o.stillMs)};
    // Dice set aside or another player's in view: which are the throw's is a guess, so none is taken.
    if (latest && latest.left_out > 0) {
      return held >= o.wrongMs ? {...base, phase: 'more'} : {...base, phase: 'looking', progress: 1};
    }
    if (complete(latest, this.expected)) {
      if (this.last && sameScene(this.last, latest, o.sceneTol)) return {...base, phase: 'same'};
      return {...base, phase: 'ready', progress: 1};
    }
    if (seen === 0) return {...base, phase: 'empty'};
    return held >= o.wrongMs ? {...base, phase: 'wrong'} : {...base, phase: 'looking', progress: 1};
  }
}
