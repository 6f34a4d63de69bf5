/* The throw's evidence page: each die read, as the photo shows it (closeup.js). */
import {placeCloseup} from './closeup.js';

const row = document.getElementById('closeups');
if (row) {
  const {photo, annotated, width, height} = row.dataset;
  for (const tile of row.querySelectorAll('.die-closeup[data-box]')) {
    placeCloseup(tile, tile.dataset.box.split(',').map(Number), Number(width), Number(height), photo, annotated);
  }
}
