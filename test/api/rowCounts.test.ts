// Maintained row counts (migration 016, src/db/rowCounts.ts): the `total` of the growing
// collections comes from counts the writing transactions keep. They must equal count(*) after any
// mix of inserts, deletes (cascades too) and truncates, from concurrent connections, and across
// the fold of closed connections' shards.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import fc from 'fast-check';
import pg from 'pg';
import type { Queryable } from '../../src/db/database.ts';
import { countedScope, foldCounts, MAINTAINED_COUNTS, readCount } from '../../src/db/rowCounts.ts';
import { createOperation, createWorkplace, describeEachBackend, json, type TestApp } from '../support/app.ts';
import { BACKENDS, freshDatabase, type TestDatabase } from '../support/databases.ts';
import { waitFor } from '../support/wait.ts';

const DEVICES = '/api/v2/devices';

async function createDevice(t: TestApp, workplaceId: string, name: string): Promise<string> {
  const response = await t.request({
    method: 'POST',
    url: DEVICES,
    body: { name, type: 'PLC', workplaceId, recordedPhysicalQuantities: [{ tag: 'T' }] },
  });
  assert.equal(response.statusCode, 201, response.body);
  return json(response).properties.id;
}

async function postSamples(t: TestApp, deviceId: string, count: number, from: number): Promise<void> {
  const elements = Array.from({ length: count }, (_, i) => ({
    tag: 'T',
    timestamp: new Date(Date.UTC(2024, 0, 1) + (from + i) * 1000).toISOString(),
    value: from + i,
  }));
  const response = await t.request({
    method: 'POST',
    url: `${DEVICES}/${deviceId}/recordedTimeSeries`,
    body: { elements },
  });
  assert.equal(response.statusCode, 201, response.body);
}

async function countStar(db: Queryable, table: string, where = '', params: unknown[] = []): Promise<number> {
  const [row] = await db.query<{ n: number }>(`SELECT count(*)::int AS n FROM ${table} ${where}`, params);
  return row?.n ?? 0;
}

/** Every maintained count of the table (whole, per owner, per filter value) against count(*). */
async function assertCountsExact(db: Queryable, table: string): Promise<void> {
  assert.equal(await readCount(db, { table, scope: '' }), await countStar(db, table), `${table} total`);
  const { owner, filters = [] } = MAINTAINED_COUNTS[table] ?? {};
  const counted = await db.query<{ scope: string; n: number }>(
    `SELECT scope, sum(n)::int AS n FROM row_counts WHERE table_name = $1 AND scope <> '' GROUP BY scope HAVING sum(n) <> 0 ORDER BY scope`,
    [table],
  );
  const scopes = [
    ...(owner === undefined ? [] : [`${owner}::text`]),
    ...filters.map((column) => `'${column}=' || ${column}::text`),
  ];
  const actual =
    scopes.length === 0
      ? []
      : await db.query<{ scope: string; n: number }>(
          `SELECT scope, count(*)::int AS n FROM (${scopes.map((scope) => `SELECT ${scope} AS scope FROM ${table}`).join(' UNION ALL ')}) s
     WHERE scope IS NOT NULL GROUP BY 1 ORDER BY 1`,
        );
  assert.deepEqual(counted, actual, `${table} per ${[owner, ...filters].join(', ')}`);
}

describe('which counts answer a total', () => {
  test('no condition, or only the owner column equal to $1, on a counted table', () => {
    assert.deepEqual(countedScope('events', [], []), { table: 'events', scope: '' });
    assert.deepEqual(countedScope('operations o', [], []), { table: 'operations', scope: '' });
    const device = '0190A3B2-0000-7000-8000-00000000000A';
    assert.deepEqual(countedScope('recorded_time_series', ['device_id = $1'], [device]), {
      table: 'recorded_time_series',
      scope: device.toLowerCase(),
    });
    // Anything else is counted row by row.
    assert.equal(
      countedScope('recorded_time_series', ['device_id = $1', 'tag = $2'], [device, 'T']),
      undefined,
    );
    assert.equal(countedScope('recorded_time_series', ['tag = $1'], ['T']), undefined);
    assert.equal(countedScope('events', ['event_type = $1'], ['X']), undefined);
    assert.equal(countedScope('workplaces w', [], []), undefined);
    // The operations' common filters, as their conditions are written.
    assert.deepEqual(countedScope('operations o', ['o.operation_phase_id = $1::text'], ['PROCESSING']), {
      table: 'operations',
      scope: 'operation_phase_id=PROCESSING',
    });
    assert.deepEqual(countedScope('operations o', ['o.workplace_id = $1::uuid'], [device]), {
      table: 'operations',
      scope: `workplace_id=${device.toLowerCase()}`,
    });
    assert.equal(
      countedScope('operations o', ['o.operation_phase_id = ANY($1::text[])'], [['A', 'B']]),
      undefined,
    );
    assert.equal(countedScope('operations o', ['o.material_number = $1::text'], ['M']), undefined);
    assert.equal(countedScope('operations o', ['x.workplace_id = $1::uuid'], [device]), undefined);
    assert.equal(countedScope('tools t JOIN tool_assembly_orders o ON o.tool_id = t.id', [], []), undefined);
  });
});

for (const backend of BACKENDS) {
  describe(`maintained counts [${backend}]`, () => {
    let database: TestDatabase;
    before(async () => {
      database = await freshDatabase(backend);
    });
    after(async () => {
      await database.drop();
    });

    test('every counted table has its triggers, with its counted columns, and no other table has them', async () => {
      const rows = await database.db.query<{ table: string; trigger: string; args: string }>(
        `SELECT c.relname AS table, t.tgname AS trigger, encode(t.tgargs, 'escape') AS args
         FROM pg_trigger t JOIN pg_class c ON c.oid = t.tgrelid JOIN pg_proc p ON p.oid = t.tgfoid
         WHERE p.proname IN ('count_changed_rows', 'count_rows_by') ORDER BY 1, 2`,
      );
      const expected = Object.entries(MAINTAINED_COUNTS)
        .flatMap(([table, { owner, filters }]) =>
          [
            ...(filters
              ? ['deletes', 'inserts', 'truncates', 'updates']
              : ['deletes', 'inserts', 'truncates']),
          ].map((kind) => ({
            table,
            trigger: `${table}_counted_${kind}`,
            args:
              kind === 'truncates'
                ? ''
                : [...(owner === undefined ? [] : [owner]), ...(filters ?? [])]
                    .map((column) => `${column}\\000`)
                    .join(''),
          })),
        )
        .sort((a, b) =>
          a.table === b.table ? a.trigger.localeCompare(b.trigger) : a.table.localeCompare(b.table),
        );
      assert.deepEqual(rows, expected);
    });

    test('counts equal count(*) after any mix of inserts, deletes, cascades and truncates', async () => {
      const db = database.db;
      const devices = ['00000000-0000-7000-8000-000000000001', '00000000-0000-7000-8000-000000000002'];
      const step = fc.oneof(
        fc.record({
          kind: fc.constant('insert' as const),
          device: fc.integer({ min: 0, max: 1 }),
          n: fc.integer({ min: 0, max: 30 }),
        }),
        fc.record({
          kind: fc.constant('delete' as const),
          device: fc.integer({ min: 0, max: 1 }),
          n: fc.integer({ min: 0, max: 30 }),
        }),
        fc.record({ kind: fc.constant('dropDevice' as const), device: fc.integer({ min: 0, max: 1 }) }),
        fc.constant({ kind: 'truncate' as const }),
      );
      await fc.assert(
        fc.asyncProperty(fc.array(step, { maxLength: 12 }), async (steps) => {
          await db.query('TRUNCATE recorded_time_series');
          await db.query('DELETE FROM devices');
          for (const id of devices) await insertDevice(db, id);
          for (const s of steps) {
            const device = 'device' in s ? devices[s.device] : undefined;
            if (s.kind === 'insert') {
              await db.query(
                `INSERT INTO recorded_time_series (id, device_id, tag, "timestamp", value)
                 SELECT gen_random_uuid(), $1, 'T', now() - make_interval(secs => i), i FROM generate_series(1, $2) i
                 WHERE EXISTS (SELECT 1 FROM devices WHERE id = $1)`,
                [device, 'n' in s ? s.n : 0],
              );
            } else if (s.kind === 'delete') {
              await db.query(
                `DELETE FROM recorded_time_series WHERE id IN (SELECT id FROM recorded_time_series WHERE device_id = $1 LIMIT $2)`,
                [device, 'n' in s ? s.n : 0],
              );
            } else if (s.kind === 'dropDevice') {
              await db.query('DELETE FROM devices WHERE id = $1', [device]); // its samples by cascade
              await insertDevice(db, device as string);
            } else {
              await db.query('TRUNCATE recorded_time_series');
            }
            await assertCountsExact(db, 'recorded_time_series');
          }
        }),
        { numRuns: 15 },
      );
      await db.query('TRUNCATE recorded_time_series');
      await db.query('DELETE FROM devices');
    });

    test('a rolled-back write leaves the count as it was', async () => {
      const db = database.db;
      const before = await readCount(db, { table: 'events', scope: '' });
      await assert.rejects(
        db.transaction(async (tx) => {
          await tx.query(
            `INSERT INTO events (id, event_type, object_type, data, "timestamp", recorded_at)
             VALUES (gen_random_uuid(), 'EXTERNAL', 'EXTERNAL', '{}', now(), now())`,
          );
          throw new Error('roll back');
        }),
        /roll back/,
      );
      assert.equal(await readCount(db, { table: 'events', scope: '' }), before);
      await assertCountsExact(db, 'events');
    });
  });
}

const GROUP = '00000000-0000-7000-8000-0000000000a1';
const WORKPLACE = '00000000-0000-7000-8000-0000000000a2';

/** A device (on a workplace made for it, once): the owner of the samples the property writes. */
async function insertDevice(db: Queryable, id: string): Promise<void> {
  await db.query(
    `INSERT INTO workplace_groups (id, number, type, created_at, updated_at)
     VALUES ($1, 'RC', 'CAPACITY_GROUP', now(), now()) ON CONFLICT (id) DO NOTHING`,
    [GROUP],
  );
  await db.query(
    `INSERT INTO workplaces (id, number, is_manual_workplace, operating_state_id, capacity_group_id, created_at, updated_at)
     VALUES ($1, 'RC', false, '00000000-0000-0000-0000-000000000000', $2, now(), now()) ON CONFLICT (id) DO NOTHING`,
    [WORKPLACE, GROUP],
  );
  await db.query(
    `INSERT INTO devices (id, name, type, workplace_id, recorded_physical_quantities, created_at, updated_at)
     VALUES ($1, 'RC', 'PLC', $2, '[]', now(), now()) ON CONFLICT (id) DO NOTHING`,
    [id, WORKPLACE],
  );
}

describe('maintained counts under concurrent connections [postgres]', {
  skip: BACKENDS.includes('postgres') ? false : 'PostgreSQL not available',
}, () => {
  let database: TestDatabase;
  before(async () => {
    database = await freshDatabase('postgres');
  });
  after(async () => {
    await database.drop();
  });

  test('eight connections insert and delete at once: exact, one shard each, folded into shard 0 when they close', async () => {
    const url = database.url as string;
    const clients = await Promise.all(
      Array.from({ length: 8 }, async () => {
        const client = new pg.Client({ connectionString: url });
        await client.connect();
        return client;
      }),
    );
    const pids = clients.map((client) => (client as unknown as { processID: number }).processID);
    await Promise.all(
      clients.map(async (client, c) => {
        for (let round = 0; round < 25; round += 1) {
          await client.query('BEGIN');
          await client.query(
            `INSERT INTO events (id, event_type, object_type, object_id, data, "timestamp", recorded_at)
             SELECT gen_random_uuid(), 'EXTERNAL', 'EXTERNAL', $1, '{}', now(), now() FROM generate_series(1, 3)`,
            [`c${c}`],
          );
          if (round % 5 === 4) {
            await client.query(
              `DELETE FROM events WHERE id = (SELECT id FROM events WHERE object_id = $1 LIMIT 1)`,
              [`c${c}`],
            );
          }
          await client.query('COMMIT');
        }
      }),
    );
    assert.equal(await readCount(database.db, { table: 'events', scope: '' }), 8 * (25 * 3 - 5));
    await assertCountsExact(database.db, 'events');
    const shards = await database.db.query<{ shard: number }>(
      `SELECT shard FROM row_counts WHERE table_name = 'events' AND shard = ANY ($1::int[]) ORDER BY shard`,
      [pids],
    );
    assert.deepEqual(
      shards.map((row) => row.shard),
      [...pids].sort((a, b) => a - b),
    );

    // Open connections keep their shards; closed ones are folded into shard 0.
    await database.db.transaction((tx) => foldCounts(tx));
    assert.equal(
      (await database.db.query('SELECT 1 FROM row_counts WHERE shard = ANY ($1::int[])', [pids])).length,
      8,
    );
    await Promise.all(clients.map((client) => client.end()));
    await waitUntilGone(database.db, pids);
    await database.db.transaction((tx) => foldCounts(tx));
    assert.deepEqual(
      await database.db.query('SELECT 1 FROM row_counts WHERE shard = ANY ($1::int[])', [pids]),
      [],
    );
    await assertCountsExact(database.db, 'events');
  });
});

/** Until the backends of closed connections have left pg_stat_activity. */
async function waitUntilGone(db: Queryable, pids: number[]): Promise<void> {
  await waitFor('closed connections to leave pg_stat_activity', async () => {
    const left = await db.query('SELECT 1 FROM pg_stat_activity WHERE pid = ANY ($1::int[])', [pids]);
    return left.length === 0;
  });
}

describeEachBackend('totals from maintained counts', (t) => {
  test("a device's samples and the event log: total follows writes and deletes", async () => {
    const workplaceId = await createWorkplace(t(), 'RC-1');
    const device = await createDevice(t(), workplaceId, 'RC device');
    const other = await createDevice(t(), workplaceId, 'RC other');
    await postSamples(t(), device, 25, 0);
    await postSamples(t(), other, 3, 0);
    const total = async (url: string) => json(await t().request({ url })).pagination.total;
    assert.equal(await total(`${DEVICES}/${device}/recordedTimeSeries?limit=5`), 25);
    assert.equal(await total(`${DEVICES}/${other}/recordedTimeSeries?limit=5`), 3);
    // A filter the counts do not keep is counted row by row.
    assert.equal(await total(`${DEVICES}/${device}/recordedTimeSeries?limit=5&tag=T`), 25);
    const events = await countStar(t().app.db, 'events');
    assert.equal(await total('/api/v2/events?limit=1'), events);

    // A command whose writes go out as one statement (src/db/oneStatement.ts) counts them too.
    for (const code of ['110', '000', '110']) {
      const changed = await t().request({
        method: 'POST',
        url: `/api/v2/workplaces/${workplaceId}/operatingState/${code}`,
      });
      assert.equal(changed.statusCode, 200, changed.body);
    }
    assert.equal(await total(`/api/v2/workplaces/${workplaceId}/recordedOperatingStates?limit=1`), 4);
    await t().request({ method: 'DELETE', url: `${DEVICES}/${other}` });
    await assertCountsExact(t().app.db, 'recorded_time_series');
    await assertCountsExact(t().app.db, 'events');
    await assertCountsExact(t().app.db, 'recorded_operating_states');
  });
});

describeEachBackend('operations: totals of the common filters from maintained counts', (t) => {
  test('by phase and by workplace: follow creates, phase changes, moves and deletes', async () => {
    const [first, second] = [await createWorkplace(t(), 'RC-OPS-1'), await createWorkplace(t(), 'RC-OPS-2')];
    const ids = [];
    for (let i = 0; i < 4; i += 1)
      ids.push(await createOperation(t(), `RC-OP-${i}`, { workplaceId: i < 3 ? first : second }));
    ids.push(await createOperation(t(), 'RC-OP-none'));
    const total = async (query: string) =>
      json(await t().request({ url: `/api/v2/operations?limit=1&${query}` })).pagination.total;
    const move = async (id: string | undefined, phase: string) => {
      const changed = await t().request({ method: 'POST', url: `/api/v2/operations/${id}/${phase}` });
      assert.equal(changed.statusCode, 200, changed.body);
    };
    await move(ids[0], 'SETUP');
    await move(ids[0], 'PROCESSING');
    await move(ids[1], 'SETUP');
    const moved = await t().request({ method: 'GET', url: `/api/v2/operations/${ids[2]}` });
    const replaced = await t().request({
      method: 'PUT',
      url: `/api/v2/operations/${ids[2]}`,
      body: { ...json(moved).properties, workplaceId: second },
    });
    assert.equal(replaced.statusCode, 200, replaced.body);
    await assertCountsExact(t().app.db, 'operations');
    const stored = async (where: string, params: unknown[]) =>
      (
        await t().app.db.query<{ n: number }>(
          `SELECT count(*)::int AS n FROM operations WHERE ${where}`,
          params,
        )
      )[0]?.n;
    assert.equal(
      await total('operationPhaseId=PROCESSING'),
      await stored("operation_phase_id = 'PROCESSING'", []),
    );
    assert.equal(await total('operationPhaseId=SETUP'), 1);
    assert.equal(await total(`workplaceId=${first}`), await stored('workplace_id = $1', [first]));
    assert.equal(await total(`workplaceId=${second}`), await stored('workplace_id = $1', [second]));
    const deleted = await t().request({ method: 'DELETE', url: `/api/v2/operations/${ids[3]}` });
    assert.equal(deleted.statusCode, 204, deleted.body);
    await assertCountsExact(t().app.db, 'operations');
    assert.equal(await total(`workplaceId=${second}`), await stored('workplace_id = $1', [second]));
  });
});
