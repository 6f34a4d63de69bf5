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
