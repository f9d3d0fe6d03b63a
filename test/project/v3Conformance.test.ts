// The v3 operations the route table serves never drop below the count the last conformance run
// recorded (bench/results/v3-conformance-latest.json, `npm run v3:conformance`): a route that
// goes away, or a change of its path shape, fails here before the figure silently falls.
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { after, before, test } from 'node:test';
import {
  compareShapes,
  countByGroup,
  loadOperations,
  loadRecorded,
  servedOperations,
  type V3Operation,
} from '../../bench/v3Contract.ts';
import type { RouteEntry } from '../../src/http/deps.ts';
import { startTestApp, type TestApp } from '../support/app.ts';

const RESULTS = new URL('../../bench/results/v3-conformance-latest.json', import.meta.url);

let testApp: TestApp | undefined;
before(async () => {
  testApp = await startTestApp('pglite', {
    BRIDGE_DELIVERY_ENABLED: 'false',
    BRIDGE_CONNECTORS_ENABLED: 'false',
  });
});
after(async () => {
  await testApp?.close();
});

const routeTable = (): RouteEntry[] => {
  if (!testApp) throw new Error('test app not started');
  return testApp.app.server.routeTable;
};

test('the fixtures hold the 175 operations in 17 groups and one contract per recorded response', () => {
  const operations = loadOperations();
  assert.equal(operations.length, 175);
  assert.equal(new Set(operations.map((operation) => operation.group)).size, 17);
  assert.equal(new Set(operations.map((operation) => `${operation.method} ${operation.path}`)).size, 175);
  const byKey = new Set(operations.map((operation) => `${operation.method} ${operation.path}`));
  for (const recorded of loadRecorded()) {
    const key = `${recorded.operation.method} ${recorded.operation.path}`;
    // A recording names its v3 operation exactly when the list has that method and path.
    assert.equal(recorded.v3OperationId !== null, byKey.has(key), recorded.recording);
  }
});

test('the v3 operations served do not drop below the last recorded conformance run', () => {
  const operations = loadOperations();
  const served = servedOperations(operations, routeTable());
  const { answered } = countByGroup(operations, (operation) => served.has(operation));
  assert.ok(existsSync(RESULTS), 'bench/results/v3-conformance-latest.json exists (npm run v3:conformance)');
  const recorded = JSON.parse(readFileSync(RESULTS, 'utf8')).operations;
  const wereAnswered = (recorded.results as { method: string; path: string; status: string }[])
    .filter((result) => result.status === 'answered')
    .map((result) => `${result.method} ${result.path}`);
  const servedNow = new Set([...served].map((operation) => `${operation.method} ${operation.path}`));
  const lost = wereAnswered.filter((key) => !servedNow.has(key));
  assert.deepEqual(lost, [], 'operations the last run answered are no longer served');
  assert.ok(answered >= recorded.answered, `served ${answered} < recorded ${recorded.answered}`);
});

test('a route with a parameter does not serve an operation that has a fixed segment there', () => {
  const operations: V3Operation[] = [
    {
      group: 'Operation',
      operationId: 'components',
      method: 'GET',
      path: '/operations/{operationId}/components',
    },
    {
      group: 'Operation',
      operationId: 'phase',
      method: 'POST',
      path: '/operations/{operationId}/{operationPhaseId}',
    },
    { group: 'Workplace', operationId: 'shifts', method: 'GET', path: '/workplaces/shifts' },
  ];
  const table: RouteEntry[] = [
    { method: 'POST', url: '/api/v3/operations/:id/:operationPhaseId', public: false },
    { method: 'GET', url: '/api/v3/operations/:id', public: false },
    { method: 'GET', url: '/api/v3/workplaces/:id', public: false },
    { method: 'GET', url: '/api/v2/operations/:id/components', public: false },
  ];
  const served = [...servedOperations(operations, table)].map((operation) => operation.operationId);
  assert.deepEqual(served, ['phase']);
});

test('shapes compare key for key: missing, extra, and keys below a null or empty answer', () => {
  const recorded = {
    properties: { id: 'string', group: { name: 'string' }, line: { id: 'string' } },
    _links: { self: 'link', edges: 'link' },
    _embedded: { items: [{ properties: { id: 'string' } }] },
  };
  const answer = {
    properties: { id: 'x', line: null, extraField: 1 },
    _links: { self: { href: '/x', method: 'GET', embeddable: false } },
    _embedded: { items: [] },
  };
  const diff = compareShapes(recorded, answer);
  assert.deepEqual(diff.missing.sort(), ['_links.edges', 'properties.group', 'properties.group.name']);
  assert.deepEqual(diff.extra, ['properties.extraField']);
  assert.deepEqual(diff.unverified.sort(), [
    '_embedded.items[].properties',
    '_embedded.items[].properties.id',
    'properties.line.id',
  ]);
  assert.deepEqual(compareShapes(recorded, structuredClone(recorded)), {
    missing: [],
    extra: [],
    unverified: [],
  });
});
