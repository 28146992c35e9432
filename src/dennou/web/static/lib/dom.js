// Building DOM nodes. Every string becomes a text node: user text (names, talk) can never be
// parsed as HTML. No module of the app assigns HTML text.

/**
 * @typedef {string | number | Node | null | undefined | false | ChildList} Child
 * @typedef {Child[]} ChildList
 * @typedef {Record<string, string | number | boolean | null | undefined | EventListener>} Attrs
 */

/**
 * Create an element: `h('button', {class: 'x', onclick: fn}, 'text', child)`.
 * Attributes: `on<event>` functions become listeners; `true` sets a boolean attribute; `false`,
 * `null` and `undefined` leave it out.
 * @template {keyof HTMLElementTagNameMap} K
 * @param {K} tag
 * @param {Attrs} [attrs]
 * @param {...Child} children
 * @returns {HTMLElementTagNameMap[K]}
 */
export function h(tag, attrs = {}, ...children) {
  const el = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs)) {
    if (value === false || value === null || value === undefined) continue;
    if (key.startsWith('on') && typeof value === 'function') {
      el.addEventListener(key.slice(2), /** @type {EventListener} */ (value));
    } else if (value === true) {
      el.setAttribute(key, '');
    } else {
      el.setAttribute(key, String(value));
    }
  }
  append(el, children);
  return el;
}

/**
 * Append children (strings as text).
 * @param {Node} parent
 * @param {Child[]} children
 */
export function append(parent, children) {
  for (const child of children) {
    if (Array.isArray(child)) {
      append(parent, child);
      continue;
    }
    if (child === null || child === undefined || child === false) continue;
    parent.appendChild(typeof child === 'object' ? child : document.createTextNode(String(child)));
  }
}

/**
 * Replace every child of `parent`.
 * @param {Node} parent
 * @param {...Child} children
 */
export function replace(parent, ...children) {
  while (parent.firstChild) parent.removeChild(parent.firstChild);
  append(parent, children);
}

/**
 * The element with this id (throws if missing: a page bug).
 * @param {string} id
 * @returns {HTMLElement}
 */
export function byId(id) {
  const el = document.getElementById(id);
  if (!el) throw new Error(`no #${id}`);
  return el;
}
