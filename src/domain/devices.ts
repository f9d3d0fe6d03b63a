// Devices and their recorded process / sensor data as the services and repositories exchange them.
import { AppError } from './errors.ts';
import type { Stored } from './stored.ts';
import { changedProperties } from './workplaces.ts';

/** One quantity a device records, e.g. {tag: 'T1', name: 'Spindle temperature', physicalQuantity: 'TEMPERATURE', unit: '°C'}. */
export interface RecordedPhysicalQuantity {
  tag: string;
  name: string | null;
  physicalQuantity: string | null;
  unit: string | null;
}

export interface DeviceInput {
  name: string;
  description: string | null;
  type: string;
  workplaceId: string;
  recordedPhysicalQuantities: RecordedPhysicalQuantity[];
}

export interface Device extends DeviceInput, Stored {}

/** One sample of a time series. */
export interface Sample {
  id: string;
  deviceId: string;
  tag: string;
  timestamp: Date;
  value: number;
}

export type SampleInput = Omit<Sample, 'id' | 'deviceId'>;

/** Most samples one POST takes: one statement, one transaction, still a short one. */
export const MAX_SAMPLES_PER_CALL = 10_000;

const SCALAR_CHARACTERISTICS = ['name', 'description', 'type', 'workplaceId'] as const;

/** Characteristic properties that differ (the quantities compared by value); any emits an update. */
export function changedDeviceProperties(before: Device, after: Device): string[] {
  const changed = changedProperties(before, after, SCALAR_CHARACTERISTICS);
  // Field by field: jsonb hands the objects back with their keys in its own order.
  const quantities = (device: Device) =>
    JSON.stringify(device.recordedPhysicalQuantities.map((q) => [q.tag, q.name, q.physicalQuantity, q.unit]));
  if (quantities(before) !== quantities(after)) changed.push('recordedPhysicalQuantities');
  return changed;
}

/** Tags name a device's quantities, so they must be unique within the device. */
export function checkUniqueTags(quantities: readonly RecordedPhysicalQuantity[]): void {
  const seen = new Set<string>();
  quantities.forEach((quantity, index) => {
    if (seen.has(quantity.tag)) {
      throw new AppError('VALIDATION_FAILED', {
        rule: 'value',
        field: `recordedPhysicalQuantities[${index}].tag`,
        detail: `the tag '${quantity.tag}' is already used by another quantity of this device`,
      });
    }
    seen.add(quantity.tag);
  });
}

/** The permanent assignment (docs/resources/devices.md, "Rules"): a device never moves to another workplace. */
export function checkSameWorkplace(before: Device, workplaceId: string): void {
  if (before.workplaceId !== workplaceId) {
    throw new AppError('VALIDATION_FAILED', {
      rule: 'value',
      field: 'workplaceId',
      detail: `a device stays at the workplace it was created at ('${before.workplaceId}')`,
    });
  }
}

/** Every sample must be of a quantity the device records; the first one that is not is named. */
export function checkRecordedTags(device: Device, samples: readonly SampleInput[]): void {
  const tags = new Set(device.recordedPhysicalQuantities.map((quantity) => quantity.tag));
  const index = samples.findIndex((sample) => !tags.has(sample.tag));
  const sample = samples[index];
  if (sample !== undefined) {
    throw new AppError('VALIDATION_FAILED', {
      rule: 'value',
      field: `elements[${index}].tag`,
      detail: `the device does not record the tag '${sample.tag}'`,
    });
  }
}
