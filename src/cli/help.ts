// The `bridge` command's usage and the help of each command (`bridge <command> --help`).

export const USAGE = `Usage: bridge <command>
  start                                   run the service (settings: docs/settings.md)
  migrate                                 apply database migrations and exit
  clients add|list|remove                 manage OAuth clients (through the API while the service runs)
  events tail [--json] [filters]          follow the live event stream of a running service
  callbacks list [--json]                 list the client's callbacks on a running service
  connectors list [--json]                list the connectors and their status on a running service
  seed [options]                          create the demo plant (docs/demo.md)
  simulate [options]                      drive the plant through the API (docs/demo.md)
  <command> --help                        help on one command`;

/** The options of every command that talks to a running service. */
const CONNECTION = `  --url URL               the running service, with its base path (default: env BRIDGE_SERVICE_URL,
                          else http://localhost:BRIDGE_PORT with BRIDGE_BASE_PATH)
  --client-id ID          OAuth client id (default: env BRIDGE_CLIENT_ID)
  --client-secret SECRET  OAuth client secret (default: env BRIDGE_CLIENT_SECRET)`;

const START_HELP = `Usage: bridge start
Runs the service. Every setting is an environment variable (docs/settings.md); the first start
on an empty data directory prints a client id and secret and seeds a demo plant (docs/demo.md).
Exit codes: 0 stopped (SIGTERM/SIGINT), 1 failure (port in use, database unreachable), 2 settings.`;

const MIGRATE_HELP = `Usage: bridge migrate
Applies the database migrations (src/db/migrations) to the configured database and exits.
The database: DATABASE_URL, else the embedded one in BRIDGE_DATA_DIR (stop the service first).
Exit codes: 0 up to date, 1 failure, 2 settings.`;

export const CLIENTS_HELP = `Usage: bridge clients <add|list|remove> [options]
Manages the OAuth clients that may get access tokens. While the service runs, the commands go
through its API (/clients) with a client that has the admin scope (the first client has it);
when it does not run, they use the configured database directly.
  clients add [--scopes read,write] [--name NAME] [--id ID]
                          create a client; prints its secret once (scopes: read, write, admin)
  clients list            list clients (never their secrets)
  clients remove <client-id>
                          delete a client; its tokens stop working within BRIDGE_TOKEN_RECHECK_SECONDS
${CONNECTION}
Exit codes: 0 ok, 1 failure, 2 usage.`;

const SEED_HELP = `Usage: bridge seed [options]
Creates the demo plant (docs/demo.md) through the API: of a running service with --url and a
client's credentials, else of the configured database through an in-process server.
  --size N                production orders to create (default 1000)
  --seed S                random seed: the same seed gives the same plant (default 1)
  --concurrency C         requests in flight (default 4)
  --url URL --client-id ID --client-secret SECRET
                          a running service instead of the configured database
Exit codes: 0 ok, 1 failure, 2 usage.`;

const SIMULATE_HELP = `Usage: bridge simulate [options]
Drives the plant through the API like a shop floor would (docs/demo.md) until Ctrl-C: operations
move through their phases, workplaces change state, machines send values.
  --rate R                changes a second (default 2)
  --seed S                random seed (default: the time)
  --steps N               stop after N changes
  --url URL --client-id ID --client-secret SECRET
                          a running service instead of the configured database
Exit codes: 0 stopped, 1 failure, 2 usage.`;

export const EVENTS_TAIL_HELP = `Usage: bridge events tail [options]
Follows the service's live event stream (GET /api/v2/events/stream) until interrupted; reconnects
after a dropped connection and resumes where it stopped (Last-Event-ID). Each line: time, event
type, object type and id, and a short summary of the event's data.
  --event-type TYPE       only this event type (docs/events.md lists them)
  --object-type TYPE      only this object type
  --object-id ID          only events about this object
  --last-event-id N       first the logged events after this log position
  --json                  one JSON line per event ({"position": N, ...the event's properties})
${CONNECTION}
Exit codes: 0 stopped (Ctrl-C), 1 failure (refused credentials, service unreachable), 2 usage.`;

export const CALLBACKS_LIST_HELP = `Usage: bridge callbacks list [options]
Lists the callbacks the client registered (GET /api/v2/callbacks), one a line.
  --json                  one JSON line per callback (its properties)
${CONNECTION}
Exit codes: 0 ok, 1 failure, 2 usage.`;

export const CONNECTORS_LIST_HELP = `Usage: bridge connectors list [options]
Lists the connectors (GET /api/v2/connectors), one a line: id, name, type, state, values applied
and rejected, and the last error if any (docs/resources/connectors.md).
  --json                  one JSON line per connector (its properties; never a password)
${CONNECTION}
Exit codes: 0 ok, 1 failure, 2 usage.`;

/** `bridge <command> --help`, and `bridge <command> <action> --help` for the API commands. */
export const COMMAND_HELP: Record<string, string> = {
  start: START_HELP,
  migrate: MIGRATE_HELP,
  clients: CLIENTS_HELP,
  events: EVENTS_TAIL_HELP,
  callbacks: CALLBACKS_LIST_HELP,
  connectors: CONNECTORS_LIST_HELP,
  seed: SEED_HELP,
  simulate: SIMULATE_HELP,
};
