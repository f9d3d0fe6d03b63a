// Composition root: wires storage, tokens and the HTTP server; returns one close() for all of it.
import type { FastifyInstance } from 'fastify';
import { ensureBootstrapClient, type NewClientCredentials } from './auth/clients.ts';
import { TokenService } from './auth/tokens.ts';
import type { Config } from './config.ts';
import type { Database } from './db/database.ts';
import { openDatabase } from './db/open.ts';
import { buildServer } from './http/server.ts';

export interface App {
  server: FastifyInstance;
  db: Database;
  tokens: TokenService;
  /** Credentials of a client created at this start (first start without bootstrap settings). */
  createdClient: NewClientCredentials | undefined;
  close(): Promise<void>;
}

/** Builds the app on the configured database, or on `db` (tests pass a fresh, migrated one). */
export async function createApp(config: Config, db?: Database): Promise<App> {
  const database = db ?? (await openDatabase(config));
  try {
    const createdClient = await ensureBootstrapClient(database, config);
    const tokens = await TokenService.create(database, config.tokenSecret, config.tokenTtlSeconds);
    const server = await buildServer({ config, db: database, tokens });
    return {
      server,
      db: database,
      tokens,
      createdClient,
      close: async () => {
        await server.close();
        await database.close();
      },
    };
  } catch (error) {
    await database.close();
    throw error;
  }
}
