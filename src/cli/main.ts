#!/usr/bin/env -S node --max-semi-space-size=16 --heap-growing-percent=100
// The `bridge` command: start the service, migrate, manage OAuth clients, and follow a running
// service's events and callbacks through its API (src/cli/api.ts). Settings come from
// src/config.ts only (the one reader of the environment).
import { parseArgs } from 'node:util';
import { type Config, ConfigError, loadConfig } from '../config.ts';
import { explainDatabaseStartError } from '../db/startErrors.ts';
import { COMMAND_HELP, USAGE } from './help.ts';
import { CliUsageError, ServiceUnreachableError } from './service.ts';

const wantsHelp = (args: string[]) => args.includes('--help') || args.includes('-h');

/** `events tail`, `callbacks list` and `connectors list` talk to a running service (src/cli/api.ts). */
async function apiCommand(command: string, action: string | undefined, args: string[]): Promise<void> {
  const api = await import('./api.ts');
  const known =
    command === 'events' && action === 'tail'
      ? api.eventsTail
      : command === 'callbacks' && action === 'list'
        ? api.callbacksList
        : command === 'connectors' && action === 'list'
          ? api.connectorsList
          : undefined;
  const help = COMMAND_HELP[command] as string;
  if (!known) {
    const what =
      action === undefined || action.startsWith('-') ? 'an action is needed' : `unknown action "${action}"`;
    throw new CliUsageError(`${command}: ${what}\n${help}`);
  }
  await known(args, config());
}

/** `bridge seed` and `bridge simulate` (src/cli/demoCommands.ts), loaded only when asked for. */
async function demoCommand(command: 'seed' | 'simulate', args: string[]): Promise<void> {
  const text = { type: 'string' } as const;
  const help = COMMAND_HELP[command] as string;
  let values: Record<string, string | undefined>;
  try {
    const names =
      command === 'seed'
        ? ['url', 'client-id', 'client-secret', 'seed', 'size', 'concurrency']
        : ['url', 'client-id', 'client-secret', 'seed', 'rate', 'steps'];
    values = parseArgs({ args, options: Object.fromEntries(names.map((name) => [name, text])) })
      .values as Record<string, string | undefined>;
  } catch (error) {
    throw new CliUsageError(`${error instanceof Error ? error.message : String(error)}\n${help}`);
  }
  const commands = await import('./demoCommands.ts');
  const options = { ...values, clientId: values['client-id'], clientSecret: values['client-secret'] };
  const run = command === 'seed' ? commands.seedCommand : commands.simulateCommand;
  await run(config(), options).catch((error: unknown) => {
    throw error instanceof commands.CommandOptionError
      ? new CliUsageError(`${error.message}\n${help}`)
      : error;
  });
}

let loaded: Config | undefined;
/** The settings, read once when a command needs them (a settings error is exit 2). */
const config = () => {
  loaded ??= loadConfig();
  return loaded;
};

async function main(argv: string[]): Promise<void> {
  const [command, ...rest] = argv;
  if (command === undefined) throw new CliUsageError(USAGE);
  if (command === '--help' || command === '-h' || command === 'help') {
    process.stdout.write(`${USAGE}\n`);
    return;
  }
  const help = COMMAND_HELP[command];
  if (help === undefined) throw new CliUsageError(`unknown command: ${command}\n${USAGE}`);
  if (wantsHelp(rest)) {
    process.stdout.write(`${help}\n`);
    return;
  }
  switch (command) {
    case 'events':
    case 'callbacks':
    case 'connectors':
      return apiCommand(command, rest[0], rest.slice(1));
    case 'start':
      if (rest.length > 0)
        throw new CliUsageError(`start takes no arguments (got "${rest.join(' ')}")\n${help}`);
      // Loaded only here: the server and delivery modules would slow every other command down.
      return (await import('../main.ts')).start();
    case 'migrate': {
      if (rest.length > 0)
        throw new CliUsageError(`migrate takes no arguments (got "${rest.join(' ')}")\n${help}`);
      const { openDatabase } = await import('../db/open.ts');
      const db = await openDatabase(config());
      await db.close();
      process.stdout.write('database is up to date\n');
      return;
    }
    case 'clients':
      return (await import('./clients.ts')).clientsCommand(rest, config());
    case 'seed':
    case 'simulate':
      return demoCommand(command, rest);
  }
}

main(process.argv.slice(2)).catch((error: unknown) => {
  if (error instanceof CliUsageError || error instanceof ConfigError) {
    process.stderr.write(`${error.message}\n`);
    process.exit(2);
  }
  if (error instanceof ServiceUnreachableError) {
    process.stderr.write(`${error.message}\n`);
    process.exit(1);
  }
  // A database that cannot be reached at all says which setting names it.
  const explained = explainDatabaseStartError(error, loaded?.databaseUrl);
  process.stderr.write(`${explained ?? (error instanceof Error ? error.message : String(error))}\n`);
  process.exit(1);
});
