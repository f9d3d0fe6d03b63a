// GET /events/stream (docs/api.md, "Event stream") over real HTTP: the app listens on a port and
// the test reads the Server-Sent Events with fetch. The background clock is a ManualClock, so the
// poller only runs when a write wakes it (or the test asks for a cycle) and heartbeats only come
// when the test moves the clock.
import assert from 'node:assert/strict';
import { afterEach, before, test } from 'node:test';
import pg from 'pg';
import { addClient } from '../../src/auth/clients.ts';
import { ManualClock } from '../../src/background/clock.ts';
import { deleteClient } from '../../src/db/repositories/clientRepository.ts';
import { sseParser } from '../../src/web/sse.js';
import { createWorkplace, describeEachBackend, json } from '../support/app.ts';
import { waitFor } from '../support/faults.ts';

const HEARTBEAT_MS = 30_000;

interface Message {
  id: string | undefined;
  // biome-ignore lint/suspicious/noExplicitAny: tests read bodies freely and assert them by value
  data: Record<string, any>;
}

/** An open stream: its response, the messages and comments read so far, and close(). */
class Stream {
  readonly messages: Message[] = [];
  readonly comments: string[] = [];
  ended = false;
  readonly #abort: AbortController;

  constructor(response: Response, abort: AbortController) {
    this.#abort = abort;
    void this.#read(response);
  }

  async #read(response: Response): Promise<void> {
    const decoder = new TextDecoder();
    const parser = sseParser((comment) => this.comments.push(comment.trim()));
    try {
      for await (const chunk of response.body as ReadableStream<Uint8Array>) {
        for (const { id, data } of parser.feed(decoder.decode(chunk, { stream: true }))) {
          this.messages.push({ id, data: JSON.parse(data) });
        }
      }
    } catch {
      // aborted by close()
    }
    this.ended = true;
  }

  names(): string[] {
    return this.messages.map((message) => message.data.properties.eventName);
  }

  /** Waits until `count` messages arrived. */
  async received(count: number): Promise<Message[]> {
    await waitFor(`${count} stream messages`, () => this.messages.length >= count, {
      describe: () => this.names(),
    });
    return this.messages;
  }

  close(): void {
    this.#abort.abort();
  }
}

describeEachBackend(
  'event stream',
  (t) => {
    let base = '';
    let token = '';
    const streams: Stream[] = [];

    before(async () => {
      await t().app.server.listen({ host: '127.0.0.1', port: 0 });
      base = `http://127.0.0.1:${(t().app.server.server.address() as { port: number }).port}/api/v2`;
      token = await t().token(['read']);
    });
    afterEach(async () => {
      for (const stream of streams.splice(0)) stream.close();
      await waitFor('every stream to close on the server', () => t().app.eventStream.size === 0);
    });

    async function connect(query = '', headers: Record<string, string> = {}, bearer: string | null = token) {
      const abort = new AbortController();
      const response = await fetch(`${base}/events/stream${query}`, {
        headers: { ...(bearer === null ? {} : { authorization: `Bearer ${bearer}` }), ...headers },
        signal: abort.signal,
      });
      return { response, abort };
    }

    /** Opens a stream and waits until it is registered (its first comment). */
    async function open(query = '', headers: Record<string, string> = {}, bearer: string | null = token) {
      const { response, abort } = await connect(query, headers, bearer);
      assert.equal(response.status, 200, await (response.status === 200 ? '' : response.text()));
      assert.match(response.headers.get('content-type') ?? '', /^text\/event-stream/);
      const stream = new Stream(response, abort);
      streams.push(stream);
      await waitFor('the connected comment', () => stream.comments.includes('connected'));
      return stream;
    }

    async function publish(eventName: string, objectId = 'stream-test') {
      const response = await t().request({
        method: 'POST',
        url: '/api/v2/events',
        body: { eventType: 'EXTERNAL', eventName, objectType: 'WORKPLACE', objectId, data: { eventName } },
      });
      assert.equal(response.statusCode, 201, response.body);
      return json(response).properties.id as string;
    }

    test('sends every new event in log order, with its log position as id', async () => {
      const stream = await open();
      await publish('live-1');
      await publish('live-2');
      await publish('live-3');
      const messages = await stream.received(3);
      assert.deepEqual(stream.names(), ['live-1', 'live-2', 'live-3']);
      const ids = messages.map((message) => Number(message.id));
      assert.ok(
        ids.every((id, index) => index === 0 || id > (ids[index - 1] ?? 0)),
        `${ids}`,
      );
      assert.equal(messages[0]?.data.properties.eventType, 'EXTERNAL');
      assert.match(messages[0]?.data._links.self.href, /\/api\/v2\/events\//);
      stream.close();
    });

    test('filters as GET /events does', async () => {
      const byObject = await open('?objectType=WORKPLACE&objectId=filtered-b');
      const byType = await open('?eventType=WORKPLACE_CREATED');
      await publish('filter-a', 'filtered-a');
      await publish('filter-b', 'filtered-b');
      const workplace = await createWorkplace(t(), 'STREAM-WP');
      await publish('filter-b2', 'filtered-b');
      await byObject.received(2);
      assert.deepEqual(byObject.names(), ['filter-b', 'filter-b2']);
      const [created] = await byType.received(1);
      assert.equal(created?.data.properties.objectId, workplace);
      // The type stream got nothing else, although more events were recorded meanwhile.
      assert.equal(byType.messages.length, 1);
      byObject.close();
      byType.close();
    });

    test('a reconnect with Last-Event-ID gets exactly what it missed, then live events', async () => {
      const first = await open('?objectId=resume');
      await publish('resume-1', 'resume');
      const [seen] = await first.received(1);
      first.close();
      await waitFor('the stream to close on the server', () => t().app.eventStream.size === 0);
      await publish('resume-2', 'resume');
      await publish('resume-3', 'resume');

      const header = await open('?objectId=resume', { 'last-event-id': String(seen?.id) });
      await header.received(2);
      assert.deepEqual(header.names(), ['resume-2', 'resume-3']);
      await publish('resume-4', 'resume');
      await header.received(3);
      assert.deepEqual(header.names(), ['resume-2', 'resume-3', 'resume-4']);

      // The query parameter does the same for clients that cannot set headers.
      const query = await open(`?objectId=resume&lastEventId=${seen?.id}`);
      await query.received(3);
      assert.deepEqual(query.names(), ['resume-2', 'resume-3', 'resume-4']);
      header.close();
      query.close();
    });

    test('heartbeat comments follow the clock', async () => {
      const stream = await open();
      assert.equal(stream.comments.filter((comment) => comment === 'heartbeat').length, 0);
      (t().app.clock as ManualClock).advance(HEARTBEAT_MS);
      await waitFor('a heartbeat', () => stream.comments.includes('heartbeat'));
      stream.close();
    });

    test('a client may hold a bounded number of streams: 429 beyond, room again after one closes', async () => {
      const capped = await t().token(['read', 'write']);
      const one = await open('', {}, capped);
      const two = await open('', {}, capped);
      const refused = await connect('', {}, capped);
      assert.equal(refused.response.status, 429);
      const body = (await refused.response.json()) as Record<string, unknown>;
      assert.equal(body.code, 'TOO_MANY_STREAMS');
      assert.equal(body.status, 429);
      // Another client is not affected.
      const other = await open();
      one.close();
      await waitFor('the closed stream to be released', () => t().app.eventStream.size === 2);
      const three = await open('', {}, capped);
      for (const stream of [two, three, other]) stream.close();
    });

    test('a removed client loses its stream at the next heartbeat; others keep theirs', async () => {
      const client = await addClient(t().app.db, { name: 'stream leaver', scopes: ['read'] });
      const leaving = await open('', {}, await t().app.tokens.issue(client.clientId, ['read']));
      const staying = await open();
      await deleteClient(t().app.db, client.clientId);
      await waitFor('the removed client to lose its stream', () => {
        (t().app.clock as ManualClock).advance(HEARTBEAT_MS);
        return leaving.ended;
      });
      assert.equal(staying.ended, false);
      await waitFor('a heartbeat on the other stream', () => staying.comments.includes('heartbeat'));
      staying.close();
    });

    test('access_token in the query authenticates (EventSource); nowhere else', async () => {
      const stream = await open(`?access_token=${encodeURIComponent(token)}`, {}, null);
      stream.close();
      const anonymous = await connect('', {}, null);
      assert.equal(anonymous.response.status, 401);
      await anonymous.response.arrayBuffer();
      const wrong = await connect('?access_token=not-a-token', {}, null);
      assert.equal(wrong.response.status, 401);
      await wrong.response.arrayBuffer();
      const elsewhere = await t().request({ url: `/api/v2/events?access_token=${token}`, anonymous: true });
      assert.equal(elsewhere.statusCode, 401);
      const unknown = await t().request({ url: `/api/v2/events?access_token=${token}` });
      assert.equal(unknown.statusCode, 400);
    });

    test('bad input is 400 naming the field', async () => {
      for (const [query, headers, field] of [
        ['?lastEventId=abc', {}, 'lastEventId'],
        ['?lastEventId=-1', {}, 'lastEventId'],
        ['?objectType=NOPE', {}, 'objectType'],
        ['?unknown=1', {}, 'unknown'],
        ['', { 'last-event-id': 'x' }, 'Last-Event-ID'],
      ] as const) {
        const { response } = await connect(query, headers);
        const text = await response.text();
        assert.equal(response.status, 400, `${query} ${text}`);
        assert.ok(text.includes(field), `${query}: ${text}`);
      }
      assert.equal(t().app.eventStream.size, 0);
    });

    test('an event committed after a later one is still sent (held transaction)', async (context) => {
      const url = t().database.url;
      if (url === undefined) return context.skip('needs a second connection (PostgreSQL)');
      const stream = await open('?objectId=late');
      const held = new pg.Client({ connectionString: url });
      await held.connect();
      try {
        await held.query('BEGIN');
        // The event takes its log position now, but is visible only at COMMIT.
        await held.query(
          `INSERT INTO events (id, event_type, event_name, object_type, object_id, data, "timestamp", recorded_at)
           VALUES (gen_random_uuid(), 'EXTERNAL', 'late-low', 'WORKPLACE', 'late', '{}', now(), now())`,
        );
        await publish('late-high', 'late');
        await stream.received(1);
        await t().app.eventStream.nextCycle();
        assert.deepEqual(stream.names(), ['late-high']);
        await held.query('COMMIT');
        await t().app.eventStream.nextCycle();
        await stream.received(2);
        assert.deepEqual(stream.names(), ['late-high', 'late-low']);
        // The late one does not move the stream's position back: a reconnect would not repeat late-high.
        assert.equal(stream.messages[1]?.id, stream.messages[0]?.id);
      } finally {
        await held.query('ROLLBACK').catch(() => {});
        await held.end();
        stream.close();
      }
    });
  },
  {
    BRIDGE_EVENT_STREAM_MAX_PER_CLIENT: '2',
    BRIDGE_EVENT_STREAM_HEARTBEAT_MS: String(HEARTBEAT_MS),
  },
  () => ({ clock: new ManualClock() }),
);
