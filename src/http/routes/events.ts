// The event log (contract 8): every emitted event, readable in timestamp mode so a client that
// was down can catch up, and POST /events for an application's own EXTERNAL events (spec 6.5).
import { Type } from 'typebox';
import { listEvents } from '../../db/repositories/events.ts';
import { OBJECT_TYPES, PUBLISHABLE_OBJECT_TYPES } from '../../domain/events.ts';
import { getEvent, publishExternalEvent } from '../../services/eventLog.ts';
import type { Api } from '../api.ts';
import { canWrite } from '../auth.ts';
import type { ServerDeps } from '../deps.ts';
import { keysetCollection } from '../hal.ts';
import { EVENTS_PATH } from '../paths.ts';
import { presentEvent } from '../presenters/events.ts';
import {
  errorResponses,
  IdParams,
  KeysetCollection,
  KeysetQuery,
  keysetPosition,
  Nullable,
  pagingAsked,
  Resource,
} from '../schemas/common.ts';

const EventSchema = Resource(
  Type.Object({
    id: Type.String({ format: 'uuid' }),
    eventType: Type.String(),
    eventName: Nullable(Type.String()),
    objectType: Type.String(),
    objectId: Nullable(Type.String()),
    data: Type.Record(Type.String(), Type.Unknown()),
    timestamp: Type.String({ format: 'date-time', description: 'When it happened' }),
    recordedAt: Type.String({ format: 'date-time', description: 'When the service recorded it' }),
  }),
  'An event of the log',
);

const PublishBody = Type.Object(
  {
    eventType: Type.Enum(['EXTERNAL'], { description: 'Always EXTERNAL' }),
    objectType: Type.Optional(
      Nullable(Type.Enum([...PUBLISHABLE_OBJECT_TYPES, ''], { description: 'Empty or absent: NONE' })),
    ),
    objectId: Type.Optional(Nullable(Type.String({ maxLength: 200 }))),
    eventName: Type.Optional(Nullable(Type.String({ maxLength: 200 }))),
    data: Type.Optional(Type.Record(Type.String(), Type.Unknown(), { description: 'Any content' })),
    timestamp: Type.Optional(Type.String({ format: 'date-time', description: 'Event time; default now' })),
  },
  { additionalProperties: false },
);

const tags = ['events'];

export function registerEvents(api: Api, { db }: ServerDeps): void {
  api.get(
    EVENTS_PATH,
    {
      schema: {
        tags,
        summary: 'The event log, newest first (timestamp mode on recordedAt)',
        description:
          'Keep firstIdentifier and later ask paginationDirection=PREVIOUS from it to get every event recorded since.',
        querystring: Type.Object(
          {
            ...KeysetQuery,
            eventType: Type.Optional(Type.String({ maxLength: 100 })),
            objectType: Type.Optional(Type.Enum([...OBJECT_TYPES])),
            objectId: Type.Optional(Type.String({ maxLength: 200 })),
          },
          { additionalProperties: false },
        ),
        response: { 200: KeysetCollection('events', EventSchema), ...errorResponses() },
      },
    },
    async (request) => {
      const { eventType, objectType, objectId } = request.query;
      const position = keysetPosition(request.query);
      const page = await listEvents(db, { eventType, objectType, objectId }, position);
      return keysetCollection(
        {
          hrefs: request.hrefs,
          path: EVENTS_PATH,
          name: 'events',
          query: { eventType, objectType, objectId },
          create: canWrite(request)
            ? { rel: 'createEvent', href: request.hrefs.api(EVENTS_PATH) }
            : undefined,
        },
        page.items.map((event) => presentEvent(event, request.hrefs)),
        page,
        pagingAsked(request.query),
        (event) => ({
          paginationTimestamp: event.recordedAt.toISOString(),
          paginationIdentifier: event.id,
        }),
      );
    },
  );

  api.get(
    `${EVENTS_PATH}/:id`,
    {
      schema: {
        tags,
        summary: 'One event',
        params: IdParams,
        response: { 200: EventSchema, ...errorResponses(404) },
      },
    },
    async (request) => presentEvent(await getEvent(db, request.params.id), request.hrefs),
  );

  api.post(
    EVENTS_PATH,
    {
      schema: {
        tags,
        summary: 'Publish an EXTERNAL event; callbacks for EXTERNAL receive it',
        body: PublishBody,
        response: { 201: EventSchema, ...errorResponses(415) },
      },
    },
    async (request, reply) => {
      const { body } = request;
      const event = await publishExternalEvent(db, request.client?.clientId ?? '', {
        objectType: body.objectType ? body.objectType : 'NONE',
        objectId: body.objectId ?? null,
        eventName: body.eventName ?? null,
        data: body.data ?? {},
        timestamp: body.timestamp === undefined ? undefined : new Date(body.timestamp),
      });
      const representation = presentEvent(event, request.hrefs);
      return reply.code(201).header('location', representation._links.self?.href).send(representation);
    },
  );
}
