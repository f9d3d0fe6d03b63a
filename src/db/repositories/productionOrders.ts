import { isUuid } from '../../domain/ids.ts';
import type { ProductionOrder, ProductionOrderFilter } from '../../domain/productionOrders.ts';
import type { Queryable } from '../database.ts';
import { type KeysetPage, type KeysetRequest, keysetPage } from '../paging.ts';

interface Row {
  id: string;
  number: string;
  description: string | null;
  material_number: string | null;
  material_description: string | null;
  target_quantity: number | null;
  quantity_unit: string | null;
  basic_start_date: Date | null;
  basic_end_date: Date | null;
  delivery_date: Date | null;
  created_at: Date;
  updated_at: Date;
}

const toProductionOrder = (row: Row): ProductionOrder => ({
  id: row.id,
  number: row.number,
  description: row.description,
  material:
    row.material_number === null
      ? null
      : { number: row.material_number, description: row.material_description },
  targetQuantity: row.target_quantity,
  quantityUnit: row.quantity_unit,
  basicStartDate: row.basic_start_date,
  basicEndDate: row.basic_end_date,
  deliveryDate: row.delivery_date,
  createdAt: row.created_at,
  updatedAt: row.updated_at,
});

const columns = (order: ProductionOrder) => [
  order.id,
  order.number,
  order.description,
  order.material?.number ?? null,
  order.material?.description ?? null,
  order.targetQuantity,
  order.quantityUnit,
  order.basicStartDate,
  order.basicEndDate,
  order.deliveryDate,
  order.updatedAt,
];

/** The WHERE conditions of a filter; a list restricts to any of its values, an empty one not at all. */
function conditions(filter: ProductionOrderFilter) {
  const where: string[] = [];
  const params: unknown[] = [];
  const add = (condition: (at: string) => string, value: unknown) => {
    params.push(value);
    where.push(condition(`$${params.length}`));
  };
  if (filter.ids?.length) add((at) => `id = ANY(${at}::uuid[])`, filter.ids);
  if (filter.numbers?.length) add((at) => `number = ANY(${at}::text[])`, filter.numbers);
  if (filter.materialNumbers?.length)
    add((at) => `material_number = ANY(${at}::text[])`, filter.materialNumbers);
  // An order without the date in question is not known to lie outside the period: kept.
  if (filter.startDate) add((at) => `(basic_end_date IS NULL OR basic_end_date >= ${at})`, filter.startDate);
  if (filter.endDate) add((at) => `(basic_start_date IS NULL OR basic_start_date <= ${at})`, filter.endDate);
  return { where, params };
}

export async function listProductionOrders(
  db: Queryable,
  filter: ProductionOrderFilter,
  request: KeysetRequest,
): Promise<KeysetPage<ProductionOrder>> {
  const page = await keysetPage<Row>(
    db,
    {
      from: 'production_orders',
      ...conditions(filter),
      timestampColumn: 'updated_at',
      idColumn: 'id',
      select: '*',
      timestampOf: (row) => row.updated_at,
      idOf: (row) => row.id,
    },
    request,
  );
  return { ...page, items: page.items.map(toProductionOrder) };
}

export async function findProductionOrder(
  db: Queryable,
  id: string,
  forUpdate = false,
): Promise<ProductionOrder | undefined> {
  if (!isUuid(id)) return undefined;
  const rows = await db.query<Row>(
    `SELECT * FROM production_orders WHERE id = $1${forUpdate ? ' FOR UPDATE' : ''}`,
    [id],
  );
  return rows[0] === undefined ? undefined : toProductionOrder(rows[0]);
}

/** The orders with these ids (for embedding); unknown ids are skipped. */
export async function findProductionOrders(
  db: Queryable,
  ids: readonly string[],
): Promise<ProductionOrder[]> {
  if (ids.length === 0) return [];
  const rows = await db.query<Row>('SELECT * FROM production_orders WHERE id = ANY($1::uuid[])', [ids]);
  return rows.map(toProductionOrder);
}

export async function insertProductionOrder(db: Queryable, order: ProductionOrder): Promise<void> {
  await db.query(
    `INSERT INTO production_orders (id, number, description, material_number, material_description,
       target_quantity, quantity_unit, basic_start_date, basic_end_date, delivery_date, updated_at, created_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12)`,
    [...columns(order), order.createdAt],
  );
}

export async function updateProductionOrder(db: Queryable, order: ProductionOrder): Promise<void> {
  await db.query(
    `UPDATE production_orders SET number = $2, description = $3, material_number = $4, material_description = $5,
       target_quantity = $6, quantity_unit = $7, basic_start_date = $8, basic_end_date = $9, delivery_date = $10,
       updated_at = $11
     WHERE id = $1`,
    columns(order),
  );
}

export async function deleteProductionOrder(db: Queryable, id: string): Promise<void> {
  await db.query('DELETE FROM production_orders WHERE id = $1', [id]);
}
