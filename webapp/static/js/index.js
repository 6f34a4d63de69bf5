/* Start page: player rows, variant options, and starting a game through the API. */
import {request} from './api.js';
import {fmt} from './i18n.js';

const form = document.getElementById('new-game');
const list = document.getElementById('player-list');
const errorBox = document.getElementById('form-error');
const pushOptions = document.querySelector('[data-for-family="push"]');

const rows = () => [...list.querySelectorAll('.player-row')];

/** Row `i`'s remove button says whom it removes: "Ann entfernen", or "Spieler 2 entfernen"
 * while the row has no name yet. */
function nameRemove(row, i) {
  const name = row.querySelector('input').value.trim();
  const label = name ? fmt('remove_player_named', {name}) : fmt('remove_player_n', {n: i + 1});
  const button = row.querySelector('.remove-player');
  button.setAttribute('aria-label', label);
  button.setAttribute('title', label);
}

function renumber() {
  rows().forEach((row, i) => {
    const input = row.querySelector('input');
    const label = input.getAttribute('placeholder').replace(/\d+$/, String(i + 1));
    input.setAttribute('placeholder', label);
    input.setAttribute('aria-label', label);
    nameRemove(row, i);
  });
}

document.getElementById('add-player').addEventListener('click', () => {
  const row = rows()[0].cloneNode(true);
  row.querySelector('input').value = '';
  row.querySelector('input').removeAttribute('value');
  list.appendChild(row);
  renumber();
  row.querySelector('input').focus();
});

list.addEventListener('click', (ev) => {
  if (!ev.target.closest('.remove-player')) return;
  if (rows().length <= 1) { rows()[0].querySelector('input').value = ''; renumber(); return; }
  const row = ev.target.closest('.player-row');
  // Focus stays in the list: on the next row's name, else the one before.
  const next = row.nextElementSibling || row.previousElementSibling;
  row.remove();
  renumber();
  if (next) next.querySelector('input').focus();
});

// A name typed (or changed) renames its row's remove button.
list.addEventListener('input', (ev) => {
  const row = ev.target.closest('.player-row');
  if (row) nameRemove(row, rows().indexOf(row));
});
renumber();  // names the buttons of rows a browser refilled (back button, a refused form)

const selected = () => form.querySelector('input[name="variant"]:checked');

function syncVariant() {
  const v = selected();
  pushOptions.hidden = !v || v.dataset.family !== 'push';
}
form.addEventListener('change', syncVariant);
syncVariant();

form.addEventListener('submit', async (ev) => {
  ev.preventDefault();
  const v = selected();
  const players = rows().map((r) => r.querySelector('input').value.trim()).filter((n) => n);
  const options = {};
  if (v.dataset.family === 'push') {
    options.target = Number(form.elements.target.value) || 10000;
    options.finish_round = form.elements.finish_round.checked;
  }
  errorBox.hidden = true;
  try {
    const data = await request('POST', '/api/games', {variant: v.value, players, options});
    window.location.href = '/g/' + encodeURIComponent(data.id);
  } catch (err) {
    errorBox.textContent = err.message;
    errorBox.hidden = false;
  }
});
