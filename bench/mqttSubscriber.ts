// Child process of bench/mqttDelivery.ts: the MQTT callback's subscriber, an mqtt.js client (MQTT
// 5, QoS 1) in its own process on the topic filter `<prefix>/#` of the broker given as argv[2]
// and argv[3] (`mqtt://127.0.0.1:1883`, `external/bench-mqtt-<pid>`). It speaks the same IPC as
// bench/deliveryReceiver.ts (started through bench/receiverProcess.ts; ready message `{url}`):
// each message is recorded in the group of its topic's segment after the prefix
// (<prefix>/p5 -> p5, <prefix>/raw -> raw) with its receipt time, its `webhook-id` user property
// (distinct deliveries) and the event timestamp of the body (parsed for every message, so the raw
// baseline costs the subscriber as much as a delivery).
import mqtt from 'mqtt';
import { receiptLog } from './receiptLog.ts';

const [broker = 'mqtt://127.0.0.1:1883', prefix = 'external/bench-mqtt'] = process.argv.slice(2);

const log = receiptLog();

const client = await mqtt.connectAsync(broker, { protocolVersion: 5, clean: true });
client.on('message', (topic, payload, packet) => {
  const properties = (packet.properties?.userProperties ?? {}) as Record<string, string | string[]>;
  const id = String(properties['webhook-id']);
  log.record({
    group: topic.slice(prefix.length + 1).split('/')[0] ?? '',
    id,
    dedupeKey: id,
    body: payload.toString('utf8'),
    headers: Object.fromEntries(Object.entries(properties).map(([key, value]) => [key, String(value)])),
    receivedAt: Date.now(),
  });
});
await client.subscribeAsync(`${prefix}/#`, { qos: 1 });

process.send?.({ url: `${broker}/${prefix}` });
