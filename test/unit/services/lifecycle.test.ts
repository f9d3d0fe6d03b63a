// The create, replace and delete shape of a resource family (src/services/lifecycle.ts), on a table
// of the test's own in a fresh database of each backend: what each write stores, which events it
// records, and the errors of a duplicate, a refused check and a delete of a row still referenced;
// and the same writes of items below an owner (`ownedLifecycle`), which lock the owner first.
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, describe, test } from 'node:test';
import type { Database, Queryable } from '../../../src/db/database.ts';
import { findById, ownedFind, rowWrites, type Table } from '../../../src/db/table.ts';
import { AppError } from '../../../src/domain/errors.ts';
import type { Stored } from '../../../src/domain/stored.ts';
import {
  lifecycle,
  newItem,
  ownedLifecycle,
  ownerEvents,
  withChanged,
} from '../../../src/services/lifecycle.ts';
import { found, locking } from '../../../src/services/writes.ts';
import { BACKENDS, freshDatabase, type TestDatabase } from '../../support/databases.ts';

interface Thing extends Stored {
  number: string;
}

interface Row {
  id: string;
  number: string;
  created_at: Date;
  updated_at: Date;
}

const THINGS: Table<Row, Thing> = {
  from: 'unit_things',
  toItem: (row) => ({ id: row.id, number: row.number, createdAt: row.created_at, updatedAt: row.updated_at }),
};

const lockThing = locking('thing', (tx: Queryable, id: string, lock: boolean) =>
  findById(tx, THINGS, id, { lock: lock ? ' FOR UPDATE' : '' }),
);

/** Numbers starting with REFUSED fail the family's check. */
const things = lifecycle<Thing>('thing', {
  rows: rowWrites<Thing>()('unit_things', 'id number createdAt updatedAt'),
  events: (change, thing, changed) => [
    {
      eventType: `UNIT_THING_${change}`,
      objectType: 'WORKPLACE',
      objectId: thing.id,
      data: withChanged({ number: thing.number }, changed),
    },
  ],
  check: async (_tx, thing) => {
    if (thing.number.startsWith('REFUSED')) {
      throw new AppError('VALIDATION_FAILED', { rule: 'value', field: 'number', detail: 'refused' });
    }
  },
  unique: (thing) => ['number', thing.number],
});

/** A part below a thing; a name starting with REFUSED fails its input check. */
interface Part extends Stored {
  thingId: string;
  name: string;
}

const PARTS: Table<{ id: string; thing_id: string; name: string; created_at: Date; updated_at: Date }, Part> =
  {
    from: 'unit_thing_parts',
    toItem: (row) => ({
      id: row.id,
      thingId: row.thing_id,
      name: row.name,
      createdAt: row.created_at,
      updatedAt: row.updated_at,
    }),
  };

const partData = (part: Part) => ({ partId: part.id, thingId: part.thingId, name: part.name });

// A catalogue event type about the owner (any will do: the test reads the events it records).
const parts = ownedLifecycle<Part, { name: string }>('part', {
  owner: {
    get: (db, id) => found(findById(db, THINGS, id), 'thing', id),
    lock: async (tx, id) => {
      await lockThing(id)(tx);
    },
  },
  find: ownedFind(PARTS, 'thing_id'),
  rows: rowWrites<Part>()('unit_thing_parts', 'id thingId name createdAt updatedAt', {
    fixed: ['thing_id', 'created_at'],
  }),
  events: ownerEvents('SETUP_TRANSITION_RULE', (part) => part.thingId, partData),
  checkInput: (input) => {
    if (input.name.startsWith('REFUSED'))
      throw new AppError('VALIDATION_FAILED', { rule: 'value', field: 'name', detail: 'refused' });
  },
  create: (input, thingId, time) => newItem({ ...input, thingId }, time),
  changed: (before, after) => (before.name === after.name ? [] : ['name']),
});

const at = (minute: number) => new Date(Date.UTC(2030, 0, 1, 0, minute));

for (const backend of BACKENDS) {
  describe(`services/lifecycle [${backend}]`, () => {
    let database: TestDatabase;
    let db: Database;
    before(async () => {
      database = await freshDatabase(backend);
      db = database.db;
      await db.exec(`CREATE TABLE unit_things (
          id uuid PRIMARY KEY, number text NOT NULL UNIQUE,
          created_at timestamptz NOT NULL, updated_at timestamptz NOT NULL);
        CREATE TABLE unit_thing_uses (thing_id uuid NOT NULL REFERENCES unit_things (id));
        CREATE TABLE unit_thing_parts (id uuid PRIMARY KEY, thing_id uuid NOT NULL REFERENCES unit_things (id),
          name text NOT NULL, created_at timestamptz NOT NULL, updated_at timestamptz NOT NULL)`);
    });
    after(async () => {
      await database?.drop();
    });

    /** The events recorded about a thing, oldest first: type, data and time. */
    const eventsOf = async (id: string) =>
      (
        await db.query<{ event_type: string; data: Record<string, unknown>; timestamp: Date }>(
          'SELECT event_type, data, "timestamp" FROM events WHERE object_id = $1 ORDER BY sequence',
          [id],
        )
      ).map((row) => ({ type: row.event_type, data: row.data, at: row.timestamp.getTime() }));

    const stored = (id: string) => findById(db, THINGS, id);

    test('create stores the new item and records its CREATED events at its creation', async () => {
      const thing = newItem({ number: `N-${randomUUID()}` }, at(1));
      assert.deepEqual(await things.create(db, thing), thing);
      assert.deepEqual(await stored(thing.id), thing);
      assert.deepEqual(await eventsOf(thing.id), [
        { type: 'UNIT_THING_CREATED', data: { number: thing.number }, at: at(1).getTime() },
      ]);
    });

    test('a replace that changes nothing writes nothing and records nothing', async () => {
      const thing = await things.create(db, newItem({ number: `N-${randomUUID()}` }, at(1)));
      const result = await things.replace(db, lockThing(thing.id), (_tx, before) => ({
        after: { ...before },
        changed: [],
      }));
      assert.deepEqual(result, thing);
      assert.deepEqual(await stored(thing.id), thing);
      assert.equal((await eventsOf(thing.id)).length, 1);
    });

    test('a replace that changes a property stores it, last changed at its time, with UPDATED', async () => {
      const thing = await things.create(db, newItem({ number: `N-${randomUUID()}` }, at(1)));
      const number = `M-${randomUUID()}`;
      let changeTime: Date | undefined;
      const result = await things.replace(db, lockThing(thing.id), (_tx, before, time) => {
        changeTime = time;
        return { after: { ...before, number }, changed: ['number'] };
      });
      assert.ok(changeTime);
      assert.deepEqual(result, { ...thing, number, updatedAt: changeTime });
      assert.deepEqual(await stored(thing.id), result);
      assert.deepEqual((await eventsOf(thing.id))[1], {
        type: 'UNIT_THING_UPDATED',
        data: { number, changedProperties: ['number'] },
        at: changeTime.getTime(),
      });
    });

    test('a duplicate is ALREADY_EXISTS naming the unique field, a refused check stores nothing', async () => {
      const thing = await things.create(db, newItem({ number: `N-${randomUUID()}` }, at(1)));
      const twin = newItem({ number: thing.number }, at(2));
      await assert.rejects(things.create(db, twin), (error: AppError) => {
        assert.equal(error.code, 'ALREADY_EXISTS');
        assert.deepEqual(error.params, { field: 'number', value: thing.number });
        return true;
      });
      const refused = newItem({ number: `REFUSED-${randomUUID()}` }, at(2));
      await assert.rejects(things.create(db, refused), { code: 'VALIDATION_FAILED' });
      await assert.rejects(
        things.replace(db, lockThing(thing.id), (_tx, before) => ({
          after: { ...before, number: refused.number },
          changed: ['number'],
        })),
        { code: 'VALIDATION_FAILED' },
      );
      for (const id of [twin.id, refused.id]) {
        assert.equal(await stored(id), undefined);
        assert.deepEqual(await eventsOf(id), []);
      }
      assert.deepEqual(await stored(thing.id), thing);
    });

    test('delete removes the item with its DELETED events; one still in use is RESOURCE_IN_USE', async () => {
      const thing = await things.create(db, newItem({ number: `N-${randomUUID()}` }, at(1)));
      await things.delete(db, lockThing(thing.id));
      assert.equal(await stored(thing.id), undefined);
      assert.deepEqual(
        (await eventsOf(thing.id)).map((event) => event.type),
        ['UNIT_THING_CREATED', 'UNIT_THING_DELETED'],
      );
      await assert.rejects(things.delete(db, lockThing(thing.id)), { code: 'NOT_FOUND' });

      const used = await things.create(db, newItem({ number: `N-${randomUUID()}` }, at(1)));
      await db.query('INSERT INTO unit_thing_uses (thing_id) VALUES ($1)', [used.id]);
      await assert.rejects(things.delete(db, lockThing(used.id)), (error: AppError) => {
        assert.equal(error.code, 'RESOURCE_IN_USE');
        assert.equal(error.params.resource, 'thing');
        assert.equal(error.params.id, used.id);
        return true;
      });
      assert.deepEqual(await stored(used.id), used);
      assert.equal((await eventsOf(used.id)).length, 1);
    });

    test('items below an owner: each write finds its owner first, events are about the owner', async () => {
      const owner = await things.create(db, newItem({ number: `N-${randomUUID()}` }, at(1)));
      const other = await things.create(db, newItem({ number: `N-${randomUUID()}` }, at(1)));
      const part = await parts.create(db, owner.id, { name: 'Gear' });
      assert.deepEqual(await parts.get(db, owner.id, part.id), part);
      assert.equal(part.thingId, owner.id);
      await assert.rejects(parts.get(db, other.id, part.id), { code: 'NOT_FOUND' });
      await assert.rejects(parts.get(db, randomUUID(), part.id), { code: 'NOT_FOUND' });
      await assert.rejects(parts.create(db, randomUUID(), { name: 'Shaft' }), { code: 'NOT_FOUND' });
      await assert.rejects(parts.create(db, owner.id, { name: 'REFUSED' }), { code: 'VALIDATION_FAILED' });
      await assert.rejects(parts.replace(db, other.id, part.id, { name: 'Axle' }), { code: 'NOT_FOUND' });

      assert.deepEqual(await parts.replace(db, owner.id, part.id, { name: 'Gear' }), part);
      const renamed = await parts.replace(db, owner.id, part.id, { name: 'Axle' });
      assert.equal(renamed.name, 'Axle');
      await assert.rejects(parts.delete(db, other.id, part.id), { code: 'NOT_FOUND' });
      await parts.delete(db, owner.id, part.id);
      await assert.rejects(parts.get(db, owner.id, part.id), { code: 'NOT_FOUND' });

      assert.deepEqual(
        (await eventsOf(owner.id)).slice(1).map((event) => [event.type, event.data]),
        [
          ['SETUP_TRANSITION_RULE_CREATED', partData(part)],
          ['SETUP_TRANSITION_RULE_UPDATED', { ...partData(renamed), changedProperties: ['name'] }],
          ['SETUP_TRANSITION_RULE_DELETED', partData(renamed)],
        ],
      );
      assert.equal((await eventsOf(other.id)).length, 1);
    });
  });
}
