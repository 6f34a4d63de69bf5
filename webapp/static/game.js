/* The game page: photo in, options out, running sheet. Plain JS, no build step.
 * User data is only ever written with textContent, never as HTML. */
(function () {
  'use strict';

  var $ = function (id) { return document.getElementById(id); };
  var T = JSON.parse($('texts-data').textContent);
  var state = JSON.parse($('state-data').textContent);
  var API = $('game').dataset.api;
  var MAX_SIDE = 2000;
  var POLL_MS = 3000;
  var busyFlag = false;
  var retakeMode = false;
  var whoKey = 'dicecam.who.' + state.id;

  var LOCALE = document.documentElement.lang === 'en' ? 'en-GB' : 'de-DE';

  /** Würfelpoker counts in whole points, the Kniffel family to a tenth. */
  function digits() { return state.family === 'push' ? 0 : 1; }

  /** 231.44 -> "231,4" (German) or "231.4" (English). */
  function num(x) {
    return Number(x).toLocaleString(LOCALE, {minimumFractionDigits: digits(), maximumFractionDigits: digits()});
  }

  /** "Erwartung 231,4" (with "≈" where the advisor estimates), "· −3,2" against the best. */
  function evText(expected, loss, exact) {
    var text = T.expected + ' ' + (exact === false ? '≈' : '') + num(expected);
    // A loss that rounds to nothing is a tie, not a loss.
    if (loss && Number(loss.toFixed(digits())) > 0) text += ' · −' + num(loss);
    return text;
  }

  function fmt(key, values) {
    var text = T[key] || key;
    return text.replace(/\{(\w+)\}/g, function (_, k) {
      return values && values[k] !== undefined && values[k] !== null ? String(values[k]) : '?';
    });
  }

  /** el('div', {className: 'x', onclick: f}, 'text', child) */
  function el(tag, props) {
    var node = document.createElement(tag);
    if (props) {
      Object.keys(props).forEach(function (k) {
        if (k === 'dataset') Object.assign(node.dataset, props[k]);
        else if (k.indexOf('aria') === 0 || k === 'role' || k === 'colspan' || k === 'scope') node.setAttribute(k.replace(/^aria([A-Z])/, function (_, c) { return 'aria-' + c.toLowerCase(); }), props[k]);
        else node[k] = props[k];
      });
    }
    for (var i = 2; i < arguments.length; i++) {
      var child = arguments[i];
      if (child === null || child === undefined || child === false) continue;
      node.appendChild(typeof child === 'string' || typeof child === 'number' ? document.createTextNode(String(child)) : child);
    }
    return node;
  }

  function clear(node) { while (node.firstChild) node.removeChild(node.firstChild); return node; }

  function who() { return localStorage.getItem(whoKey) || ''; }

  // ------------------------------------------------------------------ server

  function api(method, path, body) {
    var opts = {method: method, headers: {Accept: 'application/json'}, credentials: 'same-origin'};
    if (body instanceof FormData) {
      opts.body = body;
    } else if (body !== undefined) {
      opts.headers['Content-Type'] = 'application/json';
      opts.body = JSON.stringify(body);
    }
    return fetch(API + path, opts).catch(function () {
      throw new Error(T.offline);
    }).then(function (resp) {
      return resp.json().catch(function () { return null; }).then(function (data) {
        if (!resp.ok) {
          var err = new Error((data && data.error) || ('HTTP ' + resp.status));
          err.status = resp.status;
          throw err;
        }
        return data;
      });
    });
  }

  function fail(err) {
    toast(err.message, true);
    // The game moved on elsewhere: show the sheet as it is now.
    if (err.status === 409 || err.status === 404) refresh();
  }

  function refresh() {
    return api('GET', '').then(setState).catch(function () {});
  }

  function setState(next) {
    if (!next) return;
    state = next;
    render();
  }

  function withBy(body) {
    if (who()) body.by = who();
    return body;
  }

  // ------------------------------------------------------------------ feedback

  var toastTimer = null;
  function toast(message, isError) {
    var box = $('toast');
    box.textContent = message;
    box.className = 'toast' + (isError ? ' toast-error' : '');
    box.hidden = false;
    clearTimeout(toastTimer);
    toastTimer = setTimeout(function () { box.hidden = true; }, isError ? 5000 : 2200);
  }

  function busy(text) {
    busyFlag = !!text;
    var label = $('camera-label');
    label.classList.toggle('busy', busyFlag);
    $('camera-text').textContent = text || cameraText();
    document.body.classList.toggle('is-busy', busyFlag);
  }

  // ------------------------------------------------------------------ photo

  /** Shrink the photo in the browser (long side MAX_SIDE) so it uploads fast. */
  function shrink(file) {
    if (!window.createImageBitmap) return Promise.resolve(file);
    return createImageBitmap(file, {imageOrientation: 'from-image'}).then(function (bitmap) {
      var scale = Math.min(1, MAX_SIDE / Math.max(bitmap.width, bitmap.height));
      if (scale === 1 && file.type === 'image/jpeg' && file.size < 2.5e6) return file;
      var canvas = document.createElement('canvas');
      canvas.width = Math.round(bitmap.width * scale);
      canvas.height = Math.round(bitmap.height * scale);
      canvas.getContext('2d').drawImage(bitmap, 0, 0, canvas.width, canvas.height);
      if (bitmap.close) bitmap.close();
      return new Promise(function (resolve) {
        canvas.toBlob(function (blob) { resolve(blob || file); }, 'image/jpeg', 0.9);
      });
    }).catch(function () { return file; });  // formats the browser cannot decode go up as they are
  }

  function uploadPhoto(file) {
    busy(T.shrinking);
    return shrink(file).then(function (blob) {
      busy(T.reading);
      var form = new FormData();
      form.append('photo', blob, 'photo.jpg');
      if (who()) form.append('by', who());
      if (retakeMode) form.append('retake', '1');
      return api('POST', '/throws', form);
    }).then(function (res) {
      setState(res.state);
      var result = $('result');
      if (result.scrollIntoView) result.scrollIntoView({behavior: 'smooth', block: 'start'});
    }).catch(fail).then(function () {
      retakeMode = false;
      busy(false);
      $('photo-input').value = '';
    });
  }

  // ------------------------------------------------------------------ actions

  function sendThrow(values) {
    return api('POST', '/throws', withBy({dice: values})).then(function (res) { setState(res.state); }).catch(fail);
  }

  function correct(dice) {
    var t = state.throw;
    var body = withBy({version: state.version, dice: dice.map(function (d) { return {value: d.value, box: d.box}; })});
    return api('POST', '/throws/' + encodeURIComponent(t.throw_id) + '/dice', body)
      .then(function (res) { setState(res.state); })
      .catch(fail);
  }

  function enter(body) {
    body.version = state.version;
    if (state.throw && !body.bank) body.throw_id = state.throw.throw_id;
    return api('POST', '/entries', withBy(body)).then(function (next) {
      setState(next);
      toast(T.saved);
    }).catch(fail);
  }

  function undo() {
    if (!window.confirm(T.undo_confirm)) return;
    api('POST', '/undo', withBy({version: state.version})).then(setState).catch(fail);
  }

  // ------------------------------------------------------------------ modals

  var pickerTarget = null;  // index of the die being corrected, or -1 to add one

  // Six big die-face buttons in `grid`, each carrying its value as data-<key>.
  function fillFaceButtons(grid, key) {
    var faces = clear(grid);
    for (var v = 1; v <= 6; v++) {
      var b = window.dieFace(v, 'button');
      b.classList.add('die-big');
      b.dataset[key] = String(v);
      faces.appendChild(b);
    }
  }

  function openPicker(index) {
    pickerTarget = index;
    fillFaceButtons($('picker-faces'), 'pick');
    $('picker-remove').hidden = index < 0;
    $('picker').hidden = false;
  }

  function closePicker() { $('picker').hidden = true; pickerTarget = null; }

  $('picker-faces').addEventListener('click', function (ev) {
    var b = ev.target.closest('[data-pick]');
    if (!b || pickerTarget === null) return;
    var value = Number(b.dataset.pick);
    var dice = state.throw.dice.map(function (d) { return {value: d.value, box: d.box}; });
    if (pickerTarget < 0) dice.push({value: value, box: null});
    else dice[pickerTarget].value = value;
    closePicker();
    correct(dice);
  });
  $('picker-remove').addEventListener('click', function () {
    var dice = state.throw.dice.filter(function (_, i) { return i !== pickerTarget; });
    closePicker();
    correct(dice);
  });
  $('picker-cancel').addEventListener('click', closePicker);

  var manualValues = [];
  function openManual() {
    manualValues = [];
    fillFaceButtons($('manual-faces'), 'add');
    drawManual();
    $('manual').hidden = false;
  }
  function drawManual() {
    var need = state.expected_dice;
    var slots = clear($('manual-slots'));
    for (var i = 0; i < need; i++) {
      slots.appendChild(i < manualValues.length ? window.dieFace(manualValues[i]) : el('span', {className: 'die die-empty'}));
    }
    $('manual-ok').disabled = manualValues.length !== need;
  }
  $('manual-faces').addEventListener('click', function (ev) {
    var b = ev.target.closest('[data-add]');
    if (!b || manualValues.length >= state.expected_dice) return;
    manualValues.push(Number(b.dataset.add));
    drawManual();
  });
  $('manual-back').addEventListener('click', function () { manualValues.pop(); drawManual(); });
  $('manual-cancel').addEventListener('click', function () { $('manual').hidden = true; });
  $('manual-ok').addEventListener('click', function () {
    $('manual').hidden = true;
    sendThrow(manualValues.slice());
  });

  // ------------------------------------------------------------------ rendering

  function isSheet() { return state.family !== 'push'; }

  function cameraText() {
    if (state.finished) return T.finished;
    if (isSheet() && state.throw_number >= state.max_throws && state.throw) return T.options;
    return T.take_photo;
  }

  function canThrow() {
    if (state.finished) return false;
    if (isSheet()) return !(state.throw && state.throw_number >= state.max_throws);
    return !state.throw;
  }

  function renderBanner() {
    var box = clear($('banner'));
    if (state.finished) {
      var w = state.winner;
      var text = Array.isArray(w) ? fmt('tie', {players: w.join(', ')}) : fmt('winner', {player: w});
      box.appendChild(el('div', {className: 'banner-main finished'}, el('span', {className: 'trophy', ariaHidden: 'true'}, '★'), el('strong', null, text)));
    } else {
      var line = el('div', {className: 'banner-main'});
      line.appendChild(el('strong', {className: 'current-player', id: 'current-player'}, fmt('turn_of', {player: state.current_player})));
      var chip;
      if (isSheet()) {
        var n = state.throw ? state.throw_number : state.throw_number + 1;
        chip = el('span', {className: 'pill', id: 'throw-pill'}, fmt('throw_n', {n: Math.min(n, state.max_throws), max: state.max_throws}));
        var dots = el('span', {className: 'throw-dots', ariaHidden: 'true'});
        for (var i = 1; i <= state.max_throws; i++) dots.appendChild(el('i', {className: i <= state.throw_number ? 'done' : ''}));
        chip.appendChild(dots);
      } else {
        var ts = state.turn_state || {};
        chip = el('span', {className: 'pill', id: 'throw-pill'}, T.turn_total + ': ' + ts.turn_total + ' · ' + ts.dice_left + ' ' + T.dice_left);
      }
      line.appendChild(chip);
      box.appendChild(line);
    }
    var board = el('div', {className: 'scoreboard'});
    state.players.forEach(function (p) {
      var isWinner = state.finished && (state.winner === p || (Array.isArray(state.winner) && state.winner.indexOf(p) >= 0));
      board.appendChild(el('div', {className: 'score-chip' + (p === state.current_player ? ' active' : '') + (isWinner ? ' winner' : ''), dataset: {player: p}},
        el('span', {className: 'score-name'}, p),
        el('span', {className: 'score-total'}, String(state.totals[p]))));
    });
    box.appendChild(board);
  }

  function renderActions() {
    $('actions').hidden = state.finished;
    var can = canThrow();
    $('camera-label').classList.toggle('disabled', !can);
    $('photo-input').disabled = !can || busyFlag;
    $('manual-btn').disabled = !can;
    if (!busyFlag) $('camera-text').textContent = cameraText();
    $('retake-btn').hidden = !(state.throw && state.throw.source === 'photo');
    $('undo-btn').disabled = !state.can_undo;
  }

  /** Indices of the dice the advisor would keep (or set aside in Würfelpoker). */
  function advisedPositions() {
    var a = state.throw && state.throw.advice;
    if (!a || !a.best || !a.best.positions || (a.stage !== 'keep' && a.stage !== 'push')) return [];
    return a.best.positions;
  }

  function renderThrow() {
    var t = state.throw;
    var section = $('result');
    section.hidden = !t || state.finished;
    if (!t || state.finished) return;
    $('result-title').textContent = fmt('throw_n', {n: t.number, max: isSheet() ? state.max_throws : '∞'}).replace(/ (von|of) ∞$/, '') + ' · ' + t.player;
    $('result-meta').textContent = t.source === 'photo' ? '' : T.no_photo;

    // Which dice the advisor would keep: marked on the photo and in the row.
    var positions = advisedPositions();
    var keepMarks = t.dice.map(function (_, i) { return positions.indexOf(i) >= 0; });
    var keepLabel = isSheet() ? T.keep_tag : T.set_aside_tag;
    var low = t.low_confidence || 0.7;

    var wrap = $('photo-wrap');
    var overlay = clear($('overlay'));
    if (t.annotated_url) {
      wrap.hidden = false;
      var img = $('annotated');
      if (img.getAttribute('src') !== t.annotated_url) img.src = t.annotated_url;
      t.dice.forEach(function (d, i) {
        if (!d.box || !t.width) return;
        var b = el('button', {type: 'button', className: 'die-hit' + (d.confidence !== null && d.confidence < low ? ' uncertain' : '') + (keepMarks[i] ? ' keep' : ''),
          ariaLabel: T.fix_die + ' ' + d.value + (keepMarks[i] ? ' (' + keepLabel + ')' : ''), dataset: {index: String(i)}},
          el('span', {className: 'die-hit-value'}, String(d.value) + (keepMarks[i] ? ' ✓' : '')));
        b.style.left = (100 * d.box[0] / t.width) + '%';
        b.style.top = (100 * d.box[1] / t.height) + '%';
        b.style.width = (100 * (d.box[2] - d.box[0]) / t.width) + '%';
        b.style.height = (100 * (d.box[3] - d.box[1]) / t.height) + '%';
        overlay.appendChild(b);
      });
    } else {
      wrap.hidden = true;
    }

    var strip = clear($('dice-strip'));
    t.dice.forEach(function (d, i) {
      var face = window.dieFace(d.value, 'button');
      face.dataset.index = String(i);
      face.classList.add('die-big');
      if (d.confidence !== null && d.confidence < low) { face.classList.add('uncertain'); face.title = T.uncertain; }
      if (keepMarks[i]) { face.classList.add('keep'); face.title = keepLabel; }
      strip.appendChild(face);
    });
    if (t.dice.length < t.expected_dice || t.dice.length === 0) {
      strip.appendChild(el('button', {type: 'button', className: 'die die-big die-add', id: 'add-die', ariaLabel: T.add_die}, '+'));
    }
    var warn = $('dice-warning');
    warn.hidden = t.dice.length === t.expected_dice;
    warn.textContent = fmt('dice_count', {n: t.expected_dice, got: t.dice.length});

    renderAdvice(t);
    renderOptions(t);
  }

  function diceRow(values) {
    var row = el('span', {className: 'dice-row small'});
    values.forEach(function (v) { row.appendChild(window.dieFace(v)); });
    return row;
  }

  function isStand(a, keep) { return keep.length === a.dice.length; }

  function renderAdvice(t) {
    var box = clear($('advice'));
    var a = t.advice;
    var waiting = t.advice_status === 'pending' || t.advice_status === 'building';
    box.classList.toggle('advice-pending', waiting);
    if (waiting) {
      box.hidden = false;
      box.appendChild(el('span', null, t.advice_status === 'building' ? T.advice_building : T.advice_pending));
      return;
    }
    if (!a || !a.best) { box.hidden = true; return; }
    box.hidden = false;
    var best = a.best;
    var head = el('div', {className: 'advice-head'});
    if (a.stage === 'keep') {
      if (isStand(a, best.keep)) head.appendChild(el('span', null, T.keep_all_hint));
      else if (!best.keep.length) head.appendChild(el('span', null, T.reroll_all_hint));
      else head.appendChild(el('span', null, T.keep_hint + ' ', diceRow(best.keep)));
    } else if (a.stage === 'box') {
      head.appendChild(el('span', null, T.advice + ': ' + (state.labels[best.box] || best.box) + (best.column ? ' ×' + best.column : '')));
    } else if (a.stage === 'push') {
      head.appendChild(el('span', null, T.advice + ': ', diceRow(best.keep), ' ' + (best.bank ? T.then_bank : T.then_again)));
    } else {
      box.hidden = true;
      return;
    }
    box.appendChild(head);
    box.appendChild(el('div', {className: 'advice-ev', title: a.exact === false ? T.estimate : ''}, evText(best.expected, null, a.exact)));
    if (a.stage === 'keep' && a.actions.length > 1) {
      var list = el('ol', {className: 'alt-list'});
      a.actions.slice(1, 7).forEach(function (x) {
        var what = isStand(a, x.keep) ? el('span', null, T.keep_all) : (x.keep.length ? diceRow(x.keep) : el('span', null, T.reroll_all));
        list.appendChild(el('li', {className: 'alt'}, what, el('span', {className: 'alt-ev'}, evText(x.expected, x.loss, a.exact))));
      });
      var fold = el('details', {id: 'keep-alts', className: 'alt-fold'}, el('summary', null, T.keep_alternatives), list);
      box.appendChild(fold);
    }
  }

  function renderOptions(t) {
    var list = clear($('options'));
    var a = t.advice;
    var keepStage = !!(a && a.stage === 'keep' && a.best && !isStand(a, a.best.keep));
    var byAdvice = t.ranked_by === 'advice';
    $('options-title').textContent = isSheet() ? (keepStage ? T.options_now : T.options) : T.options_push;
    $('options-title').hidden = !t.options.length && !t.bust;
    if (!isSheet() && t.bust) {
      list.appendChild(el('li', {className: 'bust'},
        el('p', null, T.bust),
        el('button', {type: 'button', className: 'btn btn-danger btn-big', id: 'bust-btn', onclick: function () { enter({keep: []}); }}, T.bust_ok)));
      return;
    }
    var scratch = null;
    t.options.forEach(function (o, i) {
      var btn;
      var marked = byAdvice ? o.advised : (i === 0 && (!isSheet() || o.points > 0));
      // After throw 1 or 2 the tip is the keep above; the best box is only the best box.
      var bestTag = marked ? el('span', {className: 'tag tag-best'}, byAdvice && !keepStage ? T.advice : T.best) : null;
      var ev = null;
      if (byAdvice && o.expected !== null && o.expected !== undefined) {
        // Parts that wrap as wholes: "dann weiterwürfeln ·" / "Erwartung 397 · −653".
        ev = el('span', {className: 'option-ev', title: t.advice_exact === false ? T.estimate : ''},
          isSheet() ? null : el('span', {className: 'nowrap'}, (o.bank ? T.then_bank : T.then_again) + ' ·'),
          isSheet() ? null : ' ',
          el('span', {className: 'nowrap'}, evText(o.expected, o.loss, t.advice_exact)));
      }
      if (isSheet()) {
        btn = el('button', {type: 'button', className: 'option' + (marked ? ' best' : '') + (o.points === 0 ? ' zero' : ''),
          dataset: {box: o.box, column: o.column === null ? '' : String(o.column)},
          onclick: function () { enter({box: o.box, column: o.column}); }},
          el('span', {className: 'option-main'},
            el('span', {className: 'option-top'},
              el('span', {className: 'option-label'}, o.label),
              o.column ? el('span', {className: 'tag'}, '×' + o.column) : null,
              o.joker ? el('span', {className: 'tag tag-joker'}, T.joker) : null,
              bestTag,
              o.points === 0 ? el('span', {className: 'tag tag-muted'}, T.scratch) : null),
            ev),
          el('span', {className: 'option-points'}, String(o.points)));
      } else {
        btn = el('button', {type: 'button', className: 'option' + (marked ? ' best' : ''), dataset: {keep: o.keep.join(',')},
          onclick: function () { enter({keep: o.keep}); }},
          el('span', {className: 'option-main'},
            el('span', {className: 'option-top'},
              diceRow(o.keep),
              o.hot_dice ? el('span', {className: 'tag tag-joker'}, T.hot_dice_tag) : null,
              el('span', {className: 'option-label muted'}, '→ ' + o.turn_total),
              bestTag),
            ev),
          el('span', {className: 'option-points'}, '+' + o.points));
      }
      // Scratch options (0 points) go into a fold below the ones that score.
      if (isSheet() && o.points === 0 && !marked) {
        if (!scratch) {
          scratch = el('ol', {className: 'options'});
          list.appendChild(el('li', {className: 'scratch-fold'},
            el('details', {id: 'scratch-fold'}, el('summary', null, T.scratch_fold), scratch)));
        }
        scratch.appendChild(el('li', null, btn));
      } else {
        list.appendChild(el('li', null, btn));
      }
    });
  }

  function renderPushPanel() {
    var panel = $('push-panel');
    if (isSheet() || state.finished) { panel.hidden = true; return; }
    var ts = state.turn_state || {turn_total: 0, dice_left: 6, hot_dice: false};
    panel.hidden = false;
    clear(panel);
    panel.appendChild(el('div', {className: 'push-total'},
      el('span', {className: 'muted'}, T.turn_total),
      el('strong', {id: 'turn-total'}, String(ts.turn_total)),
      el('span', {className: 'muted'}, ts.dice_left + ' ' + T.dice_left)));
    if (ts.hot_dice) panel.appendChild(el('p', {className: 'hot'}, T.hot_dice));
    var row = el('div', {className: 'action-row'});
    var bank = el('button', {type: 'button', className: 'btn btn-primary', id: 'bank-btn', onclick: function () { enter({bank: true}); }}, T.bank + ' (' + ts.turn_total + ')');
    bank.disabled = !(ts.turn_total > 0) || !!state.throw;
    var again = el('button', {type: 'button', className: 'btn', id: 'again-btn', onclick: function () { $('photo-input').click(); }}, T.throw_again);
    again.disabled = !!state.throw || !(ts.turn_total > 0);
    row.appendChild(bank);
    row.appendChild(again);
    panel.appendChild(row);
    var hint = state.bank_advice;
    if (hint && hint.status === 'ready' && !state.throw) {
      (hint.bank ? bank : again).classList.add('advised');
      var words = {bank: num(hint.expected_bank), again: num(hint.expected_again)};
      panel.appendChild(el('p', {className: 'advice', id: 'bank-advice'}, fmt(hint.bank ? 'bank_tip' : 'again_tip', words)));
    } else if (hint && !state.throw) {
      panel.appendChild(el('p', {className: 'advice advice-pending'}, hint.status === 'building' ? T.advice_building : T.advice_pending));
    }
  }

  var UPPER = ['ones', 'twos', 'threes', 'fours', 'fives', 'sixes'];

  function cellText(value) {
    if (value === null || value === undefined) return '';
    if (value === 0 && state.variant === 'spiffel') return 'XXX';
    return String(value);
  }

  function renderSheet() {
    var table = clear($('sheet'));
    if (!isSheet()) return renderPushSheet(table);
    var cols = state.columns;
    var preview = {};
    var bestKey = null;
    if (state.throw && !state.finished) {
      state.throw.options.forEach(function (o, i) {
        var key = o.box + ':' + (o.column || 1);
        preview[key] = o;
        if (i === 0) bestKey = key;
      });
    }
    var thead = el('thead');
    var head = el('tr', null, el('th', {scope: 'col', className: 'corner'}, ''));
    state.players.forEach(function (p) {
      var th = el('th', {scope: 'col', className: 'player-head' + (p === state.current_player ? ' current' : '')}, p);
      th.colSpan = cols;
      head.appendChild(th);
    });
    thead.appendChild(head);
    if (cols > 1) {
      var sub = el('tr', {className: 'col-head'}, el('th', {className: 'corner'}, ''));
      state.players.forEach(function (p) {
        for (var c = 1; c <= cols; c++) sub.appendChild(el('th', {className: p === state.current_player ? 'current' : ''}, '×' + c));
      });
      thead.appendChild(sub);
    }
    table.appendChild(thead);
    var body = el('tbody');

    function boxRow(box) {
      var tr = el('tr', {className: 'box-row'}, el('th', {scope: 'row'}, state.labels[box]));
      state.players.forEach(function (p) {
        state.sheet[p].columns.forEach(function (col, ci) {
          var v = col.boxes[box];
          var td = el('td', {className: p === state.current_player ? 'current' : ''});
          var key = box + ':' + (ci + 1);
          if (v === null && p === state.current_player && preview[key]) {
            var o = preview[key];
            td.appendChild(el('button', {type: 'button', className: 'cell-pick' + (key === bestKey ? ' best' : '') + (o.points === 0 ? ' zero' : ''),
              ariaLabel: state.labels[box] + ' ' + o.points, dataset: {box: box, column: cols > 1 ? String(ci + 1) : ''},
              onclick: function () { enter({box: box, column: o.column}); }}, String(o.points)));
          } else {
            td.textContent = cellText(v);
            if (v === 0) td.classList.add('zero');
          }
          tr.appendChild(td);
        });
      });
      body.appendChild(tr);
    }

    function sumRow(label, pick, cls) {
      var tr = el('tr', {className: 'sum-row ' + (cls || '')}, el('th', {scope: 'row'}, label));
      state.players.forEach(function (p) {
        state.sheet[p].columns.forEach(function (col) {
          var v = pick(col, p);
          tr.appendChild(el('td', {className: (p === state.current_player ? 'current' : '') + (cls === 'bonus-row' && v > 0 ? ' earned' : '')}, String(v)));
        });
      });
      body.appendChild(tr);
    }

    state.boxes.filter(function (b) { return UPPER.indexOf(b) >= 0; }).forEach(boxRow);
    sumRow(T.upper, function (c) { return c.upper; });
    sumRow(T.bonus + ' (+35)', function (c) { return c.bonus; }, 'bonus-row');
    state.boxes.filter(function (b) { return UPPER.indexOf(b) < 0; }).forEach(boxRow);
    sumRow(T.lower, function (c) { return c.lower; });
    var anyExtra = state.players.some(function (p) { return state.sheet[p].extra_bonus > 0; });
    if (anyExtra) {
      var tr = el('tr', {className: 'sum-row bonus-row'}, el('th', {scope: 'row'}, T.extra_bonus));
      state.players.forEach(function (p) {
        var td = el('td', {className: (p === state.current_player ? 'current' : '') + (state.sheet[p].extra_bonus ? ' earned' : '')}, String(state.sheet[p].extra_bonus));
        td.colSpan = cols;
        tr.appendChild(td);
      });
      body.appendChild(tr);
    }
    sumRow(T.total, function (c) { return c.total; }, cols > 1 ? 'col-total' : 'total-row');
    if (cols > 1 || anyExtra) {
      var gt = el('tr', {className: 'sum-row total-row'}, el('th', {scope: 'row'}, T.grand_total));
      state.players.forEach(function (p) {
        var td = el('td', {className: p === state.current_player ? 'current' : '', dataset: {total: p}}, String(state.totals[p]));
        td.colSpan = cols;
        gt.appendChild(td);
      });
      body.appendChild(gt);
    }
    table.appendChild(body);
  }

  function renderPushSheet(table) {
    var target = state.options.target;
    var thead = el('thead');
    var head = el('tr', null, el('th', {className: 'corner'}, ''));
    state.players.forEach(function (p) {
      head.appendChild(el('th', {scope: 'col', className: 'player-head' + (p === state.current_player ? ' current' : '')}, p));
    });
    thead.appendChild(head);
    table.appendChild(thead);
    var body = el('tbody');
    var rounds = Math.max.apply(null, state.players.map(function (p) { return state.sheet[p].turns.length; }).concat([0]));
    for (var r = 0; r < rounds; r++) {
      var tr = el('tr', {className: 'box-row'}, el('th', {scope: 'row'}, String(r + 1)));
      state.players.forEach(function (p) {
        var v = state.sheet[p].turns[r];
        tr.appendChild(el('td', {className: (p === state.current_player ? 'current' : '') + (v === 0 ? ' zero' : '')}, v === undefined ? '' : (v === 0 ? '–' : String(v))));
      });
      body.appendChild(tr);
    }
    var total = el('tr', {className: 'sum-row total-row'}, el('th', {scope: 'row'}, T.score));
    var togo = el('tr', {className: 'sum-row'}, el('th', {scope: 'row'}, T.target_short + ' ' + target));
    state.players.forEach(function (p) {
      var score = state.sheet[p].score;
      total.appendChild(el('td', {className: p === state.current_player ? 'current' : '', dataset: {total: p}}, String(score)));
      var bar = el('div', {className: 'progress'}, el('i'));
      bar.firstChild.style.width = Math.min(100, 100 * score / target) + '%';
      togo.appendChild(el('td', {className: p === state.current_player ? 'current' : ''}, bar));
    });
    body.appendChild(total);
    body.appendChild(togo);
    table.appendChild(body);
  }

  function renderReview() {
    var box = clear($('review'));
    var r = state.review;
    box.hidden = !r;
    if (!r) return;
    box.appendChild(el('h2', null, T.review_title));
    if (r.status !== 'ready') { box.appendChild(el('p', {className: 'muted'}, T.review_pending)); return; }
    box.appendChild(el('p', {className: 'muted small'}, T.review_intro));
    function named(x) { return (state.labels[x.box] || x.label) + (x.column ? ' ×' + x.column : '') + ' (' + x.points + ')'; }
    state.players.forEach(function (p) {
      var turns = r.players[p] || [];
      box.appendChild(el('h3', {className: 'review-player'}, p));
      if (!turns.length) { box.appendChild(el('p', {className: 'review-clean'}, T.review_clean)); return; }
      var list = el('ol', {className: 'review-list'});
      turns.forEach(function (x) {
        list.appendChild(el('li', {className: 'review-item', dataset: {turn: String(x.turn)}},
          el('span', {className: 'review-top'},
            el('span', {className: 'muted'}, fmt('review_turn', {n: x.turn})),
            diceRow(x.dice),
            el('strong', {className: 'review-loss'}, '−' + (r.exact ? '' : '≈') + num(x.loss))),
          el('span', null, fmt('review_instead', {chosen: named(x.chosen), best: named(x.best)}))));
      });
      box.appendChild(list);
    });
  }

  function render() {
    document.body.classList.toggle('finished', !!state.finished);
    // A re-render (advice arriving, another phone) must not snap open folds shut.
    var open = ['scratch-fold', 'keep-alts'].filter(function (id) { return $(id) && $(id).open; });
    renderBanner();
    renderReview();
    renderActions();
    renderThrow();
    renderPushPanel();
    renderSheet();
    open.forEach(function (id) { if ($(id)) $(id).open = true; });
  }

  // ------------------------------------------------------------------ wiring

  $('photo-input').addEventListener('change', function () {
    var file = this.files && this.files[0];
    if (file) uploadPhoto(file);
  });
  $('manual-btn').addEventListener('click', openManual);
  $('retake-btn').addEventListener('click', function () {
    retakeMode = true;
    $('photo-input').disabled = false;
    $('photo-input').click();
  });
  $('undo-btn').addEventListener('click', undo);
  function tapDie(ev) {
    var hit = ev.target.closest('[data-index]');
    if (hit) openPicker(Number(hit.dataset.index));
    else if (ev.target.closest('#add-die')) openPicker(-1);
  }
  $('overlay').addEventListener('click', tapDie);
  $('dice-strip').addEventListener('click', tapDie);

  var whoSelect = $('who');
  whoSelect.value = who();
  whoSelect.addEventListener('change', function () { localStorage.setItem(whoKey, whoSelect.value); });

  /** What the advisor has said so far (it answers in the background, after the throw). */
  function adviceOf(s) {
    var t = s.throw;
    return JSON.stringify([t && t.advice_status, t && t.options, s.bank_advice, s.review]);
  }

  function pending(s) {
    var waits = function (status) { return status === 'pending' || status === 'building'; };
    return (s.throw && waits(s.throw.advice_status)) || (s.bank_advice && waits(s.bank_advice.status)) ||
      (s.review && waits(s.review.status));
  }

  // Other phones at the table change the game too: follow along.
  function poll() {
    var wait = pending(state) ? POLL_MS / 2 : POLL_MS;
    setTimeout(function () {
      if (document.hidden || busyFlag || !$('picker').hidden || !$('manual').hidden) return poll();
      api('GET', '').then(function (next) {
        if (next.version !== state.version || adviceOf(next) !== adviceOf(state)) setState(next);
      }).catch(function () {}).then(poll);
    }, wait);
  }
  poll();

  render();
})();
