// The request log at the shipped level (info): one line per request, written when it is answered,
// with what an operator needs to follow it: request id, method, URL (secrets redacted), status and
// duration. The line on arrival is written at debug only.
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { logDestination } from '../../src/http/logOutput.ts';
import { TEST_CLIENT } from '../support/app.ts';
import { BACKENDS } from '../support/databases.ts';
import { type RuntimeApp, startRuntimeApp } from '../support/runtimeApp.ts';

interface Line {
  level: number;
  msg: string;
  reqId?: string;
  req?: { method?: string; url?: string };
  res?: { statusCode?: number };
  responseTime?: number;
}

const linesOf = (r: RuntimeApp) =>
  r
    .log()
    .split('\n')
    .filter((line) => line !== '')
    .map((line) => JSON.parse(line) as Line);

describe(`request log [${BACKENDS[0]}]`, () => {
  let info: RuntimeApp;
  let debug: RuntimeApp;
  // The shipped settings: request lines at debug, so a console at info shows what matters.
  let quiet: RuntimeApp;
  before(async () => {
    info = await startRuntimeApp(BACKENDS[0] ?? 'pglite', {
      BRIDGE_LOG_LEVEL: 'info',
      BRIDGE_LOG_REQUESTS: 'info',
    });
    quiet = await startRuntimeApp(BACKENDS[0] ?? 'pglite', { BRIDGE_LOG_LEVEL: 'info' });
    debug = await startRuntimeApp(BACKENDS[0] ?? 'pglite', { BRIDGE_LOG_LEVEL: 'debug' });
  });
  after(async () => {
    await info?.close();
    await debug?.close();
    await quiet?.close();
  });

  test('by default (BRIDGE_LOG_REQUESTS=debug) no request line at info', async () => {
    const answer = await quiet.app.server.inject({
      url: '/health/live',
      headers: { 'x-request-id': 'log-quiet' },
    });
    assert.equal(answer.statusCode, 200);
    assert.deepEqual(
      linesOf(quiet).filter((line) => line.reqId === 'log-quiet'),
      [],
    );
  });

  test('BRIDGE_LOG_REQUESTS=info: one line per request, when it is answered', async () => {
    const token = await info.app.tokens.issue(TEST_CLIENT.id, ['read']);
    const answers = [
      await info.app.server.inject({
        url: '/api/v2/workplaces?limit=5',
        headers: { authorization: `Bearer ${token}`, 'x-request-id': 'log-ok' },
      }),
      await info.app.server.inject({
        url: '/api/v2/workplaces?access_token=abc',
        headers: { 'x-request-id': 'log-refused' },
      }),
    ];
    assert.deepEqual(
      answers.map((answer) => answer.statusCode),
      [200, 401],
    );
    const lines = linesOf(info).filter((line) => line.reqId?.startsWith('log-'));
    assert.deepEqual(
      lines.map((line) => [line.reqId, line.msg, line.req?.method, line.req?.url, line.res?.statusCode]),
      [
        ['log-ok', 'request completed', 'GET', '/api/v2/workplaces?limit=5', 200],
        ['log-refused', 'request completed', 'GET', '/api/v2/workplaces?access_token=[redacted]', 401],
      ],
    );
    for (const line of lines) {
      assert.equal(line.level, 30);
      assert.equal(typeof line.responseTime, 'number');
    }
  });

  test('debug: the arrival of a request is logged too', async () => {
    await debug.app.server.inject({ url: '/health/live', headers: { 'x-request-id': 'log-arrival' } });
    assert.deepEqual(
      linesOf(debug)
        .filter((line) => line.reqId === 'log-arrival')
        .map((line) => line.msg),
      ['incoming request', 'request completed'],
    );
  });
});

test('log output: each line is in the destination as soon as it is written', () => {
  const path = join(mkdtempSync(join(tmpdir(), 'bridge-log-')), 'out.log');
  try {
    const out = logDestination(path);
    out.write('{"msg":"a"}\n');
    out.write('{"msg":"b"}\n');
    // No buffer to flush and nothing waits for a later turn: a killed process loses no line.
    assert.equal(readFileSync(path, 'utf8'), '{"msg":"a"}\n{"msg":"b"}\n');
  } finally {
    rmSync(dirname(path), { recursive: true, force: true });
  }
});
