import { Type } from 'typebox';
import * as repository from '../../db/repositories/deviceRepository.ts';
import { MAX_SAMPLES_PER_CALL } from '../../domain/devices.ts';
import * as service from '../../services/deviceService.ts';
import * as timeSeries from '../../services/timeSeriesService.ts';
import { getWorkplace } from '../../services/workplaceService.ts';
import type { Api } from '../api.ts';
import type { ServerDeps } from '../deps.ts';
import { positionBy } from '../hal.ts';
import { DEVICES_PATH, timeSeriesPath, WORKPLACES_PATH } from '../paths.ts';
import {
  DEVICE_EMBEDS,
  presentDevice,
  presentRecordedBatch,
  presentSample,
  sampleElements,
} from '../presenters/devicePresenter.ts';
import { resourceRoutes } from '../resourceRoutes.ts';
import { registerRoute } from '../route.ts';
import { periodOf } from '../schemas/common.ts';
import {
  BatchSchema,
  DeviceBody,
  DeviceFilters,
  DeviceSchema,
  deviceInput,
  SAMPLES_BODY_BYTES,
  SampleFilters,
  SampleSchema,
  SamplesBody,
} from '../schemas/deviceSchemas.ts';
import { withWorkplaces } from './workplaceRoutes.ts';

const tags = ['devices'];

export function registerDevices(api: Api, { db, config }: ServerDeps): void {
  const presentPage = withWorkplaces(db, presentDevice);
  const resource = { tags, schema: DeviceSchema, embeds: DEVICE_EMBEDS, presentPage };

  const devices = resourceRoutes(api, { ...resource, path: DEVICES_PATH });
  devices.list({
    summary: 'List devices',
    filters: DeviceFilters,
    load: (filter, page) => repository.listDevices(db, filter, page),
    itemLinks: 'devices',
  });
  devices.items(db, {
    input: deviceInput,
    get: { run: service.getDevice },
    create: {
      summary: 'Create a device (emits RESOURCES_UPDATED, objectType DEVICE)',
      body: DeviceBody,
      run: service.createDevice,
    },
    replace: {
      summary: 'Replace a device (emits RESOURCES_UPDATED when a property changes)',
      description: 'workplaceId must stay the workplace the device was created at.',
      body: DeviceBody,
      run: service.replaceDevice,
    },
    remove: {
      summary: 'Delete a device and its recorded samples (emits RESOURCES_UPDATED)',
      run: service.deleteDevice,
    },
  });

  resourceRoutes(api, { ...resource, path: `${WORKPLACES_PATH}/:id/devices` }).list({
    summary: 'The devices at a workplace',
    owner: async (at) => (await getWorkplace(db, at.id)).id,
    load: (_filter, page, at) => repository.listDevices(db, { workplaceId: at.owner }, page),
    itemLinks: 'devices',
    createRel: 'createDevice',
    createPath: DEVICES_PATH,
  });

  const samples = resourceRoutes(api, {
    path: timeSeriesPath(':id'),
    schema: SampleSchema,
    present: presentSample,
  });
  samples.list({
    summary: 'Recorded process or sensor data, newest first (timestamp pagination)',
    description: 'startDate is inclusive, endDate exclusive.',
    position: positionBy('timestamp'),
    filters: SampleFilters,
    filter: ({ tag, ...period }) => ({ tag, ...periodOf(period) }),
    load: (filter, page, at) => timeSeries.listSamples(db, at.id, filter, page),
    elements: sampleElements,
    createRel: 'createRecordedTimeSeries',
  });

  registerRoute(api, {
    method: 'POST',
    path: timeSeriesPath(':id'),
    bodyLimit: Math.max(config.bodyLimitBytes, SAMPLES_BODY_BYTES),
    tags,
    summary: `Record process or sensor data (up to ${MAX_SAMPLES_PER_CALL} samples, one transaction)`,
    description: 'Every tag must be one the device records; the first that is not is named. No events.',
    body: SamplesBody,
    response: { 201: BatchSchema },
    errors: [404, 413, 415],
    handler: async (request, reply) => {
      const { device, count } = await timeSeries.recordSamples(
        db,
        request.params.id,
        request.body.elements.map((element) => ({
          tag: element.tag,
          timestamp: new Date(element.timestamp),
          value: element.value,
        })),
      );
      const representation = presentRecordedBatch(device.id, count, request.hrefs);
      return reply.code(201).header('location', representation._links.self?.href).send(representation);
    },
  });

  registerRoute(api, {
    method: 'GET',
    path: `${timeSeriesPath(':id')}/:sampleId`,
    tags,
    summary: 'One recorded sample',
    // Up to the router's limit, so that any readable sample id gets the service's own 404.
    params: Type.Object({
      id: Type.String({ maxLength: 100 }),
      sampleId: Type.String({ maxLength: 200 }),
    }),
    response: { 200: SampleSchema },
    errors: [404],
    handler: async (request) =>
      presentSample(
        await timeSeries.getSample(db, request.params.id, request.params.sampleId),
        request.hrefs,
      ),
  });
}
