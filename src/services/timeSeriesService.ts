import { v7 as uuidv7 } from 'uuid';
import type { Database, Queryable } from '../db/database.ts';
import type { KeysetPage, KeysetRequest } from '../db/paging.ts';
import { findDevice } from '../db/repositories/deviceRepository.ts';
import * as timeSeries from '../db/repositories/timeSeriesRepository.ts';
import { checkRecordedTags, type Sample, type SampleInput } from '../domain/devices.ts';
import { getDevice } from './deviceService.ts';
import { found, gettingBelow } from './writes.ts';

/**
 * Stores a batch of samples of one device in one transaction with one INSERT. Samples are
 * measurements, not changes of the plant image: no event is written for them.
 */
export async function recordSamples(db: Database, deviceId: string, inputs: readonly SampleInput[]) {
  return db.transaction(async (tx) => {
    // FOR SHARE: a concurrent change of the device's tags waits until these samples are in.
    const device = await found(findDevice(tx, deviceId, 'share'), 'device', deviceId);
    checkRecordedTags(device, inputs);
    const samples: Sample[] = inputs.map((input) => ({ ...input, id: uuidv7(), deviceId: device.id }));
    await timeSeries.insertSamples(tx, samples);
    return { device, count: samples.length };
  });
}

export async function listSamples(
  db: Queryable,
  deviceId: string,
  filter: timeSeries.SampleFilter,
  request: KeysetRequest,
): Promise<KeysetPage<Sample>> {
  const device = await getDevice(db, deviceId);
  return timeSeries.listSamples(db, device.id, filter, request);
}

export const getSample = gettingBelow('sample', getDevice, timeSeries.findSample);
