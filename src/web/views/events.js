// @ts-check
// The events page (#/events): the latest events with filters, new ones prepended live.
import { get, items } from '../api.js';
import { fill, h, time } from '../dom.js';
import { subscribe } from '../live.js';

/** @typedef {import('../types.js').BridgeEvent} BridgeEvent */
/** @typedef {'eventType' | 'objectType' | 'objectId'} Filter */

/** @param {HTMLElement} root */
export async function eventsPage(root) {
  /** @type {Record<Filter, string>} */
  const filters = { eventType: '', objectType: '', objectId: '' };
  const rows = h('tbody', {});
  /** @param {BridgeEvent} event */
  const matches = (event) =>
    /** @type {[Filter, string][]} */ (Object.entries(filters)).every(
      ([name, value]) => !value || event[name] === value,
    );
  /** @param {BridgeEvent} event */
  const row = (event) =>
    h(
      'tr',
      {},
      h('td', {}, time(event.recordedAt ?? event.timestamp)),
      h('td', {}, event.eventType),
      h('td', {}, event.objectType ?? ''),
      h('td', {}, event.objectId ?? ''),
      h('td', {}, h('pre', {}, JSON.stringify(event.data))),
    );
  const reload = async () => {
    const page = await get('/events', { limit: 50, ...filters });
    rows.replaceChildren(...items(page, 'events').map(row));
  };
  /**
   * @param {Filter} name
   * @param {string} label
   * @param {string} placeholder
   */
  const field = (name, label, placeholder) =>
    h(
      'label',
      {},
      label,
      h('input', {
        name,
        placeholder,
        value: filters[name],
        onchange: (/** @type {Event} */ e) => {
          filters[name] = /** @type {HTMLInputElement} */ (e.target).value.trim();
          reload().catch((error) => (status.textContent = error.message));
        },
      }),
    );
  const status = h('p', { class: 'error', role: 'alert' });
  fill(
    root,
    h('h1', {}, 'Events'),
    h(
      'form',
      { class: 'filters', 'aria-label': 'Filters', onsubmit: (/** @type {Event} */ e) => e.preventDefault() },
      field('eventType', 'Event type', 'WORKPLACE_OPERATING_STATE_CHANGED'),
      field('objectType', 'Object type', 'WORKPLACE'),
      field('objectId', 'Object id', 'uuid'),
    ),
    status,
    h(
      'div',
      { class: 'scroll' },
      h(
        'table',
        {},
        h(
          'thead',
          {},
          h(
            'tr',
            {},
            ['recorded', 'event type', 'object type', 'object id', 'data'].map((t) =>
              h('th', { scope: 'col' }, t),
            ),
          ),
        ),
        rows,
      ),
    ),
  );
  await reload();
  return subscribe((event) => {
    if (!matches(event)) return;
    rows.prepend(row(event));
    while (rows.children.length > 200) rows.lastElementChild?.remove();
  });
}
