// The first-start demo (docs/demo.md, "First start") on the real `bridge start` process: an
// empty embedded database is seeded and simulated, a second start does not seed again, and
// BRIDGE_DEMO=off or a DATABASE_URL start leave the plant empty. `bridge seed` on a new database
// shows the first client it created, as a first start does.
import assert from 'node:assert/strict';
import { after, afterEach, describe, it } from 'node:test';
import { BACKENDS, freshDatabase, migratedDataDir } from '../support/databases.ts';
import {
  type BridgeProcess,
  killAll,
  removeTempDirs,
  runBridge,
  spawnBridge,
  tempDir,
  waitUntil,
} from '../support/process.ts';

const DEMO_ENV = {
  BRIDGE_DEMO: 'auto',
  BRIDGE_DEMO_SIZE: '8',
  BRIDGE_DEMO_RATE: '50',
  BRIDGE_DEMO_SEED: '5',
};
// A first start creates a database, then seeds over HTTP: slow on a busy machine (a bound, not a timing).
const DEMO_TIMEOUT_MS = 240_000;

/** An API caller with the client a first start (or `bridge seed`) printed on stdout. */
async function caller(printed: { stdout: string; output: string }, base: string) {
  const id = /client_id:\s+(\S+)/.exec(printed.stdout)?.[1];
  const secret = /client_secret:\s+(\S+)/.exec(printed.stdout)?.[1];
  assert.ok(id && secret, `no client printed:\n${printed.output}`);
  const tokenAnswer = await fetch(`${base}/oauth/token`, {
    method: 'POST',
    headers: {
      authorization: `Basic ${Buffer.from(`${id}:${secret}`).toString('base64')}`,
      'content-type': 'application/x-www-form-urlencoded',
    },
    body: 'grant_type=client_credentials',
  });
  const { access_token: token } = (await tokenAnswer.json()) as { access_token: string };
  // biome-ignore lint/suspicious/noExplicitAny: HAL bodies are read by name
  return async (path: string): Promise<any> => {
    assert.ok(token, `no token for the printed client: ${tokenAnswer.status}`);
    const answer = await fetch(`${base}${path}`, { headers: { authorization: `Bearer ${token}` } });
    assert.equal(answer.status, 200, path);
    return answer.json();
  };
}

const printedBy = (bridge: BridgeProcess) => ({ stdout: bridge.stdout(), output: bridge.output() });

const groupsOf = async (get: Awaited<ReturnType<typeof caller>>) =>
  (await get('/api/v2/workplaceGroups?limit=1')).pagination.total as number;

afterEach(killAll);
after(async () => {
  await killAll();
  removeTempDirs();
});

describe('first-start demo', () => {
  it('seeds and simulates on an empty data directory, and does not seed again on the next start', async () => {
    const dataDir = tempDir('demo');
    const first = spawnBridge({ BRIDGE_DATA_DIR: dataDir, ...DEMO_ENV });
    const base = await first.listening(DEMO_TIMEOUT_MS);
    await waitUntil(() => /Demo plant seeded/.test(first.stdout()), {
      timeoutMs: DEMO_TIMEOUT_MS,
      what: 'the demo plant to be seeded',
      process: first,
    });
    // Printed once it listens, before the seed.
    assert.match(first.stdout(), /Demo plant: seeding/);
    // The address it listens at (BRIDGE_PORT=0: a port of the system's choice).
    assert.ok(first.stdout().includes(`Dashboard: ${base}/\n`), first.stdout());
    assert.match(first.stdout(), /BRIDGE_DEMO=off/);
    const get = await caller(printedBy(first), base);
    const groups = await groupsOf(get);
    assert.equal(groups, 7);
    // The simulator changes the plant: new events keep arriving after the seed.
    const newest = async () => (await get('/api/v2/events?limit=1'))._embedded.events[0]?.properties.id;
    const seen = await newest();
    await waitUntil(async () => (await newest()) !== seen, {
      timeoutMs: DEMO_TIMEOUT_MS,
      what: 'the simulator to change the plant',
      process: first,
    });
    assert.doesNotMatch(first.output(), /demo plant stopped/);
    first.child.kill('SIGTERM');
    assert.deepEqual(await first.exit(60_000), { code: 0, signal: null }, first.output());

    const second = spawnBridge({ BRIDGE_DATA_DIR: dataDir, ...DEMO_ENV });
    const secondBase = await second.listening(DEMO_TIMEOUT_MS);
    // The client of the first start still works; by its first answer the demo would have said so.
    const again = await caller(printedBy(first), secondBase);
    assert.equal(await groupsOf(again), groups);
    assert.doesNotMatch(second.stdout(), /Demo plant/);
    second.child.kill('SIGTERM');
    await second.exit(60_000);
  });

  it('does nothing with BRIDGE_DEMO=off, nor with DATABASE_URL', async () => {
    const starts: Promise<void>[] = [];
    const check = async (bridge: BridgeProcess) => {
      const base = await bridge.listening(DEMO_TIMEOUT_MS);
      // The first client is written just after "Server listening", in a chunk of its own.
      await waitUntil(() => /client_secret:/.test(bridge.stdout()), {
        timeoutMs: DEMO_TIMEOUT_MS,
        what: 'the first client to be printed',
        process: bridge,
      });
      const get = await caller(printedBy(bridge), base);
      assert.equal(await groupsOf(get), 0);
      assert.doesNotMatch(bridge.stdout(), /Demo plant/);
      bridge.child.kill('SIGTERM');
      await bridge.exit(60_000);
    };
    starts.push(
      check(spawnBridge({ BRIDGE_DATA_DIR: tempDir('demo-off'), ...DEMO_ENV, BRIDGE_DEMO: 'off' })),
    );
    const postgres = BACKENDS.includes('postgres') ? await freshDatabase('postgres') : undefined;
    if (postgres?.url) {
      // Migrated but empty: a production database, where the demo is off unless BRIDGE_DEMO=on.
      starts.push(check(spawnBridge({ DATABASE_URL: postgres.url, ...DEMO_ENV })));
    }
    try {
      await Promise.all(starts);
    } finally {
      await postgres?.drop();
    }
  });
});

describe('bridge seed on a new database', () => {
  it('shows the first client it created, and that client gets a token from the service', async () => {
    const dataDir = tempDir('seed');
    // Migrated, without clients or data: what the seed finds on a new database.
    await migratedDataDir(dataDir);
    const seed = await runBridge({ BRIDGE_DATA_DIR: dataDir }, 'seed', '--size', '1', '--concurrency', '8');
    const printed = { stdout: seed.stdout, output: `${seed.stdout}\n${seed.stderr}` };
    assert.equal(seed.code, 0, printed.output);
    assert.match(seed.stdout, /A first OAuth client was created\. Its secret is shown only this once:/);
    assert.match(seed.stdout, /Seeded in /);

    const bridge = spawnBridge({ BRIDGE_DATA_DIR: dataDir });
    const base = await bridge.listening(DEMO_TIMEOUT_MS);
    assert.doesNotMatch(bridge.stdout(), /client_secret/);
    const get = await caller(printed, base);
    assert.equal(await groupsOf(get), 7);
    bridge.child.kill('SIGTERM');
    await bridge.exit(60_000);
  });
});
