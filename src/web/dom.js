// @ts-check
// Small DOM helpers: elements are built with text nodes only (never innerHTML), so nothing the
// API returns can become markup.

/** @typedef {Node | string | number | null | undefined | false} Child */
/** @typedef {Child | Child[]} Children */

/**
 * h('a', {href: '#/', class: 'x', onclick: fn}, 'text', child)
 * @param {string} tag
 * @param {Record<string, unknown>} [attributes]
 * @param {...Children} children
 * @returns {HTMLElement}
 */
export function h(tag, attributes = {}, ...children) {
  const element = document.createElement(tag);
  for (const [name, value] of Object.entries(attributes)) {
    if (value === undefined || value === null || value === false) continue;
    if (name.startsWith('on') && typeof value === 'function')
      element.addEventListener(name.slice(2), /** @type {EventListener} */ (value));
    else if (name === 'style' && typeof value === 'object') Object.assign(element.style, value);
    else element.setAttribute(name, value === true ? '' : String(value));
  }
  for (const child of children.flat()) {
    if (child === undefined || child === null || child === false) continue;
    element.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return element;
}

/**
 * Black or white text, whichever reads better on the hex colour (WCAG relative luminance).
 * @param {string | null | undefined} hex
 */
export function textOn(hex) {
  const match = /^#?([0-9a-f]{6})$/i.exec(hex ?? '');
  if (!match?.[1]) return '#000';
  const digits = match[1];
  /** @param {number} offset */
  const channel = (offset) => {
    const c = Number.parseInt(digits.slice(offset, offset + 2), 16) / 255;
    return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  };
  const luminance = 0.2126 * channel(0) + 0.7152 * channel(2) + 0.0722 * channel(4);
  return (luminance + 0.05) / 0.05 >= 1.05 / (luminance + 0.05) ? '#000' : '#fff';
}

/**
 * @param {{code: string, description: string} | null | undefined} state
 * @param {string | null | undefined} colour
 */
export function stateChip(state, colour) {
  const background = colour ?? '#757575';
  return h(
    'span',
    { class: 'chip', style: { background, color: textOn(background) } },
    state ? `${state.code} ${state.description}` : 'unknown',
  );
}

/** @param {string | null | undefined} iso */
export const time = (iso) => (iso ? new Date(iso).toLocaleString() : '–');
/** @param {unknown} value */
export const percent = (value) => (typeof value === 'number' ? `${Math.round(value * 1000) / 10} %` : '–');

/**
 * @param {string[]} headers
 * @param {Children[][]} rows
 * @param {string} [caption]
 */
export function table(headers, rows, caption) {
  return h(
    'div',
    { class: 'scroll' },
    h(
      'table',
      {},
      caption ? h('caption', { class: 'muted' }, caption) : null,
      h(
        'thead',
        {},
        h(
          'tr',
          {},
          headers.map((text) => h('th', { scope: 'col' }, text)),
        ),
      ),
      h(
        'tbody',
        {},
        rows.map((cells) =>
          h(
            'tr',
            {},
            cells.map((cell) => h('td', {}, cell)),
          ),
        ),
      ),
    ),
  );
}

/**
 * A section labelled by its heading: `id` names the heading (`<id>-title`).
 * @param {string} id
 * @param {string} title
 * @param {...Children} content
 */
export function section(id, title, ...content) {
  return h(
    'section',
    { 'aria-labelledby': `${id}-title` },
    h('h2', { id: `${id}-title` }, title),
    ...content,
  );
}

/**
 * Replaces the children of `root`, leaving out null, undefined and false (no "null" text).
 * @param {Element} root
 * @param {...(Node | null | undefined | false | (Node | null | undefined | false)[])} nodes
 */
export function fill(root, ...nodes) {
  root.replaceChildren(
    .../** @type {Node[]} */ (
      nodes.flat().filter((node) => node !== null && node !== undefined && node !== false)
    ),
  );
}
