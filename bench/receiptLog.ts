// What the benchmarks' receiver processes (bench/deliveryReceiver.ts over HTTP,
// bench/mqttSubscriber.ts over MQTT) record of each delivery they receive, by group, and how they
// answer the parent (bench/receiverProcess.ts) over IPC; the messages are listed in
// bench/deliveryReceiver.ts.
import type { ReceiverMessage, Report } from './deliveryReceiver.ts';

interface Group extends Report {
  /** The dedupe keys seen: a key seen again is a redelivery. */
  seen: Set<string>;
}

export interface Receipt {
  /** The group: the first path segment, or the topic segment after the prefix. */
  group: string;
  /** The delivery's webhook-id. */
  id: string;
  /** What makes a receipt a repeat of an earlier one (the id, with the path over HTTP). */
  dedupeKey: string;
  body: string;
  headers: Record<string, string>;
  receivedAt: number;
}

/** Records receipts and answers the parent's messages, until the parent goes away. */
export function receiptLog() {
  let groups = new Map<string, Group>();
  const expected = new Map<string, number>();
  const group = (name: string): Group => {
    let entry = groups.get(name);
    if (!entry) {
      entry = { requests: 0, duplicates: 0, events: {}, receipts: [], sample: undefined, seen: new Set() };
      groups.set(name, entry);
    }
    return entry;
  };

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

  return {
    record({ group: name, id, dedupeKey, body, headers, receivedAt }: Receipt): void {
      const entry = group(name);
      entry.requests += 1;
      entry.receipts.push(receivedAt);
      entry.sample = { body, headers };
      // Parsed for every receipt, so the raw baseline costs the receiver as much as a delivery.
      let eventAt = Number.NaN;
      try {
        eventAt = Date.parse(JSON.parse(body).properties.timestamp);
      } catch {
        // not a delivery body: no event time
      }
      if (entry.seen.has(dedupeKey)) {
        entry.duplicates += 1;
        return;
      }
      entry.seen.add(dedupeKey);
      const event = entry.events[id];
      if (!event) entry.events[id] = [eventAt, receivedAt, receivedAt, 1];
      else {
        event[2] = receivedAt;
        event[3] += 1;
      }
      if ((event?.[3] ?? 1) === expected.get(name)) process.send?.({ type: 'complete' });
    },
  };
}
