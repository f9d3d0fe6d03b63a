// Production orders (docs/resources/production-orders.md, "Production order") as the services and repositories exchange them.
import { AppError } from './errors.ts';
import type { Stored } from './stored.ts';
import { changedProperties } from './workplaces.ts';

/** The material a production order or operation produces. */
export interface Material {
  number: string;
  description: string | null;
  /** The ERP's material type, as given. */
  type: string | null;
}

export interface ProductionOrderInput {
  number: string;
  description: string | null;
  material: Material | null;
  targetQuantity: number | null;
  quantityUnit: string | null;
  basicStartDate: Date | null;
  /** Basic finish date; defaults to the delivery date. */
  basicEndDate: Date | null;
  deliveryDate: Date | null;
  /** The ERP's split of the order and its context: as given. */
  split: string | null;
  erpContextId: string | null;
}

/** The order's dates from lead-time scheduling: set by PUT .../scheduledDates only. */
export interface OrderScheduledDates {
  scheduledStartDate: Date | null;
  scheduledEndDate: Date | null;
}

export interface ProductionOrder extends ProductionOrderInput, OrderScheduledDates, Stored {}

/** Changes of these emit PRODUCTION_ORDER_UPDATED. */
export const PRODUCTION_ORDER_CHARACTERISTICS = [
  'number',
  'description',
  'material',
  'targetQuantity',
  'quantityUnit',
  'basicStartDate',
  'basicEndDate',
  'deliveryDate',
  'split',
  'erpContextId',
  'scheduledStartDate',
  'scheduledEndDate',
] as const;

/** Filters of GET /productionOrders and POST /productionOrders/search; empty lists restrict nothing. */
export interface ProductionOrderFilter {
  ids?: readonly string[] | undefined;
  numbers?: readonly string[] | undefined;
  materialNumbers?: readonly string[] | undefined;
  /** Orders ending before startDate or starting after endDate are left out. */
  startDate?: Date | undefined;
  endDate?: Date | undefined;
}

/** The basic finish date defaults to the delivery date (docs/resources/production-orders.md, "Production order"). */
export const withDefaultEndDate = (input: ProductionOrderInput): ProductionOrderInput => ({
  ...input,
  basicEndDate: input.basicEndDate ?? input.deliveryDate,
});

/** The characteristic properties of a resource as JSON values (dates as ISO text), for event data. */
export function jsonValues<T extends object>(
  resource: T,
  keys: readonly (keyof T)[],
): Record<string, unknown> {
  const values: Record<string, unknown> = {};
  for (const key of keys) {
    const value = resource[key];
    values[String(key)] = value instanceof Date ? value.toISOString() : value;
  }
  return values;
}

/**
 * `changedProperties` for properties that are dates, objects or arrays: compared by their JSON
 * text, as `!==` would see two equal dates as different. Inputs build objects in a fixed key order.
 */
export function changedValues<T extends object>(before: T, after: T, keys: readonly (keyof T)[]): string[] {
  const text = (resource: T) =>
    Object.fromEntries(keys.map((key) => [key, JSON.stringify(resource[key])])) as Record<keyof T, string>;
  return changedProperties<Record<keyof T, string>>(text(before), text(after), keys);
}

/** A planned period cannot end before it starts. */
export function checkPeriod(start: Date | null, end: Date | null, field: string): void {
  if (start !== null && end !== null && end < start) {
    throw new AppError('VALIDATION_FAILED', {
      rule: 'value',
      field,
      detail: 'must not lie before the start',
    });
  }
}
