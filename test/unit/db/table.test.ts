// The statements every resource table shares (src/db/table.ts), on a table of the test's own in a
// fresh database of each backend: writes by id, finds by id (of an owner, locked) and by an owner's key, the rows of some
// ids or of some owners, every row of a filter or of an owner, offset and timestamp pages with their totals, an owner's rows in a
// period (and any owner's), jsonb writes and reads, columns named like their properties.
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, describe, test } from 'node:test';
import type { Database } from '../../../src/db/database.ts';
import {
  allOf,
  anyOwnerPeriodList,
  asJsonb,
  BY_UPDATED_AT,
  batchFind,
  findById,
  fromJsonb,
  insertRow,
  keyedFind,
  lockableFind,
  NO_FILTER,
  offsetPageOf,
  ofOwners,
  ownedAll,
  ownedBy,
  ownedFind,
  ownedPeriodList,
  rowWrites,
  sameNamed,
  type Table,
  timestampPageOf,
  typed,
} from '../../../src/db/table.ts';
import { BACKENDS, freshDatabase, type TestDatabase } from '../../support/databases.ts';

interface Row {
  id: string;
  owner_id: string;
  name: string;
  tags: string[];
  created_at: Date;
  updated_at: Date;
}
interface Part {
  id: string;
  ownerId: string;
  name: string;
  tags: string[];
  createdAt: Date;
  updatedAt: Date;
}

const PARTS: Table<Row, Part> = {
  from: 'unit_parts',
  toItem: (row) => ({
    id: row.id,
    ownerId: row.owner_id,
    name: row.name,
    tags: row.tags,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  }),
};
const writes = rowWrites<Part>()('unit_parts', 'id ownerId name createdAt updatedAt', {
  other: (part) => ({ tags: typed(part.tags, 'text[]') }),
});

interface Period {
  id: string;
  name: string;
}

const PERIODS: Table<Period, Period> = { from: 'unit_periods', select: 'id, name', toItem: (row) => row };
const DATED_PERIODS: Table<Period & { start_date: Date }, string> = {
  from: 'unit_periods',
  select: 'id, name, start_date',
  toItem: (row) => row.name,
};

const at = (minute: number) => new Date(Date.UTC(2030, 0, 1, 0, minute));

test('fromJsonb: a parsed value as it is, text parsed', () => {
  const value = { tags: ['a'], count: 2 };
  assert.equal(fromJsonb(value), value);
  assert.deepEqual(fromJsonb<typeof value>(JSON.stringify(value)), value);
  assert.equal(fromJsonb<null>(null), null);
});
const part = (ownerId: string, name: string, minute: number): Part => ({
  id: randomUUID(),
  ownerId,
  name,
  tags: [name.toLowerCase()],
  createdAt: at(0),
  updatedAt: at(minute),
});

test('sameNamed: each listed property in the column of its name in snake_case, and no other', () => {
  const one = part(randomUUID(), 'Gear', 3);
  assert.deepEqual(sameNamed<Part>()('id ownerId updatedAt')(one), {
    id: one.id,
    owner_id: one.ownerId,
    updated_at: one.updatedAt,
  });
  // @ts-expect-error a name the item does not have does not compile
  sameNamed<Part>()('id ownerID');
});

for (const backend of BACKENDS) {
  describe(`db/table [${backend}]`, () => {
    let database: TestDatabase;
    let db: Database;
    before(async () => {
      database = await freshDatabase(backend);
      db = database.db;
      await db.exec(`CREATE TABLE unit_parts (
          id uuid PRIMARY KEY, owner_id uuid NOT NULL, name text NOT NULL, tags text[] NOT NULL,
          created_at timestamptz NOT NULL, updated_at timestamptz NOT NULL);
        CREATE TABLE unit_periods (id uuid PRIMARY KEY, owner_id uuid NOT NULL, name text NOT NULL,
          start_date timestamptz NOT NULL, end_date timestamptz NOT NULL);
        CREATE TABLE unit_documents (id uuid PRIMARY KEY, body jsonb)`);
    });
    after(async () => {
      await database?.drop();
    });

    /** An owner of the test's own with these parts (names and minutes of their last change). */
    async function ownerWith(...parts: [string, number][]): Promise<{ ownerId: string; parts: Part[] }> {
      const ownerId = randomUUID();
      const made = parts.map(([name, minute]) => part(ownerId, name, minute));
      for (const one of made) await writes.insert(db, one);
      return { ownerId, parts: made };
    }

    test('insert, update and delete by id; an update leaves created_at alone', async () => {
      const { parts } = await ownerWith(['Gear', 1]);
      const [gear] = parts as [Part];
      assert.deepEqual(await lockableFind(PARTS)(db, gear.id), gear);
      const changed = { ...gear, name: 'Gear 2', tags: ['a', 'b'], createdAt: at(59), updatedAt: at(2) };
      await writes.update(db, changed);
      assert.deepEqual(await lockableFind(PARTS)(db, gear.id, true), {
        ...changed,
        createdAt: gear.createdAt,
      });
      await writes.delete(db, gear.id);
      assert.equal(await findById(db, PARTS, gear.id), undefined);
    });

    test('asJsonb: the value comes back equal from its jsonb column; null is JSON null', async () => {
      const values: [unknown, string][] = [
        [{ tags: ['a'], nested: { count: 2, text: "it's" } }, 'object'],
        [['x', 1, null], 'array'],
        [0, 'number'],
        [null, 'null'],
      ];
      for (const [value, kind] of values) {
        const id = randomUUID();
        await insertRow(db, 'unit_documents', { id, body: asJsonb(value) });
        const rows = await db.query<{ body: unknown; kind: string | null }>(
          'SELECT body, jsonb_typeof(body) AS kind FROM unit_documents WHERE id = $1',
          [id],
        );
        assert.deepEqual(fromJsonb(rows[0]?.body), value);
        assert.equal(rows[0]?.kind, kind);
      }
    });

    test('an id that is no uuid is not found, and never reaches the uuid column', async () => {
      for (const id of ['', 'abc', "x' OR '1'='1", `${randomUUID()}x`]) {
        assert.equal(await findById(db, PARTS, id), undefined, id);
      }
    });

    test("a row of another owner is not found through the owner's find", async () => {
      const { ownerId, parts } = await ownerWith(['Shaft', 1]);
      const [shaft] = parts as [Part];
      const find = ownedFind(PARTS, 'owner_id');
      assert.equal((await find(db, ownerId, shaft.id))?.name, 'Shaft');
      assert.equal(await find(db, randomUUID(), shaft.id), undefined);
    });

    test("an owner's row by a key of its own; another owner's is not found", async () => {
      const { ownerId, parts } = await ownerWith(['Gear', 1], ['Shaft', 2]);
      const byName = keyedFind(PARTS, 'owner_id', 'name');
      assert.deepEqual(await byName(db, ownerId, 'Shaft'), parts[1]);
      assert.equal(await byName(db, randomUUID(), 'Shaft'), undefined);
      assert.equal(await byName(db, ownerId, 'Nut'), undefined);
    });

    test('the rows of some ids leave unknown ids out', async () => {
      const { parts } = await ownerWith(['A', 1], ['B', 2]);
      const found = await batchFind(PARTS)(db, [...parts.map((one) => one.id), randomUUID()]);
      assert.deepEqual(found.map((one) => one.name).sort(), ['A', 'B']);
      assert.deepEqual(await batchFind(PARTS)(db, []), []);
    });

    test("every row of an owner, in order; an unknown owner's none", async () => {
      const { ownerId } = await ownerWith(['C', 1], ['A', 2], ['B', 3]);
      await ownerWith(['D', 4]);
      const all = ownedAll(PARTS, 'owner_id', 'name');
      assert.deepEqual(
        (await all(db, ownerId)).map((one) => one.name),
        ['A', 'B', 'C'],
      );
      assert.deepEqual(await all(db, randomUUID()), []);
    });

    test('every row that passes a filter, in order when one is given', async () => {
      const { ownerId } = await ownerWith(['C', 1], ['A', 2], ['B', 3]);
      await ownerWith(['D', 4]);
      const filter = { where: ['owner_id = $1', 'name <> $2'], params: [ownerId, 'B'] };
      assert.deepEqual(
        (await allOf(db, PARTS, filter, 'name')).map((one) => one.name),
        ['A', 'C'],
      );
      assert.deepEqual((await allOf(db, PARTS, filter)).map((one) => one.name).sort(), ['A', 'C']);
    });

    test('the rows of some owners, in order; none, without a statement, for no owners', async () => {
      const first = await ownerWith(['B', 1], ['A', 2]);
      const second = await ownerWith(['C', 3]);
      await ownerWith(['D', 4]);
      const rowsOf = ofOwners(PARTS, 'owner_id = ANY($1::uuid[])', 'name');
      assert.deepEqual(
        (await rowsOf(db, [first.ownerId, second.ownerId])).map((one) => one.name),
        ['A', 'B', 'C'],
      );
      assert.deepEqual(await rowsOf(db, []), []);
    });

    test('an offset page of an owner: its order, its slice and the total of the owner', async () => {
      const { ownerId } = await ownerWith(['C', 1], ['A', 2], ['D', 3], ['B', 4]);
      const page = await offsetPageOf(db, PARTS, ownedBy('owner_id')(ownerId), 'name', {
        limit: 2,
        offset: 1,
      });
      assert.deepEqual(
        page.items.map((one) => one.name),
        ['B', 'C'],
      );
      assert.equal(page.total, 4);
      const all = await offsetPageOf(db, PARTS, NO_FILTER, 'name', { limit: 1, offset: 0 });
      assert.ok(all.total >= 4);
    });

    test("an owner's rows in a period: those overlapping it, in order, with their total", async () => {
      const ownerId = randomUUID();
      for (const [name, start, end] of [
        ['before', 0, 10],
        ['into', 5, 25],
        ['within', 30, 40],
        ['out of', 45, 70],
        ['after', 61, 70],
      ] as const) {
        await db.query(
          'INSERT INTO unit_periods (id, owner_id, name, start_date, end_date) VALUES ($1, $2, $3, $4, $5)',
          [randomUUID(), ownerId, name, at(start), at(end)],
        );
      }
      const list = ownedPeriodList(PERIODS, 'owner_id', 'start_date, id');
      const names = async (filter: { startDate?: Date; endDate?: Date }, page = { limit: 10, offset: 0 }) => {
        const found = await list(db, ownerId, filter, page);
        return [found.items.map((one) => one.name), found.total];
      };
      assert.deepEqual(await names({ startDate: at(20), endDate: at(60) }), [
        ['into', 'within', 'out of'],
        3,
      ]);
      assert.deepEqual(await names({ startDate: at(20) }), [['into', 'within', 'out of', 'after'], 4]);
      assert.deepEqual(await names({}, { limit: 2, offset: 1 }), [['into', 'within'], 5]);
      assert.deepEqual(await list(db, randomUUID(), {}, { limit: 10, offset: 0 }), { items: [], total: 0 });
    });

    test("any owner's rows in a period, latest start first; one owner's when the filter names it", async () => {
      const [first, second] = [randomUUID(), randomUUID()];
      for (const [ownerId, name, start] of [
        [first, 'a1', 100],
        [second, 'b1', 110],
        [first, 'a2', 120],
        [second, 'b0', 10],
      ] as const) {
        await db.query(
          'INSERT INTO unit_periods (id, owner_id, name, start_date, end_date) VALUES ($1, $2, $3, $4, $5)',
          [randomUUID(), ownerId, name, at(start), at(start + 5)],
        );
      }
      const list = anyOwnerPeriodList(DATED_PERIODS, 'owner_id');
      const request = { limit: 10, direction: 'NEXT' as const, timestamp: undefined, identifier: undefined };
      const names = async (filter: { ownerId?: string; startDate?: Date }) =>
        (await list(db, filter, request)).items.filter((name) => /^[ab][0-9]$/.test(name));
      assert.deepEqual(await names({ startDate: at(100) }), ['a2', 'b1', 'a1']);
      assert.deepEqual(await names({ ownerId: second }), ['b1', 'b0']);
      assert.deepEqual(await names({ ownerId: first, startDate: at(110) }), ['a2']);
    });

    test('timestamp pages: newest first, NEXT walks older and PREVIOUS newer from a position', async () => {
      const { ownerId, parts } = await ownerWith(['P1', 1], ['P2', 2], ['P3', 3], ['P4', 4], ['P5', 5]);
      const filter = ownedBy('owner_id')(ownerId);
      const page = (request: Partial<Parameters<typeof timestampPageOf>[4]>) =>
        timestampPageOf(db, PARTS, filter, BY_UPDATED_AT, {
          limit: 2,
          direction: 'NEXT',
          timestamp: undefined,
          identifier: undefined,
          ...request,
        });
      const first = await page({});
      assert.deepEqual(
        first.items.map((one) => one.name),
        ['P5', 'P4'],
      );
      assert.deepEqual([first.total, first.hasOlder, first.hasNewer], [5, true, false]);

      const edge = first.items.at(-1) as Part;
      const next = await page({ timestamp: edge.updatedAt, identifier: edge.id });
      assert.deepEqual(
        next.items.map((one) => one.name),
        ['P3', 'P2'],
      );
      assert.deepEqual([next.hasOlder, next.hasNewer], [true, true]);

      const p3 = parts[2] as Part;
      const previous = await page({ direction: 'PREVIOUS', timestamp: p3.updatedAt, identifier: p3.id });
      assert.deepEqual(
        previous.items.map((one) => one.name),
        ['P5', 'P4'],
      );
      assert.deepEqual([previous.hasOlder, previous.hasNewer], [true, false]);
    });
  });
}
