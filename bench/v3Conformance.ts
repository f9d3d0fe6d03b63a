// How much of the FORCE Bridge v3 API the service answers, and how closely its answers follow
// the responses FORCAM's SDK recorded from a real server (docs/v3-conformance.md). Starts the
// service in process on a fresh PGlite, seeds the demo plant through the API, sends one request
// per v3 operation and compares the answer to every recorded response key for key.
// `npm run v3:conformance`; writes bench/results/v3-conformance-latest.json.
import { execFileSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import type { LightMyRequestResponse } from 'fastify';
import { loopbackApi } from '../src/demo.ts';
import { seedPlant } from '../src/simulator/seed.ts';
import { startTestApp, type TestApp } from '../test/support/app.ts';
import { writeResults } from './support.ts';
import {
  compareShapes,
  countByGroup,
  HAL_KEYS,
  isLinkPath,
  keyPaths,
  loadOperations,
  loadRecorded,
  propertyName,
  type RecordedResponse,
  type ShapeDiff,
  servedOperations,
  type V3Operation,
} from './v3Contract.ts';

const RESULTS_FILE = new URL('./results/v3-conformance-latest.json', import.meta.url);
const V3 = '/api/v3';
/** Operations seeded: enough for history on every workplace and operation kind, quick to seed. */
const SEED_SIZE = 40;
const TOP_MISSING = 30;

type Method = 'GET' | 'POST' | 'PUT' | 'DELETE';
type Status = 'answered' | 'missing' | 'caughtByParameterRoute';

// Values for path parameters that name a state or phase to move to: a change the service knows.
const ACTION_VALUES: Record<string, string> = {
  operationPhaseId: 'SETUP',
  toolStateId: 'A',
  machineStateId: 'PRODUCTION',
  ticketStateId: 'IN_PROGRESS',
  ticketActivityStateId: 'IN_PROGRESS',
  toolAssemblyOrderStateId: 'IN_PROGRESS',
};

// Where the most telling item for a parameter is found (one with history or devices; one that
// may still change, for writes), tried before the collection itself: a URL and the property of
// its first item that holds the id.
const PREFERRED_ITEMS: Record<string, { url: string; writeUrl?: string; property: string }> = {
  operationId: {
    url: '/operations?operationPhaseId=COMPLETED&limit=1',
    writeUrl: '/operations?operationPhaseId=RELEASED&limit=1',
    property: 'id',
  },
  workplaceId: { url: '/devices?limit=1', property: 'workplaceId' },
};

// Minimal well-formed bodies where the service defines the write already; every other write
// gets `{}` (its validation answers, which still shows the operation is served).
const BODIES: Record<string, unknown> = {
  'POST /callbacks': {
    eventType: 'WORKPLACE_OPERATING_STATE_CHANGED',
    url: 'http://127.0.0.1:9/v3-conformance',
  },
  'POST /operations/search': {},
  'POST /productionOrders/search': {},
};

interface OperationResult {
  group: string;
  operationId: string;
  method: string;
  path: string;
  url: string;
  httpStatus: number;
  code: string | null;
  status: Status;
}

interface ResponseResult {
  recording: string;
  operation: string;
  v3OperationId: string | null;
  url: string;
  httpStatus: number;
  matched: boolean;
  /** Query parameters of the recorded request a successful answer refused first (it ran without them). */
  queryRefused?: string[];
  missing: string[];
  extra: string[];
  unverified: string[];
}

const bodyOf = (response: LightMyRequestResponse): unknown => {
  try {
    return response.json();
  } catch {
    return undefined;
  }
};

const codeOf = (response: LightMyRequestResponse): string | null => {
  const body = bodyOf(response) as { code?: unknown } | undefined;
  return typeof body?.code === 'string' ? body.code : null;
};

const routeMissing = (response: LightMyRequestResponse) =>
  (response.statusCode === 404 && codeOf(response) === 'ROUTE_NOT_FOUND') || response.statusCode === 405;

/** Fills a path template with ids of the seeded plant (found through the service's own collections). */
class PathFiller {
  private readonly ids = new Map<string, string>();
  private readonly t: TestApp;
  constructor(t: TestApp) {
    this.t = t;
  }

  async fill(template: string, method: string): Promise<string> {
    const segments = template.split('/');
    let path = '';
    for (const segment of segments.slice(1)) {
      const parameter = /^\{(.+)\}$/.exec(segment)?.[1];
      if (parameter === undefined) {
        path += `/${segment}`;
        continue;
      }
      // Deletes name no stored row: the operation is still exercised and the plant stays whole.
      const isLast = segment === segments.at(-1);
      const value =
        method === 'DELETE' && isLast
          ? randomUUID()
          : ((method !== 'GET' ? ACTION_VALUES[parameter] : undefined) ??
            (await this.idFrom(path, parameter, method)) ??
            randomUUID());
      path += `/${encodeURIComponent(value)}`;
    }
    return path || '/';
  }

  /** The first item's id of the collection at `collection`, remembered per collection. */
  private async idFrom(collection: string, parameter: string, method: string): Promise<string | undefined> {
    const preferred = PREFERRED_ITEMS[parameter];
    const preferredUrl = method !== 'GET' ? (preferred?.writeUrl ?? preferred?.url) : preferred?.url;
    const key = `${collection} ${parameter} ${preferredUrl}`;
    if (this.ids.has(key)) return this.ids.get(key);
    let id: string | undefined;
    if (preferred && preferredUrl && `/${collection.split('/')[1]}` === collection) {
      id = firstItem(bodyOf(await this.t.request({ url: `${V3}${preferredUrl}` })), preferred.property);
    }
    id ??= firstItem(bodyOf(await this.t.request({ url: `${V3}${collection}` })), 'id');
    if (id !== undefined) this.ids.set(key, id);
    return id;
  }

  /** The workplace reads and reports are about. */
  workplaceId(): Promise<string | undefined> {
    return this.idFrom('/workplaces', 'workplaceId', 'GET');
  }
}

/** A property of the first item of a collection answer (HAL `_embedded` or `properties.elements`). */
function firstItem(body: unknown, property: string): string | undefined {
  const embedded = (body as { _embedded?: Record<string, unknown> } | undefined)?._embedded;
  for (const items of Object.values(embedded ?? {})) {
    const value = Array.isArray(items) ? items[0]?.properties?.[property] : undefined;
    if (typeof value === 'string') return value;
  }
  const elements = (body as { properties?: { elements?: Record<string, unknown>[] } } | undefined)?.properties
    ?.elements;
  const value = elements?.[0]?.[property];
  return typeof value === 'string' ? value : undefined;
}

/**
 * The query of a recorded request: its embeds and options, a window around the seeded history,
 * pages of one item where the recording shows a next page (so the seeded plant has one too), and
 * for reports the workplace they are about.
 */
function queryFor(recorded: RecordedResponse, workplaceId: string | undefined): URLSearchParams {
  const query = new URLSearchParams();
  const embed = recorded.query?.embed;
  if (embed?.length) query.set('embed', embed.join(','));
  for (const value of recorded.query?.additionalOperationTime ?? [])
    query.append('additionalOperationTime', value);
  const isReport = recorded.operation.path.startsWith('/reports/');
  const window = isReport ? ['startDate', 'endDate'] : (recorded.query?.window ?? []);
  if (window.includes('startDate'))
    query.set('startDate', new Date(Date.now() - 7 * 86_400_000).toISOString());
  if (window.includes('endDate'))
    query.set('endDate', new Date(Date.now() + (isReport ? 0 : 7 * 86_400_000)).toISOString());
  if (isReport && workplaceId) query.set('workplaceId', workplaceId);
  const links = (recorded.shape as { _links?: Record<string, unknown> } | null)?._links;
  if (links && 'next' in links) query.set('limit', '1');
  return query;
}

/** The query parameter a 400 answer refuses, if that is what it says. */
function refusedParameter(response: LightMyRequestResponse, query: URLSearchParams): string | undefined {
  if (response.statusCode !== 400) return undefined;
  const named = /Query parameter '([^']+)'/.exec(response.body)?.[1];
  if (named && query.has(named)) return named;
  return query.has('embed') && /embed/i.test(response.body) ? 'embed' : undefined;
}

const ORDER: Record<string, number> = { GET: 0, POST: 1, PUT: 2, DELETE: 3 };
const byMethod = <T extends { operation: { method: string } } | { method: string }>(items: T[]) =>
  [...items].sort((a, b) => {
    const methodOf = (item: T) => ('operation' in item ? item.operation.method : item.method);
    return (ORDER[methodOf(a)] ?? 9) - (ORDER[methodOf(b)] ?? 9);
  });

/** Recorded property names some answer shows where its recording has them. */
const presentNames = new Set<string>();

async function compareRecorded(
  t: TestApp,
  filler: PathFiller,
  recorded: RecordedResponse,
): Promise<ResponseResult> {
  const { method, path } = recorded.operation;
  const filled = await filler.fill(path, method);
  const query = queryFor(recorded, await filler.workplaceId());
  const queryRefused: string[] = [];
  let url: string;
  let response: LightMyRequestResponse;
  // A parameter the service does not take is refused with 400: measure the rest without it.
  for (;;) {
    url = `${V3}${filled}${query.size > 0 ? `?${query}` : ''}`;
    response = await sendWithBody(t, method, url, path);
    const refused = refusedParameter(response, query);
    if (refused === undefined) break;
    queryRefused.push(refused === 'embed' ? `embed=${query.get('embed')}` : refused);
    query.delete(refused);
  }
  const answer = bodyOf(response) as Record<string, unknown> | undefined;
  const ok = response.statusCode >= 200 && response.statusCode < 300;
  const compared = ok ? (recorded.body === 'properties' ? answer?.properties : answer) : undefined;
  const diff: ShapeDiff = compareShapes(recorded.shape, compared ?? {});
  const absent = new Set([...diff.missing, ...diff.unverified]);
  for (const path of keyPaths(recorded.shape).paths)
    if (!absent.has(path)) presentNames.add(propertyName(path));
  return {
    recording: recorded.recording,
    operation: `${method} ${path}`,
    v3OperationId: recorded.v3OperationId,
    url,
    httpStatus: response.statusCode,
    matched: ok && diff.missing.length === 0 && queryRefused.length === 0,
    ...(ok && queryRefused.length > 0 ? { queryRefused } : {}),
    ...diff,
  };
}

function sendWithBody(t: TestApp, method: string, url: string, template: string) {
  const body = method === 'POST' || method === 'PUT' ? (BODIES[`${method} ${template}`] ?? {}) : undefined;
  return t.request({ method: method as Method, url, body });
}

function commitOf(): { commit: string | null; srcModified: boolean } {
  try {
    const commit = execFileSync('git', ['rev-parse', '--short', 'HEAD'], { encoding: 'utf8' }).trim();
    const changes = execFileSync('git', ['status', '--porcelain', 'src'], { encoding: 'utf8' }).trim();
    return { commit, srcModified: changes.length > 0 };
  } catch {
    return { commit: null, srcModified: false };
  }
}

async function main() {
  const operations = loadOperations();
  const recordings = loadRecorded();
  const t = await startTestApp('pglite', {
    BRIDGE_DELIVERY_ENABLED: 'false',
    BRIDGE_CONNECTORS_ENABLED: 'false',
  });
  try {
    await t.app.server.listen({ host: '127.0.0.1', port: 0 });
    const loopback = await loopbackApi(t.app, t.config, 'v3 conformance');
    try {
      await seedPlant(loopback.api, { size: SEED_SIZE, seed: 1 });
    } finally {
      await loopback.remove();
    }
    // The demo plant registers no callback: one, so the callback reads have an item.
    const callback = await t.request({
      method: 'POST',
      url: `${V3}/callbacks`,
      body: BODIES['POST /callbacks'],
    });
    if (callback.statusCode !== 201)
      throw new Error(`seeding a callback: ${callback.statusCode} ${callback.body}`);
    const filler = new PathFiller(t);
    const served = servedOperations(operations, t.app.server.routeTable);

    // Reads first, then writes, deletes last (with ids that name nothing): each request sees
    // the seeded plant, not what an earlier write did to it.
    const responses: ResponseResult[] = [];
    for (const recorded of byMethod(recordings)) responses.push(await compareRecorded(t, filler, recorded));

    const operationResults: OperationResult[] = [];
    for (const operation of byMethod(operations)) {
      const url = `${V3}${await filler.fill(operation.path, operation.method)}`;
      const response = await sendWithBody(t, operation.method, url, operation.path);
      const byHttp = !routeMissing(response);
      const status: Status = !byHttp
        ? 'missing'
        : served.has(operation)
          ? 'answered'
          : 'caughtByParameterRoute';
      operationResults.push({
        group: operation.group,
        operationId: operation.operationId,
        method: operation.method,
        path: operation.path,
        url,
        httpStatus: response.statusCode,
        code: codeOf(response),
        status,
      });
    }
    report(operations, operationResults, responses, recordings);
  } finally {
    await t.close();
  }
}

function report(
  operations: V3Operation[],
  results: OperationResult[],
  responses: ResponseResult[],
  recordings: RecordedResponse[],
) {
  const answeredIds = new Set(results.filter((r) => r.status === 'answered').map((r) => r.operationId));
  const counts = countByGroup(operations, (operation) => answeredIds.has(operation.operationId));
  const matched = responses.filter((response) => response.matched).length;

  // Property names: how often each is missing (once per response), over every recorded response
  // and over those whose operation the service answers with a success (what to add to answers
  // that exist already).
  const topMissing = mostMissing(responses);
  const topMissingInAnswers = mostMissing(responses.filter((response) => response.httpStatus < 300));
  const recordedNames = namesOf(recordings.map((recorded) => keyPaths(recorded.shape).paths));
  const present = [...recordedNames].filter((name) => presentNames.has(name));

  const caught = results.filter((r) => r.status === 'caughtByParameterRoute');
  console.log(`v3 operations answered: ${counts.answered}/${counts.total}`);
  for (const [group, count] of Object.entries(counts.groups))
    console.log(`  ${group.padEnd(16)} ${String(count.answered).padStart(3)}/${count.total}`);
  if (caught.length > 0)
    console.log(
      `  (${caught.length} more reach a route with a parameter where the operation has a fixed segment; counted missing)`,
    );
  console.log(`recorded responses matched key for key: ${matched}/${responses.length}`);
  console.log(`recorded property names present in the answers: ${present.length}/${recordedNames.size}`);
  console.log('most common missing property names (responses lacking each), in all / in successful answers:');
  const cell = (entry?: { name: string; responsesMissing: number }) =>
    entry ? `${entry.name.padEnd(24)} ${String(entry.responsesMissing).padStart(3)}` : '';
  for (let i = 0; i < Math.max(topMissing.length, topMissingInAnswers.length); i += 1)
    console.log(`  ${cell(topMissing[i]).padEnd(32)}    ${cell(topMissingInAnswers[i])}`);

  writeResults(RESULTS_FILE, {
    date: new Date().toISOString(),
    code: commitOf(),
    seed: { demoPlantSize: SEED_SIZE, backend: 'pglite' },
    operations: { answered: counts.answered, total: counts.total, groups: counts.groups, results },
    responses: {
      matched,
      total: responses.length,
      propertyNames: { recorded: recordedNames.size, present: present.length },
      topMissing,
      topMissingInAnswers,
      results: responses,
    },
  });
  console.log(`written: ${RESULTS_FILE.pathname}`);
}

function mostMissing(responses: ResponseResult[]): { name: string; responsesMissing: number }[] {
  const counts = new Map<string, number>();
  for (const response of responses) {
    const names = new Set(
      response.missing
        .filter((path) => !isLinkPath(path))
        .map(propertyName)
        .filter((name) => !HAL_KEYS.has(name)),
    );
    for (const name of names) counts.set(name, (counts.get(name) ?? 0) + 1);
  }
  return [...counts.entries()]
    .sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))
    .slice(0, TOP_MISSING)
    .map(([name, responsesMissing]) => ({ name, responsesMissing }));
}

/** Property names of key paths, without HAL's own keys and link relations. */
function namesOf(pathSets: Set<string>[]): Set<string> {
  const names = new Set<string>();
  for (const paths of pathSets)
    for (const path of paths) {
      const name = propertyName(path);
      if (!isLinkPath(path) && !HAL_KEYS.has(name)) names.add(name);
    }
  return names;
}

await main();
