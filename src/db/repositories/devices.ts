import type { Device, RecordedPhysicalQuantity } from '../../domain/devices.ts';
import { isUuid } from '../../domain/ids.ts';
import type { Queryable } from '../database.ts';
import { countRows, type OffsetPage, type OffsetRequest, whereClause } from '../paging.ts';

interface Row {
  id: string;
  name: string;
  description: string | null;
  type: string;
  workplace_id: string;
  recorded_physical_quantities: RecordedPhysicalQuantity[] | string;
  created_at: Date;
  updated_at: Date;
}

const toDevice = (row: Row): Device => ({
  id: row.id,
  name: row.name,
  description: row.description,
  type: row.type,
  workplaceId: row.workplace_id,
  // Both drivers hand jsonb back parsed today; a string is parsed all the same.
  recordedPhysicalQuantities:
    typeof row.recorded_physical_quantities === 'string'
      ? JSON.parse(row.recorded_physical_quantities)
      : row.recorded_physical_quantities,
  createdAt: row.created_at,
  updatedAt: row.updated_at,
});

export interface DeviceFilter {
  workplaceId?: string;
  type?: string;
  name?: string;
}

export async function listDevices(
  db: Queryable,
  filter: DeviceFilter,
  page: OffsetRequest,
): Promise<OffsetPage<Device>> {
  const where: string[] = [];
  const params: unknown[] = [];
  if (filter.workplaceId !== undefined) {
    // Ids are opaque: one that is no uuid matches nothing (and never reaches the uuid column).
    if (!isUuid(filter.workplaceId)) return { items: [], total: 0 };
    params.push(filter.workplaceId);
    where.push(`workplace_id = $${params.length}`);
  }
  if (filter.type !== undefined) {
    params.push(filter.type);
    where.push(`type = $${params.length}`);
  }
  if (filter.name !== undefined) {
    params.push(filter.name);
    where.push(`name = $${params.length}`);
  }
  const rows = await db.query<Row>(
    `SELECT * FROM devices ${whereClause(where)} ORDER BY name, id
     LIMIT $${params.length + 1} OFFSET $${params.length + 2}`,
    [...params, page.limit, page.offset],
  );
  return { items: rows.map(toDevice), total: await countRows(db, 'devices', where, params) };
}

/**
 * One device. `lock`: `update` for a change of the device itself, `share` for adding samples
 * (concurrent writers of samples do not wait for each other, but a change of its tags waits).
 */
export async function findDevice(
  db: Queryable,
  id: string,
  lock?: 'update' | 'share',
): Promise<Device | undefined> {
  if (!isUuid(id)) return undefined;
  const suffix = lock === 'update' ? ' FOR UPDATE' : lock === 'share' ? ' FOR SHARE' : '';
  const rows = await db.query<Row>(`SELECT * FROM devices WHERE id = $1${suffix}`, [id]);
  return rows[0] === undefined ? undefined : toDevice(rows[0]);
}

export async function insertDevice(db: Queryable, device: Device): Promise<void> {
  await db.query(
    `INSERT INTO devices (id, name, description, type, workplace_id, recorded_physical_quantities,
       created_at, updated_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8)`,
    [
      device.id,
      device.name,
      device.description,
      device.type,
      device.workplaceId,
      JSON.stringify(device.recordedPhysicalQuantities),
      device.createdAt,
      device.updatedAt,
    ],
  );
}

/** Writes the replaceable properties; the workplace never changes (docs/resources/devices.md, "Rules"). */
export async function updateDevice(db: Queryable, device: Device): Promise<void> {
  await db.query(
    `UPDATE devices SET name = $2, description = $3, type = $4, recorded_physical_quantities = $5,
       updated_at = $6
     WHERE id = $1`,
    [
      device.id,
      device.name,
      device.description,
      device.type,
      JSON.stringify(device.recordedPhysicalQuantities),
      device.updatedAt,
    ],
  );
}

/** Deletes the device; its samples go with it (ON DELETE CASCADE). */
export async function deleteDevice(db: Queryable, id: string): Promise<void> {
  await db.query('DELETE FROM devices WHERE id = $1', [id]);
}
