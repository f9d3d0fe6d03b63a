// Client management used by the CLI and by the first start (bootstrap client).
import type { Config } from '../config.ts';
import type { Database } from '../db/database.ts';
import * as clients from '../db/repositories/clientRepository.ts';
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
  // The only client that can manage the others through the API (admin).
  return addClient(db, { name: 'bootstrap (first start)', scopes: ['read', 'write', 'admin'] });
}

/**
 * The text that shows a client created at a first start (`bridge start`, or `bridge seed` and
 * `bridge simulate` on a new database), for the console only (never the log): the only time its
 * secret is visible.
 */
export function announceClient(
  client: NewClientCredentials,
  config: Pick<Config, 'tlsCertFile' | 'port' | 'basePath'>,
): string {
  const scheme = config.tlsCertFile ? 'https' : 'http';
  const url = `${scheme}://localhost:${config.port}${config.basePath}/oauth/token`;
  return [
    '',
    'A first OAuth client was created. Its secret is shown only this once:',
    `  client_id:     ${client.clientId}`,
    `  client_secret: ${client.clientSecret}`,
    `  scopes:        ${client.scopes.join(' ')}`,
    'Get a token with:',
    `  curl -s -u '${client.clientId}:${client.clientSecret}' -d grant_type=client_credentials ${url}`,
    '',
  ].join('\n');
}

/** Deletes a client (its refresh tokens and callbacks go with it); false when there is none. */
export function removeClient(db: Database, clientId: string): Promise<boolean> {
  return clients.deleteClient(db, clientId);
}

/** The first client again, after the demo's seeding has scrolled its announcement away. */
export function remindClient(client: NewClientCredentials): string {
  return [
    '',
    'Sign in (dashboard, API, `bridge` commands) with the first OAuth client printed above:',
    `  client_id:     ${client.clientId}`,
    `  client_secret: ${client.clientSecret}`,
    'Keep the secret now: it is stored only as a hash and not shown at the next start.',
    '',
  ].join('\n');
}
