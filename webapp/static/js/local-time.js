/* Times on the start, log and evidence pages in this phone's time zone: the server writes
 * UTC (ISO 8601) into <time datetime>, the table reads its own clock. `data-format`:
 * "time" (the time only), "date" (the day only), else both. */
import {localTime} from './i18n.js';

for (const node of document.querySelectorAll('time[datetime]')) {
  node.textContent = localTime(node.getAttribute('datetime'), node.dataset.format);
  node.title = node.getAttribute('datetime');
}
