// The CLI commands that talk to a running service through its API with the typed client
// (clients/typescript): `events tail` follows GET /events/stream, `callbacks list` and
// `connectors list` page through GET /callbacks and GET /connectors. Where the service is and
// the credentials: options, else settings (src/cli/service.ts).
import { type ParseArgsOptionsConfig, parseArgs } from 'node:util';
import type { BridgeClient } from '../../clients/typescript/src/index.ts';
import type { Config } from '../config.ts';
import { EVENT_OBJECT_TYPES, EXTERNAL_EVENT_TYPE, OBJECT_TYPES } from '../domain/events.ts';
import { sseParser } from '../web/sse.js';
import { CALLBACKS_LIST_HELP, CONNECTORS_LIST_HELP, EVENTS_TAIL_HELP } from './help.ts';
import { apiClient, CliUsageError, connectionOf, reaching } from './service.ts';

const CONNECTION_OPTIONS = {
  url: { type: 'string' },
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
    throw new CliUsageError(`${error instanceof Error ? error.message : String(error)}\n${help}`);
  }
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

/** An answer of the typed client to a GET of the collection `name`. */
interface PageAnswer<Name extends string, Properties> {
  data?: { _embedded: Record<Name, { properties: Properties }[]>; pagination: { total: number } };
  error?: unknown;
  response: Response;
}

/** What `bridge <collection> list` needs to know of its collection. */
interface Listing<Name extends string, Item> {
  help: string;
  /** The collection's name: its path under the API and the name of its embedded items. */
  name: Name;
  get: (bridge: BridgeClient, query: { offset: number; limit: number }) => Promise<PageAnswer<Name, Item>>;
  /** An item as one line of text. */
  line: (item: Item) => string;
}

/** The properties of the items of one answered page of the collection `name`, and its total. */
function pageOf<Name extends string, Properties>(
  name: Name,
  answer: PageAnswer<Name, Properties>,
): Page<Properties> {
  const { data, error, response } = answer;
  if (!data) throw new Error(`GET /${name} failed: ${describeError(response.status, error)}`);
  return { items: data._embedded[name].map((item) => item.properties), total: data.pagination.total };
}

/**
 * `bridge <collection> list`: every item of an offset-paged collection, 100 a request, one line
 * each (its properties as JSON with --json).
 */
async function listCommand<Name extends string, Item>(
  args: string[],
  config: Config,
  listing: Listing<Name, Item>,
): Promise<void> {
  const { help, name, get, line } = listing;
  const { values } = parse(args, CONNECTION_OPTIONS, help);
  const connection = connectionOf(values, config, help);
  const bridge = apiClient(connection, help);
  for (let offset = 0; ; ) {
    const { items, total } = await reaching(connection, async () =>
      pageOf(name, await get(bridge, { offset, limit: 100 })),
    );
    for (const item of items) process.stdout.write(`${values.json ? JSON.stringify(item) : line(item)}\n`);
    offset += items.length;
    if (items.length === 0 || offset >= total) return;
  }
}

export const callbacksList = (args: string[], config: Config): Promise<void> =>
  listCommand(args, config, {
    help: CALLBACKS_LIST_HELP,
    name: 'callbacks',
    get: (bridge, query) => bridge.GET('/api/v2/callbacks', { params: { query } }),
    line: (callback) =>
      `${callback.id}\t${callback.eventType}\t${callback.url}\tfailedAttempts=${callback.failedAttempts}`,
  });

export const connectorsList = (args: string[], config: Config): Promise<void> =>
  listCommand(args, config, {
    help: CONNECTORS_LIST_HELP,
    name: 'connectors',
    get: (bridge, query) => bridge.GET('/api/v2/connectors', { params: { query } }),
    line: (connector) => {
      const { state, valuesApplied, valuesRejected, lastError } = connector.status;
      const counts = `applied=${valuesApplied}\trejected=${valuesRejected}`;
      return `${connector.id}\t${connector.name}\t${connector.type}\t${state}\t${counts}${lastError ? `\t${lastError}` : ''}`;
    },
  });

/** The event types a stream can be filtered by: the catalogue's and EXTERNAL. */
const EVENT_TYPES = [...Object.keys(EVENT_OBJECT_TYPES), EXTERNAL_EVENT_TYPE].sort();

function oneOf(option: string, value: string | undefined, allowed: readonly string[]): void {
  if (value !== undefined && !allowed.includes(value)) {
    throw new CliUsageError(`--${option} "${value}" is not one of:\n  ${allowed.join('\n  ')}`);
  }
}

export async function eventsTail(args: string[], config: Config): Promise<void> {
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
    throw new CliUsageError(`--last-event-id takes a log position (an integer)\n${EVENTS_TAIL_HELP}`);
  }
  oneOf('event-type', values['event-type'] as string | undefined, EVENT_TYPES);
  oneOf('object-type', values['object-type'] as string | undefined, OBJECT_TYPES);
  const connection = connectionOf(values, config, EVENTS_TAIL_HELP);
  const bridge = apiClient(connection, EVENTS_TAIL_HELP);
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
      position = await reaching(connection, () =>
        follow(bridge, query, position, Boolean(values.json), stop.signal, () => {
          connected = true;
        }),
      );
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
  const parser = sseParser();
  let last = position;
  for await (const chunk of data as unknown as AsyncIterable<Uint8Array>) {
    for (const message of parser.feed(decoder.decode(chunk, { stream: true }))) {
      if (!message.data) continue;
      const id = message.id;
      if (id !== undefined) last = id;
      const { properties } = JSON.parse(message.data) as { properties: Record<string, unknown> };
      process.stdout.write(
        json ? `${JSON.stringify({ position: Number(id), ...properties })}\n` : `${eventLine(properties)}\n`,
      );
    }
  }
  return last;
}

/** One event for people: time, type, object, and what its data says in a few words. */
function eventLine(properties: Record<string, unknown>): string {
  const object = `${properties.objectType}${properties.objectId ? ` ${properties.objectId}` : ''}`;
  const name = properties.eventName ? ` (${properties.eventName})` : '';
  const about = `${summaryOf(properties.data)}${name}`.trim();
  return [properties.timestamp, properties.eventType, object, about].filter((part) => part !== '').join('  ');
}

const SUMMARY_LENGTH = 100;

/** The data's scalar fields as `name=value`, the nested ones left out, cut to one short line. */
function summaryOf(data: unknown): string {
  if (typeof data !== 'object' || data === null) return '';
  const parts: string[] = [];
  for (const [name, value] of Object.entries(data)) {
    if (value === null || typeof value === 'object') continue;
    parts.push(`${name}=${typeof value === 'string' ? value : String(value)}`);
  }
  const text = parts.join(' ');
  return text.length > SUMMARY_LENGTH ? `${text.slice(0, SUMMARY_LENGTH - 3)}...` : text;
}
