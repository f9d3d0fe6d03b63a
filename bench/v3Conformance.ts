// How much of the FORCE Bridge v3 API the service answers, and how closely its answers follow
// the responses FORCAM's SDK recorded from a real server (docs/v3-conformance.md). Starts the
// service in process on a fresh PGlite, seeds the demo plant through the API and creates what it
// lacks (bench/v3Requests.ts), sends one request per v3 operation and compares the answer to
// every recorded response key for key.
// `npm run v3:conformance`; writes bench/results/v3-conformance-latest.json.
import { execFileSync } from 'node:child_process';
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
  servedBy,
  servedOperations,
  type V3Operation,
} from './v3Contract.ts';
import {
  bodyOf,
  createMissingItems,
  PathFiller,
  type Plant,
  plantOf,
  SDK_EMBEDS,
  V3,
  WriteBodies,
} from './v3Requests.ts';

const RESULTS_FILE = new URL('./results/v3-conformance-latest.json', import.meta.url);
/** Operations seeded: enough for history on every workplace and operation kind, quick to seed. */
const SEED_SIZE = 40;
const TOP_MISSING = 30;

type Method = 'GET' | 'POST' | 'PUT' | 'DELETE';
type Status = 'answered' | 'missing' | 'caughtByParameterRoute';

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
  /** Whether a route of the service serves the operation (same method and path shape). */
  served: boolean;
  url: string;
  httpStatus: number;
  matched: boolean;
  /** Query parameters of the recorded request a successful answer refused first (it ran without them). */
  queryRefused?: string[];
  missing: string[];
  extra: string[];
  unverified: string[];
}

const codeOf = (response: LightMyRequestResponse): string | null => {
  const body = bodyOf(response) as { code?: unknown } | undefined;
  return typeof body?.code === 'string' ? body.code : null;
};

const routeMissing = (response: LightMyRequestResponse) =>
  (response.statusCode === 404 && codeOf(response) === 'ROUTE_NOT_FOUND') || response.statusCode === 405;

// What a read is asked about. Each report as the SDK's reporting endpoint names it: the workplace
// with devices, or the material and production order of the operation reads ask about. The
// workplaces in a page of one: machine workplaces, as the recorded page's is (the plant's first
// workplace by number is a manual station, which has no machine to link or embed).
const SUBJECTS: Record<string, (plant: Plant) => [string, string]> = {
  '/workplaces': () => ['workplaceType', 'MACHINE_WORKPLACE'],
  '/reports/overallEquipmentEfficiency': (plant) => ['workplaceId', plant.workplaceId],
  '/reports/overallProcessEfficiency': (plant) => [
    'productionOrderId',
    plant.readOperation.productionOrderId,
  ],
  '/reports/hitListOperatingStatesWorkplace': (plant) => ['workplaceId', plant.workplaceId],
  '/reports/hitListOperatingStatesMaterial': (plant) => [
    'materialNumber',
    plant.readOperation.materialNumber,
  ],
  '/reports/totalQuantity': (plant) => ['workplaceId', plant.workplaceId],
  '/reports/qualityDetailsMaterial': (plant) => ['materialNumber', plant.readOperation.materialNumber],
  '/reports/qualityDetailsWorkplace': (plant) => ['workplaceId', plant.workplaceId],
};

/**
 * The query of a recorded request: its embeds and options, a window around the seeded history,
 * pages of one item where the recording shows a next or a previous page (so the seeded plant has
 * one too; where it shows a previous page, the second page is compared), and what the read is
 * about (SUBJECTS).
 */
function queryFor(recorded: RecordedResponse, plant: Plant): URLSearchParams {
  const query = new URLSearchParams();
  const embed = recorded.query?.embed ?? SDK_EMBEDS[recorded.recording];
  if (embed?.length) query.set('embed', embed.join(','));
  for (const value of recorded.query?.additionalOperationTime ?? [])
    query.append('additionalOperationTime', value);
  const isReport = recorded.operation.path.startsWith('/reports/');
  const window = isReport ? ['startDate', 'endDate'] : (recorded.query?.window ?? []);
  if (window.includes('startDate'))
    query.set('startDate', new Date(Date.now() - 7 * 86_400_000).toISOString());
  if (window.includes('endDate'))
    query.set('endDate', new Date(Date.now() + (isReport ? 0 : 7 * 86_400_000)).toISOString());
  const subject = SUBJECTS[recorded.operation.path]?.(plant);
  if (subject) query.set(...subject);
  const links = (recorded.shape as { _links?: Record<string, unknown> } | null)?._links;
  // A recorded next or previous page: the plant's pages hold one item so that it has them too.
  if (links && ['next', 'prev', 'previous'].some((rel) => rel in links)) query.set('limit', '1');
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

interface Compared extends ResponseResult {
  /** Recorded property names the answer shows where its recording has them. */
  present: Set<string>;
}

async function compareRecorded(
  t: TestApp,
  run: {
    filler: PathFiller;
    plant: Plant;
    bodies: WriteBodies;
    serves: (method: string, path: string) => boolean;
  },
  recorded: RecordedResponse,
): Promise<Compared> {
  const { method, path } = recorded.operation;
  const filled = await run.filler.fill(path, method);
  const query = queryFor(recorded, run.plant);
  const queryRefused: string[] = [];
  let url: string;
  let response: LightMyRequestResponse;
  // A parameter the service does not take is refused with 400: measure the rest without it.
  for (;;) {
    url = `${V3}${filled}${query.size > 0 ? `?${query}` : ''}`;
    response = await sendWithBody(t, run.bodies, method, url, path);
    const refused = refusedParameter(response, query);
    if (refused === undefined) break;
    queryRefused.push(refused === 'embed' ? `embed=${query.get('embed')}` : refused);
    query.delete(refused);
  }
  // A recorded page with a previous page is a later one: compare the answer's second page.
  const recordedLinks = (recorded.shape as { _links?: Record<string, unknown> } | null)?._links ?? {};
  const nextHref = (bodyOf(response) as { _links?: { next?: { href?: string } } } | undefined)?._links?.next
    ?.href;
  if (('prev' in recordedLinks || 'previous' in recordedLinks) && nextHref !== undefined) {
    const next = new URL(nextHref, 'http://localhost');
    url = `${next.pathname}${next.search}`;
    response = await sendWithBody(t, run.bodies, method, url, path);
  }
  const answer = bodyOf(response) as Record<string, unknown> | undefined;
  const ok = response.statusCode >= 200 && response.statusCode < 300;
  const compared = ok ? (recorded.body === 'properties' ? answer?.properties : answer) : undefined;
  const diff: ShapeDiff = compareShapes(recorded.shape, compared ?? {});
  const absent = new Set([...diff.missing, ...diff.unverified]);
  const present = new Set<string>();
  for (const path of keyPaths(recorded.shape).paths) if (!absent.has(path)) present.add(propertyName(path));
  return {
    recording: recorded.recording,
    operation: `${method} ${path}`,
    v3OperationId: recorded.v3OperationId,
    served: run.serves(method, path),
    url,
    httpStatus: response.statusCode,
    matched: ok && diff.missing.length === 0 && queryRefused.length === 0,
    ...(ok && queryRefused.length > 0 ? { queryRefused } : {}),
    ...diff,
    present,
  };
}

function sendWithBody(t: TestApp, bodies: WriteBodies, method: string, url: string, template: string) {
  const body = method === 'POST' || method === 'PUT' ? bodies.for(method, template) : undefined;
  return t.request({ method: method as Method, url, body: body as object | undefined });
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
    const filler = new PathFiller(t);
    const plant = await plantOf(t, filler);
    const bodies = new WriteBodies(plant);
    await createMissingItems(t, filler, plant, bodies);
    const serves = servedBy(t.app.server.routeTable);
    const served = servedOperations(operations, t.app.server.routeTable);

    // Reads first, then writes, deletes last (with ids that name nothing): each request sees
    // the prepared plant, not what an earlier write did to it.
    const responses: Compared[] = [];
    for (const recorded of byMethod(recordings))
      responses.push(await compareRecorded(t, { filler, plant, bodies, serves }, recorded));

    const operationResults: OperationResult[] = [];
    for (const operation of byMethod(operations)) {
      const url = `${V3}${await filler.fill(operation.path, operation.method)}`;
      const response = await sendWithBody(t, bodies, operation.method, url, operation.path);
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

/** Recorded property names in the recordings and in what the answers show of them. */
function propertyNames(responses: Compared[], recordings: Map<string, RecordedResponse>) {
  const recorded = namesOf(
    responses.map((response) => keyPaths(recordings.get(response.recording)?.shape ?? null).paths),
  );
  const shown = new Set(responses.flatMap((response) => [...response.present]));
  return { recorded: recorded.size, present: [...recorded].filter((name) => shown.has(name)).length };
}

const matchedIn = (responses: Compared[]) => responses.filter((response) => response.matched).length;

function report(
  operations: V3Operation[],
  results: OperationResult[],
  responses: Compared[],
  recordings: RecordedResponse[],
) {
  const answeredIds = new Set(results.filter((r) => r.status === 'answered').map((r) => r.operationId));
  const counts = countByGroup(operations, (operation) => answeredIds.has(operation.operationId));
  const byName = new Map(recordings.map((recorded) => [recorded.recording, recorded]));

  // The figures count the recordings of the v3 operations; those of SDK operations the list does
  // not have (planning, setup transition rules, ...) are compared too but reported apart.
  const inList = responses.filter((response) => response.v3OperationId !== null);
  const notInList = responses.filter((response) => response.v3OperationId === null);
  const names = propertyNames(inList, byName);

  // Property names: how often each is missing (once per response), over the recorded responses of
  // v3 operations and over those the service answers with a success (what to add to answers that
  // exist already).
  const topMissing = mostMissing(inList);
  const topMissingInAnswers = mostMissing(inList.filter((response) => response.httpStatus < 300));

  const caught = results.filter((r) => r.status === 'caughtByParameterRoute');
  console.log(`v3 operations answered: ${counts.answered}/${counts.total}`);
  for (const [group, count] of Object.entries(counts.groups))
    console.log(`  ${group.padEnd(16)} ${String(count.answered).padStart(3)}/${count.total}`);
  if (caught.length > 0)
    console.log(
      `  (${caught.length} more reach a route with a parameter where the operation has a fixed segment; counted missing)`,
    );
  console.log(
    `recorded responses of v3 operations matched key for key: ${matchedIn(inList)}/${inList.length}`,
  );
  console.log(`recorded property names present in the answers: ${names.present}/${names.recorded}`);
  console.log(
    `not in the v3 operation list: ${notInList.length} recorded responses, ` +
      `${notInList.filter((response) => response.served).length} served here, ${matchedIn(notInList)} matched`,
  );
  console.log('most common missing property names (responses lacking each), in all / in successful answers:');
  const cell = (entry?: { name: string; responsesMissing: number }) =>
    entry ? `${entry.name.padEnd(24)} ${String(entry.responsesMissing).padStart(3)}` : '';
  for (let i = 0; i < Math.max(topMissing.length, topMissingInAnswers.length); i += 1)
    console.log(`  ${cell(topMissing[i]).padEnd(32)}    ${cell(topMissingInAnswers[i])}`);

  const written = (list: Compared[]): ResponseResult[] => list.map(({ present: _, ...result }) => result);
  writeResults(RESULTS_FILE, {
    date: new Date().toISOString(),
    code: commitOf(),
    seed: { demoPlantSize: SEED_SIZE, backend: 'pglite' },
    operations: { answered: counts.answered, total: counts.total, groups: counts.groups, results },
    responses: {
      matched: matchedIn(inList),
      total: inList.length,
      propertyNames: names,
      topMissing,
      topMissingInAnswers,
      results: written(inList),
      notInV3List: {
        total: notInList.length,
        served: notInList.filter((response) => response.served).length,
        matched: matchedIn(notInList),
        results: written(notInList),
      },
      allRecordings: {
        matched: matchedIn(responses),
        total: responses.length,
        propertyNames: propertyNames(responses, byName),
      },
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
