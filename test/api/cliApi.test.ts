// `bridge events tail`, `bridge callbacks list` and `bridge connectors list` run as real child processes against a real
// running service (the app listening on a port), with the typed client inside: output, --json,
// --help, and the exit codes (0 ok, 1 failure, 2 usage).
import assert from 'node:assert/strict';
import { type ChildProcessWithoutNullStreams, spawn } from 'node:child_process';
import type { AddressInfo } from 'node:net';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { createWorkplace, json, startTestApp, TEST_CLIENT, type TestApp } from '../support/app.ts';
import { waitFor } from '../support/faults.ts';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const NODE = join(ROOT, 'node_modules/.bin/node');

/** `bridge <args>` with only these settings; the child and its output so far. */
function start(env: Record<string, string>, ...args: string[]) {
  const child = spawn(NODE, ['src/cli/main.ts', ...args], {
    cwd: ROOT,
    env: { PATH: process.env.PATH ?? '', ...env },
    stdio: ['pipe', 'pipe', 'pipe'],
  }) as ChildProcessWithoutNullStreams;
  const output = { stdout: '', stderr: '' };
  child.stdout.on('data', (chunk) => {
    output.stdout += chunk;
  });
  child.stderr.on('data', (chunk) => {
    output.stderr += chunk;
  });
  const exited = new Promise<number | null>((resolve) => child.on('close', (code) => resolve(code)));
  return { child, output, exited };
}

async function run(env: Record<string, string>, ...args: string[]) {
  const { output, exited } = start(env, ...args);
  const code = await exited;
  return { code, ...output };
}

describe('bridge events tail / callbacks list / connectors list against a running service', () => {
  let t: TestApp;
  let env: Record<string, string> = {};
  before(async () => {
    t = await startTestApp('pglite', {
      BRIDGE_DELIVERY_ENABLED: 'false',
      BRIDGE_CONNECTORS_ENABLED: 'false',
    });
    await t.app.server.listen({ host: '127.0.0.1', port: 0 });
    const port = (t.app.server.server.address() as { port: number }).port;
    env = {
      BRIDGE_CLIENT_ID: TEST_CLIENT.id,
      BRIDGE_CLIENT_SECRET: TEST_CLIENT.secret,
      URL: `http://127.0.0.1:${port}`,
    };
  });
  after(async () => {
    await t?.close();
  });

  const publish = async (eventName: string) => {
    const response = await t.request({
      method: 'POST',
      url: '/api/v2/events',
      body: { eventType: 'EXTERNAL', eventName, objectType: 'WORKPLACE', objectId: 'cli-tail' },
    });
    assert.equal(response.statusCode, 201, response.body);
  };

  test('events tail --json prints one JSON line per event, from the log and live; Ctrl-C exits 0', async () => {
    await publish('cli-before');
    const tail = start(
      env,
      'events',
      'tail',
      '--url',
      env.URL ?? '',
      '--json',
      '--object-id',
      'cli-tail',
      '--last-event-id',
      '0',
    );
    try {
      await waitFor('the logged event', () => tail.output.stdout.includes('cli-before'), {
        timeoutMs: 60_000,
        describe: () => tail.output,
      });
      await publish('cli-live');
      await waitFor('the live event', () => tail.output.stdout.includes('cli-live'), {
        describe: () => tail.output,
      });
      const lines = tail.output.stdout
        .trim()
        .split('\n')
        .map((line) => JSON.parse(line));
      assert.deepEqual(
        lines.map((line) => line.eventName),
        ['cli-before', 'cli-live'],
      );
      assert.ok(lines.every((line) => Number.isInteger(line.position) && line.objectId === 'cli-tail'));
    } finally {
      tail.child.kill('SIGINT');
    }
    assert.equal(await tail.exited, 0, tail.output.stderr);
  });

  test('events tail prints a human line per event', async () => {
    const tail = start(
      env,
      'events',
      'tail',
      '--url',
      env.URL ?? '',
      '--object-id',
      'cli-tail',
      '--last-event-id',
      '0',
    );
    try {
      await waitFor('two lines', () => tail.output.stdout.trim().split('\n').length >= 2, {
        timeoutMs: 60_000,
        describe: () => tail.output,
      });
      // Time, type, object and what happened: not only ids.
      assert.match(
        tail.output.stdout,
        /^\d{4}-\d\d-\d\dT\S+ {2}EXTERNAL {2}WORKPLACE cli-tail {2}\(cli-before\)$/m,
      );
    } finally {
      tail.child.kill('SIGINT');
    }
    assert.equal(await tail.exited, 0, tail.output.stderr);
  });

  test("callbacks list prints the client's callbacks; --json one object a line", async () => {
    const created = await t.request({
      method: 'POST',
      url: '/api/v2/callbacks',
      body: { eventType: 'EXTERNAL', url: 'http://127.0.0.1:9/cli-hook' },
      headers: { authorization: `Bearer ${await t.app.tokens.issue(TEST_CLIENT.id, ['read', 'write'])}` },
    });
    assert.equal(created.statusCode, 201, created.body);
    const id = json(created).properties.id;
    const plain = await run(env, 'callbacks', 'list', '--url', env.URL ?? '');
    assert.equal(plain.code, 0, plain.stderr);
    assert.equal(plain.stdout, `${id}\tEXTERNAL\thttp://127.0.0.1:9/cli-hook\tfailedAttempts=0\n`);
    const asJson = await run(env, 'callbacks', 'list', '--url', env.URL ?? '', '--json');
    assert.equal(asJson.code, 0, asJson.stderr);
    assert.equal(JSON.parse(asJson.stdout).url, 'http://127.0.0.1:9/cli-hook');
  });

  test('connectors list prints each connector with its state and counts, never its password', async () => {
    const workplaceId = await createWorkplace(t, 'CLI-WP');
    const created = await t.request({
      method: 'POST',
      url: '/api/v2/connectors',
      body: {
        name: 'Press 7',
        type: 'MQTT',
        url: 'mqtt://127.0.0.1:1883',
        username: 'press',
        password: 'cli-secret-password',
        enabled: false,
        mappings: [
          {
            source: { topic: 'press/7/state' },
            target: {
              kind: 'OPERATING_STATE',
              workplaceId,
              values: { RUN: '000' },
            },
          },
        ],
      },
    });
    assert.equal(created.statusCode, 201, created.body);
    const id = json(created).properties.id;
    const plain = await run(env, 'connectors', 'list', '--url', env.URL ?? '');
    assert.equal(plain.code, 0, plain.stderr);
    assert.equal(plain.stdout, `${id}\tPress 7\tMQTT\tDISABLED\tapplied=0\trejected=0\n`);
    const asJson = await run(env, 'connectors', 'list', '--url', env.URL ?? '', '--json');
    assert.equal(asJson.code, 0, asJson.stderr);
    assert.equal(JSON.parse(asJson.stdout).status.state, 'DISABLED');
    assert.doesNotMatch(plain.stdout + asJson.stdout, /cli-secret-password/);
  });

  test('--help on each command exits 0; usage errors exit 2; failures exit 1', async () => {
    for (const command of [
      ['events', 'tail'],
      ['callbacks', 'list'],
      ['connectors', 'list'],
    ]) {
      const help = await run(env, ...command, '--help');
      assert.equal(help.code, 0, help.stderr);
      assert.ok(help.stdout.startsWith(`Usage: bridge ${command.join(' ')}`), help.stdout);
      const bogus = await run(env, ...command, '--bogus');
      assert.equal(bogus.code, 2);
      assert.match(bogus.stderr, /Unknown option '--bogus'/);
    }
    const noCredentials = await run({}, 'callbacks', 'list', '--url', env.URL ?? '');
    assert.equal(noCredentials.code, 2);
    assert.match(noCredentials.stderr, /client credentials needed/);
    const badPosition = await run(env, 'events', 'tail', '--last-event-id', 'x');
    assert.equal(badPosition.code, 2);
    const wrongSecret = await run(
      { ...env, BRIDGE_CLIENT_SECRET: 'wrong-secret-0123456789' },
      'events',
      'tail',
      '--url',
      env.URL ?? '',
    );
    assert.equal(wrongSecret.code, 1, wrongSecret.stderr);
    assert.match(wrongSecret.stderr, /token request failed/);
    // Filters are checked before anything is sent, with the values that exist.
    const badObjectType = await run(env, 'events', 'tail', '--url', env.URL ?? '', '--object-type', 'NOPE');
    assert.equal(badObjectType.code, 2, badObjectType.stderr);
    assert.match(badObjectType.stderr, /^--object-type "NOPE" is not one of:\n/);
    assert.match(badObjectType.stderr, /^ {2}WORKPLACE$/m);
    const badEventType = await run(env, 'events', 'tail', '--url', env.URL ?? '', '--event-type', 'NOPE');
    assert.equal(badEventType.code, 2, badEventType.stderr);
    assert.match(badEventType.stderr, /^--event-type "NOPE" is not one of:\n/);
    assert.match(badEventType.stderr, /^ {2}WORKPLACE_OPERATING_STATE_CHANGED$/m);
    assert.match(badEventType.stderr, /^ {2}EXTERNAL$/m);
    const help = await run({}, '--help');
    assert.equal(help.code, 0);
    assert.match(help.stdout, /events tail/);
  });

  test('events tail summarises the data of an event in a few words', async () => {
    const response = await t.request({
      method: 'POST',
      url: '/api/v2/events',
      body: {
        eventType: 'EXTERNAL',
        eventName: 'jam',
        objectType: 'WORKPLACE',
        objectId: 'cli-summary',
        data: { station: 4, reason: 'part stuck', detail: { nested: true } },
      },
    });
    assert.equal(response.statusCode, 201, response.body);
    const tail = start(
      env,
      'events',
      'tail',
      '--url',
      env.URL ?? '',
      '--object-id',
      'cli-summary',
      '--last-event-id',
      '0',
    );
    try {
      await waitFor('a line', () => tail.output.stdout.includes('\n'), {
        timeoutMs: 60_000,
        describe: () => tail.output,
      });
      // The scalar fields of the data (in the order the database keeps them), not the nested ones.
      const line = /^\S+ {2}EXTERNAL {2}WORKPLACE cli-summary {2}(.*) \(jam\)$/m.exec(tail.output.stdout);
      assert.ok(line, tail.output.stdout);
      assert.deepEqual(line[1]?.split(/ (?=\w+=)/).sort(), ['reason=part stuck', 'station=4']);
    } finally {
      tail.child.kill('SIGINT');
    }
    assert.equal(await tail.exited, 0, tail.output.stderr);
  });

  test('without --url the commands find the service at BRIDGE_HOST/BRIDGE_PORT, or BRIDGE_SERVICE_URL', async () => {
    const { port } = new URL(env.URL ?? '');
    const settings = { BRIDGE_CLIENT_ID: TEST_CLIENT.id, BRIDGE_CLIENT_SECRET: TEST_CLIENT.secret };
    const byPort = await run(
      { ...settings, BRIDGE_HOST: '127.0.0.1', BRIDGE_PORT: port },
      'callbacks',
      'list',
    );
    assert.equal(byPort.code, 0, byPort.stderr);
    const byUrl = await run({ ...settings, BRIDGE_SERVICE_URL: env.URL ?? '' }, 'connectors', 'list');
    assert.equal(byUrl.code, 0, byUrl.stderr);
  });

  test('a service that does not answer: exit 1 naming the URL tried and the setting to change', async () => {
    // A port just freed: nothing listens there.
    const server = createServer();
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const closed = (server.address() as AddressInfo).port;
    await new Promise((resolve) => server.close(resolve));
    const settings = { BRIDGE_CLIENT_ID: TEST_CLIENT.id, BRIDGE_CLIENT_SECRET: TEST_CLIENT.secret };
    for (const command of [
      ['callbacks', 'list'],
      ['connectors', 'list'],
      ['events', 'tail'],
    ]) {
      const byPort = await run(
        { ...settings, BRIDGE_HOST: '127.0.0.1', BRIDGE_PORT: String(closed) },
        ...command,
      );
      assert.equal(byPort.code, 1, byPort.stderr);
      assert.match(
        byPort.stderr,
        new RegExp(
          `^Cannot reach the service at http://127\\.0\\.0\\.1:${closed} \\(connection refused: is the service running\\?\\)\\. .*BRIDGE_PORT`,
        ),
      );
      assert.doesNotMatch(byPort.stderr, /fetch failed/);
    }
    const byUrl = await run(
      { ...settings, BRIDGE_SERVICE_URL: `http://127.0.0.1:${closed}` },
      'callbacks',
      'list',
    );
    assert.equal(byUrl.code, 1, byUrl.stderr);
    assert.match(byUrl.stderr, /Set BRIDGE_SERVICE_URL/);
  });
});
