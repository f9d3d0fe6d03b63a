// Slow and idle clients cannot hold connections: a body or headers dripped byte by byte are cut
// off with 408 and the error body, an idle keep-alive connection is closed, and connections beyond
// the cap are refused. Short limits are set in the settings so each test takes about a second.
import assert from 'node:assert/strict';
import { connect, type Socket } from 'node:net';
import { after, before, describe, test } from 'node:test';
import { TEST_CLIENT } from '../support/app.ts';
import { BACKENDS } from '../support/databases.ts';
import { waitUntil } from '../support/process.ts';
import { type RuntimeApp, startRuntimeApp } from '../support/runtimeApp.ts';

const BACKEND = BACKENDS[0] ?? 'pglite';

interface Connection {
  socket: Socket;
  received(): string;
  /** Resolves when the server has closed the connection (bounded). */
  closed: Promise<void>;
}

function open(port: number): Promise<Connection> {
  return new Promise((resolve, reject) => {
    const socket = connect({ host: '127.0.0.1', port });
    let data = '';
    socket.setEncoding('utf8').on('data', (chunk: string) => {
      data += chunk;
    });
    socket.on('error', () => {}); // a reset is one way for the server to close
    const closed = new Promise<void>((done) => socket.on('close', () => done()));
    socket.once('connect', () => resolve({ socket, received: () => data, closed }));
    socket.once('error', reject);
  });
}

/** Sends `chunks` one at a time every `everyMs` until the server closes the connection; bounded. */
async function drip(connection: Connection, chunks: string[], everyMs: number, boundMs = 15_000) {
  let index = 0;
  const timer = setInterval(() => {
    if (!connection.socket.writable) return;
    connection.socket.write(chunks[index % chunks.length] ?? '');
    index += 1;
  }, everyMs);
  const bound = new Promise<'bound'>((resolve) => setTimeout(resolve, boundMs, 'bound').unref());
  try {
    const outcome = await Promise.race([connection.closed.then(() => 'closed' as const), bound]);
    assert.equal(outcome, 'closed', `the server kept a dripping client for ${boundMs} ms`);
  } finally {
    clearInterval(timer);
    connection.socket.destroy();
  }
  return index;
}

function assertTimeoutAnswer(received: string) {
  const [head = '', body = ''] = received.split('\r\n\r\n');
  assert.match(head, /^HTTP\/1\.1 408 Request Timeout\r\n/);
  assert.match(head, /\r\nConnection: close/i);
  assert.match(head, /\r\nContent-Type: application\/json/i);
  assert.deepEqual(JSON.parse(body), {
    status: 408,
    code: 'REQUEST_TIMEOUT',
    message: 'The request did not arrive in time: headers and body must be sent within the server timeouts.',
  });
}

describe(`slow clients [${BACKEND}]`, () => {
  let r: RuntimeApp;
  let port = 0;
  before(async () => {
    r = await startRuntimeApp(BACKEND, {
      BRIDGE_HTTP_REQUEST_TIMEOUT_MS: '1000',
      BRIDGE_HTTP_HEADERS_TIMEOUT_MS: '500',
      BRIDGE_HTTP_KEEP_ALIVE_TIMEOUT_MS: '300',
    });
    await r.app.server.listen({ host: '127.0.0.1', port: 0 });
    port = (r.app.server.server.address() as { port: number }).port;
  });
  after(async () => {
    await r?.close();
  });

  test('a body dripped one byte at a time is cut off with 408 after the request timeout', async () => {
    const connection = await open(port);
    connection.socket.write(
      'POST /oauth/token HTTP/1.1\r\nHost: localhost\r\n' +
        'Content-Type: application/x-www-form-urlencoded\r\nContent-Length: 1000\r\n\r\n',
    );
    const sent = await drip(connection, ['g'], 50);
    // It was cut off long before the body could have been complete.
    assert.ok(sent < 1000, `sent ${sent} bytes`);
    assertTimeoutAnswer(connection.received());
  });

  test('headers dripped one line at a time are cut off with 408 after the headers timeout', async () => {
    const connection = await open(port);
    connection.socket.write('GET /health/live HTTP/1.1\r\nHost: localhost\r\n');
    await drip(connection, ['X-Slow: 1\r\n'], 50);
    assertTimeoutAnswer(connection.received());
  });

  test('an idle keep-alive connection is closed by the server after the keep-alive timeout', async () => {
    const connection = await open(port);
    connection.socket.write('GET /health/live HTTP/1.1\r\nHost: localhost\r\n\r\n');
    await waitUntil(() => connection.received().includes('"UP"'), { what: 'the health answer' });
    assert.match(connection.received(), /^HTTP\/1\.1 200 OK\r\n/);
    assert.match(connection.received(), /\r\nConnection: keep-alive\r\n/i);
    // Nothing more is sent; the server must end the connection by itself.
    await waitUntil(() => connection.socket.readableEnded || connection.socket.destroyed, {
      what: 'the server to close the idle connection',
      timeoutMs: 15_000,
    });
    connection.socket.destroy();
  });

  test('a client that keeps to the limits is served', async () => {
    const response = await fetch(`http://127.0.0.1:${port}/health/live`);
    assert.equal(response.status, 200);
    assert.deepEqual(await response.json(), { status: 'UP' });
  });
});

describe(`body timeout [${BACKEND}]`, () => {
  let r: RuntimeApp;
  let port = 0;
  before(async () => {
    // The whole-request timeout stays long: only the pause in the body ends this request.
    r = await startRuntimeApp(BACKEND, { BRIDGE_HTTP_BODY_TIMEOUT_MS: '300' });
    await r.app.server.listen({ host: '127.0.0.1', port: 0 });
    port = (r.app.server.server.address() as { port: number }).port;
  });
  after(async () => {
    await r?.close();
  });

  test('a body that stops arriving is answered 408 after the body timeout', async () => {
    const connection = await open(port);
    connection.socket.write(
      'POST /oauth/token HTTP/1.1\r\nHost: localhost\r\n' +
        'Content-Type: application/x-www-form-urlencoded\r\nContent-Length: 100\r\n\r\ngrant_type',
    );
    await waitUntil(() => connection.socket.destroyed || connection.socket.readableEnded, {
      what: 'the server to end the stalled request',
      timeoutMs: 15_000,
    });
    assertTimeoutAnswer(connection.received());
    connection.socket.destroy();
  });
});

describe(`connection cap [${BACKEND}]`, () => {
  let r: RuntimeApp;
  let port = 0;
  before(async () => {
    r = await startRuntimeApp(BACKEND, { BRIDGE_HTTP_MAX_CONNECTIONS: '3' });
    await r.app.server.listen({ host: '127.0.0.1', port: 0 });
    port = (r.app.server.server.address() as { port: number }).port;
  });
  after(async () => {
    await r?.close();
  });

  const connections = () =>
    new Promise<number>((resolve, reject) =>
      r.app.server.server.getConnections((error, count) => (error ? reject(error) : resolve(count))),
    );

  test('with every connection busy, one more is closed at once; a freed place is taken again', async () => {
    const token = await r.app.tokens.issue(TEST_CLIENT.id, ['read']);
    const held: Connection[] = [];
    for (let i = 0; i < 3; i += 1) {
      // An open event stream: the connection is serving a request.
      const connection = await open(port);
      connection.socket.write(
        `GET /api/v2/events/stream HTTP/1.1\r\nHost: localhost\r\nAuthorization: Bearer ${token}\r\n\r\n`,
      );
      await waitUntil(() => connection.received().includes(': connected'), { what: `stream ${i}` });
      held.push(connection);
    }
    const refused = await open(port);
    refused.socket.write('GET /health/live HTTP/1.1\r\nHost: localhost\r\n\r\n');
    await waitUntil(() => refused.socket.destroyed || refused.socket.readableEnded, {
      what: 'the connection over the cap to be closed',
    });
    assert.equal(refused.received(), '');
    refused.socket.destroy();

    held[0]?.socket.destroy();
    await waitUntil(async () => (await connections()) < 3, { what: 'the server to see the place freed' });
    const response = await fetch(`http://127.0.0.1:${port}/health/live`);
    assert.equal(response.status, 200);
    for (const connection of held) connection.socket.destroy();
  });

  test('with the cap reached by idle connections, a new one pushes out the one idle longest', async () => {
    const idle: Connection[] = [];
    for (let i = 0; i < 3; i += 1) {
      const connection = await open(port);
      connection.socket.write('GET /health/live HTTP/1.1\r\nHost: localhost\r\n\r\n');
      await waitUntil(() => connection.received().includes('"UP"'), { what: `answer ${i}` });
      idle.push(connection);
    }
    const response = await fetch(`http://127.0.0.1:${port}/health/live`);
    assert.equal(response.status, 200);
    await idle[0]?.closed;
    assert.equal(idle[1]?.socket.destroyed, false);
    for (const connection of idle) connection.socket.destroy();
  });
});

describe(`bounded shutdown [${BACKEND}]`, () => {
  test('a connection still busy after the grace period is cut: it cannot hold the shutdown', async () => {
    // No request or headers timeout: without the grace period this connection would hold the
    // shutdown for as long as the client likes.
    const r = await startRuntimeApp(BACKEND, {
      BRIDGE_HTTP_REQUEST_TIMEOUT_MS: '0',
      BRIDGE_HTTP_HEADERS_TIMEOUT_MS: '600000',
      BRIDGE_HTTP_SHUTDOWN_GRACE_MS: '300',
    });
    await r.app.server.listen({ host: '127.0.0.1', port: 0 });
    const port = (r.app.server.server.address() as { port: number }).port;
    const busy = await open(port);
    busy.socket.write('GET /health/live HTTP/1.1\r\nHost: localhost\r\n');
    await waitUntil(
      () =>
        new Promise<boolean>((resolve) =>
          r.app.server.server.getConnections((_error, count) => resolve(count === 1)),
        ),
      { what: 'the server to see the connection' },
    );
    await r.close();
    await busy.closed;
    assert.equal(busy.received(), '');
  });
});
