// An MQTT connection for the MQTT and Sparkplug B clients: every connection, reconnects included,
// goes through the address policy; reconnects wait with exponential backoff and jitter. The
// session is persistent under a client id of the connector's own, so that the broker queues the
// QoS 1 messages for whichever instance holds the connector next (docs/resources/connectors.md).
import { connect as tlsConnect } from 'node:tls';
import { MqttClient } from 'mqtt';
import { type Connector, reconnectDelay } from '../domain/connectors.ts';
import { literalAddress } from '../net/addressPolicy.ts';
import { type ClientOptions, errorText, type Sink } from './protocol.ts';

/** The connector's MQTT client id: the same on every instance, so its session follows the lease. */
const connectorClientId = (connectorId: string) => `bridge-connector-${connectorId}`;

/**
 * Subscribes with QoS 1 and reports CONNECTED only when the broker granted every filter (a
 * refused one, e.g. by an ACL, comes back as 128 without an error).
 */
export function subscribeAll(client: MqttClient, filters: readonly string[], sink: Sink): void {
  client.subscribe(
    Object.fromEntries(filters.map((filter) => [filter, { qos: 1 as const }])),
    (error, granted) => {
      if (error) return sink.state('ERROR', `subscribe failed: ${error.message}`);
      const refused = (granted ?? []).filter((grant) => grant.qos === 128).map((grant) => grant.topic);
      if (refused.length > 0)
        sink.state('ERROR', `subscription refused by the broker: ${refused.join(', ')}`);
      else sink.state('CONNECTED');
    },
  );
}

export function openMqtt(
  connector: Connector,
  sink: Sink,
  options: ClientOptions,
  extra: { will?: { topic: string; payload: Buffer } } = {},
): MqttClient {
  const url = new URL(connector.url);
  const secure = url.protocol === 'mqtts:';
  const host = literalAddress(url.hostname) ?? url.hostname;
  const port = Number(url.port || (secure ? 8883 : 1883));
  let attempt = 0;
  /** Why the last connection failed (MQTT.js does not emit socket errors). */
  let failure: (Error & { code?: unknown }) | undefined;
  const stream = (client: MqttClient) => {
    // The next reconnect (if this one fails) waits longer; a successful connect resets it.
    client.options.reconnectPeriod = reconnectDelay(attempt++, options.random());
    const socket = secure
      ? tlsConnect({ host, port, servername: url.hostname, lookup: options.policy.lookup })
      : options.policy.connect(host, port);
    socket.once('error', (error) => {
      failure = error;
    });
    return socket;
  };
  const client = new MqttClient(stream, {
    protocol: secure ? 'mqtts' : 'mqtt',
    host,
    port,
    protocolVersion: 4,
    clientId: connectorClientId(connector.id),
    username: connector.username ?? undefined,
    password: connector.password ?? undefined,
    clean: false,
    reconnectPeriod: reconnectDelay(0, options.random()),
    connectTimeout: 10_000,
    ...(extra.will ? { will: { ...extra.will, qos: 1, retain: false } } : {}),
  });
  // CONNECTED is reported by the protocol client once its subscriptions are acknowledged.
  client.on('connect', () => {
    attempt = 0;
  });
  // Reconnect attempts are no state changes: the connector stays DISCONNECTED (or ERROR) until one
  // succeeds, so an outage is two events, not one per attempt.
  client.on('close', () => {
    if (client.disconnecting) return;
    const error = failure;
    failure = undefined;
    // Refused by the address policy: needs a configuration change, not a retry.
    const refused = error?.code === 'EADDRNOTALLOWED';
    sink.state(refused ? 'ERROR' : 'DISCONNECTED', error ? errorText(error) : undefined);
  });
  client.on('error', (error) => {
    // Refused by the broker (a CONNACK code, e.g. bad credentials): an ERROR.
    const code = (error as { code?: unknown }).code;
    sink.state(typeof code === 'number' ? 'ERROR' : 'DISCONNECTED', errorText(error));
  });
  sink.state('CONNECTING');
  return client;
}
