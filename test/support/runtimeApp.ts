// The real app with what tests inject beside settings: a clock they drive and a captured log.
import { type App, createApp } from '../../src/app.ts';
import { ManualClock } from '../../src/background/clock.ts';
import { type Config, loadConfig } from '../../src/config.ts';
import { TEST_CLIENT } from './app.ts';
import { type Backend, freshDatabase, type TestDatabase } from './databases.ts';

export interface RuntimeApp {
  app: App;
  config: Config;
  clock: ManualClock;
  /** Every log line written so far, as written. */
  log(): string;
  close(): Promise<void>;
}

/** The app on a fresh database with the test client (TEST_CLIENT), a ManualClock and a captured log. */
export async function startRuntimeApp(
  backend: Backend,
  env: Record<string, string> = {},
): Promise<RuntimeApp> {
  const config = loadConfig({
    BRIDGE_LOG_LEVEL: 'silent',
    BRIDGE_BOOTSTRAP_CLIENT_ID: TEST_CLIENT.id,
    BRIDGE_BOOTSTRAP_CLIENT_SECRET: TEST_CLIENT.secret,
    BRIDGE_DELIVERY_ENABLED: 'false',
    BRIDGE_HTTP_SHUTDOWN_GRACE_MS: '200',
    ...env,
  });
  const database: TestDatabase = await freshDatabase(backend);
  const clock = new ManualClock();
  let written = '';
  const app = await createApp(config, database.db, {
    authClock: clock,
    logStream: {
      write(line: string) {
        written += line;
      },
    },
  });
  return {
    app,
    config,
    clock,
    log: () => written,
    async close() {
      await app.server.close();
      await database.drop();
    },
  };
}
