// MQTT connector (MQTT.js): subscribes to the mapped topic filters with QoS 1; each message gives
// a value per matching mapping, from a JSON payload by pointer or from a plain payload.
import type { Connector, MqttSource } from '../domain/connectors.ts';
import { MAX_PAYLOAD_BYTES, RejectedValue, topicMatches, valueFromPayload } from '../domain/connectors.ts';
import { openMqtt, subscribeAll } from './mqttConnection.ts';
import type { ClientOptions, ProtocolClient, Sink } from './protocol.ts';

export function mqttClient(connector: Connector, sink: Sink, options: ClientOptions): ProtocolClient {
  const sources = connector.mappings.map((mapping) => mapping.source as MqttSource);
  const filters = [...new Set(sources.map((source) => source.topic))];
  let client: ReturnType<typeof openMqtt> | undefined;
  return {
    start() {
      client = openMqtt(connector, sink, options);
      client.on('connect', () => {
        // The broker may have kept the session (and its subscriptions): subscribing again is
        // harmless and covers a session it lost.
        if (client) subscribeAll(client, filters, sink);
      });
      client.on('message', (topic, payload) => {
        sink.message();
        if (payload.length > MAX_PAYLOAD_BYTES) {
          sink.reject(`payload of ${payload.length} bytes on '${topic}' exceeds ${MAX_PAYLOAD_BYTES}`);
          return;
        }
        const text = payload.toString('utf8');
        const receivedAt = new Date();
        sources.forEach((source, index) => {
          if (!topicMatches(source.topic, topic)) return;
          try {
            const { value, timestamp } = valueFromPayload(text, source, receivedAt);
            sink.value(index, value, timestamp);
          } catch (error) {
            if (!(error instanceof RejectedValue)) throw error;
            sink.reject(`'${topic}': ${error.message}`);
          }
        });
      });
    },
    async close() {
      await client?.endAsync(true);
    },
  };
}
