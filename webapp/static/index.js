/* Start page: player rows, variant options, and starting a game through the API. */
(function () {
  'use strict';
  var form = document.getElementById('new-game');
  var list = document.getElementById('player-list');
  var errorBox = document.getElementById('form-error');
  var pushOptions = document.querySelector('[data-for-family="push"]');

  function rows() { return Array.prototype.slice.call(list.querySelectorAll('.player-row')); }

  function renumber() {
    rows().forEach(function (row, i) {
      var input = row.querySelector('input');
      var label = input.getAttribute('placeholder').replace(/\d+$/, String(i + 1));
      input.setAttribute('placeholder', label);
      input.setAttribute('aria-label', label);
    });
  }

  document.getElementById('add-player').addEventListener('click', function () {
    var row = rows()[0].cloneNode(true);
    row.querySelector('input').value = '';
    list.appendChild(row);
    renumber();
    row.querySelector('input').focus();
  });

  list.addEventListener('click', function (ev) {
    if (!ev.target.closest('.remove-player')) return;
    if (rows().length <= 1) { rows()[0].querySelector('input').value = ''; return; }
    ev.target.closest('.player-row').remove();
    renumber();
  });

  function selected() { return form.querySelector('input[name="variant"]:checked'); }

  function syncVariant() {
    var v = selected();
    pushOptions.hidden = !v || v.dataset.family !== 'push';
  }
  form.addEventListener('change', syncVariant);
  syncVariant();

  form.addEventListener('submit', function (ev) {
    ev.preventDefault();
    var v = selected();
    var players = rows().map(function (r) { return r.querySelector('input').value.trim(); })
      .filter(function (n) { return n; });
    var options = {};
    if (v.dataset.family === 'push') {
      options.target = Number(form.elements.target.value) || 10000;
      options.finish_round = form.elements.finish_round.checked;
    }
    errorBox.hidden = true;
    fetch('/api/games', {
      method: 'POST',
      headers: {'Content-Type': 'application/json', Accept: 'application/json'},
      credentials: 'same-origin',
      body: JSON.stringify({variant: v.value, players: players, options: options})
    }).then(function (resp) {
      return resp.json().then(function (data) {
        if (!resp.ok) throw new Error(data.error);
        window.location.href = '/g/' + encodeURIComponent(data.id);
      });
    }).catch(function (err) {
      errorBox.textContent = err.message;
      errorBox.hidden = false;
    });
  });
})();
