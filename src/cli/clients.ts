// `bridge clients add|list|remove`: through the running service's API (/clients, admin scope)
// when it answers, else on the stopped service's database (offlineClients.ts).
import { parseArgs } from 'node:util';
import type { BridgeClient } from '../../clients/typescript/src/index.ts';
import { type Config, SCOPES } from '../config.ts';
import { CLIENTS_HELP } from './help.ts';
import { onStoppedService } from './offlineClients.ts';
import {
  apiClient,
  CliUsageError,
  type Connection,
  connectionOf,
  reaching,
  serviceAnswers,
} from './service.ts';

export interface ClientLine {
  id: string;
  name: string;
  scopes: string[];
  createdAt: string;
}

/** The three actions, on the API or on the database. */
export interface ClientStore {
  add(options: {
    id?: string | undefined;
    name?: string | undefined;
    scopes: string[];
  }): Promise<ClientLine & { secret: string }>;
  list(): Promise<ClientLine[]>;
  /** False when there is no such client. */
  remove(id: string): Promise<boolean>;
}

function parseScopes(text: string): string[] {
  const scopes = text.split(/[,\s]+/).filter((scope) => scope !== '');
  const unknown = scopes.filter((scope) => !(SCOPES as readonly string[]).includes(scope));
  if (scopes.length === 0 || unknown.length > 0) {
    throw new CliUsageError(`--scopes takes ${SCOPES.join(', ')}, comma-separated (got "${text}")`);
  }
  return [...new Set(scopes)];
}

function parseOptions(args: string[]) {
  try {
    return parseArgs({
      args,
      allowPositionals: true,
      options: {
        scopes: { type: 'string', default: 'read,write' },
        name: { type: 'string' },
        id: { type: 'string' },
        url: { type: 'string' },
        'client-id': { type: 'string' },
        'client-secret': { type: 'string' },
        help: { type: 'boolean', short: 'h' },
      },
    });
  } catch (error) {
    throw new CliUsageError(`${error instanceof Error ? error.message : String(error)}\n${CLIENTS_HELP}`);
  }
}

export async function clientsCommand(args: string[], config: Config): Promise<void> {
  const { values, positionals } = parseOptions(args);
  const [action, ...rest] = positionals;
  if (values.help) {
    process.stdout.write(`${CLIENTS_HELP}\n`);
    return;
  }
  const expected = action === 'remove' ? 1 : 0;
  if (!['add', 'list', 'remove'].includes(action ?? '') || rest.length !== expected) {
    const what =
      action === undefined
        ? 'an action is needed'
        : action === 'remove' && rest.length === 0
          ? 'remove needs a client id'
          : `unexpected "${[action, ...rest].join(' ')}"`;
    throw new CliUsageError(`clients: ${what}\n${CLIENTS_HELP}`);
  }
  const scopes = parseScopes(values.scopes);
  const connection = connectionOf(values, config, CLIENTS_HELP);
  // The API while the service runs: the embedded database is then locked, and it works the same
  // on PostgreSQL. An explicit --url always means the API.
  const useApi = connection.urlFrom === '--url' || (await serviceAnswers(connection));
  const run = async (store: ClientStore) => {
    if (action === 'add') {
      const created = await store.add({ id: values.id, name: values.name, scopes });
      process.stdout.write(
        `client_id:     ${created.id}\nclient_secret: ${created.secret}\nscopes:        ${created.scopes.join(' ')}\n` +
          'The secret is stored only as a hash: keep it now, it cannot be shown again.\n',
      );
    } else if (action === 'list') {
      for (const client of await store.list()) {
        process.stdout.write(
          `${client.id}\t${client.scopes.join(' ')}\t${client.createdAt}\t${client.name}\n`,
        );
      }
    } else {
      const id = rest[0] as string;
      if (!(await store.remove(id))) throw new CliUsageError(`no client with id ${id}`);
      process.stdout.write(`removed ${id}\n`);
    }
  };
  if (useApi) {
    const api = apiClient(connection, CLIENTS_HELP);
    await reaching(connection, () => run(apiStore(api, connection)));
  } else {
    await onStoppedService(config, run);
  }
}

/** An API error as one line, with what to do for the usual ones. */
function refused(status: number, error: unknown, connection: Connection): Error {
  const body = error as { code?: string; message?: string } | undefined;
  if (status === 403 && body?.code === 'INSUFFICIENT_SCOPE') {
    return new Error(
      `the client ${connection.clientId} may not manage clients (it lacks the admin scope): use the first client, or one whose scopes include admin`,
    );
  }
  return new Error(
    `HTTP ${status}${body?.code ? ` ${body.code}` : ''}${body?.message ? `: ${body.message}` : ''}`,
  );
}

function apiStore(api: BridgeClient, connection: Connection): ClientStore {
  return {
    async add({ id, name, scopes }) {
      const body = {
        scopes: scopes as ('read' | 'write' | 'admin')[],
        ...(id ? { id } : {}),
        ...(name ? { name } : {}),
      };
      const { data, error, response } = await api.POST('/api/v2/clients', { body });
      if (!data) {
        const code = (error as { code?: string } | undefined)?.code;
        if (code === 'ALREADY_EXISTS') throw new CliUsageError(`a client with id ${id} already exists`);
        throw refused(response.status, error, connection);
      }
      const { properties } = data;
      return { ...properties, secret: properties.clientSecret ?? '' };
    },
    async list() {
      const lines: ClientLine[] = [];
      for (let offset = 0; ; ) {
        const { data, error, response } = await api.GET('/api/v2/clients', {
          params: { query: { offset, limit: 100 } },
        });
        if (!data) throw refused(response.status, error, connection);
        const items = data._embedded.clients.map((item) => item.properties);
        lines.push(...items);
        offset += items.length;
        if (items.length === 0 || offset >= data.pagination.total) return lines;
      }
    },
    async remove(id) {
      const { error, response } = await api.DELETE('/api/v2/clients/{id}', { params: { path: { id } } });
      if (response.status === 404) return false;
      if (!response.ok) throw refused(response.status, error, connection);
      return true;
    },
  };
}
