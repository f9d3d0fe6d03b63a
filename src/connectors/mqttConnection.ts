// An MQTT connection for the MQTT and Sparkplug B clients: every connection, reconnects included,
// goes through the address policy; reconnects wait with exponential backoff and jitter.
import { randomBytes } from 'node:crypto';
import { connect as tlsConnect } from 'node:tls';
import { MqttClient } from 'mqtt';
import { type Connector, reconnectDelay } from '../domain/connectors.ts';
import { literalAddress } from '../net/addressPolicy.ts';
import { type ClientOptions, errorText, type Sink } from './protocol.ts';

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
    clientId: `bridge-connector-${randomBytes(6).toString('hex')}`,
    username: connector.username ?? undefined,
    password: connector.password ?? undefined,
    clean: true,
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
