// `bridge clients` on a stopped service: its configured database directly (the embedded one is
// not locked then). The one CLI path that is not an API client, so that a lost secret or a
// missing admin client can be repaired without a running service (docs/architecture.md, "Layers").
import { addClient, removeClient } from '../auth/clients.ts';
import type { Config } from '../config.ts';
import { type Database, isUniqueViolation } from '../db/database.ts';
import { openDatabase } from '../db/open.ts';
import { listClients } from '../db/repositories/clientRepository.ts';
import type { ClientStore } from './clients.ts';
import { CliUsageError } from './service.ts';

/** Runs `run` on the configured database's clients, closing the database after. */
export async function onStoppedService(
  config: Config,
  run: (store: ClientStore) => Promise<void>,
): Promise<void> {
  const db = await openDatabase(config);
  try {
    await run(databaseStore(db));
  } finally {
    await db.close();
  }
}

function databaseStore(db: Database): ClientStore {
  return {
    async add({ id, name, scopes }) {
      const created = await addClient(db, { clientId: id, name, scopes }).catch((error) => {
        // Only --id can collide (generated ids are UUIDs); say so instead of printing SQL.
        throw isUniqueViolation(error) ? new CliUsageError(`a client with id ${id} already exists`) : error;
      });
      return { id: created.clientId, secret: created.clientSecret, scopes, name: name ?? '', createdAt: '' };
    },
    async list() {
      return (await listClients(db)).map((client) => ({
        id: client.clientId,
        name: client.name,
        scopes: client.scopes,
        createdAt: client.createdAt.toISOString(),
      }));
    },
    remove: (id) => removeClient(db, id),
  };
}
