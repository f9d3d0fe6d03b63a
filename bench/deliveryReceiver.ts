// Child process of bench/delivery.ts: the callbacks' receiver, a bare node:http server in its own
// process on 127.0.0.1 (ephemeral port, reported over IPC). Every POST is answered 200 with an
// empty body as soon as its body is read. Each request is recorded in the group of its first path
// segment (/p3, /p4/17 -> p4, /raw): receipt time (taken when its headers arrive), its webhook-id,
// and the event timestamp from the body (parsed for every request, so the raw baseline costs the
// receiver as much as a delivery). Messages from the parent:
//   {type: 'expect', group, deliveries}  then {type: 'complete'} is sent each time one event of
//                                        the group has reached that many distinct deliveries
//   {type: 'count', group}               -> {type: 'count', deliveries, requests}
//   {type: 'report', group}              -> {type: 'report', ...Report}
//   {type: 'reset'}                      forget everything
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

/** One event (webhook-id) of a group: [eventAt, first receipt, last receipt, distinct deliveries]. */
export type EventRecord = [eventAt: number, first: number, last: number, deliveries: number];

export interface Report {
  requests: number;
  /** Requests for a (path, webhook-id) already received: redeliveries. */
  duplicates: number;
  events: Record<string, EventRecord>;
  /** Receipt time of every request (ms since the epoch). */
  receipts: number[];
  /** The last request as received, for the raw baseline to replay. */
  sample: { body: string; headers: Record<string, string> } | undefined;
}

export type ReceiverMessage =
  | { type: 'expect'; group: string; deliveries: number }
  | { type: 'count' | 'report'; group: string }
  | { type: 'reset' };

interface Group extends Report {
  seen: Set<string>;
}

let groups = new Map<string, Group>();
const expected = new Map<string, number>();

function group(name: string): Group {
  let entry = groups.get(name);
  if (!entry) {
    entry = { requests: 0, duplicates: 0, events: {}, receipts: [], sample: undefined, seen: new Set() };
    groups.set(name, entry);
  }
  return entry;
}

const server = createServer((request, response) => {
  const receivedAt = Date.now();
  const chunks: Buffer[] = [];
  request.on('data', (chunk: Buffer) => chunks.push(chunk));
  request.on('end', () => {
    response.writeHead(200, { 'content-length': '0' });
    response.end();
    const path = request.url ?? '/';
    const name = path.split('/')[1] ?? '';
    const entry = group(name);
    const body = Buffer.concat(chunks).toString();
    const id = String(request.headers['webhook-id']);
    entry.requests += 1;
    entry.receipts.push(receivedAt);
    entry.sample = { body, headers: request.headers as Record<string, string> };
    if (entry.seen.has(`${path} ${id}`)) {
      entry.duplicates += 1;
      return;
    }
    entry.seen.add(`${path} ${id}`);
    let eventAt = Number.NaN;
    try {
      eventAt = Date.parse(JSON.parse(body).properties.timestamp);
    } catch {
      // not a delivery body: no event time
    }
    const event = entry.events[id];
    if (!event) entry.events[id] = [eventAt, receivedAt, receivedAt, 1];
    else {
      event[2] = receivedAt;
      event[3] += 1;
    }
    if ((event?.[3] ?? 1) === expected.get(name)) {
      process.send?.({ type: 'complete' });
    }
  });
});
server.keepAliveTimeout = 60_000; // the service's and the baseline's pools keep connections 30 s

process.on('message', (message: ReceiverMessage) => {
  if (message.type === 'reset') {
    groups = new Map();
    expected.clear();
  } else if (message.type === 'expect') {
    expected.set(message.group, message.deliveries);
  } else if (message.type === 'count') {
    const entry = group(message.group);
    process.send?.({ type: 'count', deliveries: entry.seen.size, requests: entry.requests });
  } else {
    const { seen: _, ...report } = group(message.group);
    process.send?.({ type: 'report', ...report });
  }
});
process.on('disconnect', () => process.exit(0)); // the parent ended (or died): do not linger

server.listen(0, '127.0.0.1', () => {
  process.send?.({ port: (server.address() as AddressInfo).port });
});
