/* DOM helpers: every node is built with el(); user data only ever goes in as text. */

/** The element with this id. */
export const $ = (id) => document.getElementById(id);

/**
 * el('div', {className: 'x', onclick: f, dataset: {...}, ariaLabel: '...'}, 'text', child)
 * Strings become text nodes (never HTML); null, undefined and false children are skipped.
 */
export function el(tag, props, ...children) {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(props || {})) {
    if (v === undefined || v === null) continue;
    if (k === 'dataset') Object.assign(node.dataset, v);
    else if (k.startsWith('aria') || k === 'role' || k === 'colspan' || k === 'scope') {
      node.setAttribute(k.replace(/^aria([A-Z])/, (_, c) => 'aria-' + c.toLowerCase()), v);
    } else node[k] = v;
  }
  for (const child of children) {
    if (child === null || child === undefined || child === false) continue;
    node.appendChild(typeof child === 'string' || typeof child === 'number'
      ? document.createTextNode(String(child)) : child);
  }
  return node;
}

/** How to scroll the page: at once where the phone asks for less motion, else smoothly. */
export function scrollBehavior() {
  return window.matchMedia && window.matchMedia('(prefers-reduced-motion: reduce)').matches ? 'auto' : 'smooth';
}

/** Empty `node` and hand it back. */
export function clear(node) {
  while (node.firstChild) node.removeChild(node.firstChild);
  return node;
}

/**
 * Put `text` in `node` only where it says something else (or `again`, e.g. for a new
 * throw): a live region speaks on every change of its text, and writing the same
 * text again is a change. True when it wrote.
 */
export function setText(node, text, again = false) {
  if (node.textContent === text && !again) return false;
  if (again) node.textContent = '';
  node.textContent = text;
  return true;
}

/** What a screen reader says for `node`: its text, a picture's label for the picture,
 * nothing of what is hidden from it. */
export function spokenText(node) {
  if (node.nodeType === 3) return node.textContent;
  if (node.nodeType !== 1 || node.hidden || node.getAttribute('aria-hidden') === 'true') return '';
  if (node.getAttribute('role') === 'img') return node.getAttribute('aria-label') || '';
  return [...node.childNodes].map(spokenText).join(' ').replace(/\s+/g, ' ').trim();
}
