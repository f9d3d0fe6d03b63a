// @ts-check
// The production order page (#/orders/{id}): its operations with phase, workplace and quantity.
import { get, items } from '../api.js';
import { fill, h, section, table, time } from '../dom.js';
import { subscribe } from '../live.js';
import { progress, quantitiesOf } from './common.js';

/**
 * @param {HTMLElement} root
 * @param {string} id
 */
export async function orderPage(root, id) {
  const load = async () => {
    const order = await get(`/productionOrders/${id}`, { embed: 'operations' });
    const o = order.properties;
    const operations = items(order._embedded ? order : null, 'operations');
    const rows = [];
    for (const op of operations) {
      const summary = await quantitiesOf(op.id).catch(() => null);
      rows.push([
        op.number,
        op.description ?? '',
        op.operationPhaseId,
        op.workplaceId ? h('a', { href: `#/workplaces/${op.workplaceId}` }, 'workplace') : '–',
        progress(op, summary) ?? '–',
        time(op.startDate),
        time(op.endDate),
      ]);
    }
    fill(
      root,
      h('p', {}, h('a', { href: '#/' }, '← Plant')),
      h('h1', {}, `Production order ${o.number}`),
      h(
        'p',
        { class: 'muted' },
        `${o.description ?? ''} · target ${o.targetQuantity ?? '–'} ${o.quantityUnit ?? ''} · delivery ${time(o.deliveryDate)}`,
      ),
      section(
        'ops',
        'Operations',
        table(['operation', 'description', 'phase', 'workplace', 'quantity', 'start', 'end'], rows),
      ),
    );
  };
  await load();
  return subscribe((event) => {
    if (event.objectId === id || event.data?.productionOrderId === id) load().catch(() => {});
    else if (event.objectType === 'OPERATION' && root.textContent.includes(event.data?.number ?? '\u0000'))
      load().catch(() => {});
  });
}
