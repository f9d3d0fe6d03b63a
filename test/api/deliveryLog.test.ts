// Failed deliveries in the log: the app's own worker delivers to a real receiver that answers
// 503 and to a port that refuses connections, its retries driven by a ManualClock (no waiting
// for retry intervals); the failure log of the app's logger is given a clock the test drives and
// a real pino logger writing into memory. Many failed attempts make
// one line per callback at once, then one summary per interval with the counts; a callback that
// delivered and fails again gets a line at once.
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Writable } from 'node:stream';
import { after, before, describe, test } from 'node:test';
import pino from 'pino';
import { ManualClock } from '../../src/background/clock.ts';
import { pendingDeliveries } from '../../src/db/repositories/deliveryBacklog.ts';
import { FAILURE_LOG_INTERVAL_MS, FailureLog, failureLog } from '../../src/delivery/failureLog.ts';
import { createWorkplace, json, startTestApp, type TestApp } from '../support/app.ts';
import { waitFor } from '../support/wait.ts';

const API = '/api/v2';
const EVENTS = 10;
const REDELIVER = 2; // three attempts per notification: FAILED, FAILED, DISCARDED
const RETRY_MS = 10_000; // the default retry interval, on the delivery's ManualClock

/** Polls `probe` until it returns something truthy (waitFor of support/wait.ts). */
const until = <T>(
  what: string,
  probe: () => Promise<T | undefined | null | false> | T | undefined | null | false,
  timeoutMs = 10_000,
): Promise<T> => waitFor(what, async () => (await probe()) || undefined, { timeoutMs, intervalMs: 20 });

interface Line {
  level: number;
  msg: string;
  callbackId?: string;
  failedAttempts?: number;
  discardedNotifications?: number;
  lastError?: string;
  lastStatusCode?: number | null;
  failing?: boolean;
  error?: string;
}

describe('delivery failures in the log', () => {
  let t: TestApp;
  let receiver: Server;
  let status = 503;
  let requests = 0;
  let refusedPort = 0;
  let clock = Date.parse('2026-01-01T00:00:00Z'); // the failure log's clock
  const deliveryClock = new ManualClock();
  const lines: Line[] = [];
  let failures: FailureLog;

  before(async () => {
    receiver = createServer((request, response) => {
      requests += 1;
      request.resume();
      request.on('end', () => response.writeHead(status).end());
    });
    await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
    // A port nothing listens on: connections are refused.
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    refusedPort = (closed.address() as AddressInfo).port;
    await new Promise((resolve) => closed.close(resolve));

    // The delivery timeout is real time: the default 5 s, so a busy machine does not turn an
    // immediate answer into a timeout.
    t = await startTestApp('pglite', {}, { clock: deliveryClock });
    const sink = new Writable({
      write(chunk: Buffer, _encoding, done) {
        for (const text of chunk.toString('utf8').split('\n')) if (text !== '') lines.push(JSON.parse(text));
        done();
      },
    });
    failures = failureLog(
      t.app.server.log,
      new FailureLog(pino({ level: 'info' }, sink), { now: () => clock }),
    );
  });
  after(async () => {
    await t?.close();
    await new Promise((resolve) => receiver?.close(resolve));
  });

  const register = async (url: string, workplaceId: string) => {
    const response = await t.request({
      method: 'POST',
      url: `${API}/callbacks`,
      body: {
        eventType: 'WORKPLACE_OPERATING_STATE_CHANGED',
        url,
        objectFilter: [{ name: 'id', value: workplaceId }],
        maxRedeliverAttempts: REDELIVER,
      },
    });
    assert.equal(response.statusCode, 201, response.body);
    return json(response).properties.id as string;
  };
  let changes = 0;
  const change = async (workplaceId: string) => {
    changes += 1;
    const state = changes % 2 === 1 ? '110' : '020';
    const response = await t.request({
      method: 'POST',
      url: `${API}/workplaces/${workplaceId}/operatingState/${state}`,
    });
    assert.equal(response.statusCode, 200, response.body);
  };
  /** Sends what is due, then moves the delivery clock past each retry, until nothing is open. */
  const settled = async (ids: string[]) => {
    const open = () => pendingDeliveries(t.app.db, ids);
    const delivery = t.app.delivery;
    assert.ok(delivery);
    for (let round = 0; round <= REDELIVER + 2; round += 1) {
      if (round > 0) deliveryClock.advance(RETRY_MS);
      await delivery.drain();
      if ((await open()) === 0) return;
    }
    assert.fail(`notifications still open after every retry: ${await open()}`);
  };
  const of = (id: string) => lines.filter((line) => line.callbackId === id);

  test('many failed attempts: one line per callback at once, then one summary per interval with the counts', async () => {
    const workplaceId = await createWorkplace(t, 'LOG-1');
    const answering = await register(
      `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`,
      workplaceId,
    );
    const refusing = await register(`http://127.0.0.1:${refusedPort}/hook`, workplaceId);
    for (let index = 0; index < EVENTS; index += 1) await change(workplaceId);
    await settled([answering, refusing]);

    const attempts = EVENTS * (REDELIVER + 1);
    assert.equal(requests, attempts, 'every attempt reached the answering receiver');
    // Thirty failed attempts each, and the clock has not moved: one line each.
    for (const id of [answering, refusing]) {
      const [first, ...rest] = of(id);
      assert.deepEqual(rest, [], `one line for ${id}`);
      assert.equal(first?.level, 40);
      assert.match(String(first?.msg), /delivery failed/);
    }
    // (on a busy machine the first attempt may also time out waiting for the answer)
    assert.match(String(of(answering)[0]?.error), /HTTP 503|timeout/);
    assert.match(String(of(refusing)[0]?.error), /ECONNREFUSED|connect/i);

    clock += FAILURE_LOG_INTERVAL_MS - 1;
    failures.flush();
    assert.equal(lines.length, 2, 'no summary before the interval is over');

    clock += 1;
    failures.flush();
    for (const id of [answering, refusing]) {
      const summary = of(id)[1];
      assert.equal(summary?.level, 40);
      assert.equal(summary?.msg, 'deliveries failing');
      assert.equal(summary?.failedAttempts, attempts - 1, 'the attempts after the first line');
      assert.equal(summary?.discardedNotifications, EVENTS);
      assert.equal(summary?.failing, true);
    }
    assert.equal(of(answering)[1]?.lastError, 'HTTP 503');
    assert.equal(of(answering)[1]?.lastStatusCode, 503);
    assert.equal(lines.length, 4);
    failures.flush();
    assert.equal(lines.length, 4, 'nothing more to summarize');

    // The receiver answers again: a delivery, and no line for it.
    await t.request({ method: 'DELETE', url: `${API}/callbacks/${refusing}` });
    status = 204;
    await change(workplaceId);
    await settled([answering]);
    assert.equal(lines.length, 4);

    // It fails again a minute later: the first failure after the success is logged at once.
    clock += FAILURE_LOG_INTERVAL_MS;
    status = 500;
    await change(workplaceId);
    const again = await until('a line at once for the new failure', () => of(answering)[2]);
    assert.match(again.msg, /delivery failed/);
    assert.equal(again.error, 'HTTP 500');
    await settled([answering]);
    assert.equal(of(answering).length, 3, 'its retries are counted, not logged');
  });
});

describe('failure log: a flapping receiver', () => {
  test('failures between successes within one interval are counted, not logged one by one', () => {
    const lines: Line[] = [];
    const sink = new Writable({
      write(chunk: Buffer, _encoding, done) {
        for (const text of chunk.toString('utf8').split('\n')) if (text !== '') lines.push(JSON.parse(text));
        done();
      },
    });
    let now = 0;
    const log = new FailureLog(pino({ level: 'info' }, sink), { now: () => now });
    const failed = { error: 'HTTP 502', statusCode: 502 };
    const delivered = { error: null, statusCode: 204 };
    for (let index = 0; index < 1000; index += 1) {
      now += 50; // 50 s in all: within one interval
      log.attempt('flapping', index % 2 === 0 ? 'FAILED' : 'DELIVERED', index % 2 === 0 ? failed : delivered);
    }
    assert.equal(lines.length, 1, 'the first failure only');
    now += FAILURE_LOG_INTERVAL_MS;
    log.attempt('flapping', 'DELIVERED', delivered);
    assert.equal(lines.length, 2);
    assert.equal(lines[1]?.msg, 'deliveries failed, then succeeded');
    assert.equal(lines[1]?.failedAttempts, 499);
    assert.equal(lines[1]?.failing, false);
    // Quiet for an interval: the next failure is logged at once again.
    now += FAILURE_LOG_INTERVAL_MS;
    log.flush();
    log.attempt('flapping', 'DISCARDED', failed);
    assert.equal(lines.length, 3);
    assert.match(String(lines[2]?.msg), /delivery failed/);
  });
});
