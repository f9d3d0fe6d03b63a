// Slowloris from one address (docs/api.md, "Limits"): many connections from 127.0.0.2 that send a
// header line now and then and never finish do not stop another address (127.0.0.1) from being
// served, and that address holds at most its share of connections. 127.0.0.0/8 is all loopback on
// Linux, so binding the client sockets to 127.0.0.2 makes them another source address.
import assert from 'node:assert/strict';
import { connect, type Socket } from 'node:net';
import { after, before, describe, test } from 'node:test';
import { BACKENDS } from '../support/databases.ts';
import { waitUntil } from '../support/process.ts';
import { type RuntimeApp, startRuntimeApp } from '../support/runtimeApp.ts';

const BACKEND = BACKENDS[0] ?? 'pglite';
const SLOW = 60;

describe(`slowloris from one address [${BACKEND}]`, () => {
  let r: RuntimeApp;
  let port = 0;
  const slow: Socket[] = [];
  before(async () => {
    r = await startRuntimeApp(BACKEND, {
      BRIDGE_HTTP_MAX_CONNECTIONS: '40',
      BRIDGE_HTTP_MAX_CONNECTIONS_PER_ADDRESS: '10',
    });
    await r.app.server.listen({ host: '127.0.0.1', port: 0 });
    port = (r.app.server.server.address() as { port: number }).port;
  });
  after(async () => {
    for (const socket of slow) socket.destroy();
    await r?.close();
  });

  test('60 slow-header connections from 127.0.0.2 hold at most 10; 127.0.0.1 is served', async () => {
    let open = 0;
    for (let i = 0; i < SLOW; i += 1) {
      const socket = connect({ host: '127.0.0.1', port, localAddress: '127.0.0.2' });
      socket.on('error', () => {});
      socket.once('connect', () => {
        open += 1;
        socket.write('GET /health/live HTTP/1.1\r\nHost: localhost\r\nX-Slow: 1\r\n');
      });
      socket.once('close', () => {
        open -= 1;
      });
      slow.push(socket);
    }
    // Every one was accepted by the kernel; the server keeps at most 10 of them.
    await waitUntil(() => slow.every((socket) => !socket.connecting) && open <= 10, {
      what: 'the server to close the connections over the address limit',
    });
    const answers = await Promise.all(
      Array.from({ length: 5 }, () => fetch(`http://127.0.0.1:${port}/health/live`)),
    );
    for (const answer of answers) {
      assert.equal(answer.status, 200);
      assert.deepEqual(await answer.json(), { status: 'UP' });
    }
    // The slow address still holds its share: it is limited, not shut out.
    assert.equal(open, 10);
  });
});
