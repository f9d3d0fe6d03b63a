// Starts the real app on a fresh database for one test file and hands out tokens.
import assert from 'node:assert/strict';
import { after, before, describe } from 'node:test';
import type { LightMyRequestResponse } from 'fastify';
import { type App, type AppOptions, createApp } from '../../src/app.ts';
import { addClient } from '../../src/auth/clients.ts';
import { type Config, loadConfig } from '../../src/config.ts';
import { BACKENDS, type Backend, freshDatabase, type TestDatabase } from './databases.ts';

export const TEST_CLIENT = { id: 'test-client', secret: 'test-client-secret-0123456789' };

export interface TestApp {
  backend: Backend;
  app: App;
  config: Config;
  database: TestDatabase;
  /** A token holding exactly these scopes (a client is created per scope set). */
  token(scopes?: string[]): Promise<string>;
  /** inject() with a bearer token (read+write unless `scopes` says otherwise). */
  request(options: RequestOptions): Promise<LightMyRequestResponse>;
  close(): Promise<void>;
}

export interface RequestOptions {
  method?: 'GET' | 'POST' | 'PUT' | 'DELETE' | 'PATCH' | 'HEAD' | 'OPTIONS';
  url: string;
  body?: unknown;
  headers?: Record<string, string>;
  scopes?: string[];
  /** Send no Authorization header at all. */
  anonymous?: boolean;
}

export async function startTestApp(
  backend: Backend,
  env: Record<string, string> = {},
  options: AppOptions = {},
): Promise<TestApp> {
  const config = loadConfig({
    BRIDGE_LOG_LEVEL: 'silent',
    // Suites that listen on a port end with connections fetch still holds: no need to wait for them.
    BRIDGE_HTTP_SHUTDOWN_GRACE_MS: '200',
    BRIDGE_BOOTSTRAP_CLIENT_ID: TEST_CLIENT.id,
    BRIDGE_BOOTSTRAP_CLIENT_SECRET: TEST_CLIENT.secret,
    // Fixtures carry fixed dates (samples of 2024) that retention would delete mid-file;
    // test/api/retention.test.ts turns it on.
    BRIDGE_RETENTION_EVENTS_DAYS: '0',
    BRIDGE_RETENTION_SAMPLES_DAYS: '0',
    ...env,
  });
  // The database timeout applies when BRIDGE_DB_TIMEOUT_MS is given (504 tests).
  const database = await freshDatabase(backend, env.BRIDGE_DB_TIMEOUT_MS ? config.dbTimeoutMs : undefined);
  const app = await createApp(config, database.db, options);
  const tokens = new Map<string, string>();

  async function token(scopes: string[] = ['read', 'write']): Promise<string> {
    const key = [...scopes].sort().join(' ');
    let value = tokens.get(key);
    if (value === undefined) {
      const client = await addClient(app.db, { name: `test ${key}`, scopes });
      value = await app.tokens.issue(client.clientId, scopes);
      tokens.set(key, value);
    }
    return value;
  }

  return {
    backend,
    app,
    config,
    database,
    token,
    async request(options) {
      const headers: Record<string, string> = { ...options.headers };
      if (!options.anonymous && headers.authorization === undefined) {
        headers.authorization = `Bearer ${await token(options.scopes)}`;
      }
      let payload: string | undefined;
      if (options.body !== undefined) {
        payload = typeof options.body === 'string' ? options.body : JSON.stringify(options.body);
        headers['content-type'] ??= 'application/json';
      }
      return app.server.inject({ method: options.method ?? 'GET', url: options.url, headers, payload });
    },
    async close() {
      await app.server.close();
      await app.delivery?.stop();
      await database.drop();
    },
  };
}

/**
 * Defines the suite once per backend, each with its own app on its own fresh database.
 * `suite` receives a getter because the app only exists once `before` has run.
 */
export function describeEachBackend(
  name: string,
  suite: (t: () => TestApp) => void,
  env: Record<string, string> = {},
  /** Per app (a ManualClock must not be shared by two apps). */
  options: () => AppOptions = () => ({}),
): void {
  for (const backend of BACKENDS) {
    describe(`${name} [${backend}]`, () => {
      let testApp: TestApp | undefined;
      before(async () => {
        testApp = await startTestApp(backend, env, options());
      });
      after(async () => {
        await testApp?.close();
      });
      suite(() => {
        if (!testApp) throw new Error('test app not started');
        return testApp;
      });
    });
  }
}

// biome-ignore lint/suspicious/noExplicitAny: tests read bodies freely and assert them by value
export const json = (response: LightMyRequestResponse) => response.json() as Record<string, any>;

/** A capacity group `<number>-CG` and a workplace `<number>` in it; returns the workplace id. */
export async function createWorkplace(t: TestApp, number: string): Promise<string> {
  const group = await t.request({
    method: 'POST',
    url: '/api/v2/workplaceGroups',
    body: { number: `${number}-CG`, type: 'CAPACITY_GROUP' },
  });
  assert.equal(group.statusCode, 201, group.body);
  const workplace = await t.request({
    method: 'POST',
    url: '/api/v2/workplaces',
    body: { number, capacityGroupId: json(group).properties.id },
  });
  assert.equal(workplace.statusCode, 201, workplace.body);
  return json(workplace).properties.id;
}

/** A production order `<number>-PO` with one operation `<number>`; returns the operation id. */
export async function createOperation(
  t: TestApp,
  number: string,
  fields: Record<string, unknown> = {},
): Promise<string> {
  const order = await t.request({
    method: 'POST',
    url: '/api/v2/productionOrders',
    body: { number: `${number}-PO` },
  });
  assert.equal(order.statusCode, 201, order.body);
  const operation = await t.request({
    method: 'POST',
    url: '/api/v2/operations',
    body: { productionOrderId: json(order).properties.id, number, ...fields },
  });
  assert.equal(operation.statusCode, 201, operation.body);
  return json(operation).properties.id;
}

/** A staff member with staff number `<number>`; returns its id. */
export async function createStaffMember(
  t: TestApp,
  number: string,
  fields: Record<string, unknown> = {},
): Promise<string> {
  const response = await t.request({
    method: 'POST',
    url: '/api/v2/staffMembers',
    body: { staffNumber: number, firstName: 'Test', lastName: `Person ${number}`, ...fields },
  });
  assert.equal(response.statusCode, 201, response.body);
  return json(response).properties.id;
}
