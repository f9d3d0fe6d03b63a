import { Type } from 'typebox';
import { listDeliveryAttempts } from '../../db/repositories/callbacks.ts';
import {
  REDELIVER_DEFAULT,
  REDELIVER_MAX,
  UNCONFIRMED_DEFAULT,
  UNCONFIRMED_MAX,
} from '../../domain/callbacks.ts';
import * as service from '../../services/callbacks.ts';
import type { Api } from '../api.ts';
import { canWrite } from '../auth.ts';
import type { ServerDeps } from '../deps.ts';
import { offsetCollection } from '../hal.ts';
import { CALLBACKS_PATH } from '../paths.ts';
import { presentCallback, presentDeliveries } from '../presenters/callbacks.ts';
import {
  errorResponses,
  IdParams,
  Nullable,
  OffsetCollection,
  OffsetQuery,
  offsetPage,
  Resource,
} from '../schemas/common.ts';

const Redeliver = Type.Integer({
  minimum: 0,
  maximum: REDELIVER_MAX,
  description: `default ${REDELIVER_DEFAULT}`,
});

const Body = Type.Object(
  {
    eventType: Type.String({
      minLength: 1,
      maxLength: 100,
      description: 'An event type of spec 6.3, or EXTERNAL',
    }),
    url: Type.String({
      minLength: 1,
      maxLength: 2000,
      description: 'http(s)://[user:pass@]host[:port]/path or mqtt://host:1883/external/<topic>',
    }),
    eventName: Type.Optional(Nullable(Type.String({ maxLength: 200 }))),
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

const CallbackSchema = Resource(
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

const tags = ['callbacks'];
const DELIVERIES_SHOWN = 50;

/** Callbacks belong to the client that registered them: other clients get 404 and never list them. */
export function registerCallbacks(api: Api, { db, config }: ServerDeps): void {
  const clientOf = (request: { client?: { clientId: string } | undefined }) => request.client?.clientId ?? '';

  api.post(
    CALLBACKS_PATH,
    {
      schema: {
        tags,
        summary: 'Register a callback',
        body: Body,
        response: { 201: CallbackSchema, ...errorResponses(415) },
      },
    },
    async (request, reply) => {
      const callback = await service.registerCallback(db, clientOf(request), request.body, config);
      const representation = presentCallback(callback, request.hrefs);
      return reply.code(201).header('location', representation._links.self?.href).send(representation);
    },
  );

  api.get(
    CALLBACKS_PATH,
    {
      schema: {
        tags,
        summary: "List the caller's callbacks",
        querystring: Type.Object(OffsetQuery, { additionalProperties: false }),
        response: { 200: OffsetCollection('callbacks', CallbackSchema), ...errorResponses() },
      },
    },
    async (request) => {
      const { limit, offset } = offsetPage(request.query);
      const page = await service.listCallbacks(db, clientOf(request), { limit, offset });
      return offsetCollection(
        {
          hrefs: request.hrefs,
          path: CALLBACKS_PATH,
          name: 'callbacks',
          query: {},
          create: canWrite(request)
            ? { rel: 'createCallback', href: request.hrefs.api(CALLBACKS_PATH) }
            : undefined,
        },
        page.items.map((callback) => presentCallback(callback, request.hrefs)),
        page,
        { limit, offset },
      );
    },
  );

  api.get(
    `${CALLBACKS_PATH}/:id`,
    {
      schema: {
        tags,
        summary: 'One callback',
        params: IdParams,
        response: { 200: CallbackSchema, ...errorResponses(404) },
      },
    },
    async (request) =>
      presentCallback(await service.getCallback(db, clientOf(request), request.params.id), request.hrefs),
  );

  api.delete(
    `${CALLBACKS_PATH}/:id`,
    {
      schema: {
        tags,
        summary: 'Delete a callback: nothing more is delivered for it',
        params: IdParams,
        response: { 204: Type.Null(), ...errorResponses(404) },
      },
    },
    async (request, reply) => {
      await service.deleteCallback(db, clientOf(request), request.params.id);
      return reply.code(204).send();
    },
  );

  api.get(
    `${CALLBACKS_PATH}/:id/deliveries`,
    {
      schema: {
        tags,
        summary: 'Recent delivery attempts, newest first: why a callback does (not) fire',
        params: IdParams,
        querystring: Type.Object(
          { limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 100, default: DELIVERIES_SHOWN })) },
          { additionalProperties: false },
        ),
        response: { ...errorResponses(404) },
      },
    },
    async (request) => {
      const callback = await service.getCallback(db, clientOf(request), request.params.id);
      const attempts = await listDeliveryAttempts(db, callback.id, request.query.limit ?? DELIVERIES_SHOWN);
      return presentDeliveries(callback.id, attempts, request.hrefs);
    },
  );
}
