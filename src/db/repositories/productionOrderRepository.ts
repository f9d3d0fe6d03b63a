import type { Material, ProductionOrder, ProductionOrderFilter } from '../../domain/productionOrders.ts';
import { Conditions } from '../conditions.ts';
import { BY_UPDATED_AT, batchFind, lockableFind, rowWrites, type Table, timestampList } from '../table.ts';

interface Row {
  id: string;
  number: string;
  description: string | null;
  material_number: string | null;
  material_description: string | null;
  material_type: string | null;
  target_quantity: number | null;
  quantity_unit: string | null;
  basic_start_date: Date | null;
  basic_end_date: Date | null;
  delivery_date: Date | null;
  split: string | null;
  erp_context_id: string | null;
  scheduled_start_date: Date | null;
  scheduled_end_date: Date | null;
  created_at: Date;
  updated_at: Date;
}

/** The material of a production order or operation, from its `material_number` and `material_description`. */
export const materialOf = (row: {
  material_number: string | null;
  material_description: string | null;
  material_type: string | null;
}) =>
  row.material_number === null
    ? null
    : { number: row.material_number, description: row.material_description, type: row.material_type };

/** The columns of a material, as orders and operations store it. */
export const materialColumns = (material: Material | null) => ({
  material_number: material?.number ?? null,
  material_description: material?.description ?? null,
  material_type: material?.type ?? null,
});

const toProductionOrder = (row: Row): ProductionOrder => ({
  id: row.id,
  number: row.number,
  description: row.description,
  material: materialOf(row),
  targetQuantity: row.target_quantity,
  quantityUnit: row.quantity_unit,
  basicStartDate: row.basic_start_date,
  basicEndDate: row.basic_end_date,
  deliveryDate: row.delivery_date,
  split: row.split,
  erpContextId: row.erp_context_id,
  scheduledStartDate: row.scheduled_start_date,
  scheduledEndDate: row.scheduled_end_date,
  createdAt: row.created_at,
  updatedAt: row.updated_at,
});

const ORDERS: Table<Row, ProductionOrder> = { from: 'production_orders', toItem: toProductionOrder };

/** The WHERE conditions of a filter; a list restricts to any of its values, an empty one not at all. */
function conditions(filter: ProductionOrderFilter) {
  const conditions = new Conditions();
  const add = conditions.add.bind(conditions);
  if (filter.ids?.length) add((at) => `id = ANY(${at}::uuid[])`, filter.ids);
  if (filter.numbers?.length) add((at) => `number = ANY(${at}::text[])`, filter.numbers);
  if (filter.materialNumbers?.length)
    add((at) => `material_number = ANY(${at}::text[])`, filter.materialNumbers);
  // An order without the date in question is not known to lie outside the period: kept.
  if (filter.startDate) add((at) => `(basic_end_date IS NULL OR basic_end_date >= ${at})`, filter.startDate);
  if (filter.endDate) add((at) => `(basic_start_date IS NULL OR basic_start_date <= ${at})`, filter.endDate);
  return conditions;
}

export const listProductionOrders = timestampList(ORDERS, BY_UPDATED_AT, conditions);

export const findProductionOrder = lockableFind(ORDERS);

/** The orders with these ids (for embedding); unknown ids are skipped. */
export const findProductionOrders = batchFind(ORDERS);

export const productionOrderWrites = rowWrites<ProductionOrder>()(
  'production_orders',
  'id number description targetQuantity quantityUnit basicStartDate basicEndDate deliveryDate split erpContextId scheduledStartDate scheduledEndDate updatedAt createdAt',
  { other: (order) => materialColumns(order.material) },
);
