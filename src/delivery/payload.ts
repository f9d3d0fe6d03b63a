// What a receiver gets: always the same body, and the extras as headers
// (docs/api.md, "Callbacks (event delivery)").
import { createHmac } from 'node:crypto';
import type { Notification } from '../db/repositories/notifications.ts';

/**
 * Events whose shared body part is kept (DeliveryBodies): a fan-out sends one event many times at
 * once, so a short memory serves. Bounded in bytes too, as an event's data can be large.
 */
const EVENTS_KEPT = 1_000;
const EVENT_BYTES_KEPT = 4 * 1024 * 1024;
/** Callbacks whose own body parts are kept (DeliveryBodies). */
const CALLBACKS_KEPT = 10_000;

/** What a callback adds around an event: its id first, its event name and link last. */
interface CallbackParts {
  href: string;
  eventName: string | null;
  head: Buffer;
  tail: Buffer;
}

/**
 * Delivery bodies: `properties` with its 7 keys in the documented order, and `_links.callback`.
 * Written as text around the event's stored JSON (src/db/repositories/notifications.ts,
 * deliveredEventColumns), compacted, instead of parsing that JSON and writing it out again. The
 * event's part (its time, data, object and type) is built once per event and shared by every
 * callback it goes to; a callback's parts (its id, event name and link) once per callback. A body
 * is the three copied into one buffer.
 */
export class DeliveryBodies {
  readonly #events = new Map<string, Buffer>();
  #eventBytes = 0;
  readonly #callbacks = new Map<string, CallbackParts>();

  body(notification: Notification, callbackHref: string): Buffer {
    const middle = this.#eventPart(notification.event);
    const { head, tail } = this.#callbackParts(notification, callbackHref);
    const body = Buffer.allocUnsafe(head.length + middle.length + tail.length);
    head.copy(body, 0);
    middle.copy(body, head.length);
    tail.copy(body, head.length + middle.length);
    return body;
  }

  #eventPart(event: Notification['event']): Buffer {
    let part = this.#events.get(event.id);
    if (part === undefined) {
      part = keptBuffer(
        `"timestamp":"${event.timestamp}","data":${compactJsonb(event.dataJson)},` +
          `"objectId":${JSON.stringify(event.objectId)},"objectType":${JSON.stringify(event.objectType)},` +
          `"eventType":${JSON.stringify(event.eventType)},`,
      );
      if (this.#events.size >= EVENTS_KEPT || this.#eventBytes + part.length > EVENT_BYTES_KEPT) {
        this.#events.clear();
        this.#eventBytes = 0;
      }
      this.#events.set(event.id, part);
      this.#eventBytes += part.length;
    }
    return part;
  }

  #callbackParts(notification: Notification, href: string): CallbackParts {
    // The callback's name when it has one, else the publisher's (docs/api.md, "Callbacks (event delivery)").
    const eventName = notification.eventName ?? notification.event.eventName;
    const known = this.#callbacks.get(notification.callbackId);
    if (known !== undefined && known.href === href && known.eventName === eventName) return known;
    const parts = {
      href,
      eventName,
      head:
        known?.head ?? keptBuffer(`{"properties":{"callbackId":${JSON.stringify(notification.callbackId)},`),
      tail: keptBuffer(
        `"eventName":${JSON.stringify(eventName)}},` +
          `"_links":{"callback":{"href":${JSON.stringify(href)},"method":"GET","embeddable":false}}}`,
      ),
    };
    if (known === undefined && this.#callbacks.size >= CALLBACKS_KEPT) this.#callbacks.clear();
    this.#callbacks.set(notification.callbackId, parts);
    return parts;
  }
}

/**
 * A buffer of its own for text that is kept: Buffer.from takes small buffers from a shared 8 KiB
 * slab, and one kept slice would keep its whole slab alive.
 */
function keptBuffer(text: string): Buffer {
  const buffer = Buffer.allocUnsafeSlow(Buffer.byteLength(text));
  buffer.write(text);
  return buffer;
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

/** The content type of every delivery: MQTT 5 sends it as the publish's own property, not as a user property. */
export const CONTENT_TYPE_HEADER = ['content-type', 'application/json'] as const;

/**
 * Headers (HTTP) or MQTT 5 user properties, as name, value, name, value, ...: the content type,
 * the event id as `webhook-id`, the per-callback sequence number, the count discarded since the
 * last success, and a Standard Webhooks signature when the callback has a secret. A flat list,
 * the form undici takes them in; a transport may add its own to it (it belongs to the send).
 */
export function deliveryHeaders(notification: Notification, body: Buffer, now: Date): string[] {
  const timestamp = String(Math.floor(now.getTime() / 1000));
  const headers = [
    CONTENT_TYPE_HEADER[0],
    CONTENT_TYPE_HEADER[1],
    'webhook-id',
    notification.event.id,
    'webhook-timestamp',
    timestamp,
    'bridge-sequence',
    String(notification.sequence),
    'bridge-attempt',
    String(notification.attempt),
    'bridge-discarded-notifications',
    String(notification.discardedSinceSuccess),
  ];
  if (notification.signingSecret) {
    headers.push(
      'webhook-signature',
      sign(notification.signingSecret, notification.event.id, timestamp, body),
    );
  }
  return headers;
}

/** Standard Webhooks: v1 = base64 HMAC-SHA256 over `id.timestamp.body`, key = the secret after `whsec_`. */
export function sign(secret: string, id: string, timestamp: string, body: Buffer | string): string {
  const key = Buffer.from(secret.replace(/^whsec_/, ''), 'base64');
  return `v1,${createHmac('sha256', key).update(`${id}.${timestamp}.`).update(body).digest('base64')}`;
}
