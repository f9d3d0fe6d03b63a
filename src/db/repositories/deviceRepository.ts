import type { Device, RecordedPhysicalQuantity } from '../../domain/devices.ts';
import { isUuid } from '../../domain/ids.ts';
import { Conditions } from '../conditions.ts';
import type { Queryable } from '../database.ts';
import type { OffsetPage, OffsetRequest } from '../paging.ts';
import { findById, fromJsonb, offsetPageOf, rowWrites, type Table } from '../table.ts';

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
  recordedPhysicalQuantities: fromJsonb(row.recorded_physical_quantities),
  createdAt: row.created_at,
  updatedAt: row.updated_at,
});

export interface DeviceFilter {
  workplaceId?: string;
  type?: string;
  name?: string;
}

const DEVICES: Table<Row, Device> = { from: 'devices', toItem: toDevice };

export async function listDevices(
  db: Queryable,
  filter: DeviceFilter,
  page: OffsetRequest,
): Promise<OffsetPage<Device>> {
  // Ids are opaque: one that is no uuid matches nothing (and never reaches the uuid column).
  if (filter.workplaceId !== undefined && !isUuid(filter.workplaceId)) return { items: [], total: 0 };
  const conditions = new Conditions()
    .equals('workplace_id', filter.workplaceId)
    .equals('type', filter.type)
    .equals('name', filter.name);
  return offsetPageOf(db, DEVICES, conditions, 'name, id', page);
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
  const suffix = lock === 'update' ? ' FOR UPDATE' : lock === 'share' ? ' FOR SHARE' : '';
  return findById(db, DEVICES, id, { lock: suffix });
}

/** A delete takes the device's samples with it (ON DELETE CASCADE). */
export const deviceWrites = rowWrites<Device>()(
  'devices',
  'id name description type workplaceId createdAt updatedAt',
  {
    other: (device) => ({ recorded_physical_quantities: JSON.stringify(device.recordedPhysicalQuantities) }),
    fixed: ['workplace_id', 'created_at'],
  },
);
