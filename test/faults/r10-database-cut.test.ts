// R10 and R3 (docs/operations.md, "Failure behaviour"): PostgreSQL connections terminated
// (pg_terminate_backend), cut on the wire, and refused for a while as in a database restart (a TCP
// proxy between service and database), while 20 writers publish events. The process never exits; a request that loses its connection answers
// 503/504 with the error body; the pool reconnects by itself; every acknowledged event is stored
// and delivered to the callback subscribed to it.
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { connect, createServer, type Server, type Socket } from 'node:net';
import { test } from 'node:test';
import { BACKENDS, freshDatabase, type TestDatabase } from '../support/databases.ts';
import { Api, freePort, Receiver, registerCallback, ServiceProcess, waitFor } from '../support/faults.ts';

const WRITERS = 20;
const APPLICATION_NAME = 'bridge-r10';

/** A TCP proxy to PostgreSQL whose connections the test can cut (both sides destroyed at once). */
class CuttableProxy {
  readonly port: number;
  readonly #server: Server;
  readonly #sockets: Set<Socket>;
  /** While down, new connections are dropped at once, as a database being restarted would. */
  down = false;

  private constructor(server: Server, port: number, sockets: Set<Socket>) {
    this.#server = server;
    this.port = port;
    this.#sockets = sockets;
  }

  static async start(target: { host: string; port: number }): Promise<CuttableProxy> {
    const port = await freePort();
    const sockets = new Set<Socket>();
    let proxy: CuttableProxy | undefined;
    const server = createServer((client) => {
      if (proxy?.down) {
        client.destroy();
        return;
      }
      const upstream = connect(target.port, target.host);
      for (const socket of [client, upstream]) {
        sockets.add(socket);
        socket.on('close', () => sockets.delete(socket));
        socket.on('error', () => {
          client.destroy();
          upstream.destroy();
        });
      }
      client.pipe(upstream).pipe(client);
    });
    await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
    proxy = new CuttableProxy(server, port, sockets);
    return proxy;
  }

  /** Destroys every open connection, as a network cut would; returns how many there were. */
  cut(): number {
    const count = this.#sockets.size;
    for (const socket of this.#sockets) socket.destroy();
    return count;
  }

  async close(): Promise<void> {
    this.cut();
    await new Promise<void>((resolve) => this.#server.close(() => resolve()));
  }
}

test('R10: connections terminated or cut under write load: no crash, 503/504 with the body, nothing acknowledged lost', {
  skip: !BACKENDS.includes('postgres') && 'PostgreSQL not reachable',
  timeout: 120_000,
}, async () => {
  let database: TestDatabase | undefined;
  let proxy: CuttableProxy | undefined;
  let receiver: Receiver | undefined;
  let service: ServiceProcess | undefined;
  let writing = true;
  let writers: Promise<void>[] = [];
  try {
    database = await freshDatabase('postgres');
    assert.ok(database.url, 'a PostgreSQL database has a URL');
    const direct = new URL(database.url);
    proxy = await CuttableProxy.start({ host: direct.hostname, port: Number(direct.port || 5432) });
    const viaProxy = new URL(database.url);
    viaProxy.port = String(proxy.port);
    viaProxy.searchParams.set('application_name', APPLICATION_NAME);
    receiver = await Receiver.create({ up: true });
    service = await ServiceProcess.start({
      databaseUrl: viaProxy.toString(),
      env: {
        BRIDGE_DELIVERY_RETRY_INTERVAL_MS: '1000',
        BRIDGE_DELIVERY_TIMEOUT_MS: '500',
        BRIDGE_DB_TIMEOUT_MS: '3000',
      },
    });
    const api = await Api.login(service.baseUrl);
    const callbackId = await registerCallback(api, {
      eventType: 'EXTERNAL',
      url: receiver.url('/r10'),
      maxRedeliverAttempts: 1000,
    });
    assert.ok(callbackId);

    // 20 writers publish until told to stop; every answer is kept.
    const acknowledged = new Set<string>();
    const failures: { status: number; body: unknown }[] = [];
    let published = 0;
    const run = randomUUID();
    const writer = async (index: number) => {
      while (writing) {
        const n = published++;
        const response = await api
          .request('POST', '/api/v2/events', { eventType: 'EXTERNAL', data: { run, writer: index, n } })
          .catch((error: Error) => ({
            status: 0,
            body: { error: error.message } as Record<string, unknown>,
          }));
        if (response.status === 0) writing = false; // the service is gone: the checks below say so
        if (response.status === 201) acknowledged.add(response.body?.properties?.id as string);
        else failures.push({ status: response.status, body: response.body });
      }
    };
    writers = Array.from({ length: WRITERS }, (_, index) => writer(index));
    const child = service;
    const alive = () => {
      try {
        return child.pid !== undefined && process.kill(child.pid, 0);
      } catch {
        return false;
      }
    };
    const acknowledgedAtLeast = (count: number) =>
      waitFor(
        `${count} acknowledged writes`,
        () => {
          if (!alive()) throw new Error(`the service exited:\n${child.output.slice(-3000)}`);
          return acknowledged.size >= count;
        },
        {
          timeoutMs: 30_000,
          describe: () => ({ acknowledged: acknowledged.size, failures: failures.length }),
        },
      );

    // 1. The database terminates the service's backends, three times, with writes in between.
    const admin = database.db;
    for (let round = 0; round < 3; round += 1) {
      await acknowledgedAtLeast(acknowledged.size + 100);
      const terminated = await admin.query<{ pid: number }>(
        `SELECT pg_terminate_backend(pid) AS pid FROM pg_stat_activity
          WHERE application_name = $1 AND pid <> pg_backend_pid()`,
        [APPLICATION_NAME],
      );
      assert.ok(terminated.length > 0, 'the service had backends to terminate');
    }
    // 2. The network between service and database is cut, three times.
    const cutProxy = proxy;
    for (let round = 0; round < 3; round += 1) {
      await acknowledgedAtLeast(acknowledged.size + 100);
      assert.ok(cutProxy.cut() > 0, 'the service had connections to cut');
    }
    // 3. The database is away for a while (every connection dropped, new ones refused), as in a
    //    restart: writes fail with 503/504 and readiness says so; then it is back.
    const failedBefore = failures.length;
    cutProxy.down = true;
    cutProxy.cut();
    await waitFor(
      'writes failing while the database is away',
      () => failures.length >= failedBefore + WRITERS,
    );
    const ready = await fetch(`${service.baseUrl}/health/ready`);
    await ready.body?.cancel();
    assert.equal(ready.status, 503, 'not ready while the database is away');
    cutProxy.down = false;
    // 4. It keeps acknowledging writes afterwards, without a restart.
    await acknowledgedAtLeast(acknowledged.size + 200);
    writing = false;
    await Promise.all(writers);
    assert.ok(alive(), `the service process is still running\n${service.output.slice(-3000)}`);

    // Every failure was a clean 503/504 with the error body, never a 500 or a dropped connection.
    for (const failure of failures) {
      assert.ok([503, 504].includes(failure.status), `unexpected answer ${JSON.stringify(failure)}`);
      const body = failure.body as { status?: number; code?: string; message?: string };
      assert.equal(body.status, failure.status);
      assert.ok(
        ['DATABASE_UNAVAILABLE', 'DATABASE_TIMEOUT'].includes(String(body.code)),
        JSON.stringify(body),
      );
      assert.equal(typeof body.message, 'string');
    }
    assert.doesNotMatch(service.output, /Unhandled 'error' event|uncaught/i);

    // Nothing acknowledged is lost: stored, and delivered to the callback.
    const stored = await admin.query<{ id: string }>(
      `SELECT id FROM events WHERE event_type = 'EXTERNAL' AND data->>'run' = $1`,
      [run],
    );
    const storedIds = new Set(stored.map((row) => row.id));
    const missing = [...acknowledged].filter((id) => !storedIds.has(id));
    assert.deepEqual(missing, [], `${missing.length} acknowledged events are not stored`);
    const deliveredTo = receiver;
    await waitFor(
      `all ${acknowledged.size} acknowledged events delivered`,
      () => [...acknowledged].every((id) => deliveredTo.countsById().has(id)),
      { timeoutMs: 45_000, intervalMs: 200, describe: () => deliveredTo.countsById().size },
    );
    const byStatus = Object.groupBy(failures, (failure) => String(failure.status));
    const counts = Object.entries(byStatus).map(([status, list]) => `${list?.length ?? 0} x ${status}`);
    const outcome = `acknowledged ${acknowledged.size}, failed ${failures.length} (${counts.join(', ') || '-'})`;
    console.log(`R10: ${outcome}`);
  } finally {
    writing = false;
    await Promise.allSettled(writers);
    await service?.stop();
    await receiver?.stop();
    await proxy?.close();
    await database?.drop();
  }
});
