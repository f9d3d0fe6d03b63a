// R9 and P6 (docs/quality.md): receivers that accept a delivery and never answer must not hold
// the slots a healthy callback needs (docs/decisions/0003-delivery-from-the-event-log.md). Real HTTP receivers
// on 127.0.0.1 count the requests they hold open; the app's own worker, transport and database
// deliver. One production order with many operations is one transaction of many events: a burst
// that the fan-out turns into one run of rows per callback, the case where the oldest-first claim
// gave the first few callbacks every slot.
import assert from 'node:assert/strict';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { type TestContext, test } from 'node:test';
import { pendingDeliveries } from '../../src/db/repositories/deliveryBacklog.ts';
import { InFlightCaps } from '../../src/delivery/inFlightCaps.ts';
import { failure, noAnswer, type SendResult } from '../../src/delivery/transport.ts';
import { describeEachBackend, json, type TestApp } from '../support/app.ts';
import { waitFor } from '../support/wait.ts';

const CALLBACKS = '/api/v2/callbacks';
const EVENT_TYPE = 'OPERATION_CREATED';

/** What a window of a receiver's requests saw: how many arrived and how many were open at once. */
interface Window {
  received: number;
  open: number;
  maxOpen: number;
}

/**
 * A node:http receiver that answers 204 (after `delayMs`) or never answers (`hang`). It counts the
 * requests it holds open: one ends when it is answered or when the bridge gives up on it (its
 * connection ends: `abandoned`).
 */
class Receiver {
  hang: boolean;
  delayMs = 0;
  /** bridge-sequence of every answered request. */
  readonly answered: number[] = [];
  abandoned = 0;
  readonly #server: Server;
  readonly #windows: Window[] = [];
  readonly #all: Window;
  readonly #delays = new Set<NodeJS.Timeout>();

  constructor(hang: boolean) {
    this.hang = hang;
    this.#all = this.watch();
    this.#server = createServer((request, response) => this.#arrived(request, response));
  }

  get received(): number {
    return this.#all.received;
  }
  get open(): number {
    return this.#all.open;
  }
  get maxOpen(): number {
    return this.#all.maxOpen;
  }

  /** Counts the requests that arrive from now on. */
  watch(): Window {
    const window = { received: 0, open: 0, maxOpen: 0 };
    this.#windows.push(window);
    return window;
  }

  #arrived(request: IncomingMessage, response: ServerResponse): void {
    const windows = [...this.#windows];
    for (const window of windows) {
      window.received += 1;
      window.open += 1;
      window.maxOpen = Math.max(window.maxOpen, window.open);
    }
    const socket = request.socket;
    let ended = false;
    const end = (abandoned: boolean) => {
      if (ended) return;
      ended = true;
      socket.off('end', onGone).off('close', onGone).off('error', onGone);
      for (const window of windows) window.open -= 1;
      if (abandoned) this.abandoned += 1;
    };
    // 'end' comes as soon as the bridge closes its side; 'close' only in a later loop phase.
    const onGone = () => end(true);
    socket.on('end', onGone).on('close', onGone).on('error', onGone);
    request.resume();
    request.on('end', () => {
      if (this.hang) return;
      const answer = () => {
        end(false);
        this.answered.push(Number(request.headers['bridge-sequence']));
        response.writeHead(204).end();
      };
      if (this.delayMs === 0) return answer();
      const timer = setTimeout(() => {
        this.#delays.delete(timer);
        answer();
      }, this.delayMs);
      this.#delays.add(timer);
    });
  }

  async start(): Promise<this> {
    await new Promise<void>((resolve) => this.#server.listen(0, '127.0.0.1', resolve));
    return this;
  }

  url(): string {
    return `http://127.0.0.1:${(this.#server.address() as AddressInfo).port}/hook`;
  }

  /** Stops listening and cuts every connection, the held requests included. */
  async stop(): Promise<void> {
    for (const timer of this.#delays) clearTimeout(timer);
    const closed = new Promise<void>((resolve) => this.#server.close(() => resolve()));
    this.#server.closeAllConnections();
    await closed;
  }
}

/**
 * Per test: its receivers and callbacks are removed afterwards, pass or fail (callbacks first, so
 * nothing more is sent to a receiver that is going away).
 */
function scope(t: TestApp, context: TestContext) {
  const receivers: Receiver[] = [];
  const callbacks: string[] = [];
  context.after(async () => {
    for (const id of callbacks) await t.request({ method: 'DELETE', url: `${CALLBACKS}/${id}` });
    await Promise.all(receivers.map((receiver) => receiver.stop()));
  });
  return {
    async receiver(hang: boolean): Promise<Receiver> {
      const receiver = new Receiver(hang);
      receivers.push(receiver);
      return receiver.start();
    },
    async callback(url: string): Promise<string> {
      const response = await t.request({
        method: 'POST',
        url: CALLBACKS,
        body: { eventType: EVENT_TYPE, url },
      });
      assert.equal(response.statusCode, 201, response.body);
      const { id } = json(response).properties;
      callbacks.push(id);
      return id;
    },
  };
}

/** One production order with `count` operations: `count` OPERATION_CREATED events in one transaction. */
async function releaseOrder(t: TestApp, number: string, count: number): Promise<void> {
  const operations = Array.from({ length: count }, (_, index) => ({ number: String((index + 1) * 10) }));
  const response = await t.request({
    method: 'POST',
    url: '/api/v2/productionOrders',
    body: { number, operations },
  });
  assert.equal(response.statusCode, 201, response.body);
}

/** Notifications of a callback not yet delivered or discarded. */
async function pending(t: TestApp, callbackId: string): Promise<number> {
  return pendingDeliveries(t.app.db, [callbackId]);
}

const STUCK = 20;
const MAX_IN_FLIGHT = 40;
const PER_CALLBACK = 10;
/** Every callback with work gets a slot before any gets another: 40 slots over 21 callbacks. */
const SHARE = Math.ceil(MAX_IN_FLIGHT / (STUCK + 1));
const BURST = 30;
const SLOTS = {
  BRIDGE_DELIVERY_POLL_MS: '50',
  BRIDGE_DELIVERY_MAX_IN_FLIGHT: String(MAX_IN_FLIGHT),
  BRIDGE_DELIVERY_PER_CALLBACK: String(PER_CALLBACK),
};

// The timeout is what a healthy callback would wait for if stuck sends held its slots. It is
// long enough for the healthy receiver's deliveries on a busy machine; nothing here waits for it.
describeEachBackend(
  'delivery fairness: 20 receivers that never answer beside a healthy one',
  (t) => {
    test('a burst to 21 callbacks: the healthy receiver gets all of it while the stuck ones still hold theirs; none holds more than its share', async (context) => {
      const { receiver, callback } = scope(t(), context);
      const stuck: Receiver[] = [];
      // Registered first: their notifications come first in the queue.
      for (let index = 0; index < STUCK; index += 1) {
        const hanging = await receiver(true);
        stuck.push(hanging);
        await callback(hanging.url());
      }
      const healthy = await receiver(false);
      await callback(healthy.url());

      await releaseOrder(t(), 'FAIR-BURST', BURST);
      // A request on its way to a stuck receiver may arrive after the healthy one's last answer:
      // both are waited for, and no stuck send may have been given up meanwhile.
      const seen = await waitFor(
        `all ${BURST} deliveries at the healthy receiver, a request held by every stuck one`,
        () =>
          new Set(healthy.answered).size === BURST &&
          stuck.every((hanging) => hanging.open > 0) && {
            abandoned: stuck.reduce((sum, hanging) => sum + hanging.abandoned, 0),
            holding: stuck.filter((hanging) => hanging.open > 0).length,
          },
        {
          timeoutMs: 30_000,
          describe: () => ({
            healthy: healthy.answered.length,
            stuckOpen: stuck.map((hanging) => hanging.open),
          }),
        },
      );
      assert.deepEqual(
        [...new Set(healthy.answered)].sort((a, b) => a - b),
        Array.from({ length: BURST }, (_, index) => index + 1),
      );
      // No stuck send had been given up yet: the healthy callback never waited for a timeout...
      assert.equal(seen.abandoned, 0, 'stuck sends timed out before the healthy callback was served');
      // ...while every stuck receiver was still holding what it had been given.
      assert.equal(seen.holding, STUCK, 'every stuck receiver holds a request');
      const largest = Math.max(...stuck.map((hanging) => hanging.maxOpen));
      assert.ok(largest <= SHARE, `a stuck receiver held ${largest} requests at once (share ${SHARE})`);
    });
  },
  { ...SLOTS, BRIDGE_DELIVERY_TIMEOUT_MS: '5000' },
);

// Short timeout and retry: here the stuck sends do time out, several times.
describeEachBackend(
  'delivery fairness: a receiver that stops answering is probed with one send, and gets its slots back',
  (t) => {
    test('after its sends time out a callback has one in flight until its receiver answers again', async (context) => {
      const { receiver, callback } = scope(t(), context);
      const flaky = await receiver(false);
      const callbackId = await callback(flaky.url());
      // It answers at first: a callback with deliveries behind it.
      await releaseOrder(t(), 'FAIR-PROBE-1', 1);
      await waitFor('the first delivery recorded', async () => (await pending(t(), callbackId)) === 0);

      flaky.hang = true;
      await releaseOrder(t(), 'FAIR-PROBE-2', BURST);
      // Not yet known to hang: it may take its full share of the slots, then those time out.
      const probes = await waitFor('a send given up', () => flaky.abandoned > 0 && flaky.watch());
      assert.ok(
        flaky.maxOpen <= PER_CALLBACK,
        `${flaky.maxOpen} requests at once (per callback ${PER_CALLBACK})`,
      );
      await waitFor('three probes', () => probes.received >= 3, {
        timeoutMs: 20_000,
        describe: () => probes,
      });
      assert.equal(probes.maxOpen, 1, 'one send at a time while the receiver does not answer');

      // Answering again, a little slowly: the cap grows back, the queue drains.
      const restored = flaky.watch();
      flaky.delayMs = 20;
      flaky.hang = false;
      await waitFor('every notification delivered', async () => (await pending(t(), callbackId)) === 0, {
        timeoutMs: 20_000,
        describe: () => restored,
      });
      assert.deepEqual(
        [...new Set(flaky.answered)].sort((a, b) => a - b),
        Array.from({ length: BURST + 1 }, (_, index) => index + 1),
      );
      assert.ok(
        restored.maxOpen > 1,
        `at most ${restored.maxOpen} at once after the receiver answered again`,
      );
    });
  },
  { ...SLOTS, BRIDGE_DELIVERY_TIMEOUT_MS: '500', BRIDGE_DELIVERY_RETRY_INTERVAL_MS: '600' },
);

test('the cap of a callback: one after no answer, doubled by each answer up to perCallback; other failures leave it', async () => {
  const caps = new InFlightCaps(10);
  const ok: SendResult = { ok: true, statusCode: 204, error: null, unresponsive: false };
  const capOf = (id: string) => caps.reduced().get(id) ?? 10;
  caps.learn('a', ok);
  assert.equal(capOf('a'), 10, 'a callback that answers keeps perCallback');
  caps.learn('a', noAnswer(new Error('timeout')));
  assert.equal(capOf('a'), 1);
  caps.learn('a', failure('address not allowed'));
  assert.equal(capOf('a'), 1, 'a send refused by the bridge says nothing about the receiver');
  caps.learn('a', failure('HTTP 503', 503));
  assert.equal(capOf('a'), 2, 'an error status is an answer');
  caps.learn('a', ok);
  caps.learn('a', ok);
  assert.equal(capOf('a'), 8);
  caps.learn('a', ok);
  assert.equal(capOf('a'), 10);
  assert.equal(caps.reduced().size, 0, 'only callbacks below perCallback are kept');

  caps.learn('gone', noAnswer(new Error('refused')));
  caps.learn('kept', noAnswer(new Error('refused')));
  await caps.forgetDeleted(async (ids) => new Set(ids.filter((id) => id === 'kept')));
  assert.deepEqual([...caps.reduced().keys()], ['kept']);
});

// A callback whose receiver keeps up reads ahead and sends the next event as each answer comes
// (docs/decisions/0003-delivery-from-the-event-log.md): that must never put more than its cap at the
// receiver, and with a cap of one (docs/settings.md) the receiver gets them in order.
describeEachBackend(
  'delivery window: a healthy callback reads ahead, within its cap at the receiver',
  (t) => {
    test('with BRIDGE_DELIVERY_PER_CALLBACK=1 a burst arrives one at a time, in sequence order', async (context) => {
      const { receiver, callback } = scope(t(), context);
      const slow = await receiver(false);
      slow.delayMs = 2;
      const callbackId = await callback(slow.url());
      await releaseOrder(t(), 'WINDOW-ORDER', BURST);
      await waitFor('every notification delivered', async () => (await pending(t(), callbackId)) === 0, {
        timeoutMs: 30_000,
        describe: () => slow.answered.length,
      });
      assert.deepEqual(
        slow.answered,
        Array.from({ length: BURST }, (_, index) => index + 1),
      );
      assert.equal(slow.maxOpen, 1);
    });
  },
  { BRIDGE_DELIVERY_POLL_MS: '50', BRIDGE_DELIVERY_PER_CALLBACK: '1' },
);

describeEachBackend(
  'delivery window: a healthy callback with a cap of several',
  (t) => {
    test('a burst larger than the cap uses the window and never passes it', async (context) => {
      const { receiver, callback } = scope(t(), context);
      const slow = await receiver(false);
      slow.delayMs = 5;
      const callbackId = await callback(slow.url());
      // A first delivery ends the probe: the callback has its full cap from then on.
      await releaseOrder(t(), 'WINDOW-CAP-1', 1);
      await waitFor('the probe recorded', async () => (await pending(t(), callbackId)) === 0);
      await releaseOrder(t(), 'WINDOW-CAP-2', 3 * BURST);
      await waitFor('every notification delivered', async () => (await pending(t(), callbackId)) === 0, {
        timeoutMs: 30_000,
        describe: () => ({ answered: slow.answered.length, maxOpen: slow.maxOpen }),
      });
      assert.deepEqual(
        [...slow.answered].sort((a, b) => a - b),
        Array.from({ length: 3 * BURST + 1 }, (_, index) => index + 1),
      );
      // More than one at once: the window was used (how full it got depends on how fast
      // connections open on a busy machine); never more than the cap.
      assert.ok(
        slow.maxOpen > 1 && slow.maxOpen <= PER_CALLBACK,
        `${slow.maxOpen} at once at the receiver (cap ${PER_CALLBACK})`,
      );
    });
  },
  { ...SLOTS },
);
