// Writes in one round trip (src/db/oneStatement.ts): what goes through the batch arrives as one
// statement, with every statement's parameters in place; a failing write fails all of them;
// anything but a plain write is refused before anything is sent.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { Queryable } from '../../src/db/database.ts';
import { inOneStatement } from '../../src/db/oneStatement.ts';
import { appendEvents, type StoredEvent } from '../../src/db/repositories/eventRepository.ts';
import { BACKENDS, freshDatabase, type TestDatabase } from '../support/databases.ts';

/** A Queryable that counts what reaches the database. */
function counting(db: Queryable) {
  const sent: string[] = [];
  return {
    sent,
    query<Row>(sql: string, params?: readonly unknown[]) {
      sent.push(sql);
      return db.query<Row>(sql, params);
    },
  };
}

const event = (id: string, eventType: string): StoredEvent => ({
  id,
  eventType,
  eventName: null,
  objectType: 'NONE',
  objectId: `o'"\\$1 ${id}`,
  data: { quote: `"'\\`, dollar: '$1', nested: [1, { a: null }] },
  timestamp: new Date('2024-01-01T00:00:00Z'),
  recordedAt: new Date('2024-01-01T00:00:00Z'),
  publishedBy: null,
});

for (const backend of BACKENDS) {
  describe(`writes in one statement [${backend}]`, () => {
    let database: TestDatabase;
    before(async () => {
      database = await freshDatabase(backend);
      await database.db.query('CREATE TABLE one_statement (id int PRIMARY KEY, label text)');
    });
    after(async () => {
      await database.drop();
    });

    test('three writes with their own $1.. arrive as one statement, each with its parameters', async () => {
      await database.db.transaction(async (tx) => {
        const counted = counting(tx);
        await inOneStatement(counted, async (batch) => {
          await batch.query('INSERT INTO one_statement (id, label) VALUES ($1, $2)', [1, 'one']);
          await batch.query('INSERT INTO one_statement (id, label) VALUES ($1, $2), ($3, $4)', [
            2,
            'two',
            3,
            'three',
          ]);
          await batch.query('DELETE FROM one_statement WHERE id = $1', [99]);
        });
        assert.equal(counted.sent.length, 1);
      });
      assert.deepEqual(await database.db.query('SELECT id, label FROM one_statement ORDER BY id'), [
        { id: 1, label: 'one' },
        { id: 2, label: 'two' },
        { id: 3, label: 'three' },
      ]);
    });

    test('one failing write fails the call and writes nothing', async () => {
      await assert.rejects(
        inOneStatement(database.db, async (batch) => {
          await batch.query('INSERT INTO one_statement (id, label) VALUES ($1, $2)', [10, 'new']);
          await batch.query('INSERT INTO one_statement (id, label) VALUES ($1, $2)', [1, 'duplicate']);
        }),
      );
      assert.deepEqual(await database.db.query('SELECT id FROM one_statement WHERE id = 10'), []);
    });

    test('reads and writes with RETURNING are refused before anything is sent', async () => {
      const counted = counting(database.db);
      for (const sql of [
        'SELECT 1',
        'INSERT INTO one_statement (id) VALUES (5) RETURNING id',
        'WITH x AS (SELECT 1) DELETE FROM one_statement',
      ]) {
        await assert.rejects(
          inOneStatement(counted, (batch) => batch.query(sql).then(() => undefined)),
          /writes without RETURNING only/,
        );
      }
      assert.deepEqual(counted.sent, []);
    });

    test('events appended together keep the order given in their log positions, values intact', async () => {
      const events = [
        '0190a3b2-0000-7000-8000-0000000000c3',
        '0190a3b2-0000-7000-8000-0000000000c1',
        '0190a3b2-0000-7000-8000-0000000000c2',
      ].map((id, index) => event(id, `TYPE_${index}`));
      await database.db.transaction((tx) => inOneStatement(tx, (batch) => appendEvents(batch, events)));
      const rows = await database.db.query<{
        id: string;
        event_type: string;
        object_id: string;
        data: unknown;
      }>('SELECT id, event_type, object_id, data FROM events WHERE id = ANY ($1::uuid[]) ORDER BY sequence', [
        events.map((e) => e.id),
      ]);
      assert.deepEqual(
        rows.map((row) => [
          row.id,
          row.event_type,
          row.object_id,
          typeof row.data === 'string' ? JSON.parse(row.data) : row.data,
        ]),
        events.map((e) => [e.id, e.eventType, e.objectId, e.data]),
      );
    });
  });
}
