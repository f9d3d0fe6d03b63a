import { v7 as uuidv7 } from 'uuid';
import type { Database, Queryable } from '../db/database.ts';
import * as devices from '../db/repositories/deviceRepository.ts';
import {
  changedDeviceProperties,
  checkSameWorkplace,
  checkUniqueTags,
  type Device,
  type DeviceInput,
} from '../domain/devices.ts';
import { resourcesUpdated } from '../domain/events.ts';
import { recordEvents } from './eventService.ts';
import { checkReference } from './referenceService.ts';
import { found } from './writes.ts';

// Devices have no detail events in the catalogue (docs/events.md, "Catalogue"); their changes are
// announced by the condensed RESOURCES_UPDATED with objectType DEVICE.
const eventsFor = (change: 'CREATED' | 'UPDATED' | 'DELETED', device: Device) => [
  resourcesUpdated('DEVICE', change, device.id),
];

export async function getDevice(db: Queryable, id: string): Promise<Device> {
  return found(devices.findDevice(db, id), 'device', id);
}

export async function createDevice(db: Database, input: DeviceInput): Promise<Device> {
  checkUniqueTags(input.recordedPhysicalQuantities);
  const now = new Date();
  const device: Device = { ...input, id: uuidv7(), createdAt: now, updatedAt: now };
  await db.transaction(async (tx) => {
    await checkReference(tx, 'workplaceId', device.workplaceId, 'workplaces');
    await devices.insertDevice(tx, device);
    await recordEvents(tx, eventsFor('CREATED', device), now);
  });
  return device;
}

/** Full replacement; the workplace must stay the one the device was created at. */
export async function replaceDevice(db: Database, id: string, input: DeviceInput): Promise<Device> {
  checkUniqueTags(input.recordedPhysicalQuantities);
  return db.transaction(async (tx) => {
    const before = await found(devices.findDevice(tx, id, 'update'), 'device', id);
    checkSameWorkplace(before, input.workplaceId);
    const after: Device = { ...before, ...input };
    if (changedDeviceProperties(before, after).length === 0) return before;
    after.updatedAt = new Date();
    await devices.updateDevice(tx, after);
    await recordEvents(tx, eventsFor('UPDATED', after), after.updatedAt);
    return after;
  });
}

/** Deletes the device with its recorded samples (no event per sample, one for the device). */
export async function deleteDevice(db: Database, id: string): Promise<void> {
  await db.transaction(async (tx) => {
    const device = await found(devices.findDevice(tx, id, 'update'), 'device', id);
    await devices.deleteDevice(tx, device.id);
    await recordEvents(tx, eventsFor('DELETED', device), new Date());
  });
}
