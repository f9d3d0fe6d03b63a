// The CLI commands that talk to a running service through its API with the typed client
// (clients/typescript): `events tail` follows GET /events/stream, `callbacks list` and
// `connectors list` page through GET /callbacks and GET /connectors. Credentials: --client-id/--client-secret or BRIDGE_CLIENT_ID/BRIDGE_CLIENT_SECRET.
import { type ParseArgsOptionsConfig, parseArgs } from 'node:util';
import { type BridgeClient, createBridgeClient } from '../../clients/typescript/src/index.ts';
import { eventStreamParser } from '../net/eventStreamParser.ts';

export class ApiUsageError extends Error {}

const CONNECTION = `  --url URL               the service, with its base path (default http://localhost:8080)
  --client-id ID          OAuth client id (default: env BRIDGE_CLIENT_ID)
  --client-secret SECRET  OAuth client secret (default: env BRIDGE_CLIENT_SECRET)`;

export const EVENTS_TAIL_HELP = `Usage: bridge events tail [options]
Follows the service's live event stream (GET /api/v2/events/stream) until interrupted; reconnects
after a dropped connection and resumes where it stopped (Last-Event-ID).
  --event-type TYPE       only this event type
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

const CONNECTION_OPTIONS = {
  url: { type: 'string', default: 'http://localhost:8080' },
  'client-id': { type: 'string' },
  'client-secret': { type: 'string' },
  json: { type: 'boolean', default: false },
} as const;

type Values = Record<string, string | boolean | undefined>;

function parse(args: string[], options: ParseArgsOptionsConfig, help: string): { values: Values } {
  try {
    const { values } = parseArgs({ args, options, strict: true, allowPositionals: false });
    return { values: values as Values };
  } catch (error) {
    throw new ApiUsageError(`${error instanceof Error ? error.message : String(error)}\n${help}`);
  }
}

function connect(values: { url?: unknown; 'client-id'?: unknown; 'client-secret'?: unknown }, help: string) {
  const clientId = (values['client-id'] as string | undefined) ?? process.env.BRIDGE_CLIENT_ID;
  const clientSecret = (values['client-secret'] as string | undefined) ?? process.env.BRIDGE_CLIENT_SECRET;
  if (!clientId || !clientSecret) {
    throw new ApiUsageError(
      `client credentials needed: --client-id/--client-secret or BRIDGE_CLIENT_ID/BRIDGE_CLIENT_SECRET\n${help}`,
    );
  }
  const url = String(values.url);
  if (!/^https?:\/\/\S+$/.test(url))
    throw new ApiUsageError(`--url must be an http(s) URL (got "${url}")\n${help}`);
  return createBridgeClient({ baseUrl: url, clientId, clientSecret });
}

/** An API error body as one line. */
function describeError(status: number, error: unknown): string {
  const body = error as { code?: string; message?: string } | undefined;
  return `HTTP ${status}${body?.code ? ` ${body.code}` : ''}${body?.message ? `: ${body.message}` : ''}`;
}

interface Page<Item> {
  items: Item[];
  total: number;
}

/** The properties of the items of one answered page of the collection `name`, and its total. */
function pageOf<Name extends string, Properties>(
  name: Name,
  answer: {
    data?: { _embedded: Record<Name, { properties: Properties }[]>; pagination: { total: number } };
    error?: unknown;
    response: Response;
  },
): Page<Properties> {
  const { data, error, response } = answer;
  if (!data) throw new Error(`GET /${name} failed: ${describeError(response.status, error)}`);
  return { items: data._embedded[name].map((item) => item.properties), total: data.pagination.total };
}

/**
 * `bridge <collection> list`: every item of an offset-paged collection, 100 a request, one line
 * each (its properties as JSON with --json).
 */
async function listCommand<Item>(
  args: string[],
  help: string,
  page: (bridge: BridgeClient, offset: number) => Promise<Page<Item>>,
  line: (item: Item) => string,
): Promise<void> {
  const { values } = parse(args, CONNECTION_OPTIONS, help);
  const bridge = connect(values, help);
  for (let offset = 0; ; ) {
    const { items, total } = await page(bridge, offset);
    for (const item of items) process.stdout.write(`${values.json ? JSON.stringify(item) : line(item)}\n`);
    offset += items.length;
    if (items.length === 0 || offset >= total) return;
  }
}

export const callbacksList = (args: string[]): Promise<void> =>
  listCommand(
    args,
    CALLBACKS_LIST_HELP,
    async (bridge, offset) =>
      pageOf(
        'callbacks',
        await bridge.GET('/api/v2/callbacks', { params: { query: { offset, limit: 100 } } }),
      ),
    (callback) =>
      `${callback.id}\t${callback.eventType}\t${callback.url}\tfailedAttempts=${callback.failedAttempts}`,
  );

export const connectorsList = (args: string[]): Promise<void> =>
  listCommand(
    args,
    CONNECTORS_LIST_HELP,
    async (bridge, offset) =>
      pageOf(
        'connectors',
        await bridge.GET('/api/v2/connectors', { params: { query: { offset, limit: 100 } } }),
      ),
    (connector) => {
      const { state, valuesApplied, valuesRejected, lastError } = connector.status;
      const counts = `applied=${valuesApplied}\trejected=${valuesRejected}`;
      return `${connector.id}\t${connector.name}\t${connector.type}\t${state}\t${counts}${lastError ? `\t${lastError}` : ''}`;
    },
  );

export async function eventsTail(args: string[]): Promise<void> {
  const { values } = parse(
    args,
    {
      ...CONNECTION_OPTIONS,
      'event-type': { type: 'string' },
      'object-type': { type: 'string' },
      'object-id': { type: 'string' },
      'last-event-id': { type: 'string' },
    },
    EVENTS_TAIL_HELP,
  );
  const lastEventId = values['last-event-id'] as string | undefined;
  if (lastEventId !== undefined && !/^\d+$/.test(lastEventId)) {
    throw new ApiUsageError(`--last-event-id takes a log position (an integer)\n${EVENTS_TAIL_HELP}`);
  }
  const bridge = connect(values, EVENTS_TAIL_HELP);
  const stop = new AbortController();
  process.once('SIGINT', () => stop.abort());
  process.once('SIGTERM', () => stop.abort());
  const query = {
    eventType: values['event-type'] as string | undefined,
    objectType: values['object-type'] as 'WORKPLACE' | undefined,
    objectId: values['object-id'] as string | undefined,
  };
  let position = lastEventId;
  let connected = false;
  while (!stop.signal.aborted) {
    try {
      position = await follow(bridge, query, position, Boolean(values.json), stop.signal, () => {
        connected = true;
      });
    } catch (error) {
      if (stop.signal.aborted) return;
      // Refused before it ever streamed (credentials, filters): that is the answer, not a blip.
      if (!connected || error instanceof RefusedError) throw error;
      process.stderr.write(`stream interrupted (${(error as Error).message}); reconnecting\n`);
    }
    if (!stop.signal.aborted) await new Promise((resolve) => setTimeout(resolve, 1000));
  }
}

class RefusedError extends Error {}

/** Reads one connection of the stream; returns the last position seen when it ends. */
async function follow(
  bridge: BridgeClient,
  query: {
    eventType?: string | undefined;
    objectType?: 'WORKPLACE' | undefined;
    objectId?: string | undefined;
  },
  position: string | undefined,
  json: boolean,
  signal: AbortSignal,
  onOpen: () => void,
): Promise<string | undefined> {
  const { data, error, response } = await bridge.GET('/api/v2/events/stream', {
    params: { query },
    headers: position === undefined ? {} : { 'last-event-id': position },
    parseAs: 'stream',
    signal,
  });
  if (!response.ok || !data) throw new RefusedError(describeError(response.status, error));
  onOpen();
  const decoder = new TextDecoder();
  const parser = eventStreamParser();
  let last = position;
  for await (const chunk of data as unknown as AsyncIterable<Uint8Array>) {
    for (const message of parser.feed(decoder.decode(chunk, { stream: true }))) {
      if (!message.data) continue;
      const id = message.id;
      if (id !== undefined) last = id;
      const { properties } = JSON.parse(message.data) as { properties: Record<string, unknown> };
      process.stdout.write(
        json
          ? `${JSON.stringify({ position: Number(id), ...properties })}\n`
          : `${[properties.timestamp, properties.eventType, properties.objectType, properties.objectId ?? '-', properties.eventName ?? ''].join('\t').trimEnd()}\n`,
      );
    }
  }
  return last;
}
