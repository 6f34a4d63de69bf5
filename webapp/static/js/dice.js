/* Die faces drawn with CSS (no images). */
import {el} from './dom.js';

const PIPS = {1: [4], 2: [2, 6], 3: [2, 4, 6], 4: [0, 2, 6, 8], 5: [0, 2, 4, 6, 8], 6: [0, 2, 3, 5, 6, 8]};

/** A die face for `value` (1-6); `tag` "button" makes it tappable; `label` is read out. */
export function dieFace(value, tag = 'span', label = String(value)) {
  const face = el(tag, {className: 'die', dataset: {value: String(value)}, ariaLabel: label});
  if (tag === 'button') face.type = 'button';
  else face.setAttribute('role', 'img');
  const on = PIPS[value] || [];
  for (let i = 0; i < 9; i++) face.appendChild(el('i', {className: on.includes(i) ? 'on' : ''}));
  return face;
}

/** A small row of die faces. */
export function diceRow(values, label) {
  const row = el('span', {className: 'dice-row small', role: 'img', ariaLabel: label || values.join(' ')});
  for (const v of values) {
    const face = dieFace(v);
    face.removeAttribute('role');
    face.setAttribute('aria-hidden', 'true');
    row.appendChild(face);
  }
  return row;
}
