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
import { receiptLog } from './receiptLog.ts';

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

const log = receiptLog();

const server = createServer((request, response) => {
  const receivedAt = Date.now();
  const chunks: Buffer[] = [];
  request.on('data', (chunk: Buffer) => chunks.push(chunk));
  request.on('end', () => {
    response.writeHead(200, { 'content-length': '0' });
    response.end();
    const path = request.url ?? '/';
    const id = String(request.headers['webhook-id']);
    log.record({
      group: path.split('/')[1] ?? '',
      id,
      dedupeKey: `${path} ${id}`,
      body: Buffer.concat(chunks).toString(),
      headers: request.headers as Record<string, string>,
      receivedAt,
    });
  });
});
server.keepAliveTimeout = 60_000; // the service's and the baseline's pools keep connections 30 s

server.listen(0, '127.0.0.1', () => {
  process.send?.({ port: (server.address() as AddressInfo).port });
});
