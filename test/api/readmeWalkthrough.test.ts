// The README's "Walk-through with curl" run as written: its shell blocks, in order, in one bash
// with errexit, against `bridge start` (the process `npm start` runs) on a fresh data directory
// with the first-start demo plant on, with ID and SECRET taken from what that start printed.
// A step that fails (an error answer, a field that is not there) fails the test and names it.
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { killAll, ROOT, removeTempDirs, spawnBridge, tempDir, waitUntil } from '../support/process.ts';

after(async () => {
  await killAll();
  removeTempDirs();
});

/** The ```sh blocks of the README section `## Walk-through with curl` (up to the next `## `). */
export function walkthroughBlocks(readme: string): string[] {
  const start = readme.indexOf('\n## Walk-through with curl\n');
  assert.ok(start >= 0, 'README has no "## Walk-through with curl" section');
  const next = readme.indexOf('\n## ', start + 1);
  const section = readme.slice(start, next < 0 ? undefined : next);
  return [...section.matchAll(/```sh\n([\s\S]*?)```/g)].map((match) => match[1] as string);
}

/** Why the walk-through cannot run here: a tool it uses is missing (the run is skipped with it). */
function missingTool(): string | false {
  const bash = spawnSync('bash', ['-c', 'true']);
  if (bash.error || bash.status !== 0) return 'bash is not installed';
  const curl = spawnSync('curl', ['--help', 'all'], { encoding: 'utf8' });
  if (curl.error) return 'curl is not installed';
  if (!curl.stdout.includes('--fail-with-body')) return 'curl is older than 7.76 (no --fail-with-body)';
  return false;
}

function runBash(
  script: string,
  env: Record<string, string>,
): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn('bash', ['-c', script], { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (chunk) => {
      output += chunk;
    });
    child.stderr.on('data', (chunk) => {
      output += chunk;
    });
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, output }));
  });
}

test('the README walk-through has the blocks it is known by, with no placeholder left', () => {
  const blocks = walkthroughBlocks(readFileSync(join(ROOT, 'README.md'), 'utf8'));
  assert.equal(blocks.length, 3);
  const steps = blocks.join('\n').match(/^# \d+\./gm) ?? [];
  assert.deepEqual(
    steps.map((step) => Number(step.slice(2, -1))),
    [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11],
  );
  assert.doesNotMatch(blocks.join('\n'), /<[a-z_ ]+>/i, 'a <placeholder> the reader would have to fill in');
});

test('the README walk-through runs as written against a first start with the demo plant', {
  skip: missingTool(),
  timeout: 600_000,
}, async () => {
  const blocks = walkthroughBlocks(readFileSync(join(ROOT, 'README.md'), 'utf8'));
  const dataDir = join(tempDir('readme'), 'data');
  // The zero-setup run: embedded database, demo on (auto), a port of its own.
  const bridge = spawnBridge({ BRIDGE_DATA_DIR: dataDir, BRIDGE_DEMO: 'auto', BRIDGE_HOST: '127.0.0.1' });
  const base = await bridge.listening();
  await waitUntil(() => /client_secret:\s+\S+/.test(bridge.stdout()), {
    what: 'the credentials',
    process: bridge,
  });
  const id = /client_id:\s+(\S+)/.exec(bridge.stdout())?.[1] ?? '';
  const secret = /client_secret:\s+(\S+)/.exec(bridge.stdout())?.[1] ?? '';
  // What a reader's shell has: PATH (curl, node) and the two values pasted from the console;
  // BRIDGE_PORT only because this service is not on 8080.
  const env = { PATH: process.env.PATH ?? '', ID: id, SECRET: secret, BRIDGE_PORT: new URL(base).port };
  // Each step echoed before it runs, so a failure names it.
  const script = `set -euo pipefail\n${blocks
    .join('\n')
    .split('\n')
    .map((line) =>
      /^# \d+\./.test(line)
        ? `echo ">>> ${line.slice(2).replaceAll('"', "'").replaceAll('`', "'")}"\n${line}`
        : line,
    )
    .join('\n')}\necho ">>> done"\n`;
  const run = await runBash(script, env);
  const lastStep = [...run.output.matchAll(/^>>> (.*)$/gm)].at(-1)?.[1];
  assert.equal(run.code, 0, `the walk-through stopped at "${lastStep}":\n${run.output}`);
  assert.equal(lastStep, 'done');
  // The steps did what they say: the workplace of step 3 was changed twice (steps 5 and 10).
  assert.match(run.output, /"code":"110"/);
  assert.match(run.output, /"phase":"SETUP"|"operationPhase[^}]*SETUP/);
  // The demo plant was there all along (the clash the walk-through must avoid).
  assert.match(bridge.stdout(), /Demo plant: seeding a plant/);
  bridge.child.kill('SIGTERM');
  assert.equal((await bridge.exit()).code, 0, bridge.output());
});
