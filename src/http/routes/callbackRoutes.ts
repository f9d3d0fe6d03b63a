import { Type } from 'typebox';
import { listDeliveryAttempts } from '../../db/repositories/callbackRepository.ts';
import { hostOf } from '../../domain/networkFailures.ts';
import * as service from '../../services/callbackService.ts';
import type { Api } from '../api.ts';
import type { ServerDeps } from '../deps.ts';
import { CALLBACKS_PATH } from '../paths.ts';
import { presentCallback, presentDeliveries } from '../presenters/callbackPresenter.ts';
import { type At, resourceRoutes } from '../resourceRoutes.ts';
import { registerRoute } from '../route.ts';
import { CallbackBody, CallbackSchema } from '../schemas/callbackSchemas.ts';

const tags = ['callbacks'];
const DELIVERIES_SHOWN = 50;

/** Callbacks belong to the client that registered them: other clients get 404 and never list them. */
export function registerCallbacks(api: Api, { db, config }: ServerDeps): void {
  const clientOf = ({ request }: At) => request.client?.clientId ?? '';
  const callbacks = resourceRoutes(api, {
    path: CALLBACKS_PATH,
    schema: CallbackSchema,
    present: presentCallback,
  });
  callbacks.create({
    summary: 'Register a callback',
    body: CallbackBody,
    run: (body, at) => service.registerCallback(db, clientOf(at), body, config, at.request.hrefs.root('')),
  });
  callbacks.list({
    summary: "List the caller's callbacks",
    load: (_filter, page, at) => service.listCallbacks(db, clientOf(at), page),
  });
  callbacks.get({ load: (at) => service.getCallback(db, clientOf(at), at.id) });
  callbacks.remove({
    summary: 'Delete a callback: nothing more is delivered for it',
    run: (at) => service.deleteCallback(db, clientOf(at), at.id),
  });

  registerRoute(api, {
    method: 'GET',
    path: `${CALLBACKS_PATH}/:id/deliveries`,
    tags,
    summary: 'Recent delivery attempts, newest first: why a callback does (not) fire',
    querystring: Type.Object(
      { limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 100, default: DELIVERIES_SHOWN })) },
      { additionalProperties: false },
    ),
    response: {},
    errors: [404],
    handler: async (request) => {
      const callback = await service.getCallback(db, request.client?.clientId ?? '', request.params.id);
      const attempts = await listDeliveryAttempts(db, callback.id, request.query.limit ?? DELIVERIES_SHOWN);
      return presentDeliveries(callback.id, attempts, request.hrefs, hostOf(callback.url));
    },
  });
}
