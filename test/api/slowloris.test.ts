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
const HOLD_MS = 5000;

describe(`slowloris from one address [${BACKEND}]`, () => {
  let r: RuntimeApp;
  let port = 0;
  const slow: Socket[] = [];
  before(async () => {
    r = await startRuntimeApp(BACKEND, {
      BRIDGE_HTTP_MAX_CONNECTIONS: '100',
      BRIDGE_HTTP_MAX_CONNECTIONS_PER_ADDRESS: '10',
      // Connections over the share are held this long, then closed.
      BRIDGE_HTTP_HEADERS_TIMEOUT_MS: String(HOLD_MS),
    });
    await r.app.server.listen({ host: '127.0.0.1', port: 0 });
    port = (r.app.server.server.address() as { port: number }).port;
  });
  after(async () => {
    for (const socket of slow) socket.destroy();
    await r?.close();
  });

  test('60 slow-header connections from 127.0.0.2 get 10 served; 127.0.0.1 is served', async () => {
    let connected = 0;
    let answered = 0;
    let closedUnanswered = 0;
    for (let i = 0; i < SLOW; i += 1) {
      const socket = connect({ host: '127.0.0.1', port, localAddress: '127.0.0.2' });
      let received = '';
      socket.on('error', () => {});
      socket.on('data', (chunk) => {
        if (received === '' && chunk.toString().startsWith('HTTP/1.1 200')) answered += 1;
        received += chunk.toString();
      });
      socket.once('connect', () => {
        connected += 1;
        socket.write('GET /health/live HTTP/1.1\r\nHost: localhost\r\nX-Slow: 1\r\n');
      });
      socket.once('close', () => {
        if (received === '') closedUnanswered += 1;
      });
      slow.push(socket);
    }
    await waitUntil(() => connected === SLOW, { what: 'every slow connection accepted by the kernel' });
    const answers = await Promise.all(
      Array.from({ length: 5 }, () => fetch(`http://127.0.0.1:${port}/health/live`)),
    );
    for (const answer of answers) {
      assert.equal(answer.status, 200);
      assert.deepEqual(await answer.json(), { status: 'UP' });
    }
    // Over the share, connections are held open, not closed at once (an attacker that reconnects
    // at once would make each accept cost the service).
    assert.equal(closedUnanswered, 0);
    // Each slow connection now ends its headers: the address's share is answered, the rest were
    // held unread and are closed without an answer when their hold ends.
    for (const socket of slow) socket.write('\r\n');
    await waitUntil(() => answered + closedUnanswered === SLOW, {
      what: 'every slow connection answered or closed',
      timeoutMs: HOLD_MS * 6,
    });
    assert.equal(answered, 10);
    assert.equal(closedUnanswered, 50);
  });
});
