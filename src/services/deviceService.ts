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
import { lifecycle, newItem } from './lifecycle.ts';
import { checkReference } from './referenceService.ts';
import { found, locking } from './writes.ts';

const DEVICES = lifecycle<Device>('device', {
  rows: devices.deviceWrites,
  // Devices have no detail events in the catalogue (docs/events.md, "Catalogue"); their changes are
  // announced by the condensed RESOURCES_UPDATED with objectType DEVICE.
  events: (change, device) => [resourcesUpdated('DEVICE', change, device.id)],
});

const lockDevice = locking('device', (tx, id) => devices.findDevice(tx, id, 'update'));

export async function getDevice(db: Queryable, id: string): Promise<Device> {
  return found(devices.findDevice(db, id), 'device', id);
}

export async function createDevice(db: Database, input: DeviceInput): Promise<Device> {
  checkUniqueTags(input.recordedPhysicalQuantities);
  const device: Device = newItem(input, new Date());
  return db.transaction(async (tx) => {
    await checkReference(tx, 'workplaceId', device.workplaceId, 'workplaces');
    return DEVICES.insert(tx, device);
  });
}

/** Full replacement; the workplace must stay the one the device was created at. */
export async function replaceDevice(db: Database, id: string, input: DeviceInput): Promise<Device> {
  checkUniqueTags(input.recordedPhysicalQuantities);
  return DEVICES.replace(db, lockDevice(id), (_tx, before) => {
    checkSameWorkplace(before, input.workplaceId);
    const after: Device = { ...before, ...input };
    return { after, changed: changedDeviceProperties(before, after) };
  });
}

/** Deletes the device with its recorded samples (no event per sample, one for the device). */
export async function deleteDevice(db: Database, id: string): Promise<void> {
  await DEVICES.delete(db, lockDevice(id));
}
