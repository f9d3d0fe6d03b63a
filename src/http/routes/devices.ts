import type { FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import * as repository from '../../db/repositories/devices.ts';
import { findWorkplaces } from '../../db/repositories/workplaces.ts';
import { type Device, type DeviceInput, MAX_SAMPLES_PER_CALL } from '../../domain/devices.ts';
import type { Workplace } from '../../domain/workplaces.ts';
import * as service from '../../services/devices.ts';
import * as timeSeries from '../../services/timeSeries.ts';
import { getWorkplace } from '../../services/workplaces.ts';
import type { Api } from '../api.ts';
import { canWrite } from '../auth.ts';
import type { ServerDeps } from '../deps.ts';
import { embedQuery, parseEmbed } from '../embed.ts';
import { keysetCollection, offsetCollection } from '../hal.ts';
import { DEVICES_PATH, timeSeriesPath, WORKPLACES_PATH } from '../paths.ts';
import {
  DEVICE_EMBEDS,
  type DeviceEmbed,
  presentDevice,
  presentRecordedBatch,
  presentSample,
} from '../presenters/devices.ts';
import {
  checkBodyId,
  EmbedOnly,
  EmbedQuery,
  errorResponses,
  IdParams,
  KeysetCollection,
  KeysetQuery,
  keysetPosition,
  Nullable,
  OffsetCollection,
  OffsetQuery,
  offsetPage,
  pagingAsked,
  Resource,
} from '../schemas/common.ts';

const Uuid = Type.String({ format: 'uuid' });

const QuantityProperty = Type.Object({
  tag: Type.String(),
  name: Nullable(Type.String()),
  physicalQuantity: Nullable(Type.String()),
  unit: Nullable(Type.String()),
});
const DeviceSchema = Resource(
  Type.Object({
    id: Uuid,
    name: Type.String(),
    description: Nullable(Type.String()),
    type: Type.String(),
    workplaceId: Uuid,
    recordedPhysicalQuantities: Type.Array(QuantityProperty),
  }),
  'Device connected to the platform (e.g. a machine controller), permanently at one workplace',
);
const SampleSchema = Resource(
  Type.Object({
    id: Uuid,
    deviceId: Uuid,
    tag: Type.String(),
    timestamp: Type.String({ format: 'date-time' }),
    value: Type.Number(),
  }),
  'One sample of process or sensor data',
);
const BatchSchema = Resource(
  Type.Object({ deviceId: Uuid, count: Type.Integer() }),
  'Samples stored by one call',
);

const QuantityBody = Type.Object(
  {
    tag: Type.String({ minLength: 1, maxLength: 100, description: 'Unique within the device' }),
    name: Type.Optional(Nullable(Type.String({ maxLength: 200 }))),
    physicalQuantity: Type.Optional(
      Nullable(Type.String({ maxLength: 100, description: 'e.g. TEMPERATURE' })),
    ),
    unit: Type.Optional(Nullable(Type.String({ maxLength: 50 }))),
  },
  { additionalProperties: false },
);
const DeviceBody = Type.Object(
  {
    id: Type.Optional(
      Type.String({ description: 'Ignored on create; on replace it must equal the path id' }),
    ),
    name: Type.String({ minLength: 1, maxLength: 200 }),
    description: Type.Optional(Nullable(Type.String({ maxLength: 2000 }))),
    type: Type.String({ minLength: 1, maxLength: 100, description: 'e.g. PLC' }),
    workplaceId: Type.String({
      format: 'uuid',
      description: 'The workplace the device is permanently assigned to; a replace cannot change it',
    }),
    recordedPhysicalQuantities: Type.Optional(Type.Array(QuantityBody, { maxItems: 1000 })),
  },
  { additionalProperties: false },
);
const SamplesBody = Type.Object(
  {
    elements: Type.Array(
      Type.Object(
        {
          tag: Type.String({ minLength: 1, maxLength: 100, description: 'A tag the device records' }),
          timestamp: Type.String({ format: 'date-time' }),
          value: Type.Number(),
        },
        { additionalProperties: false },
      ),
      { minItems: 1, maxItems: MAX_SAMPLES_PER_CALL },
    ),
  },
  { additionalProperties: false },
);
// 10,000 samples with 100-character tags are about 1.8 MB of JSON: more than the default limit.
const SAMPLES_BODY_BYTES = MAX_SAMPLES_PER_CALL * 400;

const tags = ['devices'];

const toInput = (body: {
  name: string;
  description?: string | null;
  type: string;
  workplaceId: string;
  recordedPhysicalQuantities?: {
    tag: string;
    name?: string | null;
    physicalQuantity?: string | null;
    unit?: string | null;
  }[];
}): DeviceInput => ({
  name: body.name,
  description: body.description ?? null,
  type: body.type,
  workplaceId: body.workplaceId,
  recordedPhysicalQuantities: (body.recordedPhysicalQuantities ?? []).map((quantity) => ({
    tag: quantity.tag,
    name: quantity.name ?? null,
    physicalQuantity: quantity.physicalQuantity ?? null,
    unit: quantity.unit ?? null,
  })),
});

export function registerDevices(api: Api, { db, config }: ServerDeps): void {
  /** Presents devices, loading each workplace to embed once. */
  async function present(request: FastifyRequest, devices: Device[], embed: ReadonlySet<DeviceEmbed>) {
    const workplaces = new Map<string, Workplace>();
    if (embed.has('workplace')) {
      const ids = [...new Set(devices.map((device) => device.workplaceId))];
      for (const workplace of await findWorkplaces(db, ids)) workplaces.set(workplace.id, workplace);
    }
    const view = {
      hrefs: request.hrefs,
      locale: request.locale,
      canWrite: canWrite(request),
      embed,
      workplaces,
    };
    return devices.map((device) => presentDevice(device, view));
  }

  const presentOne = async (request: FastifyRequest, device: Device, embed = new Set<DeviceEmbed>()) =>
    (await present(request, [device], embed))[0];

  const createLink = (request: FastifyRequest) =>
    canWrite(request) ? { rel: 'createDevice', href: request.hrefs.api(DEVICES_PATH) } : undefined;

  api.get(
    DEVICES_PATH,
    {
      schema: {
        tags,
        summary: 'List devices',
        querystring: Type.Object(
          {
            ...OffsetQuery,
            workplaceId: Type.Optional(Uuid),
            type: Type.Optional(Type.String({ maxLength: 100 })),
            name: Type.Optional(Type.String({ maxLength: 200 })),
            embed: EmbedQuery,
          },
          { additionalProperties: false },
        ),
        response: { 200: OffsetCollection('devices', DeviceSchema), ...errorResponses() },
      },
    },
    async (request) => {
      const { workplaceId, type, name } = request.query;
      const { limit, offset } = offsetPage(request.query);
      const embed = parseEmbed(request.query.embed, DEVICE_EMBEDS);
      const page = await repository.listDevices(db, { workplaceId, type, name }, { limit, offset });
      return offsetCollection(
        {
          hrefs: request.hrefs,
          path: DEVICES_PATH,
          name: 'devices',
          query: { workplaceId, type, name, embed: embedQuery(embed) },
          create: createLink(request),
        },
        await present(request, page.items, embed),
        page,
        { limit, offset },
      );
    },
  );

  api.get(
    `${WORKPLACES_PATH}/:id/devices`,
    {
      schema: {
        tags,
        summary: 'The devices at a workplace',
        params: IdParams,
        querystring: Type.Object({ ...OffsetQuery, embed: EmbedQuery }, { additionalProperties: false }),
        response: { 200: OffsetCollection('devices', DeviceSchema), ...errorResponses(404) },
      },
    },
    async (request) => {
      const { limit, offset } = offsetPage(request.query);
      const embed = parseEmbed(request.query.embed, DEVICE_EMBEDS);
      const workplace = await getWorkplace(db, request.params.id);
      const page = await repository.listDevices(db, { workplaceId: workplace.id }, { limit, offset });
      return offsetCollection(
        {
          hrefs: request.hrefs,
          path: `${WORKPLACES_PATH}/${workplace.id}/devices`,
          name: 'devices',
          query: { embed: embedQuery(embed) },
          create: createLink(request),
        },
        await present(request, page.items, embed),
        page,
        { limit, offset },
      );
    },
  );

  api.get(
    `${DEVICES_PATH}/:id`,
    {
      schema: {
        tags,
        summary: 'One device',
        params: IdParams,
        querystring: EmbedOnly,
        response: { 200: DeviceSchema, ...errorResponses(404) },
      },
    },
    async (request) => {
      const embed = parseEmbed(request.query.embed, DEVICE_EMBEDS);
      return presentOne(request, await service.getDevice(db, request.params.id), embed);
    },
  );

  api.post(
    DEVICES_PATH,
    {
      schema: {
        tags,
        summary: 'Create a device (emits RESOURCES_UPDATED, objectType DEVICE)',
        body: DeviceBody,
        response: { 201: DeviceSchema, ...errorResponses(415) },
      },
    },
    async (request, reply) => {
      const device = await service.createDevice(db, toInput(request.body));
      const representation = await presentOne(request, device);
      return reply.code(201).header('location', representation?._links.self?.href).send(representation);
    },
  );

  api.put(
    `${DEVICES_PATH}/:id`,
    {
      schema: {
        tags,
        summary: 'Replace a device (emits RESOURCES_UPDATED when a property changes)',
        description: 'workplaceId must stay the workplace the device was created at.',
        params: IdParams,
        body: DeviceBody,
        response: { 200: DeviceSchema, ...errorResponses(404, 415) },
      },
    },
    async (request) => {
      checkBodyId(request.body.id, request.params.id);
      return presentOne(request, await service.replaceDevice(db, request.params.id, toInput(request.body)));
    },
  );

  api.delete(
    `${DEVICES_PATH}/:id`,
    {
      schema: {
        tags,
        summary: 'Delete a device and its recorded samples (emits RESOURCES_UPDATED)',
        params: IdParams,
        response: { 204: Type.Null(), ...errorResponses(404) },
      },
    },
    async (request, reply) => {
      await service.deleteDevice(db, request.params.id);
      return reply.code(204).send();
    },
  );

  api.post(
    `${DEVICES_PATH}/:id/recordedTimeSeries`,
    {
      bodyLimit: Math.max(config.bodyLimitBytes, SAMPLES_BODY_BYTES),
      schema: {
        tags,
        summary: `Record process or sensor data (up to ${MAX_SAMPLES_PER_CALL} samples, one transaction)`,
        description: 'Every tag must be one the device records; the first that is not is named. No events.',
        params: IdParams,
        body: SamplesBody,
        response: { 201: BatchSchema, ...errorResponses(404, 413, 415) },
      },
    },
    async (request, reply) => {
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
  );

  api.get(
    `${DEVICES_PATH}/:id/recordedTimeSeries`,
    {
      schema: {
        tags,
        summary: 'Recorded process or sensor data, newest first (timestamp pagination)',
        description: 'startDate is inclusive, endDate exclusive.',
        params: IdParams,
        querystring: Type.Object(
          {
            ...KeysetQuery,
            tag: Type.Optional(Type.String({ maxLength: 100 })),
            startDate: Type.Optional(Type.String({ format: 'date-time' })),
            endDate: Type.Optional(Type.String({ format: 'date-time' })),
          },
          { additionalProperties: false },
        ),
        response: { 200: KeysetCollection('recordedTimeSeries', SampleSchema), ...errorResponses(404) },
      },
    },
    async (request) => {
      const { tag, startDate, endDate } = request.query;
      const position = keysetPosition(request.query);
      const page = await timeSeries.listSamples(
        db,
        request.params.id,
        {
          tag,
          startDate: startDate === undefined ? undefined : new Date(startDate),
          endDate: endDate === undefined ? undefined : new Date(endDate),
        },
        position,
      );
      const deviceId = request.params.id;
      return keysetCollection(
        {
          hrefs: request.hrefs,
          path: timeSeriesPath(deviceId),
          name: 'recordedTimeSeries',
          query: { tag, startDate, endDate },
          create: canWrite(request)
            ? { rel: 'createRecordedTimeSeries', href: request.hrefs.api(timeSeriesPath(deviceId)) }
            : undefined,
        },
        page.items.map((sample) => presentSample(sample, request.hrefs)),
        page,
        pagingAsked(request.query),
        (sample) => ({
          paginationTimestamp: sample.timestamp.toISOString(),
          paginationIdentifier: sample.id,
        }),
      );
    },
  );

  api.get(
    `${DEVICES_PATH}/:id/recordedTimeSeries/:sampleId`,
    {
      schema: {
        tags,
        summary: 'One recorded sample',
        // Up to the router's limit, so that any readable sample id gets the service's own 404.
        params: Type.Object({
          id: Type.String({ maxLength: 100 }),
          sampleId: Type.String({ maxLength: 200 }),
        }),
        response: { 200: SampleSchema, ...errorResponses(404) },
      },
    },
    async (request) =>
      presentSample(
        await timeSeries.getSample(db, request.params.id, request.params.sampleId),
        request.hrefs,
      ),
  );
}
