import type { DeliveryAttempt } from '../../db/repositories/callbackRepository.ts';
import { type Callback, maskUrl } from '../../domain/callbacks.ts';
import { describeNetworkFailure } from '../../domain/networkFailures.ts';
import { link, type Resource, resource } from '../hal.ts';
import type { Hrefs } from '../hrefs.ts';
import { CALLBACKS_PATH } from '../paths.ts';
import { iso } from './properties.ts';

export function presentCallback(callback: Callback, hrefs: Hrefs): Resource {
  const self = `${CALLBACKS_PATH}/${callback.id}`;
  return resource(
    {
      id: callback.id,
      eventType: callback.eventType,
      url: maskUrl(callback.url),
      eventName: callback.eventName,
      objectFilter: (callback.objectIds ?? []).map((value) => ({ name: 'id', value })),
      // Both spellings, as FORCE Bridge clients use either (docs/api.md, "Callbacks (event delivery)").
      maxRedeliverAttempts: callback.maxRedeliverAttempts,
      maxRedeliveryAttempts: callback.maxRedeliverAttempts,
      maxUnconfirmedMessages: callback.maxUnconfirmedMessages,
      signed: callback.signingSecret !== null,
      creationDate: callback.creationDate.toISOString(),
      lastTriggeredDate: iso(callback.lastTriggeredDate),
      lastSuccessfulDate: iso(callback.lastSuccessfulDate),
      failedAttempts: callback.failedAttempts,
      discardedNotifications: callback.discardedNotifications,
    },
    {
      self: link(hrefs.api(self)),
      deliveries: link(hrefs.api(`${self}/deliveries`)),
    },
  );
}

/** `named`: the host of the callback's URL, which its errors may show (the client gave it). */
export function presentDeliveries(
  callbackId: string,
  attempts: DeliveryAttempt[],
  hrefs: Hrefs,
  named = '',
): Resource {
  const self = `${CALLBACKS_PATH}/${callbackId}`;
  return resource(
    { callbackId, count: attempts.length },
    { self: link(hrefs.api(`${self}/deliveries`)), callback: link(hrefs.api(self)) },
    {
      deliveries: attempts.map((attempt) => ({
        ...attempt,
        attemptedAt: attempt.attemptedAt.toISOString(),
        error: describeNetworkFailure(attempt.error, named),
      })),
    },
  );
}
