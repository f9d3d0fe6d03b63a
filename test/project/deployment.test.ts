// What CI can check of the deployment files without a container engine (docs/deployment.md):
// compose.yaml parses and wires the service to PostgreSQL and Mosquitto with healthchecks and
// volumes; the Dockerfile's steps are replayed in a clean directory as a build runs them (its
// COPYs, `npm ci --omit=dev` from the lockfile, its other RUNs), and the image's CMD then starts
// the service, whose HEALTHCHECK command must pass.
import assert from 'node:assert/strict';
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { after, describe, test } from 'node:test';
import { parse } from 'yaml';
import { waitFor } from '../support/wait.ts';

const ROOT = new URL('../../', import.meta.url).pathname;

interface Instruction {
  keyword: string;
  args: string;
}

/** The Dockerfile's instructions, continuation lines joined and comments dropped. */
function instructions(text: string): Instruction[] {
  return text
    .replace(/\\\n/g, ' ')
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line !== '' && !line.startsWith('#'))
    .map((line) => {
      const [keyword = ''] = line.split(/\s+/);
      return { keyword: keyword.toUpperCase(), args: line.slice(keyword.length).trim() };
    });
}

/** An exec-form (JSON array) or shell-form command as argv. */
const argv = (args: string): string[] =>
  args.startsWith('[') ? (JSON.parse(args) as string[]) : ['sh', '-c', args];

/** `A=1 B="x y"` of an ENV line. */
function envPairs(args: string): Record<string, string> {
  return Object.fromEntries(
    [...args.matchAll(/(\w+)=("([^"]*)"|\S+)/g)].map((match) => [match[1], match[3] ?? match[2]]),
  );
}

const dockerfile = () => instructions(readFileSync(join(ROOT, 'Dockerfile'), 'utf8'));

describe('compose.yaml', () => {
  // biome-ignore lint/suspicious/noExplicitAny: a parsed YAML document, checked field by field
  const compose = parse(readFileSync(join(ROOT, 'compose.yaml'), 'utf8')) as Record<string, any>;

  test('names the service, PostgreSQL and Mosquitto, each with a healthcheck', () => {
    assert.deepEqual(Object.keys(compose.services).sort(), ['bridge', 'mosquitto', 'postgres']);
    for (const [name, service] of Object.entries(compose.services)) {
      assert.ok(
        (service as { healthcheck?: { test?: unknown } }).healthcheck?.test,
        `${name} has no healthcheck`,
      );
    }
    assert.match(compose.services.postgres.image, /^postgres:\d+/);
    assert.match(compose.services.mosquitto.image, /^eclipse-mosquitto:2/);
    assert.ok(existsSync(join(ROOT, 'deploy/mosquitto.conf')));
  });

  test('the service waits for healthy dependencies and is built from the Dockerfile', () => {
    const bridge = compose.services.bridge;
    assert.equal(bridge.build, '.');
    assert.deepEqual(bridge.depends_on, {
      postgres: { condition: 'service_healthy' },
      mosquitto: { condition: 'service_healthy' },
    });
    assert.ok(bridge.healthcheck.test.join(' ').includes('/health/ready'));
  });

  test('the service gets the settings it needs: PostgreSQL, an admin client, the public URL', () => {
    const env = compose.services.bridge.environment as Record<string, string>;
    assert.match(
      env.DATABASE_URL ?? '',
      /^postgres:\/\/bridge:\$\{POSTGRES_PASSWORD:\?[^}]+\}@postgres:5432\/bridge$/,
    );
    assert.ok(
      env.BRIDGE_BOOTSTRAP_CLIENT_SECRET?.includes(':?'),
      'the admin secret must be given, never defaulted',
    );
    assert.deepEqual(env.BRIDGE_BOOTSTRAP_CLIENT_SCOPES?.split(' ').sort(), ['admin', 'read', 'write']);
    assert.ok(env.BRIDGE_PUBLIC_URL);
    // Every variable it sets is a setting the service knows (docs/settings.md).
    const documented = readFileSync(join(ROOT, 'docs/settings.md'), 'utf8');
    for (const name of Object.keys(env))
      assert.ok(documented.includes(`\`${name}\``), `${name} is not a setting`);
  });

  test('data lives in named volumes', () => {
    assert.deepEqual(Object.keys(compose.volumes).sort(), ['mosquitto-data', 'postgres-data']);
    assert.ok(
      compose.services.postgres.volumes.some((volume: string) => volume.startsWith('postgres-data:')),
    );
  });
});

describe('Dockerfile', () => {
  test('multi-stage on the Node 24 runtime, non-root, production dependencies from the lockfile, a readiness healthcheck', () => {
    const steps = dockerfile();
    const froms = steps.filter((step) => step.keyword === 'FROM');
    assert.ok(froms.length >= 2, 'multi-stage');
    for (const from of froms) assert.match(from.args, /^node:24[-.\w]*(\s+AS\s+\w+)?$/i);
    const runtimeStart = steps.lastIndexOf(froms.at(-1) as Instruction);
    const runtime = steps.slice(runtimeStart);
    const user = runtime.filter((step) => step.keyword === 'USER').at(-1);
    assert.ok(user && user.args !== 'root' && user.args !== '0', 'the runtime stage runs as a non-root user');
    assert.ok(steps.some((step) => step.keyword === 'RUN' && /\bnpm ci --omit=dev\b/.test(step.args)));
    const healthcheck = runtime.find((step) => step.keyword === 'HEALTHCHECK');
    assert.ok(healthcheck?.args.includes('/health/ready'));
  });

  describe('replayed in a clean directory', () => {
    const root = mkdtempSync(join(tmpdir(), 'bridge-image-'));
    let service: ChildProcess | undefined;
    after(() => {
      service?.kill('SIGKILL');
      rmSync(root, { recursive: true, force: true });
    });

    test('its steps build a tree whose CMD starts the service and whose HEALTHCHECK passes', {
      timeout: 600_000,
    }, async () => {
      // Each stage is a directory of its own; absolute paths of the image live under it.
      const stages = new Map<string, string>();
      let stage = '';
      let workdir = '/';
      let env: Record<string, string> = {};
      const inStage = (path: string) => join(stage, path.startsWith('/') ? path : join(workdir, path));
      let cmd: string[] = [];
      let healthcheck: string[] = [];
      for (const step of dockerfile()) {
        if (step.keyword === 'FROM') {
          const name = /\s+AS\s+(\w+)$/i.exec(step.args)?.[1] ?? String(stages.size);
          stage = join(root, name);
          mkdirSync(stage, { recursive: true });
          stages.set(name, stage);
          workdir = '/';
          env = {};
        } else if (step.keyword === 'WORKDIR') {
          workdir = step.args;
          mkdirSync(inStage('.'), { recursive: true });
        } else if (step.keyword === 'ENV') {
          env = { ...env, ...envPairs(step.args) };
        } else if (step.keyword === 'COPY') {
          const from = /--from=(\w+)/.exec(step.args)?.[1];
          const parts = step.args
            .replace(/--[\w-]+=\S+/g, '')
            .trim()
            .split(/\s+/);
          const destination = parts.pop() as string;
          for (const source of parts) {
            const origin = from ? join(stages.get(from) as string, source) : join(ROOT, source);
            const target = destination.endsWith('/')
              ? join(inStage(destination), source.split('/').at(-1) as string)
              : inStage(destination);
            mkdirSync(dirname(target), { recursive: true });
            cpSync(origin, target, { recursive: true });
          }
        } else if (step.keyword === 'RUN') {
          // The image's absolute paths are the stage directory's.
          const command = step.args.replace(/(^|\s)\/(?=\w)/g, `$1${stage}/`);
          const run = spawnSync('sh', ['-c', command], {
            cwd: inStage('.'),
            encoding: 'utf8',
            // The npm cache is used when it has the packages (the lockfile decides what is installed).
            // This machine's network settings (proxy, certificates), as a build would have them.
            env: { ...process.env, npm_config_prefer_offline: 'true' },
            timeout: 540_000,
          });
          assert.equal(run.status, 0, `RUN ${step.args}\n${run.stdout}\n${run.stderr}`);
        } else if (step.keyword === 'CMD') {
          cmd = argv(step.args);
        } else if (step.keyword === 'HEALTHCHECK') {
          healthcheck = argv(step.args.replace(/^(--\S+\s+)*CMD\s+/, ''));
        }
      }
      const app = inStage('.');
      // Only production dependencies: no TypeScript, no test tools.
      assert.ok(existsSync(join(app, 'node_modules/fastify')));
      assert.ok(!existsSync(join(app, 'node_modules/typescript')));
      assert.ok(!existsSync(join(app, 'node_modules/@biomejs')));

      const port = await freePort();
      const imageEnv = Object.fromEntries(
        Object.entries(env).map(([name, value]) => [
          name,
          value.startsWith('/') ? join(stage, value) : value,
        ]),
      );
      // `node` is the runtime image's Node 24: this process's.
      const runtimeEnv = {
        PATH: `${dirname(process.execPath)}:/usr/bin:/bin`,
        ...imageEnv,
        BRIDGE_PORT: String(port),
        BRIDGE_HOST: '127.0.0.1',
        BRIDGE_EMBEDDED_MQTT: 'off',
        BRIDGE_DEMO: 'off',
      };
      assert.equal(cmd[0], 'node');
      let output = '';
      service = spawn(process.execPath, cmd.slice(1), {
        cwd: app,
        env: runtimeEnv,
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      service.stdout?.on('data', (chunk) => {
        output += chunk;
      });
      service.stderr?.on('data', (chunk) => {
        output += chunk;
      });
      await waitFor(
        'the healthcheck to pass',
        () => spawnSync(process.execPath, healthcheck.slice(1), { env: runtimeEnv }).status === 0,
        {
          timeoutMs: 120_000,
          intervalMs: 500,
          giveUp: () => (service?.exitCode !== null ? `exited:\n${output}` : undefined),
        },
      );
      // The embedded database went to the image's data directory.
      assert.ok(existsSync(join(imageEnv.BRIDGE_DATA_DIR ?? '', 'bridge.lock')), output);
      service.kill('SIGTERM');
      await waitFor('a graceful stop', () => service?.exitCode === 0, { timeoutMs: 30_000 });
    });
  });
});

function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const server = createServer();
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}
