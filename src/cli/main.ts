#!/usr/bin/env -S node --max-semi-space-size=16 --heap-growing-percent=100
// The `bridge` command: start the service, migrate, manage OAuth clients, and follow a running
// service's events and callbacks through its API (src/cli/api.ts).
import { parseArgs } from 'node:util';
import { addClient } from '../auth/clients.ts';
import { ConfigError, loadConfig, SCOPES } from '../config.ts';
import { type Database, isUniqueViolation } from '../db/database.ts';
import { openDatabase } from '../db/open.ts';
import { deleteClient, listClients } from '../db/repositories/clientRepository.ts';

const USAGE = `Usage: bridge <command>
  start                                   run the service (settings: docs/settings.md)
  migrate                                 apply database migrations and exit
  clients add [--scopes read,write] [--name NAME] [--id ID]
                                          create a client; prints its secret once
  clients list                            list clients (never their secrets)
  clients remove <client-id>              delete a client; its tokens stop working within 30 s
  events tail [--json] [filters]          follow the live event stream of a running service
  callbacks list [--json]                 list the client's callbacks on a running service
  connectors list [--json]                list the connectors and their status on a running service
  seed [--size N] [--seed S] [--concurrency C] [--url URL --client-id ID --client-secret SECRET]
                                          create the demo plant (docs/demo.md)
  simulate [--rate R] [--seed S] [--steps N] [--url URL --client-id ID --client-secret SECRET]
                                          drive the plant through the API (docs/demo.md)
  <command> --help                        help on one command`;

async function withDatabase(work: (db: Database) => Promise<void>): Promise<void> {
  const db = await openDatabase(loadConfig());
  try {
    await work(db);
  } finally {
    await db.close();
  }
}

function parseScopes(text: string): string[] {
  const scopes = text.split(/[,\s]+/).filter((scope) => scope !== '');
  const unknown = scopes.filter((scope) => !(SCOPES as readonly string[]).includes(scope));
  if (scopes.length === 0 || unknown.length > 0) {
    throw new UsageError(`--scopes takes read and/or write, comma-separated (got "${text}")`);
  }
  return [...new Set(scopes)];
}

class UsageError extends Error {}

// parseArgs throws a TypeError for an unknown or incomplete option: that is a usage error (exit 2).
function parseOptions(args: string[]) {
  try {
    return parseArgs({
      args,
      options: {
        scopes: { type: 'string', default: 'read,write' },
        name: { type: 'string' },
        id: { type: 'string' },
      },
    });
  } catch (error) {
    throw new UsageError(`${error instanceof Error ? error.message : String(error)}\n${USAGE}`);
  }
}

async function clients(args: string[]): Promise<void> {
  const [action, ...rest] = args;
  if (action === 'add') {
    const { values } = parseOptions(rest);
    const scopes = parseScopes(values.scopes);
    await withDatabase(async (db) => {
      const created = await addClient(db, { clientId: values.id, name: values.name, scopes }).catch(
        (error) => {
          // Only --id can collide (generated ids are UUIDs); say so instead of printing SQL.
          throw isUniqueViolation(error)
            ? new UsageError(`a client with id ${values.id} already exists`)
            : error;
        },
      );
      process.stdout.write(
        `client_id:     ${created.clientId}\nclient_secret: ${created.clientSecret}\nscopes:        ${scopes.join(' ')}\n` +
          'The secret is stored only as a hash: keep it now, it cannot be shown again.\n',
      );
    });
  } else if (action === 'list') {
    await withDatabase(async (db) => {
      for (const client of await listClients(db)) {
        process.stdout.write(
          `${client.clientId}\t${client.scopes.join(' ')}\t${client.createdAt.toISOString()}\t${client.name}\n`,
        );
      }
    });
  } else if (action === 'remove' && rest[0]) {
    const clientId = rest[0];
    await withDatabase(async (db) => {
      if (!(await deleteClient(db, clientId))) throw new UsageError(`no client with id ${clientId}`);
      process.stdout.write(`removed ${clientId}\n`);
    });
  } else {
    throw new UsageError(USAGE);
  }
}

/** `events tail`, `callbacks list` and `connectors list` talk to a running service (src/cli/api.ts). */
async function apiCommand(command: string, action: string | undefined, args: string[]): Promise<void> {
  const api = await import('./api.ts');
  const known =
    command === 'events' && action === 'tail'
      ? { help: api.EVENTS_TAIL_HELP, run: api.eventsTail }
      : command === 'callbacks' && action === 'list'
        ? { help: api.CALLBACKS_LIST_HELP, run: api.callbacksList }
        : command === 'connectors' && action === 'list'
          ? { help: api.CONNECTORS_LIST_HELP, run: api.connectorsList }
          : undefined;
  if (!known) throw new UsageError(USAGE);
  if (args.includes('--help') || args.includes('-h')) {
    process.stdout.write(`${known.help}\n`);
    return;
  }
  try {
    await known.run(args);
  } catch (error) {
    throw error instanceof api.ApiUsageError ? new UsageError(error.message) : error;
  }
}

/** `bridge seed` and `bridge simulate` (src/cli/demoCommands.ts), loaded only when asked for. */
async function demoCommand(command: 'seed' | 'simulate', args: string[]): Promise<void> {
  const text = { type: 'string' } as const;
  let values: Record<string, string | undefined>;
  try {
    const names = ['url', 'client-id', 'client-secret', 'seed', 'size', 'rate', 'steps', 'concurrency'];
    values = parseArgs({ args, options: Object.fromEntries(names.map((name) => [name, text])) })
      .values as Record<string, string | undefined>;
  } catch (error) {
    throw new UsageError(`${error instanceof Error ? error.message : String(error)}\n${USAGE}`);
  }
  const commands = await import('./demoCommands.ts');
  const options = { ...values, clientId: values['client-id'], clientSecret: values['client-secret'] };
  const run = command === 'seed' ? commands.seedCommand : commands.simulateCommand;
  await run(loadConfig(), options).catch((error: unknown) => {
    throw error instanceof commands.CommandOptionError ? new UsageError(error.message) : error;
  });
}

async function main(argv: string[]): Promise<void> {
  const [command, ...rest] = argv;
  if (command === '--help' || command === '-h' || command === 'help') {
    process.stdout.write(`${USAGE}\n`);
    return;
  }
  const apiCommands = ['events', 'callbacks', 'connectors'];
  if (!apiCommands.includes(command ?? '') && (rest.includes('--help') || rest.includes('-h'))) {
    process.stdout.write(`${USAGE}\n`);
    return;
  }
  switch (command) {
    case 'events':
    case 'callbacks':
    case 'connectors':
      return apiCommand(command, rest[0], rest.slice(1));
    case 'start':
      // Loaded only here: the server and delivery modules would slow every other command down.
      return (await import('../main.ts')).start();
    case 'migrate':
      return withDatabase(async () => {
        process.stdout.write('database is up to date\n');
      });
    case 'clients':
      return clients(rest);
    case 'seed':
    case 'simulate':
      return demoCommand(command, rest);
    default:
      throw new UsageError(USAGE);
  }
}

main(process.argv.slice(2)).catch((error: unknown) => {
  if (error instanceof UsageError || error instanceof ConfigError) {
    process.stderr.write(`${error.message}\n`);
    process.exit(2);
  }
  process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
