// @ts-check
// Live events (docs/dashboard.md, "Live updates"): the event stream (GET /events/stream,
// Server-Sent Events, resumed with Last-Event-ID) when the service has it, otherwise the event
// log polled with paginationDirection=PREVIOUS from the kept firstIdentifier (docs/api.md,
// "Collections", change sync). The stream is read with fetch, so the token goes in the
// Authorization header, never in a URL.
import { accessToken, get, items, positionQuery } from './api.js';
import { sseParser } from './sse.js';

const POLL_MS = 2000;
const LOOK_BACK_MS = 5000;
/** @typedef {import('./types.js').BridgeEvent} BridgeEvent */
/** @typedef {{stopped: boolean, abort: AbortController}} Control */

/** @type {Set<(event: BridgeEvent) => void>} */
const listeners = new Set();
/** @type {(text: string) => void} */
let status = () => {};
/** @type {Control | undefined} */
let running;

/**
 * Registers a listener for every new event ({id, eventType, objectType, objectId, data, ...}).
 * @param {(event: BridgeEvent) => void} listener
 * @returns {() => void} unsubscribes
 */
export function subscribe(listener) {
  listeners.add(listener);
  return () => {
    listeners.delete(listener);
  };
}

/** @param {BridgeEvent} event */
const emit = (event) => {
  for (const listener of listeners) {
    try {
      listener(event);
    } catch (error) {
      console.error(error);
    }
  }
};

/** @param {(text: string) => void} onStatus */
export function startLive(onStatus) {
  status = onStatus;
  stopLive();
  const control = { stopped: false, abort: new AbortController() };
  running = control;
  run(control);
}

export function stopLive() {
  if (!running) return;
  running.stopped = true;
  running.abort.abort();
  running = undefined;
}

/**
 * @param {number} ms
 * @param {Control} control
 */
const pause = (ms, control) =>
  /** @type {Promise<void>} */ (
    new Promise((resolve) => {
      const timer = setTimeout(resolve, ms);
      control.abort.signal.addEventListener('abort', () => {
        clearTimeout(timer);
        resolve();
      });
    })
  );

/** @param {Control} control */
async function run(control) {
  /** @type {string | undefined} */
  let lastEventId;
  let failures = 0;
  while (!control.stopped) {
    try {
      const outcome = await stream(control, lastEventId, (id) => {
        lastEventId = id;
        failures = 0;
      });
      if (outcome === 'unavailable') return poll(control);
    } catch (error) {
      if (control.stopped) return;
      status(`stream interrupted (${error instanceof Error ? error.message : error}); reconnecting`);
    }
    failures += 1;
    await pause(Math.min(30_000, 1000 * 2 ** Math.min(failures, 5)), control);
  }
}

/**
 * @param {Control} control
 * @param {string | undefined} lastEventId
 * @param {(id: string) => void} seen
 */
async function stream(control, lastEventId, seen) {
  /** @type {Record<string, string>} */
  const headers = { authorization: `Bearer ${accessToken()}`, accept: 'text/event-stream' };
  if (lastEventId) headers['last-event-id'] = lastEventId;
  const response = await fetch('api/v2/events/stream', { headers, signal: control.abort.signal });
  // 429 TOO_MANY_STREAMS: this client already holds its share of streams (other tabs); the
  // event log serves this tab as well.
  if (response.status === 404 || response.status === 429) return 'unavailable';
  if (!response.ok || !response.body) throw new Error(`HTTP ${response.status}`);
  status('live (event stream)');
  const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
  const parser = sseParser();
  for (;;) {
    const { value, done } = await reader.read();
    if (done) throw new Error('stream ended');
    for (const message of parser.feed(value)) {
      if (message.id !== undefined) seen(message.id);
      try {
        const parsed = JSON.parse(message.data);
        emit(parsed.properties ?? parsed);
      } catch {
        // not an event
      }
    }
    const last = parser.lastId();
    if (last !== undefined) seen(last);
  }
}

/**
 * The fallback: the newest page once, then every 2 s PREVIOUS from the kept firstIdentifier's
 * time less a few seconds (an event committed late can carry an earlier time: docs/api.md,
 * "Collections", change sync), skipping the ids already handed out.
 */
/** @param {Control} control */
async function poll(control) {
  status('live (polling the event log)');
  const seen = new Set();
  // The newest page marks what the page's first reads already reflect.
  const newest = await get('/events', { limit: 100 });
  for (const event of items(newest, 'events')) seen.add(event.id);
  let position = newest.pagination?.firstIdentifier ?? null;
  while (!control.stopped) {
    await pause(POLL_MS, control);
    if (control.stopped) return;
    try {
      let full = true;
      let lookBack = true;
      while (full && !control.stopped) {
        const back =
          position && new Date(Date.parse(position.paginationTimestamp) - LOOK_BACK_MS).toISOString();
        const query = !position
          ? { limit: 100 }
          : lookBack
            ? { limit: 100, paginationDirection: 'PREVIOUS', paginationTimestamp: back }
            : { limit: 100, paginationDirection: 'PREVIOUS', ...positionQuery(position) };
        lookBack = false;
        const page = await get('/events', query, control.abort.signal);
        const events = items(page, 'events');
        // Pages are newest first: hand them out oldest first.
        for (const event of [...events].reverse()) {
          if (seen.has(event.id)) continue;
          seen.add(event.id);
          emit(event);
        }
        if (seen.size > 20_000) for (const id of [...seen].slice(0, 10_000)) seen.delete(id);
        const newest = page.pagination?.firstIdentifier;
        if (newest && (!position || newest.paginationTimestamp >= position.paginationTimestamp))
          position = newest;
        full = events.length === 100;
      }
      status('live (polling the event log)');
    } catch (error) {
      if (control.stopped) return;
      status(`event log unreachable (${error instanceof Error ? error.message : error}); retrying`);
    }
  }
}
