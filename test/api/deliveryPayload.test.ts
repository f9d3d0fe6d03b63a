// What a receiver gets, built without a JSON round trip (src/delivery/payload.ts): the body is
// written as text around the event's stored JSON, so it must parse to exactly the documented
// object for any names and data; the stored JSON and timestamp come from the database as text
// (deliveredEventColumns) and must read as the event's data and Date.toISOString() would, the
// JSON compacted as JSON.stringify writes it (compactJsonb). And
// which attempts of a batch go into the attempt history (src/domain/delivery.ts).
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import fc from 'fast-check';
import { deliveredEventColumns, type Notification } from '../../src/db/repositories/notifications.ts';
import { compactJsonb, DeliveryBodies } from '../../src/delivery/payload.ts';
import { type AttemptResult, attemptsToRecord } from '../../src/domain/delivery.ts';
import { BACKENDS, freshDatabase } from '../support/databases.ts';

const notification = (fields: {
  callbackId: string;
  eventName: string | null;
  publisherName: string | null;
  objectId: string | null;
  objectType: string;
  eventType: string;
  data: unknown;
  timestamp: Date;
}): Notification => ({
  sequence: 7,
  attempt: 1,
  callbackId: fields.callbackId,
  url: 'http://127.0.0.1:1/hook',
  eventName: fields.eventName,
  signingSecret: null,
  maxRedeliverAttempts: 3,
  discardedSinceSuccess: 0,
  event: {
    id: '0195b7a0-0000-7000-8000-000000000001',
    eventType: fields.eventType,
    eventName: fields.publisherName,
    objectType: fields.objectType,
    objectId: fields.objectId,
    dataJson: JSON.stringify(fields.data),
    timestamp: fields.timestamp.toISOString(),
  },
});

test('the body parses to the documented object, keys in order, for any names and data', () => {
  const name = fc.option(fc.string({ unit: 'binary' }), { nil: null });
  fc.assert(
    fc.property(
      fc.record({
        callbackId: fc.uuid(),
        eventName: name,
        publisherName: name,
        objectId: name,
        objectType: fc.string({ unit: 'binary' }),
        eventType: fc.string(),
        data: fc.jsonValue(),
        timestamp: fc.date({
          min: new Date(0),
          max: new Date('9999-12-31T23:59:59.999Z'),
          noInvalidDate: true,
        }),
      }),
      fc.webUrl(),
      (fields, href) => {
        // A new one per case: every case's event has the same id, and an event's part is kept by id.
        const body = new DeliveryBodies().body(notification(fields), href).toString();
        const expected = {
          properties: {
            callbackId: fields.callbackId,
            timestamp: fields.timestamp.toISOString(),
            data: JSON.parse(JSON.stringify(fields.data)),
            objectId: fields.objectId,
            objectType: fields.objectType,
            eventType: fields.eventType,
            eventName: fields.eventName ?? fields.publisherName,
          },
          _links: { callback: { href, method: 'GET', embeddable: false } },
        };
        assert.equal(body, JSON.stringify(expected));
      },
    ),
  );
});

for (const backend of BACKENDS) {
  describe(`stored event columns as delivered [${backend}]`, () => {
    test('data reads as the stored JSON, the timestamp as Date.toISOString() writes it', async () => {
      const database = await freshDatabase(backend);
      try {
        const data = {
          text: 'a "quoted" \\ ünïcode ✓ line\nbreak',
          n: -1.5e-7,
          list: [null, true, {}],
          nested: { z: 1 },
        };
        const stamps = [
          '2026-11-26T14:54:35.123987Z', // microseconds: truncated, as a Date keeps them
          '2026-01-01T00:00:00Z',
          '1999-12-31T23:59:59.999999Z',
          '2026-06-30T21:30:00.5+02:00',
        ];
        for (const stamp of stamps) {
          const [row] = await database.db.query<{ data: string; timestamp: string; parsed: Date }>(
            `SELECT ${deliveredEventColumns('e')}, e."timestamp" AS parsed
             FROM (SELECT $1::jsonb AS data, $2::timestamptz AS "timestamp") e`,
            [JSON.stringify(data), stamp],
          );
          assert.ok(row);
          assert.deepEqual(JSON.parse(row.data), data);
          assert.equal(row.timestamp, row.parsed.toISOString(), stamp);
        }
      } finally {
        await database.drop();
      }
    });

    test('compacted, the stored JSON is what JSON.stringify writes (numbers as stored)', async () => {
      const database = await freshDatabase(backend);
      try {
        // What jsonb takes: no NUL, no lone surrogates (the API refuses them before they are stored).
        const text = fc
          .string({ unit: 'binary', maxLength: 12 })
          .filter((value) => !value.includes('\0') && value.isWellFormed());
        const integral = fc.letrec((tie) => ({
          value: fc.oneof(
            { depthSize: 'small' },
            fc.constant(null),
            fc.boolean(),
            fc.integer(),
            text,
            fc.array(tie('value'), { maxLength: 4 }),
            fc.dictionary(text, tie('value'), { maxKeys: 4 }),
          ),
        })).value;
        const samples = fc.sample(integral, 200).map((value) => JSON.stringify(value));
        const rows = await database.db.query<{ stored: string }>(
          'SELECT value::jsonb::text AS stored FROM unnest($1::text[]) WITH ORDINALITY AS s (value, n) ORDER BY n',
          [samples],
        );
        assert.equal(rows.length, samples.length);
        for (const { stored } of rows) assert.equal(compactJsonb(stored), JSON.stringify(JSON.parse(stored)));
        // Numbers keep the digits PostgreSQL stored; they read as the same values.
        const [numbers] = await database.db.query<{ stored: string }>(
          `SELECT '{"small": 1.5e-7, "big": 1e21, "exact": 1.0, "list": [-0, 2.50]}'::jsonb::text AS stored`,
        );
        assert.ok(numbers);
        assert.equal(
          compactJsonb(numbers.stored),
          '{"big":1000000000000000000000,"list":[0,2.50],"exact":1.0,"small":0.00000015}',
        );
      } finally {
        await database.drop();
      }
    });
  });
}

describe('attemptsToRecord', () => {
  const D: AttemptResult = 'DELIVERED';
  const F: AttemptResult = 'FAILED';
  const X: AttemptResult = 'DISCARDED';

  test('a batch within the history is recorded whole', () => {
    assert.deepEqual(attemptsToRecord(['a', 'b', 'a'], [D, F, D], 3), [true, true, true]);
  });

  test('only the newest successes are recorded, per callback', () => {
    const ids = ['a', 'a', 'b', 'a', 'a', 'b'];
    assert.deepEqual(attemptsToRecord(ids, [D, D, D, D, D, D], 2), [false, false, true, true, true, true]);
  });

  test('failures and discards are always recorded, and the newest success with them', () => {
    // 'a': its newest success is the first attempt, followed by more than `kept` failures.
    const ids = ['a', 'a', 'a', 'a', 'a'];
    assert.deepEqual(attemptsToRecord(ids, [D, D, F, X, F], 2), [false, true, true, true, true]);
  });

  test('what is left out changes no count and keeps the newest `kept` of each callback', () => {
    const result = fc.constantFrom<AttemptResult>(D, F, X);
    fc.assert(
      fc.property(
        fc.array(fc.tuple(fc.constantFrom('a', 'b', 'c'), result), { maxLength: 60 }),
        fc.integer({ min: 1, max: 10 }),
        (batch, kept) => {
          const ids = batch.map(([id]) => id);
          const results = batch.map(([, outcome]) => outcome);
          const record = attemptsToRecord(ids, results, kept);
          for (const id of new Set(ids)) {
            const mine = batch.map((_, index) => index).filter((index) => ids[index] === id);
            const recorded = mine.filter((index) => record[index]);
            // The newest `kept` of the callback are all recorded.
            for (const index of mine.slice(-kept)) assert.ok(record[index]);
            // Every failure and discard is recorded; so is the newest success.
            for (const index of mine) if (results[index] !== D) assert.ok(record[index]);
            const successes = mine.filter((index) => results[index] === D);
            if (successes.length > 0) assert.ok(record[successes.at(-1) as number]);
            // Left out: only successes older than the newest `kept`.
            for (const index of mine.filter((index) => !record[index])) {
              assert.equal(results[index], D);
              assert.ok(mine.indexOf(index) < mine.length - kept);
            }
            assert.ok(recorded.length >= Math.min(kept, mine.length));
          }
        },
      ),
    );
  });
});
