import type { ProductionOrder } from '../../domain/productionOrders.ts';
import { link, type Resource, resource } from '../hal.ts';
import type { Hrefs } from '../hrefs.ts';
import { OPERATIONS_PATH, PRODUCTION_ORDERS_PATH } from '../paths.ts';
import { iso } from './properties.ts';
import { TEXT_EMBEDS, textLinks } from './texts.ts';

export const PRODUCTION_ORDER_EMBEDS = ['operations', ...TEXT_EMBEDS] as const;
export type ProductionOrderEmbed = (typeof PRODUCTION_ORDER_EMBEDS)[number];

/** An order as its operations show it, and the first of its own properties. */
export const orderReference = (order: ProductionOrder) => ({
  id: order.id,
  number: order.number,
  split: order.split,
  description: order.description,
  material: order.material,
  erpContextId: order.erpContextId,
});

/** `operations`: the order's operations, presented in sequence order, when they are embedded. */
export function presentProductionOrder(
  order: ProductionOrder,
  hrefs: Hrefs,
  operations?: Resource[],
): Resource {
  const self = `${PRODUCTION_ORDERS_PATH}/${order.id}`;
  return resource(
    {
      ...orderReference(order),
      targetQuantity: order.targetQuantity,
      quantityUnit: order.quantityUnit,
      basicStartDate: iso(order.basicStartDate),
      basicEndDate: iso(order.basicEndDate),
      deliveryDate: iso(order.deliveryDate),
    },
    {
      self: link(hrefs.api(self)),
      ...textLinks(hrefs, 'production_orders', order),
      specification: link(hrefs.api(`${self}/specification`)),
      scheduledDates: link(hrefs.api(`${self}/scheduledDates`)),
      operationSequence: link(hrefs.api(`${self}/operationSequence`)),
      operations: link(hrefs.api(OPERATIONS_PATH, { productionOrderId: order.id }), { embeddable: true }),
    },
    operations ? { operations } : undefined,
  );
}
