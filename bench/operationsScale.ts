// Operations at scale (P7, docs/quality.md): with 1,000,000 operations, do a
// timestamp-paged operations page and a filtered search stay within 2x their time at 10,000?
// `npm run bench:operations`, PostgreSQL only.
//
// A fresh database (bench/support.ts: `bench_operations_<pid>`, dropped at the end) is migrated and
// seeded through the service layer with 50 workplaces and a client. Per stage (10,000 then 1,000,000
// operations) the two tables are emptied and bulk-loaded with SQL generate_series (not the API):
// 10 operations per production order (1,000 / 100,000 orders), so the 200-order search matches
// 2,000 operations at both sizes; ids are UUIDv7 of the creation time, as the service makes them;
// 40 % of the operations are still RELEASED (updated_at = creation, shared by the order's operations),
// the others changed phase up to 7 days later (phases, workplaces and changes spread by a hash of the
// row number, so every run loads the same data). The load runs without triggers, so the maintained counts
// behind `total` are then written as the migrations write them and checked against count(*). VACUUM
// ANALYZE brings the tables to the state
// autovacuum keeps them in. Then the service (`createApp` as shipped, bench/apiServer.ts) starts in a
// child process and this process times one request at a time over HTTP (undici, keep-alive):
//   first      GET  /operations?limit=100
//   middle     GET  /operations?limit=100&paginationTimestamp&paginationIdentifier at the middle
//   workplace  GET  /operations?limit=100&workplaceId=<one of 50>            (2 % of the rows)
//   phase      GET  /operations?limit=100&operationPhaseId=PROCESSING        (8 % of the rows)
//   search     POST /operations/search?limit=100 {productionOrderIds: 200}   (2,000 rows)
// and, for each, every statement the repository sends (src/db/paging.ts) timed alone on a
// connection of its own with the service's named statements: the page read, the `total` count(*)
// and the "anything behind?" probe (from a position), each also EXPLAIN ANALYZEd once (plan shape,
// rows, buffers). Medians of BENCH_ITERATIONS (100) after BENCH_WARMUP (20) calls; the table, then
// the ratios (1M / 10k) per case on the last lines; bench/results/operations-latest.json.
//
// Settings: BENCH_ITERATIONS (100), BENCH_WARMUP (20), BENCH_OPERATIONS ("10000,1000000"),
// BENCH_OPS_PER_ORDER (10), BENCH_LOG_LEVEL ("info"), BENCH_ADMIN_URL, BENCH_KEEP_DB=1 (leave the
// database with the last stage loaded, for diagnosis; its URL is printed).
import { fork } from 'node:child_process';
import { loadavg } from 'node:os';
import pg from 'pg';
import { Pool } from 'undici';
import type { Queryable } from '../src/db/database.ts';
import type { KeysetRequest } from '../src/db/paging.ts';
import { openPostgres } from '../src/db/postgres.ts';
import { listOperations } from '../src/db/repositories/operationRepository.ts';
import type { OperationFilter } from '../src/domain/operations.ts';
import { revision } from './service.ts';
import {
  machineInfo,
  medianMs,
  type Statement,
  type StatementKind,
  seedDatabase,
  statementKind,
  statementsOf,
  writeResults,
} from './support.ts';

const env = process.env;
const ITERATIONS = Number(env.BENCH_ITERATIONS ?? 100);
const WARMUP = Number(env.BENCH_WARMUP ?? 20);
const STAGES = (env.BENCH_OPERATIONS ?? '10000,1000000').split(',').map(Number);
const OPS_PER_ORDER = Number(env.BENCH_OPS_PER_ORDER ?? 10);
const LOG_LEVEL = env.BENCH_LOG_LEVEL ?? 'info';
const KEEP_DB = env.BENCH_KEEP_DB === '1';
const WORKPLACES = 50;
const SEARCH_ORDERS = 200;
const PHASE = 'PROCESSING';
const LIMIT = 100;
const TARGET = 2;
const SERVER_SCRIPT = new URL('./apiServer.ts', import.meta.url);
const RESULTS_FILE = new URL('./results/operations-latest.json', import.meta.url);
const API = '/api/v2/operations';

// ---------------------------------------------------------------------------------------------
// Bulk load

/** UUIDv7 of a time (its millisecond prefix) with the rest taken from md5(salt). */
const UUID7_FUNCTION = `
CREATE OR REPLACE FUNCTION bench_uuid7(t timestamptz, salt text) RETURNS uuid LANGUAGE sql IMMUTABLE AS $$
  SELECT (lpad(to_hex((extract(epoch FROM t) * 1000)::bigint), 12, '0') || '7' || substr(h, 1, 3) || '8'
          || substr(h, 4, 15))::uuid
  FROM (SELECT md5(salt) AS h) s
$$`;

// Order k is created at START + k minutes, whole seconds everywhere (the API's positions carry ms).
const ORDERS_SQL = `
INSERT INTO production_orders (id, number, description, material_number, material_description, target_quantity,
  quantity_unit, basic_start_date, basic_end_date, delivery_date, created_at, updated_at)
SELECT bench_uuid7(t, 'po' || k), 'PO-' || lpad(k::text, 7, '0'), 'Benchmark order ' || k, 'MAT-' || (k % 500),
  'Material ' || (k % 500), 100, 'pcs', t + interval '1 day', t + interval '3 days', t + interval '5 days', t, t
FROM generate_series(0, $1::int - 1) AS k, LATERAL (SELECT $2::timestamptz + k * interval '1 minute' AS t) AS c`;

// Operation i belongs to order i / $3; hashes of i pick its phase, workplace and last change.
const OPERATIONS_SQL = `
WITH w AS (SELECT array_agg(id ORDER BY number) AS ids FROM workplaces)
INSERT INTO operations (id, production_order_id, sequence, number, description, material_number,
  material_description, operation_phase_id, workplace_id, workplace_group_id, target_quantity, quantity_unit,
  target_time_per_unit, target_setup_time, target_teardown_time, target_move_time, target_wait_time, components,
  production_resources_and_tools, start_date, end_date, created_at, updated_at)
SELECT bench_uuid7(t, 'op' || i), bench_uuid7(t, 'po' || k), s, 'OP-' || (s * 10), 'Operation ' || s,
  'MAT-' || (i % 1000), 'Material ' || (i % 1000), phase,
  w.ids[1 + abs(hashint8(i * 3 + 1)) % cardinality(w.ids)], NULL, 100, 'pcs', 6000, 600000, 300000, 0, 0,
  '[]', '[]', t + interval '1 day' + s * interval '2 hours', t + interval '1 day' + (s + 1) * interval '2 hours',
  t, CASE WHEN phase = 'RELEASED' THEN t ELSE t + (abs(hashint8(i * 3 + 2)) % 604800) * interval '1 second' END
FROM w, generate_series(0, $1::int - 1) AS i,
  LATERAL (SELECT i / $3::int AS k, i % $3::int + 1 AS s, abs(hashint8(i * 3)) % 100 AS r) AS a,
  LATERAL (SELECT $2::timestamptz + k * interval '1 minute' AS t,
    CASE WHEN r < 40 THEN 'RELEASED' WHEN r < 50 THEN 'DISPATCHED' WHEN r < 55 THEN 'SETUP'
      WHEN r < 57 THEN 'TRAINING' WHEN r < 65 THEN 'PROCESSING' WHEN r < 70 THEN 'INTERRUPTED'
      WHEN r < 85 THEN 'COMPLETED' ELSE 'CLOSED' END AS phase) AS b`;

const START = '2024-01-01T00:00:00Z';

const RECOUNT_SQL = `
DELETE FROM row_counts WHERE table_name IN ('operations', 'production_orders');
INSERT INTO row_counts (table_name, scope, shard, n)
SELECT 'production_orders', '', 0, count(*) FROM production_orders
UNION ALL SELECT 'operations', '', 0, count(*) FROM operations
UNION ALL SELECT 'operations', 'operation_phase_id=' || operation_phase_id, 0, count(*) FROM operations GROUP BY operation_phase_id
UNION ALL SELECT 'operations', 'workplace_id=' || workplace_id, 0, count(*) FROM operations WHERE workplace_id IS NOT NULL GROUP BY workplace_id`;

/** Counts whose sum of shards is not what count(*) finds: none, or the benchmark stops. */
const CHECK_COUNTS_SQL = `
WITH actual AS (
  SELECT '' AS scope, count(*) AS n FROM operations
  UNION ALL SELECT 'operation_phase_id=' || operation_phase_id, count(*) FROM operations GROUP BY operation_phase_id
  UNION ALL SELECT 'workplace_id=' || workplace_id, count(*) FROM operations WHERE workplace_id IS NOT NULL GROUP BY workplace_id),
counted AS (SELECT scope, sum(n) AS n FROM row_counts WHERE table_name = 'operations' GROUP BY scope)
SELECT coalesce(a.scope, c.scope) AS scope, a.n AS actual, c.n AS counted
FROM actual a FULL JOIN counted c ON c.scope = a.scope WHERE a.n IS DISTINCT FROM c.n AND coalesce(a.n, c.n) <> 0`;

async function load(client: pg.Client, operations: number): Promise<{ seconds: number; sizeMiB: number }> {
  const started = performance.now();
  const orders = Math.ceil(operations / OPS_PER_ORDER);
  await client.query('TRUNCATE operations, production_orders CASCADE');
  // The rows are consistent by construction: no per-row foreign-key triggers during the load.
  await client.query('SET session_replication_role = replica');
  try {
    await client.query(ORDERS_SQL, [orders, START]);
    await client.query(OPERATIONS_SQL, [operations, START, OPS_PER_ORDER]);
  } finally {
    await client.query('SET session_replication_role = DEFAULT');
  }
  // The load ran without triggers, the maintained counts' too (migrations 016 and 020): count
  // what it wrote as the migrations count existing rows, then check them against count(*).
  await client.query(RECOUNT_SQL);
  const { rows: wrong } = await client.query(CHECK_COUNTS_SQL);
  if (wrong.length > 0) throw new Error(`maintained counts disagree with count(*): ${JSON.stringify(wrong)}`);
  await client.query('VACUUM ANALYZE production_orders');
  await client.query('VACUUM ANALYZE operations');
  const seconds = (performance.now() - started) / 1000;
  const [size] = (
    await client.query<{ bytes: string }>(`SELECT pg_total_relation_size('operations') AS bytes`)
  ).rows;
  return { seconds, sizeMiB: Math.round(Number(size?.bytes) / 2 ** 20) };
}

// ---------------------------------------------------------------------------------------------
// Cases

type CaseId = 'first' | 'middle' | 'workplace' | 'phase' | 'search';
const CASES: { id: CaseId; what: string }[] = [
  { id: 'first', what: 'GET first page' },
  { id: 'middle', what: 'GET page from the middle (timestamp + identifier)' },
  { id: 'workplace', what: 'GET ?workplaceId (1 of 50)' },
  { id: 'phase', what: `GET ?operationPhaseId=${PHASE}` },
  { id: 'search', what: `POST /search, ${SEARCH_ORDERS} productionOrderIds` },
];

interface Case {
  id: CaseId;
  method: 'GET' | 'POST';
  path: string;
  body?: string;
  filter: OperationFilter;
  request: KeysetRequest;
}

async function casesAt(client: pg.Client, operations: number): Promise<Case[]> {
  const first: KeysetRequest = {
    limit: LIMIT,
    direction: 'NEXT',
    timestamp: undefined,
    identifier: undefined,
  };
  const [middle] = (
    await client.query<{ updated_at: Date; id: string }>(
      'SELECT updated_at, id FROM operations ORDER BY updated_at DESC, id DESC OFFSET $1 LIMIT 1',
      [Math.floor(operations / 2)],
    )
  ).rows;
  if (!middle) throw new Error('no operation in the middle');
  const [workplace] = (
    await client.query<{ id: string }>('SELECT id FROM workplaces ORDER BY number OFFSET $1 LIMIT 1', [
      WORKPLACES / 2,
    ])
  ).rows;
  if (!workplace) throw new Error('no workplace');
  // 200 orders spread evenly over the order numbers (so over time).
  const orders = Math.ceil(operations / OPS_PER_ORDER);
  const step = Math.max(1, Math.floor(orders / SEARCH_ORDERS));
  const orderIds = (
    await client.query<{ id: string }>(`SELECT id FROM production_orders WHERE number = ANY($1::text[])`, [
      Array.from(
        { length: Math.min(SEARCH_ORDERS, orders) },
        (_, j) => `PO-${String(j * step).padStart(7, '0')}`,
      ),
    ])
  ).rows.map((row) => row.id);
  const position = `paginationTimestamp=${encodeURIComponent(middle.updated_at.toISOString())}&paginationIdentifier=${middle.id}`;
  return [
    { id: 'first', method: 'GET', path: `${API}?limit=${LIMIT}`, filter: {}, request: first },
    {
      id: 'middle',
      method: 'GET',
      path: `${API}?limit=${LIMIT}&${position}`,
      filter: {},
      request: { ...first, timestamp: middle.updated_at, identifier: middle.id },
    },
    {
      id: 'workplace',
      method: 'GET',
      path: `${API}?limit=${LIMIT}&workplaceId=${workplace.id}`,
      filter: { workplaceIds: [workplace.id] },
      request: first,
    },
    {
      id: 'phase',
      method: 'GET',
      path: `${API}?limit=${LIMIT}&operationPhaseId=${PHASE}`,
      filter: { operationPhaseIds: [PHASE] },
      request: first,
    },
    {
      id: 'search',
      method: 'POST',
      path: `${API}/search?limit=${LIMIT}`,
      body: JSON.stringify({ productionOrderIds: orderIds }),
      filter: { productionOrderIds: orderIds },
      request: first,
    },
  ];
}

// ---------------------------------------------------------------------------------------------
// Timing

const timeMs = (work: () => Promise<unknown>) => medianMs(work, { warmup: WARMUP, iterations: ITERATIONS });

/** The statements one repository call sends, as the route would call it. */
const statementsOfCase = (db: Queryable, c: Case) =>
  statementsOf(db, (tracked) => listOperations(tracked, c.filter, c.request));

const KINDS: StatementKind[] = ['page', 'count', 'behind'];

interface PlanNode {
  'Node Type': string;
  'Index Name'?: string;
  'Actual Rows'?: number;
  'Actual Loops'?: number;
  'Shared Hit Blocks'?: number;
  'Shared Read Blocks'?: number;
  'Rows Removed by Filter'?: number;
  Plans?: PlanNode[];
}
const flatten = (node: PlanNode): PlanNode[] => [node, ...(node.Plans ?? []).flatMap(flatten)];

interface Explained {
  shape: string;
  executionMs: number;
  /** Rows the scans (leaf nodes) produced plus those their filters removed: the work done. */
  rowsRead: number;
  sharedBlocks: number;
}

async function explain(db: Queryable, { sql, params }: Statement): Promise<Explained> {
  const [row] = await db.query<{ 'QUERY PLAN': [{ Plan: PlanNode; 'Execution Time': number }] }>(
    `EXPLAIN (ANALYZE, BUFFERS, FORMAT JSON) ${sql}`,
    params,
  );
  const top = row?.['QUERY PLAN'][0];
  if (!top) throw new Error('no plan');
  const nodes = flatten(top.Plan);
  const leaves = nodes.filter((node) => !node.Plans?.length);
  return {
    shape: nodes
      .map((node) => {
        const name = node['Index Name'] ? `${node['Node Type']} ${node['Index Name']}` : node['Node Type'];
        return `${name} (${node['Actual Rows'] ?? 0}${(node['Actual Loops'] ?? 1) > 1 ? `x${node['Actual Loops']}` : ''})`;
      })
      .join(' > '),
    executionMs: top['Execution Time'],
    rowsRead: leaves.reduce(
      (sum, node) =>
        sum +
        ((node['Actual Rows'] ?? 0) + (node['Rows Removed by Filter'] ?? 0)) * (node['Actual Loops'] ?? 1),
      0,
    ),
    sharedBlocks: (top.Plan['Shared Hit Blocks'] ?? 0) + (top.Plan['Shared Read Blocks'] ?? 0),
  };
}

// ---------------------------------------------------------------------------------------------
// The service

async function startService(target: string) {
  const child = fork(SERVER_SCRIPT, ['service', 'postgres', target], {
    env: { ...env, BENCH_LOG_LEVEL: LOG_LEVEL },
    // The request log goes to stdout: dropped, as a log shipper would take it away.
    stdio: ['ignore', 'ignore', 'inherit', 'ipc'],
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const port = await new Promise<number>((resolve, reject) => {
    child.once('message', (message) => resolve((message as { port: number }).port));
    child.once('exit', (code) => reject(new Error(`service exited early: ${code}`)));
  });
  return {
    url: `http://127.0.0.1:${port}`,
    stop: async () => {
      child.send('stop');
      await exited;
    },
  };
}

interface Answer {
  status: number;
  text: string;
}

function requester(http: Pool, token: string) {
  return async (c: Case): Promise<Answer> => {
    const { statusCode, body } = await http.request({
      method: c.method,
      path: c.path,
      headers: {
        authorization: `Bearer ${token}`,
        ...(c.body ? { 'content-type': 'application/json' } : {}),
      },
      ...(c.body ? { body: c.body } : {}),
    });
    return { status: statusCode, text: await body.text() };
  };
}

// ---------------------------------------------------------------------------------------------

interface Measured {
  operations: number;
  case: CaseId;
  httpMs: number;
  total: number;
  count: number;
  /** Each statement the repository sends, timed alone (median ms), by kind. */
  statementMs: Partial<Record<StatementKind, number>>;
  plans: Partial<Record<StatementKind, Explained>>;
}

async function stage(
  client: pg.Client,
  db: Queryable,
  target: string,
  token: string,
  operations: number,
): Promise<{ measured: Measured[]; info: Record<string, unknown> }> {
  const loaded = await load(client, operations);
  console.log(
    `\n[${operations} operations in ${Math.ceil(operations / OPS_PER_ORDER)} production orders] loaded in ` +
      `${loaded.seconds.toFixed(1)} s, operations table + indexes ${loaded.sizeMiB} MiB, ` +
      `load average ${loadavg()
        .map((x) => x.toFixed(1))
        .join(' ')}`,
  );
  const cases = await casesAt(client, operations);
  const service = await startService(target);
  const http = new Pool(service.url, { connections: 1 });
  const send = requester(http, token);
  const measured: Measured[] = [];
  try {
    for (const c of cases) {
      const answer = await send(c);
      if (answer.status !== 200) throw new Error(`${c.method} ${c.path}: ${answer.status} ${answer.text}`);
      const { pagination } = JSON.parse(answer.text) as { pagination: { total: number; count: number } };
      const httpMs = await timeMs(() => send(c));

      const statementMs: Measured['statementMs'] = {};
      const plans: Measured['plans'] = {};
      for (const statement of await statementsOfCase(db, c)) {
        const kind = statementKind(statement.sql);
        statementMs[kind] = await timeMs(() => db.query(statement.sql, statement.params));
        plans[kind] = await explain(db, statement);
      }
      measured.push({
        operations,
        case: c.id,
        httpMs,
        total: pagination.total,
        count: pagination.count,
        statementMs,
        plans,
      });
      const ms = (kind: StatementKind) =>
        statementMs[kind] === undefined ? '' : ` ${kind} ${statementMs[kind]?.toFixed(2)}`;
      console.log(
        `  ${c.id.padEnd(9)} HTTP ${httpMs.toFixed(2).padStart(7)} ms  (total ${pagination.total}, ` +
          `${pagination.count} items) alone:${ms('page')}${ms('count')}${ms('behind')}`,
      );
      for (const kind of KINDS) {
        const plan = plans[kind];
        if (plan)
          console.log(
            `    ${kind.padEnd(6)} ${plan.executionMs.toFixed(2).padStart(7)} ms ${String(plan.rowsRead).padStart(8)} rows ` +
              `${String(plan.sharedBlocks).padStart(6)} blocks  ${plan.shape}`,
          );
      }
    }
  } finally {
    await http.close();
    await service.stop();
  }
  return {
    measured,
    info: { operations, orders: Math.ceil(operations / OPS_PER_ORDER), ...loaded, loadAverage: loadavg() },
  };
}

function report(results: Measured[]) {
  const [small, large] = [STAGES[0] as number, STAGES.at(-1) as number];
  const ms = (value: number | undefined) => (value === undefined ? '-' : value.toFixed(2)).padStart(9);
  console.log('\ncase       operations    HTTP ms   page ms  count ms  behind ms  count/HTTP     total');
  for (const r of results) {
    const { page, count, behind } = r.statementMs;
    console.log(
      `${r.case.padEnd(10)} ${String(r.operations).padStart(10)}  ${ms(r.httpMs)} ${ms(page)} ${ms(count)}  ` +
        `${ms(behind)}  ${`${((100 * (count ?? 0)) / r.httpMs).toFixed(0)} %`.padStart(10)}  ${String(r.total).padStart(8)}`,
    );
  }
  console.log('');
  const ratios = CASES.flatMap(({ id, what }) => {
    const a = results.find((r) => r.case === id && r.operations === small);
    const b = results.find((r) => r.case === id && r.operations === large);
    if (!a || !b) return [];
    const ratio = b.httpMs / a.httpMs;
    const of = (kind: StatementKind) => {
      const x = a.statementMs[kind];
      const y = b.statementMs[kind];
      return x === undefined || y === undefined ? undefined : y / x;
    };
    // The count's share of the request at the large size (both timed alone, so only roughly additive).
    const pageAndProbe = (r: Measured) => (r.statementMs.page ?? 0) + (r.statementMs.behind ?? 0);
    return [
      {
        case: id,
        what,
        ratio,
        met: ratio <= TARGET,
        pageRatio: pageAndProbe(b) / pageAndProbe(a),
        countRatio: of('count'),
        countShareLarge: (b.statementMs.count ?? 0) / b.httpMs,
      },
    ];
  });
  for (const r of ratios) {
    console.log(
      `${r.case.padEnd(9)} ${large}/${small}: HTTP ratio ${r.ratio.toFixed(2)} (target <= ${TARGET}: ` +
        `${r.met ? 'MET' : 'NOT MET'}); alone: page+probe ${r.pageRatio.toFixed(2)}, count ${r.countRatio?.toFixed(2)} ` +
        `(count = ${(100 * r.countShareLarge).toFixed(0)} % of the request at ${large})`,
    );
  }
  return ratios;
}

async function main(): Promise<void> {
  const loadBefore = loadavg();
  const code = revision();
  console.log(
    `commit ${code.commit}${code.srcModified ? ` with src/ modified (diff ${code.srcDiffSha1})` : ''}; ` +
      `load average ${loadBefore.map((x) => x.toFixed(1)).join(' ')}`,
  );
  const started = performance.now();
  const seeded = await seedDatabase('postgres', 'operations', WORKPLACES);
  const client = new pg.Client({ connectionString: seeded.target });
  await client.connect();
  // The statements alone run on a connection of their own, prepared (named) as the service does it.
  const db = await openPostgres({ url: seeded.target, timeoutMs: 600_000, poolSize: 1 });
  const results: Measured[] = [];
  const stages: Record<string, unknown>[] = [];
  try {
    await client.query(UUID7_FUNCTION);
    for (const operations of STAGES) {
      const { measured, info } = await stage(client, db, seeded.target, seeded.token, operations);
      results.push(...measured);
      stages.push(info);
    }
  } finally {
    await db.close();
    await client.end();
    if (KEEP_DB) console.log(`\nkept: ${seeded.target}`);
    else await seeded.drop();
  }
  const ratios = report(results);
  writeResults(RESULTS_FILE, {
    date: new Date().toISOString(),
    code,
    machine: machineInfo(loadBefore),
    runSeconds: Math.round((performance.now() - started) / 1000),
    settings: {
      iterations: ITERATIONS,
      warmup: WARMUP,
      stages: STAGES,
      operationsPerOrder: OPS_PER_ORDER,
      workplaces: WORKPLACES,
      searchOrders: SEARCH_ORDERS,
      phase: PHASE,
      limit: LIMIT,
      serviceLogLevel: LOG_LEVEL,
    },
    stages,
    results,
    ratios,
  });
  // The kept database's admin connection stays open.
  if (KEEP_DB) process.exit(0);
}

await main();
