// What a receiver gets: always the same body, and the extras as headers
// (docs/api.md, "Callbacks (event delivery)").
import { createHmac } from 'node:crypto';
import type { Notification } from '../db/repositories/notifications.ts';

/**
 * The delivery body: `properties` with its 7 keys in the documented order, and `_links.callback`.
 * Written as text around the event's stored JSON (src/db/repositories/notifications.ts,
 * deliveredEventColumns), compacted, instead of parsing that JSON and writing it out again for
 * every callback.
 */
export function deliveryBody(notification: Notification, callbackHref: string): string {
  const { event } = notification;
  // The callback's name when it has one, else the publisher's (docs/api.md, "Callbacks (event delivery)").
  const eventName = notification.eventName ?? event.eventName;
  return (
    `{"properties":{"callbackId":${JSON.stringify(notification.callbackId)},` +
    `"timestamp":"${event.timestamp}","data":${compactJsonb(event.dataJson)},` +
    `"objectId":${JSON.stringify(event.objectId)},"objectType":${JSON.stringify(event.objectType)},` +
    `"eventType":${JSON.stringify(event.eventType)},"eventName":${JSON.stringify(eventName)}},` +
    `"_links":{"callback":{"href":${JSON.stringify(callbackHref)},"method":"GET","embeddable":false}}}`
  );
}

/**
 * PostgreSQL's text of a jsonb value without the blank it writes after every `,` and `:` between
 * tokens, so the body reads as JSON.stringify would write it (docs/api.md gives it byte for byte).
 * jsonb's text has no other whitespace outside strings. Far cheaper than parsing the text and
 * writing it out again; numbers keep the digits PostgreSQL stored (1.5e-7 reads 0.00000015).
 */
export function compactJsonb(text: string): string {
  let compacted = '';
  let copiedTo = 0;
  for (let index = 0; index < text.length; ) {
    const code = text.charCodeAt(index);
    if (code === QUOTE) {
      index = stringEnd(text, index + 1);
    } else if ((code === COMMA || code === COLON) && text.charCodeAt(index + 1) === BLANK) {
      compacted += text.slice(copiedTo, index + 1);
      index += 2;
      copiedTo = index;
    } else index += 1;
  }
  return copiedTo === 0 ? text : compacted + text.slice(copiedTo);
}

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const COMMA = 0x2c;
const COLON = 0x3a;
const BLANK = 0x20;

/** The index after the quote that ends the string starting at `from` (after its opening quote). */
function stringEnd(text: string, from: number): number {
  for (let search = from; ; ) {
    const quote = text.indexOf('"', search);
    if (quote === -1) return text.length;
    let backslashes = 0;
    while (text.charCodeAt(quote - 1 - backslashes) === BACKSLASH) backslashes += 1;
    if (backslashes % 2 === 0) return quote + 1;
    search = quote + 1;
  }
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
