// Callbacks as the API shows and takes them (docs/api.md, "Callbacks (event delivery)").
import { Type } from 'typebox';
import {
  REDELIVER_DEFAULT,
  REDELIVER_MAX,
  UNCONFIRMED_DEFAULT,
  UNCONFIRMED_MAX,
} from '../../domain/callbacks.ts';
import { Nullable, optionalText, Resource } from './common.ts';

const Redeliver = Type.Integer({
  minimum: 0,
  maximum: REDELIVER_MAX,
  description: `default ${REDELIVER_DEFAULT}`,
});

export const CallbackBody = Type.Object(
  {
    eventType: Type.String({
      minLength: 1,
      maxLength: 100,
      description: 'An event type of the catalogue (docs/events.md), or EXTERNAL',
    }),
    url: Type.String({
      minLength: 1,
      maxLength: 2000,
      description: 'http(s)://[user:pass@]host[:port]/path or mqtt://host:1883/external/<topic>',
    }),
    eventName: optionalText(200),
    objectFilter: Type.Optional(
      Nullable(
        Type.Array(
          Type.Object(
            { name: Type.String({ maxLength: 50 }), value: Type.String({ maxLength: 100 }) },
            { additionalProperties: false },
          ),
          { maxItems: 100 },
        ),
      ),
    ),
    maxRedeliverAttempts: Type.Optional(Redeliver),
    maxRedeliveryAttempts: Type.Optional(Redeliver),
    maxUnconfirmedMessages: Type.Optional(
      Type.Integer({ minimum: 1, maximum: UNCONFIRMED_MAX, description: `default ${UNCONFIRMED_DEFAULT}` }),
    ),
    secret: Type.Optional(
      Nullable(
        Type.String({
          pattern: '^whsec_[A-Za-z0-9+/]{32,}={0,2}$',
          description:
            'Standard Webhooks secret (whsec_ + base64 of 24+ bytes): deliveries get webhook-signature',
        }),
      ),
    ),
  },
  { additionalProperties: false },
);

export const CallbackSchema = Resource(
  Type.Object({
    id: Type.String({ format: 'uuid' }),
    eventType: Type.String(),
    url: Type.String({ description: 'A password in the URL is masked' }),
    eventName: Nullable(Type.String()),
    objectFilter: Type.Array(Type.Object({ name: Type.String(), value: Type.String() })),
    maxRedeliverAttempts: Type.Integer(),
    maxRedeliveryAttempts: Type.Integer(),
    maxUnconfirmedMessages: Type.Integer(),
    signed: Type.Boolean(),
    creationDate: Type.String({ format: 'date-time' }),
    lastTriggeredDate: Nullable(Type.String({ format: 'date-time' })),
    lastSuccessfulDate: Nullable(Type.String({ format: 'date-time' })),
    failedAttempts: Type.Integer(),
    discardedNotifications: Type.Integer(),
  }),
  'Registration for event notification',
);
