// HTTP delivery end to end (docs/api.md "Callbacks (event delivery)", docs/quality.md R2/P6) against real receivers on
// loopback: the body byte for byte, the extra headers, Basic Auth, the Standard Webhooks
// signature, matching by type and objectFilter, retries every 10 s and discards on a clock the
// tests move,
// the maxUnconfirmedMessages bound, DELETE stopping delivery, isolation from a hanging receiver,
// and the SSRF guard. Nothing is mocked: the app's own worker, transport and database deliver.
import assert from 'node:assert/strict';
import { createHmac, randomBytes } from 'node:crypto';
import { createServer, type IncomingHttpHeaders, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { type TestContext, test } from 'node:test';
import type { AppOptions } from '../../src/app.ts';
import { ManualClock } from '../../src/background/clock.ts';
import { pendingDeliveries } from '../../src/db/repositories/deliveryBacklog.ts';
import { createWorkplace, describeEachBackend, json, type TestApp } from '../support/app.ts';
import { waitFor } from '../support/wait.ts';

const API = '/api/v2';
const CALLBACKS = `${API}/callbacks`;
const STATE_CHANGED = 'WORKPLACE_OPERATING_STATE_CHANGED';
const PUBLIC_URL = 'https://bridge.example.com';

type Body = ReturnType<typeof json>;

// ---------------------------------------------------------------------------------------------
// A real HTTP receiver on 127.0.0.1 that answers a status code per request, or never answers.

interface Received {
  /** Date.now() when the request arrived. */
  at: number;
  method: string;
  path: string;
  headers: IncomingHttpHeaders;
  body: string;
  /** What the receiver answered ('hang' = nothing). */
  answer: number | 'hang';
}

type Answer = (index: number) => number | 'hang';

class Receiver {
  readonly requests: Received[] = [];
  answer: Answer;
  readonly #server: Server;
  readonly #hanging = new Set<ServerResponse>();
  #port = 0;
  #listening = false;

  constructor(answer: Answer) {
    this.answer = answer;
    this.#server = createServer((request, response) => {
      const at = Date.now();
      const chunks: Buffer[] = [];
      request.on('data', (chunk: Buffer) => chunks.push(chunk));
      request.on('end', () => {
        const answer = this.answer(this.requests.length);
        this.requests.push({
          at,
          method: request.method ?? '',
          path: request.url ?? '',
          headers: request.headers,
          body: Buffer.concat(chunks).toString('utf8'),
          answer,
        });
        if (answer === 'hang') {
          this.#hanging.add(response);
          return;
        }
        response.writeHead(answer, { 'content-type': 'text/plain' }).end(`answered ${answer}`);
      });
    });
  }

  get port(): number {
    return this.#port;
  }

  /** Listens on 127.0.0.1, on the same port as before when restarted. */
  async start(): Promise<this> {
    await new Promise<void>((resolve, reject) => {
      this.#server.once('error', reject);
      this.#server.listen(this.#port, '127.0.0.1', () => {
        this.#server.off('error', reject);
        resolve();
      });
    });
    this.#port = (this.#server.address() as AddressInfo).port;
    this.#listening = true;
    return this;
  }

  /** Stops listening and drops every connection, hanging ones included: the port refuses. */
  async stop(): Promise<void> {
    if (!this.#listening) return;
    this.#listening = false;
    const closed = new Promise<void>((resolve) => this.#server.close(() => resolve()));
    for (const response of this.#hanging) response.destroy();
    this.#hanging.clear();
    this.#server.closeAllConnections();
    await closed;
  }

  url(path = '/hook', userinfo = ''): string {
    return `http://${userinfo}127.0.0.1:${this.#port}${path}`;
  }
}

// ---------------------------------------------------------------------------------------------
// Helpers

/** Polls `probe` until it returns something truthy (waitFor of support/wait.ts). */
const until = <T>(
  what: string,
  probe: () => Promise<T | undefined | null | false> | T | undefined | null | false,
  timeoutMs = 10_000,
): Promise<T> => waitFor(what, async () => (await probe()) || undefined, { timeoutMs, intervalMs: 20 });

/**
 * Waits until nothing is pending for these callbacks, every outcome recorded: from then on their
 * receivers get nothing more for the events so far.
 */
async function settled(t: TestApp, callbackIds: string[], timeoutMs = 10_000): Promise<void> {
  await until(
    'all notifications delivered or discarded',
    async () => (await pendingDeliveries(t.app.db, callbackIds)) === 0,
    timeoutMs,
  );
}

// Operating states as events carry them (docs/events.md, en-GB master data).
const STATES: Record<string, { id: string; code: string; description: string; workplaceStateId: string }> = {
  '999': {
    id: '6b5e3e20-94f4-55ee-9a6e-eb7a3eb4f379',
    code: '999',
    description: 'Undefined stoppage',
    workplaceStateId: 'DOWNTIME',
  },
  '110': {
    id: '70bc3dba-1d9d-5a3c-a0f5-fb4cfafe11fa',
    code: '110',
    description: 'Malfunction',
    workplaceStateId: 'DOWNTIME',
  },
  '020': {
    id: '4e497aff-ed65-5dc0-8004-3c0a8fa518e1',
    code: '020',
    description: 'Setup',
    workplaceStateId: 'DOWNTIME',
  },
};

/** Every call changes the workplace's state (110, 020, 110, ...): one event each. */
const changes = new Map<string, number>();
async function changeState(t: TestApp, workplaceId: string): Promise<{ previous: string; current: string }> {
  const count = changes.get(workplaceId) ?? 0;
  changes.set(workplaceId, count + 1);
  const previous = count === 0 ? '999' : count % 2 === 1 ? '110' : '020';
  const current = count % 2 === 0 ? '110' : '020';
  const response = await t.request({
    method: 'POST',
    url: `${API}/workplaces/${workplaceId}/operatingState/${current}`,
  });
  assert.equal(response.statusCode, 200, response.body);
  return { previous, current };
}

interface StoredEvent {
  id: string;
  timestamp: Date;
  data: unknown;
}

const eventsOf = (t: TestApp, eventType: string, objectId: string) =>
  t.app.db.query<StoredEvent>(
    'SELECT id, "timestamp", data FROM events WHERE event_type = $1 AND object_id = $2 ORDER BY sequence',
    [eventType, objectId],
  );

const getCallback = async (t: TestApp, id: string): Promise<Body> => {
  const response = await t.request({ url: `${CALLBACKS}/${id}` });
  assert.equal(response.statusCode, 200, response.body);
  return json(response).properties;
};

const deliveriesOf = async (t: TestApp, id: string): Promise<Body[]> => {
  const response = await t.request({ url: `${CALLBACKS}/${id}/deliveries` });
  assert.equal(response.statusCode, 200, response.body);
  return json(response)._embedded.deliveries;
};

const bySequence = (requests: Received[]) =>
  [...requests].sort((a, b) => Number(a.headers['bridge-sequence']) - Number(b.headers['bridge-sequence']));

/**
 * Per test: receivers and callbacks made through it are removed afterwards, pass or fail
 * (callbacks first, so nothing is sent to a receiver that is going away).
 */
function scope(t: TestApp, context: TestContext) {
  const receivers: Receiver[] = [];
  const callbacks: string[] = [];
  context.after(async () => {
    for (const id of callbacks) await t.request({ method: 'DELETE', url: `${CALLBACKS}/${id}` });
    await Promise.all(receivers.map((receiver) => receiver.stop()));
  });
  return {
    async receiver(answer: Answer = () => 204): Promise<Receiver> {
      const receiver = new Receiver(answer);
      receivers.push(receiver);
      return receiver.start();
    },
    async callback(body: Record<string, unknown>): Promise<string> {
      const response = await t.request({ method: 'POST', url: CALLBACKS, body });
      assert.equal(response.statusCode, 201, response.body);
      const { id } = json(response).properties;
      callbacks.push(id);
      return id;
    },
  };
}

/** describeEachBackend with deliveries polled every 50 ms (retries are due between wake-ups). */
function describeDelivery(
  name: string,
  env: Record<string, string>,
  suite: (t: () => TestApp) => void,
  options?: () => AppOptions,
) {
  describeEachBackend(name, suite, { BRIDGE_DELIVERY_POLL_MS: '50', ...env }, options);
}

// ---------------------------------------------------------------------------------------------
// Shape, headers, matching. Default timeout and retry interval; at most 2 sends in flight per
// callback and 4 in all, so a hanging receiver could starve the others if isolation failed.

const TIMEOUT_MS = 5000;

describeDelivery(
  'HTTP delivery: body, headers, matching, isolation',
  { BRIDGE_PUBLIC_URL: PUBLIC_URL, BRIDGE_DELIVERY_PER_CALLBACK: '2', BRIDGE_DELIVERY_MAX_IN_FLIGHT: '4' },
  (t) => {
    test('the body is docs/api.md "Callbacks (event delivery)" byte for byte; headers carry id, time, sequence, attempt, discards, Basic Auth', async (context) => {
      const { receiver, callback } = scope(t(), context);
      const target = await receiver();
      const workplaceId = await createWorkplace(t(), 'HTTP-SHAPE-1');
      // User and password with characters that must be percent-encoded in a URL.
      const userinfo = `${encodeURIComponent('plant@user')}:${encodeURIComponent('p:ss wörd/#1')}@`;
      const callbackId = await callback({
        eventType: STATE_CHANGED,
        url: target.url('/hooks/state?line=1', userinfo),
        eventName: 'Line 1 states',
        objectFilter: [{ name: 'id', value: workplaceId }],
      });

      const started = Date.now();
      const transitions: { previous: string; current: string }[] = [];
      for (let index = 0; index < 3; index += 1) transitions.push(await changeState(t(), workplaceId));
      await until('3 deliveries', () => target.requests.length >= 3);
      await settled(t(), [callbackId]);
      const finished = Date.now();
      assert.equal(target.requests.length, 3);

      const events = await eventsOf(t(), STATE_CHANGED, workplaceId);
      assert.equal(events.length, 3);
      const received = bySequence(target.requests);
      received.forEach((request, index) => {
        const event = events[index] as StoredEvent;
        const { previous, current } = transitions[index] ?? { previous: '', current: '' };
        const expected = JSON.stringify({
          properties: {
            callbackId,
            timestamp: event.timestamp.toISOString(),
            data: {
              workplaceId,
              currentOperatingState: STATES[current],
              previousOperatingState: STATES[previous],
            },
            objectId: workplaceId,
            objectType: 'WORKPLACE',
            eventType: STATE_CHANGED,
            eventName: 'Line 1 states',
          },
          _links: {
            callback: { href: `${PUBLIC_URL}${CALLBACKS}/${callbackId}`, method: 'GET', embeddable: false },
          },
        });
        assert.equal(request.body, expected, `body of delivery ${index + 1}`);
        assert.equal(request.method, 'POST');
        assert.equal(request.path, '/hooks/state?line=1');
        const { headers } = request;
        assert.equal(headers['content-type'], 'application/json');
        assert.equal(headers['webhook-id'], event.id);
        assert.equal(headers['bridge-sequence'], String(index + 1));
        assert.equal(headers['bridge-attempt'], '1');
        assert.equal(headers['bridge-discarded-notifications'], '0');
        assert.equal(headers['webhook-signature'], undefined, 'unsigned without a secret');
        const timestamp = Number(headers['webhook-timestamp']);
        assert.match(String(headers['webhook-timestamp']), /^\d+$/);
        assert.ok(timestamp >= Math.floor(started / 1000) && timestamp <= Math.ceil(finished / 1000));
        assert.equal(
          headers.authorization,
          `Basic ${Buffer.from('plant@user:p:ss wörd/#1').toString('base64')}`,
          'Basic Auth from the URL userinfo, decoded',
        );
      });
      // Events of one workplace are stamped in order; the sequence follows them.
      const stamps = received.map((request) => JSON.parse(request.body).properties.timestamp);
      assert.deepEqual([...stamps].sort(), stamps);

      const shown = await getCallback(t(), callbackId);
      assert.notEqual(shown.lastTriggeredDate, null);
      assert.notEqual(shown.lastSuccessfulDate, null);
      assert.deepEqual([shown.failedAttempts, shown.discardedNotifications], [0, 0]);
      // Sends run concurrently, so the history (newest recorded first) need not follow the sequence.
      const deliveries = (await deliveriesOf(t(), callbackId)).sort((a, b) => a.sequence - b.sequence);
      assert.deepEqual(
        deliveries.map((entry) => [
          entry.sequence,
          entry.attempt,
          entry.outcome,
          entry.statusCode,
          entry.error,
        ]),
        [
          [1, 1, 'DELIVERED', 204, null],
          [2, 1, 'DELIVERED', 204, null],
          [3, 1, 'DELIVERED', 204, null],
        ],
      );
      assert.deepEqual(
        deliveries.map((entry) => entry.eventId),
        events.map((event) => event.id),
      );
      const all = await t().request({ url: `${CALLBACKS}/${callbackId}/deliveries` });
      assert.ok(!all.body.includes('wörd') && !all.body.includes(encodeURIComponent('p:ss wörd/#1')));
    });

    test('with a secret the Standard Webhooks signature verifies; each callback counts its own sequence', async (context) => {
      const { receiver, callback } = scope(t(), context);
      const signedReceiver = await receiver();
      const plainReceiver = await receiver();
      const workplaceId = await createWorkplace(t(), 'HTTP-SIGN-1');
      const key = randomBytes(32);
      const secret = `whsec_${key.toString('base64')}`;
      const filter = [{ name: 'id', value: workplaceId }];
      const signedId = await callback({
        eventType: STATE_CHANGED,
        url: signedReceiver.url('/signed'),
        eventName: 'signed',
        objectFilter: filter,
        secret,
      });
      const plainId = await callback({
        eventType: STATE_CHANGED,
        url: plainReceiver.url('/plain'),
        objectFilter: filter,
      });

      await changeState(t(), workplaceId);
      await changeState(t(), workplaceId);
      await until(
        '2 deliveries each',
        () => signedReceiver.requests.length >= 2 && plainReceiver.requests.length >= 2,
      );
      await settled(t(), [signedId, plainId]);

      for (const request of signedReceiver.requests) {
        const id = String(request.headers['webhook-id']);
        const timestamp = String(request.headers['webhook-timestamp']);
        const expected = createHmac('sha256', key)
          .update(`${id}.${timestamp}.${request.body}`)
          .digest('base64');
        assert.equal(request.headers['webhook-signature'], `v1,${expected}`);
        // The signature covers the body: another body would not verify.
        const other = createHmac('sha256', key)
          .update(`${id}.${timestamp}.${request.body} `)
          .digest('base64');
        assert.notEqual(request.headers['webhook-signature'], `v1,${other}`);
        assert.equal(JSON.parse(request.body).properties.eventName, 'signed');
      }
      for (const request of plainReceiver.requests) {
        assert.equal(request.headers['webhook-signature'], undefined);
        assert.match(request.body, /"eventType":"WORKPLACE_OPERATING_STATE_CHANGED","eventName":null\}/);
        assert.equal(JSON.parse(request.body).properties.callbackId, plainId);
      }
      for (const target of [signedReceiver, plainReceiver]) {
        assert.deepEqual(
          bySequence(target.requests).map((request) => request.headers['bridge-sequence']),
          ['1', '2'],
        );
      }
      // Both callbacks got the same events (same webhook-id), each with its own callbackId.
      assert.deepEqual(
        bySequence(signedReceiver.requests).map((request) => request.headers['webhook-id']),
        bySequence(plainReceiver.requests).map((request) => request.headers['webhook-id']),
      );
      assert.equal(JSON.parse(signedReceiver.requests[0]?.body ?? '{}').properties.callbackId, signedId);
    });

    test('matching: only the subscribed event type, only the objectFilter id', async (context) => {
      const { receiver, callback } = scope(t(), context);
      const filtered = await receiver();
      const created = await receiver();
      const first = await createWorkplace(t(), 'HTTP-MATCH-1');
      const second = await createWorkplace(t(), 'HTTP-MATCH-2');
      // Fan-out runs behind the requests and matches the callbacks that exist when it runs, so an
      // event recorded just before a registration may still reach it. Let these go out first.
      await settled(t(), []);
      const filteredId = await callback({
        eventType: STATE_CHANGED,
        url: filtered.url(),
        objectFilter: [{ name: 'id', value: first }],
      });
      const createdId = await callback({
        eventType: 'WORKPLACE_CREATED',
        url: created.url(),
        eventName: 'new',
      });

      await changeState(t(), second);
      await changeState(t(), first);
      await changeState(t(), second);
      // Emits WORKPLACE_CREATED and RESOURCES_UPDATED (and the group's events).
      const third = await createWorkplace(t(), 'HTTP-MATCH-3');
      await changeState(t(), third);
      await settled(t(), [filteredId, createdId]);

      assert.deepEqual(
        filtered.requests.map((request) => {
          const { properties } = JSON.parse(request.body);
          return [properties.eventType, properties.objectId, properties.eventName];
        }),
        [[STATE_CHANGED, first, null]],
      );
      assert.deepEqual(
        created.requests.map((request) => {
          const { properties } = JSON.parse(request.body);
          return [properties.eventType, properties.objectType, properties.objectId, properties.eventName];
        }),
        [['WORKPLACE_CREATED', 'WORKPLACE', third, 'new']],
      );
    });

    test('isolation: a receiver that never answers does not delay a healthy callback', async (context) => {
      const { receiver, callback } = scope(t(), context);
      const hanging = await receiver(() => 'hang');
      const healthy = await receiver();
      const workplaceId = await createWorkplace(t(), 'HTTP-HANG-1');
      const filter = [{ name: 'id', value: workplaceId }];
      // The hanging callback is registered first, so its notifications come first in the queue.
      await callback({ eventType: STATE_CHANGED, url: hanging.url('/slow'), objectFilter: filter });
      await callback({ eventType: STATE_CHANGED, url: healthy.url('/fast'), objectFilter: filter });

      const latencies: number[] = [];
      for (let index = 0; index < 6; index += 1) {
        const changed = Date.now();
        await changeState(t(), workplaceId);
        await until(`healthy delivery ${index + 1}`, () => healthy.requests.length > index, 2 * TIMEOUT_MS);
        latencies.push((healthy.requests[index] as Received).at - changed);
      }
      // The hanging receiver held its sends open the whole time...
      assert.ok(hanging.requests.length >= 1, 'the hanging receiver was called');
      assert.ok((hanging.requests[0] as Received).at <= (healthy.requests.at(-1) as Received).at);
      // ...and every healthy delivery arrived sooner than a send stuck behind it could have.
      for (const [index, latency] of latencies.entries()) {
        assert.ok(
          latency < TIMEOUT_MS,
          `healthy delivery ${index + 1} took ${latency} ms (timeout ${TIMEOUT_MS} ms)`,
        );
      }
      assert.deepEqual(
        healthy.requests.map((request) => request.headers['bridge-attempt']),
        ['1', '1', '1', '1', '1', '1'],
      );
    });
  },
);

// ---------------------------------------------------------------------------------------------
// Retries (R2) at the default interval of 10 s, on a ManualClock: the tests move the delivery's
// time and wait until everything then due has been sent and recorded, so "no more attempts" is
// checked after the clock has gone past every retry, not after a pause. The delivery timeout is
// real time: the default 5 s, so a busy machine does not turn a receiver's immediate answer into a
// timeout (a failed attempt, then a copy; 200 ms did under load).

const RETRY_MS = 10_000;

/** Moves the delivery clock on by `ms`, then waits until all that is due was sent and recorded. */
async function advance(t: TestApp, ms = 0): Promise<void> {
  const { clock, delivery } = t.app;
  assert.ok(clock instanceof ManualClock && delivery);
  clock.advance(ms);
  await delivery.drain();
}

describeDelivery(
  'HTTP delivery: retries, discards, bound, delete',
  { BRIDGE_DELIVERY_TIMEOUT_MS: '5000' },
  (t) => {
    test('a failing receiver gets the first attempt plus maxRedeliverAttempts retries, 10 s apart; then discarded and counted', async (context) => {
      const { receiver, callback } = scope(t(), context);
      const failing = await receiver(() => 500);
      const workplaceId = await createWorkplace(t(), 'HTTP-RETRY-1');
      const callbackId = await callback({
        eventType: STATE_CHANGED,
        url: failing.url(),
        objectFilter: [{ name: 'id', value: workplaceId }],
        maxRedeliverAttempts: 2,
      });

      await changeState(t(), workplaceId);
      await advance(t());
      assert.equal(failing.requests.length, 1, 'the first attempt at once');
      await advance(t(), RETRY_MS - 1);
      assert.equal(failing.requests.length, 1, 'no retry before the interval is over');
      await advance(t(), 1);
      assert.equal(failing.requests.length, 2, 'the first retry after 10 s');
      await advance(t(), RETRY_MS);
      assert.equal(failing.requests.length, 3, 'the second retry 10 s later');
      await advance(t(), 3 * RETRY_MS);
      assert.equal(failing.requests.length, 3, 'first attempt + 2 retries, no more');
      await settled(t(), [callbackId]);

      const [event] = await eventsOf(t(), STATE_CHANGED, workplaceId);
      assert.ok(event);
      failing.requests.forEach((request, index) => {
        assert.equal(request.headers['bridge-attempt'], String(index + 1));
        assert.equal(request.headers['bridge-sequence'], '1');
        assert.equal(request.headers['webhook-id'], event.id);
        assert.equal(request.body, failing.requests[0]?.body, 'a retry sends the same body');
      });

      const shown = await getCallback(t(), callbackId);
      assert.equal(shown.failedAttempts, 3);
      assert.equal(shown.discardedNotifications, 1);
      assert.notEqual(shown.lastTriggeredDate, null);
      assert.equal(shown.lastSuccessfulDate, null);
      const deliveries = await deliveriesOf(t(), callbackId);
      assert.deepEqual(
        deliveries.map((entry) => [
          entry.eventId,
          entry.sequence,
          entry.attempt,
          entry.outcome,
          entry.statusCode,
        ]),
        [
          [event.id, 1, 3, 'DISCARDED', 500],
          [event.id, 1, 2, 'FAILED', 500],
          [event.id, 1, 1, 'FAILED', 500],
        ],
      );
      const attemptedAt = deliveries.map((entry) => Date.parse(entry.attemptedAt)).reverse();
      assert.deepEqual(
        attemptedAt.map((at) => at - (attemptedAt[0] as number)),
        [0, RETRY_MS, 2 * RETRY_MS],
        'attempts recorded at the delivery clock, one interval apart',
      );
      for (const entry of deliveries) assert.match(String(entry.error), /500/);
    });

    test('maxRedeliverAttempts 0: one attempt, then discarded', async (context) => {
      const { receiver, callback } = scope(t(), context);
      const failing = await receiver(() => 503);
      const workplaceId = await createWorkplace(t(), 'HTTP-RETRY-0');
      const callbackId = await callback({
        eventType: STATE_CHANGED,
        url: failing.url(),
        objectFilter: [{ name: 'id', value: workplaceId }],
        maxRedeliveryAttempts: 0,
      });
      await changeState(t(), workplaceId);
      await advance(t());
      await advance(t(), 3 * RETRY_MS);
      await settled(t(), [callbackId]);
      assert.equal(failing.requests.length, 1);
      const shown = await getCallback(t(), callbackId);
      assert.deepEqual([shown.failedAttempts, shown.discardedNotifications], [1, 1]);
    });

    test('a receiver that fails twice then recovers gets the notification on the third attempt', async (context) => {
      const { receiver, callback } = scope(t(), context);
      const flaky = await receiver((index) => (index < 2 ? 500 : 200));
      const workplaceId = await createWorkplace(t(), 'HTTP-RECOVER-1');
      const callbackId = await callback({
        eventType: STATE_CHANGED,
        url: flaky.url(),
        objectFilter: [{ name: 'id', value: workplaceId }],
      });
      await changeState(t(), workplaceId);
      await advance(t());
      await advance(t(), RETRY_MS);
      await advance(t(), RETRY_MS);
      await advance(t(), 3 * RETRY_MS);
      await settled(t(), [callbackId]);

      assert.deepEqual(
        flaky.requests.map((request) => [request.headers['bridge-attempt'], request.answer]),
        [
          ['1', 500],
          ['2', 500],
          ['3', 200],
        ],
      );
      // Failed attempts are not discarded notifications.
      assert.ok(flaky.requests.every((request) => request.headers['bridge-discarded-notifications'] === '0'));
      const shown = await getCallback(t(), callbackId);
      assert.notEqual(shown.lastSuccessfulDate, null);
      assert.ok(Date.parse(shown.lastSuccessfulDate) >= Date.parse(shown.creationDate));
      assert.deepEqual([shown.failedAttempts, shown.discardedNotifications], [2, 0]);
      const deliveries = await deliveriesOf(t(), callbackId);
      assert.deepEqual(
        deliveries.map((entry) => [entry.attempt, entry.outcome, entry.statusCode]),
        [
          [3, 'DELIVERED', 200],
          [2, 'FAILED', 500],
          [1, 'FAILED', 500],
        ],
      );
    });

    test('maxUnconfirmedMessages 3 with the receiver down: the oldest are dropped, the newest 3 arrive', async (context) => {
      const { receiver, callback } = scope(t(), context);
      const target = await receiver();
      await target.stop();
      const workplaceId = await createWorkplace(t(), 'HTTP-BOUND-1');
      const callbackId = await callback({
        eventType: STATE_CHANGED,
        url: target.url(),
        objectFilter: [{ name: 'id', value: workplaceId }],
        maxUnconfirmedMessages: 3,
      });

      for (let index = 0; index < 6; index += 1) await changeState(t(), workplaceId);
      await advance(t());
      const [open] = await t().app.db.query<{ open: string | number }>(
        'SELECT count(*) AS open FROM delivery_pending',
      );
      assert.equal(Number(open?.open), 0);
      assert.equal((await getCallback(t(), callbackId)).discardedNotifications, 3);
      const queued = await t().app.db.query<{ sequence: string | number }>(
        'SELECT sequence FROM notifications WHERE callback_id = $1 ORDER BY sequence',
        [callbackId],
      );
      assert.deepEqual(
        queued.map((row) => Number(row.sequence)),
        [4, 5, 6],
        'never more than 3 pending, oldest dropped first',
      );
      assert.equal(target.requests.length, 0);

      await target.start();
      await advance(t(), RETRY_MS);
      await advance(t(), 3 * RETRY_MS);
      await settled(t(), [callbackId]);
      assert.equal(target.requests.length, 3);

      const events = await eventsOf(t(), STATE_CHANGED, workplaceId);
      assert.equal(events.length, 6);
      const received = bySequence(target.requests);
      assert.deepEqual(
        received.map((request) => [request.headers['bridge-sequence'], request.headers['webhook-id']]),
        events.slice(3).map((event, index) => [String(index + 4), event.id]),
        'only the newest 3 arrive',
      );
      assert.equal(target.requests[0]?.headers['bridge-discarded-notifications'], '3');

      const shown = await getCallback(t(), callbackId);
      assert.equal(shown.discardedNotifications, 3);
      assert.notEqual(shown.lastSuccessfulDate, null);
      const deliveries = await deliveriesOf(t(), callbackId);
      const discarded = deliveries.filter((entry) => entry.outcome === 'DISCARDED');
      assert.deepEqual(discarded.map((entry) => entry.sequence).sort(), [1, 2, 3]);
      for (const entry of discarded) assert.match(String(entry.error), /maxUnconfirmedMessages/);
      assert.deepEqual(
        deliveries
          .filter((entry) => entry.outcome === 'DELIVERED')
          .map((entry) => entry.sequence)
          .sort(),
        [4, 5, 6],
      );
    });

    test('DELETE stops delivery, pending retries included', async (context) => {
      const { receiver, callback } = scope(t(), context);
      const failing = await receiver(() => 500);
      const workplaceId = await createWorkplace(t(), 'HTTP-DELETE-1');
      const callbackId = await callback({
        eventType: STATE_CHANGED,
        url: failing.url(),
        objectFilter: [{ name: 'id', value: workplaceId }],
        maxRedeliverAttempts: 100,
      });
      await changeState(t(), workplaceId);
      await advance(t());
      await advance(t(), RETRY_MS);
      assert.deepEqual(
        failing.requests.map((request) => request.headers['bridge-attempt']),
        ['1', '2'],
      );
      assert.equal(await pendingDeliveries(t().app.db, [callbackId]), 1, 'a retry is pending');

      const removed = await t().request({ method: 'DELETE', url: `${CALLBACKS}/${callbackId}` });
      assert.equal(removed.statusCode, 204);
      await advance(t(), 3 * RETRY_MS);
      assert.equal(failing.requests.length, 2, 'nothing is sent after DELETE');
      assert.equal(await pendingDeliveries(t().app.db, [callbackId]), 0);
      assert.equal((await t().request({ url: `${CALLBACKS}/${callbackId}` })).statusCode, 404);
    });

    test('SSRF default: link-local and metadata addresses are never requested; the attempt says why', async (context) => {
      const { callback } = scope(t(), context);
      const metadata = 'http://169.254.169.254/latest/meta-data/';
      const refused = await t().request({
        method: 'POST',
        url: CALLBACKS,
        body: { eventType: STATE_CHANGED, url: metadata },
      });
      assert.equal(refused.statusCode, 400, refused.body);
      assert.match(json(refused).message, /^Field 'url' .*169\.254\.169\.254.*not allowed/);
      // A registration stored before the check existed still never reaches the address.
      const workplaceId = await createWorkplace(t(), 'HTTP-SSRF-META');
      const callbackId = await callback({
        eventType: STATE_CHANGED,
        url: 'http://registered.invalid/hook',
        objectFilter: [{ name: 'id', value: workplaceId }],
        maxRedeliverAttempts: 0,
      });
      await t().app.db.query('UPDATE callbacks SET url = $1 WHERE id = $2', [metadata, callbackId]);
      await changeState(t(), workplaceId);
      await advance(t());
      await settled(t(), [callbackId]);
      const [attempt] = await deliveriesOf(t(), callbackId);
      assert.equal(attempt?.outcome, 'DISCARDED');
      assert.equal(attempt?.statusCode, null);
      assert.match(String(attempt?.error), /169\.254\.169\.254.*not allowed/);
    });
  },
  () => ({ clock: new ManualClock() }),
);

// ---------------------------------------------------------------------------------------------
// SSRF guard with loopback denied: a receiver on 127.0.0.1 is never reached. A literal address
// is refused at registration (in any spelling); a name is refused at each connection.

describeDelivery(
  'HTTP delivery: SSRF guard',
  {
    BRIDGE_CALLBACK_DENY_LOOPBACK: 'true',
    BRIDGE_CALLBACK_DENIED_NETWORKS: '192.0.2.0/24',
    BRIDGE_DELIVERY_TIMEOUT_MS: '200',
  },
  (t) => {
    test('registering a denied literal address is a 400 naming url; the setting adds to the built-in denials', async (context) => {
      const { receiver } = scope(t(), context);
      const target = await receiver();
      const port = target.port;
      const refused = [
        `http://127.0.0.1:${port}/hook`,
        `http://127.1:${port}/hook`,
        `http://2130706433:${port}/hook`,
        `http://0x7f.0.0.1:${port}/hook`,
        `http://[::1]:${port}/hook`,
        `http://[::ffff:127.0.0.1]:${port}/hook`,
        `http://0.0.0.0:${port}/hook`,
        `http://[::]:${port}/hook`,
        'http://169.254.169.254/latest/meta-data/',
        'http://2852039166/latest/meta-data/',
        'http://[64:ff9b::a9fe:a9fe]/latest/meta-data/',
        'http://192.0.2.10/hook',
        'mqtt://127.1:1883/external/x',
      ];
      for (const url of refused) {
        const response = await t().request({
          method: 'POST',
          url: CALLBACKS,
          body: { eventType: STATE_CHANGED, url },
        });
        assert.equal(response.statusCode, 400, `${url}: ${response.body}`);
        const body = json(response);
        assert.equal(body.code, 'VALIDATION_FAILED', url);
        assert.ok(String(body.message).startsWith("Field 'url' "), `${url}: ${body.message}`);
      }
      assert.equal(target.requests.length, 0);
    });

    test('a host name that resolves to a denied address is refused at connect time; the receiver is never requested', async (context) => {
      const { receiver, callback } = scope(t(), context);
      const target = await receiver();
      const workplaceId = await createWorkplace(t(), 'HTTP-SSRF-1');
      const filter = [{ name: 'id', value: workplaceId }];
      const password = `pw-${randomBytes(6).toString('hex')}`;
      const namedId = await callback({
        eventType: STATE_CHANGED,
        url: `http://user:${password}@localhost:${target.port}/hook`,
        objectFilter: filter,
      });

      await changeState(t(), workplaceId);
      // Two attempts: the refusal is retried like any failure, and still nothing is sent.
      const attempts = async (id: string) =>
        (await deliveriesOf(t(), id)).filter((entry) => entry.outcome === 'FAILED');
      await advance(t());
      await advance(t(), RETRY_MS);
      assert.equal((await attempts(namedId)).length, 2);
      assert.equal(target.requests.length, 0, 'the receiver was never requested');

      for (const entry of await attempts(namedId)) {
        assert.equal(entry.statusCode, null);
        // Refused by the policy, naming the host the client gave, not what it resolved to.
        assert.match(String(entry.error), /not allowed/);
        assert.doesNotMatch(String(entry.error), /127\.0\.0\.1|::1/);
      }
      const shown = await getCallback(t(), namedId);
      assert.equal(shown.failedAttempts, 2);
      assert.equal(shown.lastSuccessfulDate, null);
      const listed = await t().request({ url: `${CALLBACKS}/${namedId}/deliveries` });
      assert.ok(!listed.body.includes(password), 'no password in the deliveries');
    });
  },
  () => ({ clock: new ManualClock() }),
);

// ---------------------------------------------------------------------------------------------
// Without BRIDGE_PUBLIC_URL, a delivery links back where its callback was registered from.

describeDelivery('HTTP delivery: the callback link without a public URL', {}, (t) => {
  test('_links.callback is on the host and prefix the registering request used', async (context) => {
    const { receiver } = scope(t(), context);
    const target = await receiver();
    const workplaceId = await createWorkplace(t(), 'HTTP-LINK-ROOT-1');
    const registered = await t().request({
      method: 'POST',
      url: CALLBACKS,
      headers: { host: 'line1.plant.example:8443' },
      body: {
        eventType: STATE_CHANGED,
        url: target.url('/hook'),
        objectFilter: [{ name: 'id', value: workplaceId }],
      },
    });
    assert.equal(registered.statusCode, 201, registered.body);
    const callbackId = json(registered).properties.id;
    context.after(() => t().request({ method: 'DELETE', url: `${CALLBACKS}/${callbackId}` }));

    await changeState(t(), workplaceId);
    await until('the delivery', () => target.requests.length >= 1);
    const delivered = JSON.parse(target.requests[0]?.body ?? '{}');
    // The current version's path, as every delivery's link (docs/api.md, "Addresses and versions").
    assert.match(
      delivered._links.callback.href,
      new RegExp(`^http://line1\\.plant\\.example:8443/api/v\\d+/callbacks/${callbackId}$`),
    );
  });
});
