// Idempotency-Key on POST (docs/api.md, "Retried writes"; R16): a retry with the same key gets the
// first answer again, marked Idempotent-Replayed, and nothing is written twice; also when the
// first answer was lost with the connection, and when the two arrive at once. Another body under
// the key is 422. Keys belong to their client.
import assert from 'node:assert/strict';
import { connect } from 'node:net';
import { test } from 'node:test';
import { addClient } from '../../src/auth/clients.ts';
import { ManualClock } from '../../src/background/clock.ts';
import { Retention } from '../../src/services/retention.ts';
import { describeEachBackend, json, type TestApp } from '../support/app.ts';
import { waitFor } from '../support/wait.ts';

const GROUPS = '/api/v2/workplaceGroups';

async function groupsNumbered(t: TestApp, number: string): Promise<number> {
  const [row] = await t.app.db.query<{ n: number }>(
    'SELECT count(*)::int AS n FROM workplace_groups WHERE number = $1',
    [number],
  );
  return row?.n ?? 0;
}

/** Events about the group (its creation: one, however often the request came). */
async function createdEvents(t: TestApp, number: string): Promise<number> {
  const [row] = await t.app.db.query<{ n: number }>(
    `SELECT count(*)::int AS n FROM events
     WHERE object_id IN (SELECT id::text FROM workplace_groups WHERE number = $1)`,
    [number],
  );
  return row?.n ?? 0;
}

const post = (t: TestApp, key: string, number: string, extra: Record<string, string> = {}) =>
  t.request({
    method: 'POST',
    url: GROUPS,
    body: { number, type: 'CAPACITY_GROUP' },
    headers: { 'idempotency-key': key, ...extra },
  });

describeEachBackend('Idempotency-Key', (t) => {
  test('a retry gets the first answer and writes nothing twice', async () => {
    const first = await post(t(), 'key-retry', 'IK-RETRY');
    assert.equal(first.statusCode, 201, first.body);
    assert.equal(first.headers['idempotent-replayed'], undefined);
    const again = await post(t(), 'key-retry', 'IK-RETRY');
    assert.equal(again.statusCode, 201);
    assert.equal(again.headers['idempotent-replayed'], 'true');
    assert.equal(again.headers.location, first.headers.location);
    assert.equal(again.body, first.body);
    assert.equal(await groupsNumbered(t(), 'IK-RETRY'), 1);
    // Without a key the same body is a new write (here refused: the number exists).
    const withoutKey = await t().request({
      method: 'POST',
      url: GROUPS,
      body: { number: 'IK-RETRY', type: 'CAPACITY_GROUP' },
    });
    assert.equal(withoutKey.statusCode, 400);
  });

  test('an error answer is given again too; another body under the key is 422 and writes nothing', async () => {
    const taken = await post(t(), 'key-taken-1', 'IK-TAKEN');
    assert.equal(taken.statusCode, 201);
    const refused = await post(t(), 'key-taken-2', 'IK-TAKEN');
    assert.equal(refused.statusCode, 400);
    assert.equal(json(refused).code, 'ALREADY_EXISTS');
    const refusedAgain = await post(t(), 'key-taken-2', 'IK-TAKEN');
    assert.equal(refusedAgain.statusCode, 400);
    assert.equal(refusedAgain.body, refused.body);
    assert.equal(refusedAgain.headers['idempotent-replayed'], 'true');

    const other = await post(t(), 'key-taken-1', 'IK-OTHER');
    assert.equal(other.statusCode, 422, other.body);
    assert.equal(json(other).code, 'IDEMPOTENCY_KEY_REUSED');
    assert.equal(await groupsNumbered(t(), 'IK-OTHER'), 0);
  });

  test('keys belong to their client', async () => {
    const client = await addClient(t().app.db, { name: 'second', scopes: ['read', 'write'] });
    const token = await t().app.tokens.issue(client.clientId, ['read', 'write']);
    const mine = await post(t(), 'key-shared', 'IK-MINE');
    assert.equal(mine.statusCode, 201);
    const theirs = await post(t(), 'key-shared', 'IK-THEIRS', { authorization: `Bearer ${token}` });
    assert.equal(theirs.statusCode, 201, theirs.body);
    assert.equal(theirs.headers['idempotent-replayed'], undefined);
    assert.equal(await groupsNumbered(t(), 'IK-THEIRS'), 1);
  });

  test('two requests with one key at once: one write, the same answer twice', async () => {
    const [a, b] = await Promise.all([post(t(), 'key-race', 'IK-RACE'), post(t(), 'key-race', 'IK-RACE')]);
    assert.equal(a.statusCode, 201, a.body);
    assert.equal(b.statusCode, 201, b.body);
    assert.equal(a.body, b.body);
    assert.deepEqual(
      [a.headers['idempotent-replayed'], b.headers['idempotent-replayed']].sort(),
      ['true', undefined].sort(),
    );
    assert.equal(await groupsNumbered(t(), 'IK-RACE'), 1);
    assert.equal(await createdEvents(t(), 'IK-RACE'), 1);
  });

  test('the answer lost with the connection: the retry gets it and nothing is written twice', async () => {
    await t().app.server.listen({ port: 0, host: '127.0.0.1' });
    const address = t().app.server.server.address();
    assert.ok(address && typeof address === 'object');
    const body = JSON.stringify({ number: 'IK-CUT', type: 'CAPACITY_GROUP' });
    const socket = connect(address.port, '127.0.0.1');
    await new Promise((resolve) => socket.once('connect', resolve));
    socket.write(
      `POST ${GROUPS} HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer ${await t().token()}\r\n` +
        `Content-Type: application/json\r\nIdempotency-Key: key-cut\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`,
    );
    socket.destroy();
    await waitFor('the first request to commit', async () => (await groupsNumbered(t(), 'IK-CUT')) === 1);
    const retry = await post(t(), 'key-cut', 'IK-CUT');
    assert.equal(retry.statusCode, 201, retry.body);
    assert.equal(retry.headers['idempotent-replayed'], 'true');
    assert.equal(json(retry).properties.number, 'IK-CUT');
    assert.equal(await groupsNumbered(t(), 'IK-CUT'), 1);
    assert.equal(await createdEvents(t(), 'IK-CUT'), 1);
  });

  test('a key that is not printable ASCII of 1-255 characters is 400; GET ignores the header', async () => {
    for (const key of ['', 'x'.repeat(256), 'two words']) {
      const response = await post(t(), key, 'IK-BADKEY');
      assert.equal(response.statusCode, 400, `${JSON.stringify(key)}: ${response.body}`);
      assert.equal(json(response).code, 'VALIDATION_FAILED');
    }
    assert.equal(await groupsNumbered(t(), 'IK-BADKEY'), 0);
    const read = await t().request({ url: GROUPS, headers: { 'idempotency-key': 'key-get' } });
    assert.equal(read.statusCode, 200);
  });

  test('a stored answer is given for a day and then deleted by retention', async () => {
    const first = await post(t(), 'key-day', 'IK-DAY');
    assert.equal(first.statusCode, 201);
    const [row] = await t().app.db.query<{ n: number }>(
      "SELECT count(*)::int AS n FROM idempotency_keys WHERE key = 'key-day'",
    );
    assert.equal(row?.n, 1);
    await t().app.db.query(
      "UPDATE idempotency_keys SET created_at = created_at - interval '25 hours' WHERE key = 'key-day'",
    );
    // Expired: the key is free again (here the number is taken, so the new write is refused).
    const after = await post(t(), 'key-day', 'IK-DAY');
    assert.equal(after.statusCode, 400, after.body);
    assert.equal(after.headers['idempotent-replayed'], undefined);
    // That answer is stored anew; once a day old, retention deletes it.
    await t().app.db.query(
      "UPDATE idempotency_keys SET created_at = created_at - interval '25 hours' WHERE key = 'key-day'",
    );
    const deleted: Record<string, number> = {};
    const retention = new Retention(t().app.db, {
      eventsDays: 0,
      samplesDays: 0,
      clock: new ManualClock(),
      log: { warn: () => {}, info: () => {} },
      onDeleted: (table, rows) => {
        deleted[table] = (deleted[table] ?? 0) + rows;
      },
    });
    retention.start();
    await retention.nextCycle();
    await retention.stop();
    assert.deepEqual(deleted, { idempotency_keys: 1 });
    const [left] = await t().app.db.query<{ n: number }>(
      "SELECT count(*)::int AS n FROM idempotency_keys WHERE key = 'key-day'",
    );
    assert.equal(left?.n, 0);
  });
});
