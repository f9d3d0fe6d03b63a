// Callback registration rules (src/domain/callbacks.ts, docs/api.md "Callbacks"): every refusal
// names the field; HTTP(S) and MQTT URLs with MQTT's port and topic rules; defaults filled in.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import {
  type CallbackRequest,
  maskUrl,
  mqttTopic,
  REDELIVER_DEFAULT,
  toRegistration,
  UNCONFIRMED_DEFAULT,
} from '../../../src/domain/callbacks.ts';

const ID = '0190a4c2-0000-7000-8000-000000000001';
const base: CallbackRequest = { eventType: 'WORKPLACE_SHIFT_CHANGED', url: 'https://receiver.example/hook' };

/** The field and detail a request is refused with; undefined when it is accepted. */
function refusal(
  request: Partial<CallbackRequest>,
  mqttPort = 1883,
  literalRefusal?: (host: string) => string | null,
) {
  try {
    toRegistration({ ...base, ...request }, mqttPort, literalRefusal && { literalRefusal });
  } catch (error) {
    const { code, params } = error as { code: string; params: Record<string, unknown> };
    assert.equal(code, 'VALIDATION_FAILED');
    return `${params.field}: ${params.detail}`;
  }
  return undefined;
}

describe('toRegistration', () => {
  test('a plain registration gets the documented defaults', () => {
    assert.deepEqual(toRegistration(base, 1883), {
      eventType: 'WORKPLACE_SHIFT_CHANGED',
      url: 'https://receiver.example/hook',
      eventName: null,
      objectIds: null,
      maxRedeliverAttempts: REDELIVER_DEFAULT,
      maxUnconfirmedMessages: UNCONFIRMED_DEFAULT,
      signingSecret: null,
    });
  });

  test('event types: reserved and unknown ones are refused; EXTERNAL and COMMAND are subscribable', () => {
    assert.equal(
      refusal({ eventType: 'SHOP_FLOOR_TERMINAL' }),
      'eventType: SHOP_FLOOR_TERMINAL is reserved for the platform',
    );
    assert.equal(refusal({ eventType: 'COMMAND' }), undefined);
    assert.equal(refusal({ eventType: 'NO_SUCH_EVENT' }), 'eventType: unknown event type NO_SUCH_EVENT');
    assert.equal(refusal({ eventType: 'EXTERNAL' }), undefined);
  });

  test('either spelling of the redelivery limit; both only when equal', () => {
    assert.equal(toRegistration({ ...base, maxRedeliveryAttempts: 7 }, 1883).maxRedeliverAttempts, 7);
    assert.equal(toRegistration({ ...base, maxRedeliverAttempts: 3 }, 1883).maxRedeliverAttempts, 3);
    assert.equal(refusal({ maxRedeliverAttempts: 3, maxRedeliveryAttempts: 3 }), undefined);
    assert.match(
      refusal({ maxRedeliverAttempts: 3, maxRedeliveryAttempts: 4 }) ?? '',
      /^maxRedeliveryAttempts: differs/,
    );
  });

  test('object filters: only by id, a UUID in any case, stored in lower case', () => {
    const registration = toRegistration(
      { ...base, objectFilter: [{ name: 'id', value: ID.toUpperCase() }] },
      1883,
    );
    assert.deepEqual(registration.objectIds, [ID]);
    assert.equal(
      refusal({ objectFilter: [{ name: 'number', value: 'x' }] }),
      "objectFilter.0.name: only 'id' is supported",
    );
    assert.equal(
      refusal({
        objectFilter: [
          { name: 'id', value: ID },
          { name: 'id', value: 'nope' },
        ],
      }),
      'objectFilter.1.value: must be a UUID',
    );
  });

  test('URLs: a host, a known scheme, decodable credentials, and no denied address literal', () => {
    assert.equal(refusal({ url: 'not a url' }), 'url: not a valid URL');
    assert.equal(refusal({ url: 'ftp://receiver.example/x' }), 'url: scheme must be http, https or mqtt');
    assert.equal(
      refusal({ url: 'https://us%ZZer:pw@receiver.example/' }),
      'url: has an invalid percent-encoding',
    );
    const deny = (host: string) => (host === '169.254.169.254' ? 'is a denied address' : null);
    assert.equal(refusal({ url: 'http://169.254.169.254/latest' }, 1883, deny), 'url: is a denied address');
    assert.equal(refusal({ url: 'http://10.0.0.5:1880/hook' }, 1883, deny), undefined);
  });

  test("MQTT URLs: the configured port, a topic under 'external', no wildcards, no query", () => {
    assert.equal(refusal({ url: 'mqtt://broker.example/external/line-3' }), undefined);
    assert.equal(refusal({ url: 'mqtt://broker.example:1884/external' }, 1884), undefined);
    assert.equal(refusal({ url: 'mqtt://broker.example:1884/external' }), 'url: MQTT port must be 1883');
    assert.equal(
      refusal({ url: 'mqtt://broker.example/plant/line-3' }),
      "url: MQTT topic must begin with 'external'",
    );
    assert.equal(
      refusal({ url: 'mqtt://broker.example/externals' }),
      "url: MQTT topic must begin with 'external'",
    );
    for (const url of [
      'mqtt://broker.example/external/+',
      'mqtt://broker.example/external/#',
      'mqtt://broker.example/external/%23',
    ]) {
      assert.equal(refusal({ url }), 'url: MQTT topic must not contain wildcards', url);
    }
    assert.equal(
      refusal({ url: 'mqtt://broker.example/external?qos=1' }),
      'url: MQTT URL must not have a query; the topic is the path',
    );
  });
});

test('the topic of an MQTT URL is its decoded path; a shown URL never has its password', () => {
  assert.equal(mqttTopic(new URL('mqtt://broker.example/external/line%203')), 'external/line 3');
  assert.equal(
    maskUrl('https://user:s3cret@receiver.example/hook'),
    'https://user:****@receiver.example/hook',
  );
  assert.equal(maskUrl('https://receiver.example/hook'), 'https://receiver.example/hook');
});
