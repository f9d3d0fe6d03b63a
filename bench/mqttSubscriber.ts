// Child process of bench/mqttDelivery.ts: the MQTT callback's subscriber, an mqtt.js client (MQTT
// 5, QoS 1) in its own process on the topic filter `<prefix>/#` of the broker given as argv[2]
// and argv[3] (`mqtt://127.0.0.1:1883`, `external/bench-mqtt-<pid>`). It speaks the same IPC as
// bench/deliveryReceiver.ts (started through bench/receiverProcess.ts; ready message `{url}`):
// each message is recorded in the group of its topic's segment after the prefix
// (<prefix>/p5 -> p5, <prefix>/raw -> raw) with its receipt time, its `webhook-id` user property
// (distinct deliveries) and the event timestamp of the body (parsed for every message, so the raw
// baseline costs the subscriber as much as a delivery).
import mqtt from 'mqtt';
import type { ReceiverMessage, Report } from './deliveryReceiver.ts';

const [broker = 'mqtt://127.0.0.1:1883', prefix = 'external/bench-mqtt'] = process.argv.slice(2);

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

const client = await mqtt.connectAsync(broker, { protocolVersion: 5, clean: true });
client.on('message', (topic, payload, packet) => {
  const receivedAt = Date.now();
  const name = topic.slice(prefix.length + 1).split('/')[0] ?? '';
  const entry = group(name);
  const body = payload.toString('utf8');
  const properties = (packet.properties?.userProperties ?? {}) as Record<string, string | string[]>;
  const id = String(properties['webhook-id']);
  entry.requests += 1;
  entry.receipts.push(receivedAt);
  entry.sample = {
    body,
    headers: Object.fromEntries(Object.entries(properties).map(([key, value]) => [key, String(value)])),
  };
  let eventAt = Number.NaN;
  try {
    eventAt = Date.parse(JSON.parse(body).properties.timestamp);
  } catch {
    // not a delivery body: no event time
  }
  if (entry.seen.has(id)) {
    entry.duplicates += 1;
    return;
  }
  entry.seen.add(id);
  entry.events[id] = [eventAt, receivedAt, receivedAt, 1];
  if (expected.get(name) === 1) process.send?.({ type: 'complete' });
});
await client.subscribeAsync(`${prefix}/#`, { qos: 1 });

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

process.send?.({ url: `${broker}/${prefix}` });
