// GET /events/stream: the event log live, as Server-Sent Events (docs/api.md, "Event stream").
// The instance's EventStreamHub (src/services/eventStreamService.ts) fans new events out to every open
// stream; each stream filters, first replays what a reconnecting client missed from the log, sends
// heartbeats, and is closed when its client cannot keep up.
import type { ServerResponse } from 'node:http';
import type { FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import type { Database } from '../../db/database.ts';
import { findClient } from '../../db/repositories/clientRepository.ts';
import {
  type EventFilter,
  listEventsAfterSequence,
  type SequencedEvent,
} from '../../db/repositories/eventRepository.ts';
import { AppError } from '../../domain/errors.ts';
import {
  type EventStreamHub,
  matchesFilter,
  type StreamListener,
  type Subscription,
} from '../../services/eventStreamService.ts';
import type { Api } from '../api.ts';
import type { ServerDeps } from '../deps.ts';
import type { Hrefs } from '../hrefs.ts';
import { EVENT_STREAM_PATH } from '../paths.ts';
import { presentEvent } from '../presenters/eventPresenter.ts';
import { registerRoute } from '../route.ts';
import { EventStreamQuery } from '../schemas/eventSchemas.ts';

const REPLAY_BATCH = 500;

/**
 * The bytes every open stream of one hub has waiting for its client, as last seen (updated on
 * each write and each drain): over `totalBytes`, a stream holding more than its even share is
 * closed, so unread streams together stay within a budget however many there are.
 */
class StreamBuffers {
  readonly #totalBytes: number;
  readonly #held = new Map<SseStream, number>();
  #sum = 0;

  constructor(totalBytes: number) {
    this.#totalBytes = totalBytes;
  }

  /** Records what `stream` holds; whether it must close to keep the total within the budget. */
  hold(stream: SseStream, bytes: number): boolean {
    this.#sum += bytes - (this.#held.get(stream) ?? 0);
    this.#held.set(stream, bytes);
    return this.#sum > this.#totalBytes && bytes > this.#totalBytes / this.#held.size;
  }

  forget(stream: SseStream): void {
    this.#sum -= this.#held.get(stream) ?? 0;
    this.#held.delete(stream);
  }
}

const buffersByHub = new WeakMap<EventStreamHub, StreamBuffers>();

/**
 * Each live event as an SSE `data` line, once per API root (scheme, host, prefix, version): the
 * hub hands every stream the same event object, and streams opened through the same address
 * write the same text, so hundreds of streams cost one serialisation, not hundreds.
 */
const eventTexts = new WeakMap<SequencedEvent, Map<string, string>>();

function eventText(event: SequencedEvent, hrefs: Hrefs): string {
  const root = hrefs.api('');
  let byRoot = eventTexts.get(event);
  if (byRoot === undefined) {
    byRoot = new Map();
    eventTexts.set(event, byRoot);
  }
  let text = byRoot.get(root);
  if (text === undefined) {
    text = JSON.stringify(presentEvent(event, hrefs));
    byRoot.set(root, text);
  }
  return text;
}

export function registerEventStream(api: Api, { config, db, eventStream }: ServerDeps): void {
  const { heartbeatMs, maxBufferBytes } = config.eventStream;
  // One per hub: the API versions' routes share the instance's streams.
  let buffers = buffersByHub.get(eventStream);
  if (buffers === undefined) {
    buffers = new StreamBuffers(config.memory.streamBufferTotalBytes);
    buffersByHub.set(eventStream, buffers);
  }
  const sharedBuffers = buffers;
  registerRoute(api, {
    method: 'GET',
    path: EVENT_STREAM_PATH,
    config: { tokenInQuery: true },
    tags: ['events'],
    operationId: 'streamEvents',
    summary: 'New events as they are recorded (Server-Sent Events)',
    description:
      'Each event is one SSE message: `id` is its log position, `data` the event as GET /events/{id} shows it. ' +
      'Reconnect with Last-Event-ID (or lastEventId) to get what was missed first. Heartbeat comments keep ' +
      'the connection open. The token may come as access_token for EventSource. See docs/api.md, "Event stream".',
    querystring: EventStreamQuery,
    response: {
      200: {
        description: 'A stream of events (text/event-stream), open until either side closes it',
        content: { 'text/event-stream': { schema: Type.String() } },
      },
    },
    errors: [429],
    handler: async (request, reply) => {
      // HEAD (the route Fastify adds beside GET) answers with the stream's headers at once and
      // opens no stream, so it takes no stream slot.
      if (request.method === 'HEAD') {
        return reply
          .code(200)
          .header('content-type', 'text/event-stream; charset=utf-8')
          .header('cache-control', 'no-store')
          .send();
      }
      const { eventType, objectType, objectId } = request.query;
      const filter: EventFilter = { eventType, objectType, objectId };
      const after = resumePosition(request, request.query.lastEventId);
      const stream = new SseStream(reply.raw, filter, request.hrefs, maxBufferBytes, sharedBuffers, () =>
        request.log.info('event stream closed: its client does not read (buffer limit)'),
      );
      const subscription = await eventStream.subscribe(request.client?.clientId ?? '', stream);
      reply.hijack();
      reply.raw.on('close', () => stream.close());
      stream.begin(subscription, after, request.id);
      // The client is looked up again at every heartbeat: a removed client, or one whose read
      // scope was taken away, loses its stream (docs/api.md, "Event stream"). A database that
      // cannot answer just then does not end it.
      const clientId = request.client?.clientId ?? '';
      const stillAllowed = () =>
        findClient(db, clientId).then(
          (client) => client?.scopes.includes('read') ?? false,
          () => true,
        );
      void heartbeats(stream, eventStream, heartbeatMs, stillAllowed);
      try {
        if (after !== undefined) await stream.replay(db, after, subscription);
      } catch (error) {
        request.log.warn({ err: error }, 'event stream replay failed; closing the stream');
        stream.close();
        return;
      }
      stream.live();
    },
  });
}

/** Where a reconnecting client resumes: the Last-Event-ID header, else the lastEventId parameter. */
function resumePosition(request: FastifyRequest, fromQuery: number | undefined): number | undefined {
  const header = request.headers['last-event-id'];
  if (header === undefined) return fromQuery;
  const value = Array.isArray(header) ? header[0] : header;
  if (value === undefined || !/^\d{1,15}$/.test(value.trim())) {
    throw new AppError('VALIDATION_FAILED', { rule: 'type', field: 'Last-Event-ID', expected: 'integer' });
  }
  return Number(value.trim());
}

async function heartbeats(
  stream: SseStream,
  hub: EventStreamHub,
  intervalMs: number,
  stillAllowed: () => Promise<boolean>,
): Promise<void> {
  while (!stream.closed) {
    await hub.sleep(intervalMs, stream.signal);
    if (stream.closed) return;
    if (!(await stillAllowed())) {
      stream.close();
      return;
    }
    stream.comment('heartbeat');
  }
}

/** One open stream: filters, holds live events while replaying, writes SSE, watches its buffer. */
class SseStream implements StreamListener {
  readonly #raw: ServerResponse;
  readonly #filter: EventFilter;
  readonly #hrefs: Hrefs;
  readonly #maxBufferBytes: number;
  readonly #buffers: StreamBuffers;
  readonly #onOverflow: () => void;
  readonly #closing = new AbortController();
  #subscription: Subscription | undefined;
  /** Live events that arrived during the replay; sent after it. */
  #held: SequencedEvent[] | undefined = [];
  #heldBytes = 0;
  /** Late positions the replay already sent (skipped if the hub sends them again). */
  readonly #replayed = new Set<number>();
  /** The highest log position sent; every message's `id` (a late event does not move it back). */
  #position = 0;

  constructor(
    raw: ServerResponse,
    filter: EventFilter,
    hrefs: Hrefs,
    maxBufferBytes: number,
    buffers: StreamBuffers,
    onOverflow: () => void,
  ) {
    this.#raw = raw;
    this.#filter = filter;
    this.#hrefs = hrefs;
    this.#maxBufferBytes = maxBufferBytes;
    this.#buffers = buffers;
    this.#onOverflow = onOverflow;
    raw.on('drain', () => {
      if (!this.closed) this.#buffers.hold(this, 0);
    });
    raw.once('close', () => this.#buffers.forget(this));
  }

  get closed(): boolean {
    return this.#closing.signal.aborted;
  }

  get signal(): AbortSignal {
    return this.#closing.signal;
  }

  begin(subscription: Subscription, after: number | undefined, requestId: string): void {
    this.#subscription = subscription;
    this.#position = after ?? subscription.highWater;
    this.#raw.writeHead(200, {
      'content-type': 'text/event-stream; charset=utf-8',
      'cache-control': 'no-store',
      'x-accel-buffering': 'no',
      'x-request-id': requestId,
    });
    this.comment('connected');
  }

  /** Sends the logged events after `after` up to where the hub stood when the stream joined. */
  async replay(db: Database, after: number, subscription: Subscription): Promise<void> {
    let position = after;
    while (!this.closed && position < subscription.highWater) {
      const events = await listEventsAfterSequence(db, position, {
        limit: REPLAY_BATCH,
        until: subscription.highWater,
        filter: this.#filter,
      });
      for (const event of events) {
        if (subscription.pendingGaps.has(event.sequence)) this.#replayed.add(event.sequence);
        this.#send(event);
      }
      const last = events.at(-1);
      if (events.length < REPLAY_BATCH || last === undefined) break;
      position = last.sequence;
      if (this.#raw.writableNeedDrain) await this.#drained();
    }
    // What the log had up to the hub's mark has been sent: from here on the hub's events count.
    this.#position = Math.max(this.#position, subscription.highWater);
  }

  /** Ends the replay: the held live events, then every event as it comes. */
  live(): void {
    const held = this.#held ?? [];
    this.#held = undefined;
    for (const event of held) this.#send(event);
  }

  event(event: SequencedEvent): void {
    if (this.closed || !matchesFilter(event, this.#filter)) return;
    if (this.#held) {
      this.#held.push(event);
      this.#heldBytes += eventText(event, this.#hrefs).length;
      if (this.#heldBytes > this.#maxBufferBytes) {
        this.close();
        this.#onOverflow();
      }
      return;
    }
    this.#send(event);
  }

  comment(text: string): void {
    this.#write(`: ${text}\n\n`);
  }

  close(): void {
    if (this.closed) return;
    this.#closing.abort();
    this.#subscription?.unsubscribe();
    if (!this.#raw.destroyed) this.#raw.end();
  }

  #send(event: SequencedEvent): void {
    if (this.#replayed.delete(event.sequence)) return;
    this.#position = Math.max(this.#position, event.sequence);
    this.#write(`id: ${this.#position}\ndata: ${eventText(event, this.#hrefs)}\n\n`);
  }

  #write(text: string): void {
    if (this.closed || this.#raw.destroyed) return;
    this.#raw.write(text);
    // A client that does not read: close it rather than buffer without bound (its own limit, or
    // its share of what all streams may hold).
    const waiting = this.#raw.writableLength;
    const overShare = this.#buffers.hold(this, waiting);
    if (waiting > this.#maxBufferBytes || overShare) {
      this.#closing.abort();
      this.#subscription?.unsubscribe();
      this.#buffers.forget(this);
      this.#raw.destroy();
      this.#onOverflow();
    }
  }

  #drained(): Promise<void> {
    return new Promise((resolve) => {
      const done = () => {
        this.#raw.off('drain', done);
        this.#closing.signal.removeEventListener('abort', done);
        resolve();
      };
      this.#raw.on('drain', done);
      this.#closing.signal.addEventListener('abort', done, { once: true });
    });
  }
}
