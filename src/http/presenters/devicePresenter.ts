import type { Device, Sample } from '../../domain/devices.ts';
import { link, type Resource, resource } from '../hal.ts';
import type { Hrefs } from '../hrefs.ts';
import { DEVICES_PATH, timeSeriesPath, WORKPLACES_PATH } from '../paths.ts';
import type { View } from './view.ts';

export const DEVICE_EMBEDS = ['workplace'] as const;
export type DeviceEmbed = (typeof DEVICE_EMBEDS)[number];

/** `workplace`: the device's workplace as embedded, when asked for. */
export function presentDevice(device: Device, view: View<DeviceEmbed>, workplace?: Resource): Resource {
  const { hrefs } = view;
  const embedded: Record<string, unknown> = {};
  if (view.embed.has('workplace') && workplace) embedded.workplace = workplace;
  return resource(
    {
      id: device.id,
      name: device.name,
      description: device.description,
      type: device.type,
      workplaceId: device.workplaceId,
      recordedPhysicalQuantities: device.recordedPhysicalQuantities,
    },
    {
      self: link(hrefs.api(`${DEVICES_PATH}/${device.id}`)),
      workplace: link(hrefs.api(`${WORKPLACES_PATH}/${device.workplaceId}`), { embeddable: true }),
      recordedTimeSeries: link(hrefs.api(timeSeriesPath(device.id))),
      recordTimeSeries: view.canWrite
        ? link(hrefs.api(timeSeriesPath(device.id)), { method: 'POST' })
        : undefined,
    },
    embedded,
  );
}

export function presentSample(sample: Sample, hrefs: Hrefs): Resource {
  return resource(
    {
      id: sample.id,
      deviceId: sample.deviceId,
      tag: sample.tag,
      timestamp: sample.timestamp.toISOString(),
      value: sample.value,
    },
    {
      self: link(hrefs.api(`${timeSeriesPath(sample.deviceId)}/${sample.id}`)),
      device: link(hrefs.api(`${DEVICES_PATH}/${sample.deviceId}`)),
    },
  );
}

/** The answer to a stored batch: how many samples, and where to read them. */
export function presentRecordedBatch(deviceId: string, count: number, hrefs: Hrefs): Resource {
  return resource(
    { deviceId, count },
    {
      self: link(hrefs.api(timeSeriesPath(deviceId))),
      device: link(hrefs.api(`${DEVICES_PATH}/${deviceId}`)),
    },
  );
}
