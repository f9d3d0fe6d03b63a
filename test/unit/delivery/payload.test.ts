// src/delivery/payload.ts: what a receiver gets. The body is written as text around the event's
// stored JSON (compacted as JSON.stringify would write it); the extras go in headers, signed as
// Standard Webhooks when the callback has a secret.
import assert from 'node:assert/strict';
import { createHmac } from 'node:crypto';
import { describe, test } from 'node:test';
import type { Notification } from '../../../src/db/repositories/notifications.ts';
import { compactJsonb, DeliveryBodies, deliveryHeaders, sign } from '../../../src/delivery/payload.ts';

const deliveryBody = (delivered: Notification, href: string) =>
  new DeliveryBodies().body(delivered, href).toString();
/** Headers as name, value, ... read as an object (each name once). */
const headerObject = (headers: string[]) =>
  Object.fromEntries(headers.flatMap((name, index) => (index % 2 === 0 ? [[name, headers[index + 1]]] : [])));

const notification = (fields: Partial<Notification> = {}, event: Partial<Notification['event']> = {}) =>
  ({
    sequence: 7,
    attempt: 2,
    callbackId: '0195b7a0-0000-7000-8000-0000000000cb',
    url: 'http://127.0.0.1:1/hook',
    eventName: null,
    signingSecret: null,
    maxRedeliverAttempts: 3,
    discardedSinceSuccess: 4,
    ...fields,
    event: {
      id: '0195b7a0-0000-7000-8000-0000000000e1',
      eventType: 'WORKPLACE_OPERATING_STATE_CHANGED',
      eventName: null,
      objectType: 'WORKPLACE',
      objectId: 'wp-1',
      dataJson: '{"state": "110", "since": 1.5}',
      timestamp: '2026-03-04T05:06:07.089Z',
      ...event,
    },
  }) satisfies Notification;

describe('deliveryBody', () => {
  test('the documented object, its keys in order, the data compacted', () => {
    const body = deliveryBody(notification(), 'https://bridge.example/api/v2/callbacks/cb');
    assert.equal(
      body,
      '{"properties":{"callbackId":"0195b7a0-0000-7000-8000-0000000000cb","timestamp":"2026-03-04T05:06:07.089Z",' +
        '"data":{"state":"110","since":1.5},"objectId":"wp-1","objectType":"WORKPLACE",' +
        '"eventType":"WORKPLACE_OPERATING_STATE_CHANGED","eventName":null},' +
        '"_links":{"callback":{"href":"https://bridge.example/api/v2/callbacks/cb","method":"GET","embeddable":false}}}',
    );
  });

  test("the callback's event name first, else the publisher's", () => {
    const named = (callback: string | null, publisher: string | null) =>
      JSON.parse(deliveryBody(notification({ eventName: callback }, { eventName: publisher }), '/cb'))
        .properties.eventName;
    assert.equal(named('mine', 'theirs'), 'mine');
    assert.equal(named(null, 'theirs'), 'theirs');
    assert.equal(named(null, null), null);
  });

  test('names with quotes, backslashes and line breaks stay valid JSON', () => {
    const odd = 'a "quoted"\\ name\n\u2028';
    const body = deliveryBody(notification({}, { objectId: odd, objectType: odd }), `/cb?x="${odd}"`);
    const parsed = JSON.parse(body);
    assert.equal(parsed.properties.objectId, odd);
    assert.equal(parsed.properties.objectType, odd);
    assert.equal(parsed._links.callback.href, `/cb?x="${odd}"`);
  });
});

describe('DeliveryBodies', () => {
  test("an event's part is shared by its callbacks: each body is the one built alone", () => {
    const bodies = new DeliveryBodies();
    const callbacks = ['0195b7a0-0000-7000-8000-0000000000c1', '0195b7a0-0000-7000-8000-0000000000c2'];
    for (const event of [{}, { id: '0195b7a0-0000-7000-8000-0000000000e2', objectId: 'wp-2' }]) {
      for (const callbackId of callbacks) {
        const delivered = notification({ callbackId }, event);
        assert.equal(
          bodies.body(delivered, `/cb/${callbackId}`).toString(),
          deliveryBody(delivered, `/cb/${callbackId}`),
        );
      }
    }
  });

  test("a callback's new name or link is in its next body", () => {
    const bodies = new DeliveryBodies();
    const properties = (delivered: Notification, href: string) =>
      JSON.parse(bodies.body(delivered, href).toString());
    assert.equal(properties(notification(), '/a')._links.callback.href, '/a');
    assert.equal(properties(notification({ eventName: 'renamed' }), '/a').properties.eventName, 'renamed');
    assert.equal(properties(notification({ eventName: 'renamed' }), '/b')._links.callback.href, '/b');
    assert.equal(properties(notification(), '/b').properties.eventName, null);
  });
});

describe('compactJsonb', () => {
  test("drops the blank jsonb's text writes after every , and : between tokens", () => {
    assert.equal(compactJsonb('{"a": 1, "b": [1, 2, {"c": null}]}'), '{"a":1,"b":[1,2,{"c":null}]}');
  });

  test('leaves strings alone, escaped quotes and backslashes included', () => {
    const text = '{"say": "a, b: c", "quote": "\\", x", "slash": "\\\\", "end": ", :"}';
    assert.equal(compactJsonb(text), '{"say":"a, b: c","quote":"\\", x","slash":"\\\\","end":", :"}');
    assert.deepEqual(JSON.parse(compactJsonb(text)), JSON.parse(text));
  });

  test('text with nothing to drop is returned as it is', () => {
    for (const text of ['1', '"a, b"', 'null', '[]', '{}']) assert.equal(compactJsonb(text), text);
  });
});

describe('deliveryHeaders', () => {
  test('event id, time in seconds, sequence, attempt and the discarded count; no signature without a secret', () => {
    const now = new Date('2026-03-04T05:06:07.999Z');
    assert.deepEqual(headerObject(deliveryHeaders(notification(), Buffer.from('{}'), now)), {
      'content-type': 'application/json',
      'webhook-id': '0195b7a0-0000-7000-8000-0000000000e1',
      'webhook-timestamp': String(Math.floor(now.getTime() / 1000)),
      'bridge-sequence': '7',
      'bridge-attempt': '2',
      'bridge-discarded-notifications': '4',
    });
  });

  test('with a secret: a v1 signature over id.timestamp.body', () => {
    const secret = `whsec_${Buffer.from('a secret of the callback').toString('base64')}`;
    const now = new Date('2026-03-04T05:06:07Z');
    const headers = headerObject(
      deliveryHeaders(notification({ signingSecret: secret }), Buffer.from('{"x":1}'), now),
    );
    const expected = createHmac('sha256', 'a secret of the callback')
      .update(`0195b7a0-0000-7000-8000-0000000000e1.${headers['webhook-timestamp']}.{"x":1}`)
      .digest('base64');
    assert.equal(headers['webhook-signature'], `v1,${expected}`);
  });
});

test('sign: the Standard Webhooks test vector', () => {
  assert.equal(
    sign(
      'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw',
      'msg_p5jXN8AQM9LWM0D4loKWxJek',
      '1614265330',
      '{"test": 2432232314}',
    ),
    'v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=',
  );
});
