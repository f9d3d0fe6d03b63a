// Client management used by the CLI and by the first start (bootstrap client).
import type { Config } from '../config.ts';
import type { Database } from '../db/database.ts';
import * as clients from '../db/repositories/clients.ts';
import { generateClientId, generateSecret, hashSecret } from './secrets.ts';

export interface NewClientCredentials {
  clientId: string;
  clientSecret: string;
  scopes: string[];
}

export async function addClient(
  db: Database,
  options: { clientId?: string; name?: string; scopes: string[] },
): Promise<NewClientCredentials> {
  const clientId = options.clientId ?? generateClientId();
  const clientSecret = generateSecret();
  await clients.insertClient(db, {
    clientId,
    name: options.name ?? '',
    secretHash: await hashSecret(clientSecret),
    scopes: options.scopes,
    createdAt: new Date(),
  });
  return { clientId, clientSecret, scopes: options.scopes };
}

/**
 * Makes sure someone can get a token after the first start: the client given by settings is
 * created or updated; without one, a database with no clients gets a new client whose
 * credentials are returned so the caller can show them once.
 */
export async function ensureBootstrapClient(
  db: Database,
  config: Config,
): Promise<NewClientCredentials | undefined> {
  const wanted = config.bootstrapClient;
  if (wanted) {
    await clients.upsertClient(db, {
      clientId: wanted.id,
      name: 'bootstrap (settings)',
      secretHash: await hashSecret(wanted.secret),
      scopes: wanted.scopes,
      createdAt: new Date(),
    });
    return undefined;
  }
  if ((await clients.countClients(db)) > 0) return undefined;
  return addClient(db, { name: 'bootstrap (first start)', scopes: ['read', 'write'] });
}
