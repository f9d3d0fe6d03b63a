// The event log as the API shows and takes it (docs/events.md).
import { Type } from 'typebox';
import { OBJECT_TYPES, PUBLISHABLE_OBJECT_TYPES } from '../../domain/events.ts';
import { Nullable, optionalText, Resource } from './common.ts';

export const EventSchema = Resource(
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

export const PublishEventBody = Type.Object(
  {
    eventType: Type.Enum(['EXTERNAL'], { description: 'Always EXTERNAL' }),
    objectType: Type.Optional(
      Nullable(Type.Enum([...PUBLISHABLE_OBJECT_TYPES, ''], { description: 'Empty or absent: NONE' })),
    ),
    objectId: optionalText(200),
    eventName: optionalText(200),
    data: Type.Optional(Type.Record(Type.String(), Type.Unknown(), { description: 'Any content' })),
    timestamp: Type.Optional(Type.String({ format: 'date-time', description: 'Event time; default now' })),
  },
  { additionalProperties: false },
);

export const EventFilters = {
  eventType: Type.Optional(Type.String({ maxLength: 100 })),
  objectType: Type.Optional(Type.Enum([...OBJECT_TYPES])),
  objectId: Type.Optional(Type.String({ maxLength: 200 })),
};

/** GET /events/stream: the filters of GET /events, where to resume, and the token for EventSource. */
export const EventStreamQuery = Type.Object(
  {
    ...EventFilters,
    lastEventId: Type.Optional(
      Type.Integer({
        minimum: 0,
        description:
          'Resume after this log position (as the Last-Event-ID header, which wins when both are sent)',
      }),
    ),
    access_token: Type.Optional(
      Type.String({
        maxLength: 4096,
        description: 'The bearer token, for clients that cannot send an Authorization header (EventSource)',
      }),
    ),
  },
  { additionalProperties: false },
);
