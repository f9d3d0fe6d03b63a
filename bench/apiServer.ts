// Child process of bench/api.ts: runs ONE server on one database, in its own process so the load
// generator never shares its event loop, on 127.0.0.1 with an ephemeral port it reports over IPC.
//   node bench/apiServer.ts service|baseline postgres|pglite <database URL | PGlite data dir>
// The parent sends 'stop' (or disconnects) to end it; exiting normally lets --cpu-prof write.
import type { AddressInfo } from 'node:net';
import { PGlite } from '@electric-sql/pglite';
import Fastify, { type FastifyInstance } from 'fastify';
import pg from 'pg';
import { createApp } from '../src/app.ts';
import { loadConfig } from '../src/config.ts';
import { GROUPS_OF_WORKPLACE } from '../src/db/repositories/workplaceRepository.ts';
import { operatingStateById } from '../src/domain/masterData.ts';
import { descriptionLiteralId } from '../src/http/presenters/texts.ts';
import type { Backend } from './support.ts';

export type ServerKind = 'service' | 'baseline';

interface Group {
  id: string;
  number: string;
  description: string | null;
  type: string;
  erp_context_id: string | null;
}

interface Row {
  id: string;
  number: string;
  description: string | null;
  is_manual_workplace: boolean;
  workplace_type: string;
  erp_context_id: string | null;
  operating_state_id: string;
  capacity_group_id: string;
  production_line_id: string | null;
  capacity_group: Group | string | null;
  production_line: Group | string | null;
}

/** The baseline's storage: the two queries, straight on the driver. */
interface Queries {
  one(id: string): Promise<Row | undefined>;
  page(limit: number, offset: number): Promise<{ rows: Row[]; total: number }>;
  close(): Promise<void>;
}

// The service's own statements: the point select by primary key and the page, each with the
// workplace's groups (src/db/repositories/workplaceRepository.ts, GROUPS_OF_WORKPLACE), and the count.
// BENCH_BASELINE_SQL=bare drops the groups from the baseline's selects (and the group properties
// from its bodies), to tell the groups' cost from the rest of the service.
const GROUPS = process.env.BENCH_BASELINE_SQL === 'bare' ? '' : `, ${GROUPS_OF_WORKPLACE}`;
const ONE_SQL = `SELECT w.*${GROUPS} FROM workplaces w WHERE id = $1`;
const PAGE_SQL = `SELECT w.*${GROUPS} FROM workplaces w ORDER BY w.number, w.id LIMIT $1 OFFSET $2`;
const COUNT_SQL = 'SELECT count(*)::int AS total FROM workplaces w';

async function postgresQueries(url: string): Promise<Queries> {
  const pool = new pg.Pool({ connectionString: url, max: 10 }); // the service's default pool size
  // Named statements are prepared once per connection, as in the service.
  const rows = async (name: string, text: string, values: unknown[]) =>
    (await pool.query({ name, text, values })).rows;
  return {
    one: async (id) => (await rows('one', ONE_SQL, [id]))[0],
    page: async (limit, offset) => ({
      rows: await rows('page', PAGE_SQL, [limit, offset]),
      total: (await rows('count', COUNT_SQL, []))[0].total,
    }),
    close: () => pool.end(),
  };
}

async function pgliteQueries(dataDir: string): Promise<Queries> {
  const db = await PGlite.create({ dataDir });
  const rows = async <T>(sql: string, params: unknown[]) => (await db.query<T>(sql, params)).rows;
  return {
    one: async (id) => (await rows<Row>(ONE_SQL, [id]))[0],
    page: async (limit, offset) => ({
      rows: await rows<Row>(PAGE_SQL, [limit, offset]),
      total: (await rows<{ total: number }>(COUNT_SQL, []))[0]?.total ?? 0,
    }),
    close: () => db.close(),
  };
}

const API = '/api/v2';
const link = (href: string, method = 'GET', embeddable = false) => ({ href, method, embeddable });

const groupOf = (group: Group | string | null | undefined) => {
  if (group === null || group === undefined) return null;
  const g: Group = typeof group === 'string' ? JSON.parse(group) : group;
  return {
    id: g.id,
    number: g.number,
    description: g.description,
    type: g.type,
    erpContextId: g.erp_context_id,
  };
};

/**
 * A workplace HAL object of the service's shape and size, written by hand: the same properties
 * and links, absolute hrefs on the request's host as the service writes them.
 */
function workplaceHal(row: Row, origin: string) {
  const api = `${origin}${API}`;
  const self = `${api}/workplaces/${row.id}`;
  const state = operatingStateById(row.operating_state_id);
  return {
    properties: {
      id: row.id,
      number: row.number,
      description: row.description,
      isManualWorkplace: row.is_manual_workplace,
      workplaceType: row.workplace_type,
      erpContextId: row.erp_context_id,
      operatingState: {
        id: state.id,
        code: state.code,
        description: state.description['en-GB'],
        workplaceStateId: state.workplaceStateId,
      },
      capacityGroupId: row.capacity_group_id,
      capacityGroup: groupOf(row.capacity_group),
      productionLineId: row.production_line_id,
      productionLine: groupOf(row.production_line),
    },
    _links: {
      self: link(self),
      ...(row.description === null
        ? {}
        : {
            description: link(`${api}/literals/${descriptionLiteralId('workplaces', row.id)}`, 'GET', true),
          }),
      capacityGroup: link(`${api}/workplaceGroups/${row.capacity_group_id}`, 'GET', true),
      operatingState: link(`${api}/masterData/operatingStates/${row.operating_state_id}`),
      ...(row.workplace_type === 'MANUAL_WORKPLACE'
        ? {}
        : { machine: link(`${api}/machines/${row.id}`, 'GET', true) }),
      currentOperations: link(`${api}/operations?isInProgress=true&workplaceId=${row.id}`, 'GET', true),
      currentStaffMembers: link(`${self}?embed=currentStaffMembers`, 'GET', true),
      workplaces: link(`${api}/workplaces`),
      location: link(`${self}/location`, 'GET', true),
      recordedOperatingStates: link(`${self}/recordedOperatingStates`),
      recordedOutputQuantities: link(`${self}/recordedOutputQuantities`),
      recordedOperationPhases: link(`${self}/recordedOperationPhases`),
      quantitySummary: link(`${self}/quantitySummary`),
      operatingStateSummary: link(`${self}/operatingStateSummary`),
      scheduledOperatingTimes: link(`${self}/scheduledOperatingTimes`),
      scheduledMaintenanceTimes: link(`${self}/scheduledMaintenanceTimes`),
      devices: link(`${self}/devices`),
      shifts: link(`${self}/shifts`),
      scheduledMaintenances: link(`${self}/scheduledMaintenances`),
      predictedMalfunctionScenarios: link(
        `${api}/workplaces/predictedMalfunctionScenarios?workplaceId=${row.id}`,
      ),
      changeOperatingState: { ...link(`${self}/operatingState/{operatingStateId}`, 'POST'), templated: true },
    },
  };
}

interface Running {
  server: FastifyInstance;
  close(): Promise<void>;
}

/** Bare Fastify 5: no logger, no auth, no validation, no response schema. */
function baseline(queries: Queries): Running {
  const app = Fastify();
  app.get<{ Params: { id: string } }>(`${API}/workplaces/:id`, async (request, reply) => {
    const row = await queries.one(request.params.id);
    return row ? workplaceHal(row, `http://${request.headers.host}`) : reply.code(404).send({ status: 404 });
  });
  app.get<{ Querystring: { limit?: string; offset?: string } }>(`${API}/workplaces`, async (request) => {
    const limit = Number(request.query.limit ?? 100);
    const offset = Number(request.query.offset ?? 0);
    const { rows, total } = await queries.page(limit, offset);
    const origin = `http://${request.headers.host}`;
    const at = (value: number) => link(`${origin}${API}/workplaces?limit=${limit}&offset=${value}`);
    return {
      pagination: { limit, count: rows.length, offset, total, firstIdentifier: null, lastIdentifier: null },
      _embedded: { workplaces: rows.map((row) => workplaceHal(row, origin)) },
      _links: {
        self: at(offset),
        current: at(offset),
        first: at(0),
        ...(offset + rows.length < total ? { next: at(offset + limit) } : {}),
        last: at(Math.floor((total - 1) / limit) * limit),
        createWorkplace: link(`${origin}${API}/workplaces`, 'POST'),
        shifts: link(`${origin}${API}/workplaces/shifts`),
      },
    };
  });
  return {
    server: app,
    close: async () => {
      await app.close();
      await queries.close();
    },
  };
}

/** The real service as `bridge start` builds it (settings defaults, logging at BENCH_LOG_LEVEL). */
async function service(backend: Backend, target: string): Promise<Running> {
  const config = loadConfig({
    BRIDGE_HOST: '127.0.0.1',
    BRIDGE_PORT: '0',
    BRIDGE_LOG_LEVEL: process.env.BENCH_LOG_LEVEL ?? 'info',
    ...(backend === 'postgres' ? { DATABASE_URL: target } : { BRIDGE_DATA_DIR: target }),
  });
  const app = await createApp(config);
  return { server: app.server, close: app.close };
}

async function main(): Promise<void> {
  const [kind, backend, target] = process.argv.slice(2) as [ServerKind, Backend, string];
  const { server, close } =
    kind === 'service'
      ? await service(backend, target)
      : baseline(backend === 'postgres' ? await postgresQueries(target) : await pgliteQueries(target));
  await server.listen({ host: '127.0.0.1', port: 0 });
  let stopping = false;
  const stop = async () => {
    if (stopping) return;
    stopping = true;
    await close();
    process.exit(0);
  };
  process.on('message', () => void stop());
  process.on('disconnect', () => void stop()); // the parent died: do not linger
  process.send?.({ port: (server.server.address() as AddressInfo).port });
}

await main();
