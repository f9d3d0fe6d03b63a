// @ts-check
// The connectors page (#/connectors), shown in the menu only when the service has /connectors.
import { items, optional } from '../api.js';
import { fill, h, table, time } from '../dom.js';
import { subscribe } from '../live.js';
import { hasRoute } from './common.js';

export const connectorsAvailable = () => hasRoute('connectors', () => optional('/connectors', { limit: 1 }));

/** @param {HTMLElement} root */
export async function connectorsPage(root) {
  const load = async () => {
    const page = await optional('/connectors', { limit: 100 });
    if (page === null) {
      fill(root, h('h1', {}, 'Connectors'), h('p', {}, 'This service has no connectors.'));
      return;
    }
    const connectors = items(page, 'connectors');
    fill(
      root,
      h('h1', {}, 'Connectors'),
      connectors.length
        ? table(
            ['name', 'type', 'url', 'enabled', 'state', 'since', 'last error', 'messages'],
            connectors.map((c) => [
              c.name,
              c.type,
              c.url,
              c.enabled ? 'yes' : 'no',
              c.status?.state ?? '–',
              time(c.status?.since),
              c.status?.lastError ?? '',
              c.status?.messagesReceived ?? '–',
            ]),
          )
        : h('p', {}, 'No connectors.'),
    );
  };
  await load();
  return subscribe((event) => {
    if (event.objectType === 'CONNECTOR') load().catch(() => {});
  });
}
