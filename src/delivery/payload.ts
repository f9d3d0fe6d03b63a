// What a receiver gets: always the same body, and the extras as headers
// (docs/api.md, "Callbacks (event delivery)").
import { createHmac } from 'node:crypto';
import type { Notification } from '../db/repositories/notifications.ts';

/** The delivery body: `properties` with its 7 keys in the documented order, and `_links.callback`. */
export function deliveryBody(notification: Notification, callbackHref: string): string {
  const { event } = notification;
  return JSON.stringify({
    properties: {
      callbackId: notification.callbackId,
      timestamp: event.timestamp.toISOString(),
      data: event.data,
      objectId: event.objectId,
      objectType: event.objectType,
      eventType: event.eventType,
      // The callback's name when it has one, else the publisher's (docs/api.md, "Callbacks (event delivery)").
      eventName: notification.eventName ?? notification.event.eventName,
    },
    _links: { callback: { href: callbackHref, method: 'GET', embeddable: false } },
  });
}

/**
 * Headers (HTTP) or MQTT 5 user properties: the event id as `webhook-id`, the per-callback
 * sequence number, the count discarded since the last success, and a Standard Webhooks
 * signature when the callback has a secret.
 */
export function deliveryHeaders(notification: Notification, body: string, now: Date): Record<string, string> {
  const timestamp = String(Math.floor(now.getTime() / 1000));
  const headers: Record<string, string> = {
    'webhook-id': notification.event.id,
    'webhook-timestamp': timestamp,
    'bridge-sequence': String(notification.sequence),
    'bridge-attempt': String(notification.attempt),
    'bridge-discarded-notifications': String(notification.discardedSinceSuccess),
  };
  if (notification.signingSecret) {
    headers['webhook-signature'] = sign(notification.signingSecret, notification.event.id, timestamp, body);
  }
  return headers;
}

/** Standard Webhooks: v1 = base64 HMAC-SHA256 over `id.timestamp.body`, key = the secret after `whsec_`. */
export function sign(secret: string, id: string, timestamp: string, body: string): string {
  const key = Buffer.from(secret.replace(/^whsec_/, ''), 'base64');
  return `v1,${createHmac('sha256', key).update(`${id}.${timestamp}.${body}`).digest('base64')}`;
}
