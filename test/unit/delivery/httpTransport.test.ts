// src/delivery/httpTransport.ts against a real receiver on loopback: what an answer, a refusal
// and silence come back as, the timeout of sends that never got a connection included (they wait
// behind sends to a receiver that holds every connection).
import assert from 'node:assert/strict';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, test } from 'node:test';
import { HttpTransport } from '../../../src/delivery/httpTransport.ts';
import { AddressPolicy } from '../../../src/net/addressPolicy.ts';

const TIMEOUT_MS = 300;
/** The transport's connections per receiver: one send more waits for a connection. */
const CONNECTIONS = 16;

describe('HTTP transport', () => {
  const received: { path: string; headers: IncomingMessage['headers']; body: string }[] = [];
  const held: ServerResponse[] = [];
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const path = request.url ?? '';
      received.push({ path, headers: request.headers, body: Buffer.concat(chunks).toString() });
      if (path === '/hang') held.push(response);
      else if (path === '/fail') response.writeHead(500).end('no');
      else if (path === '/large') response.writeHead(200).end(Buffer.alloc(1024 * 1024, 'x'));
      else response.writeHead(204).end();
    });
  });
  const transport = new HttpTransport({
    timeoutMs: TIMEOUT_MS,
    policy: new AddressPolicy(['0.0.0.0/0'], []),
  });
  let base = '';
  before(async () => {
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  after(async () => {
    await transport.close();
    for (const response of held) response.destroy();
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  });

  test('a 2xx is delivered: the body and headers as given, Basic Auth from the userinfo', async () => {
    const url = new URL(`${base.replace('//', '//us%20er:p%3Ass@')}/ok?x=1`);
    const result = await transport.send(url, Buffer.from('{"a":1}'), [
      'content-type',
      'application/json',
      'webhook-id',
      'e1',
    ]);
    assert.deepEqual(result, { ok: true, statusCode: 204, error: null, unresponsive: false });
    const last = received.at(-1);
    assert.equal(last?.path, '/ok?x=1');
    assert.equal(last?.body, '{"a":1}');
    assert.equal(last?.headers['webhook-id'], 'e1');
    assert.equal(last?.headers['content-type'], 'application/json');
    assert.equal(last?.headers.authorization, `Basic ${Buffer.from('us er:p:ss').toString('base64')}`);
  });

  test('another status is a failed attempt of a receiver that answered', async () => {
    const result = await transport.send(new URL(`${base}/fail`), Buffer.from('{}'), []);
    assert.deepEqual(result, { ok: false, statusCode: 500, error: 'HTTP 500', unresponsive: false });
  });

  test('a large answer body does not hold the send: its status decides', async () => {
    const result = await transport.send(new URL(`${base}/large`), Buffer.from('{}'), []);
    assert.deepEqual(result, { ok: true, statusCode: 200, error: null, unresponsive: false });
  });

  test('a refused connection: the receiver did not answer', async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise((resolve) => closed.close(resolve));
    const result = await transport.send(new URL(`http://127.0.0.1:${port}/`), Buffer.from('{}'), []);
    assert.equal(result.ok, false);
    assert.equal(result.unresponsive, true);
    assert.equal(result.statusCode, null);
  });

  test('silence fails at the timeout, the sends still waiting for a connection too, with the same words', async () => {
    const sends = Array.from({ length: CONNECTIONS + 2 }, () =>
      transport.send(new URL(`${base}/hang`), Buffer.from('{}'), []),
    );
    const results = await Promise.all(sends);
    for (const result of results) {
      assert.deepEqual(result, {
        ok: false,
        statusCode: null,
        error: `no answer within ${TIMEOUT_MS} ms`,
        unresponsive: true,
      });
    }
    assert.equal(transport.deadlines.size, 0, 'no deadline is left once every send ended');
  });

  test('an invalid header is a failed attempt, not a rejected send', async () => {
    const result = await transport.send(new URL(`${base}/ok`), Buffer.from('{}'), ['bad header', 'x']);
    assert.equal(result.ok, false);
    assert.equal(result.unresponsive, false);
    assert.equal(transport.deadlines.size, 0);
  });
});
