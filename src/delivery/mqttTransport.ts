// MQTT deliveries: QoS 1 publish, PUBACK = confirmed. One connection per broker, which
// reconnects on its own; while it is down, deliveries fail fast and are retried later. Every
// connection, the reconnects included, goes through the address policy (its stream builder).
import { randomBytes } from 'node:crypto';
import { type IClientPublishOptions, MqttClient } from 'mqtt';
import { mqttTopic } from '../domain/callbacks.ts';
import { type AddressPolicy, literalAddress } from '../net/addressPolicy.ts';
import { Deadline, DeadlineList } from './deadlines.ts';
import { CONTENT_TYPE_HEADER } from './payload.ts';
import { failure, noAnswer, type SendResult, type Transport } from './transport.ts';

/** How finely the PUBACK timeout is checked: a publish fails between the timeout and one tick later. */
const TIMEOUT_TICK_MS = 10;

/** One QoS 1 publish waiting for its PUBACK, and its deadline at once. */
class Publish extends Deadline {
  readonly #transport: MqttTransport;
  readonly #resolve: (result: SendResult) => void;
  #settled = false;

  constructor(transport: MqttTransport, resolve: (result: SendResult) => void) {
    super();
    this.#transport = transport;
    this.#resolve = resolve;
  }

  /** mqtt.js's callback of the publish: its PUBACK, or why it failed. */
  readonly acknowledged = (error?: Error): void => {
    if (this.#settled) return;
    this.#settled = true;
    this.#transport.deadlines.remove(this);
    this.#resolve(error ? failure(error) : DELIVERED);
  };

  expired(): void {
    if (this.#settled) return;
    this.#settled = true;
    // The broker took the publish but did not confirm it in time.
    this.#resolve(noAnswer(this.#transport.timeoutText));
  }
}

/** What a send needs of a callback URL, worked out once per URL object (the worker keeps them). */
interface Target {
  /** The connection's key: broker and credentials. */
  key: string;
  topic: string;
}

const DELIVERED: SendResult = Object.freeze({ ok: true, statusCode: null, error: null, unresponsive: false });

export class MqttTransport implements Transport {
  readonly #clients = new Map<string, Promise<MqttClient>>();
  /** The clients whose first connection attempt has ended, for sends that need not wait for it. */
  readonly #opened = new Map<string, MqttClient>();
  readonly #targets = new WeakMap<URL, Target>();
  readonly #timeoutMs: number;
  readonly #policy: AddressPolicy;
  /** Why a client's last connection attempt failed (shown while it is down). */
  readonly #lastError = new WeakMap<MqttClient, string>();

  /** Every publish's PUBACK timeout under one timer (src/delivery/deadlines.ts). */
  readonly deadlines: DeadlineList;
  /** Why a publish that got no PUBACK in time failed. */
  readonly timeoutText: string;

  constructor(options: { timeoutMs: number; policy: AddressPolicy }) {
    this.#timeoutMs = options.timeoutMs;
    this.#policy = options.policy;
    this.deadlines = new DeadlineList(options.timeoutMs, TIMEOUT_TICK_MS);
    this.timeoutText = `no PUBACK within ${options.timeoutMs} ms`;
  }

  async send(url: URL, body: Buffer, headers: string[]): Promise<SendResult> {
    try {
      const target = this.#target(url);
      const client = this.#opened.get(target.key) ?? (await this.#client(url, target.key));
      if (!client.connected) {
        const reason = this.#lastError.get(client);
        return noAnswer(`MQTT broker not connected${reason ? ` (${reason})` : ''}`);
      }
      return await this.#publish(client, target.topic, body, headers);
    } catch (error) {
      return failure(error);
    }
  }

  /**
   * A QoS 1 publish, confirmed by its PUBACK within the timeout: one promise per publish, its
   * timeout in the list of all of them (mqtt.js's callback, not its promise raced against a
   * second one).
   */
  #publish(client: MqttClient, topic: string, body: Buffer, headers: string[]) {
    const options: IClientPublishOptions = { qos: 1 };
    // MQTT 5 carries the extras as user properties, the content type as its own property; a
    // 3.1.1-only broker gets the body alone.
    if (client.options.protocolVersion === 5) {
      const userProperties: Record<string, string> = {};
      for (let index = 0; index < headers.length; index += 2) {
        const name = headers[index] as string;
        if (name !== CONTENT_TYPE_HEADER[0]) userProperties[name] = headers[index + 1] as string;
      }
      options.properties = { contentType: CONTENT_TYPE_HEADER[1], userProperties };
    }
    return new Promise<SendResult>((resolve) => {
      const publish = new Publish(this, resolve);
      this.deadlines.add(publish);
      client.publish(topic, body, options, publish.acknowledged);
    });
  }

  #target(url: URL): Target {
    let target = this.#targets.get(url);
    if (target === undefined) {
      target = {
        key: `${url.username}:${url.password}@${url.hostname}:${url.port || 1883}`,
        topic: mqttTopic(url),
      };
      this.#targets.set(url, target);
    }
    return target;
  }

  /** The connection for the URL's broker and credentials, opened on first use. */
  #client(url: URL, key: string): Promise<MqttClient> {
    let client = this.#clients.get(key);
    if (!client) {
      const opened = this.#connect(url);
      client = opened;
      this.#clients.set(key, opened);
      const forget = () => {
        if (this.#clients.get(key) !== opened) return;
        this.#clients.delete(key);
        this.#opened.delete(key);
      };
      opened.then((connected) => {
        this.#opened.set(key, connected);
        // A broker that was down at the first connect and refuses version 5 on a reconnect
        // (3.1.1 only): drop this client, so the next send opens one with the fallback.
        connected.on('error', (error) => {
          if (connected.options.protocolVersion === 5 && (error as { code?: number }).code === 1) {
            forget();
            void connected.endAsync(true);
          }
        });
      }, forget);
    }
    return client;
  }

  async #connect(url: URL): Promise<MqttClient> {
    await this.#policy.check(url.hostname);
    // MQTT 5 carries the extras as user properties; a 3.1.1-only broker (such as the embedded
    // one) refuses version 5, and then gets the same body without them.
    return this.#open(url, 5);
  }

  async #open(url: URL, protocolVersion: 4 | 5): Promise<MqttClient> {
    // mqtt: URLs keep hosts as written (127.1, 2130706433): connect to the address they stand for.
    const host = literalAddress(url.hostname) ?? url.hostname;
    const port = Number(url.port || 1883);
    // Called for the first connect and for every reconnect: each one is checked.
    const connect = (connecting: MqttClient) => {
      const socket = this.#policy.connect(host, port);
      socket.once('error', (error) => this.#lastError.set(connecting, error.message));
      return socket;
    };
    const client = new MqttClient(connect, {
      protocol: 'mqtt',
      host,
      port,
      protocolVersion,
      clientId: `bridge-${randomBytes(6).toString('hex')}`,
      username: url.username === '' ? undefined : decodeURIComponent(url.username),
      password: url.password === '' ? undefined : decodeURIComponent(url.password),
      reconnectPeriod: 1000,
      connectTimeout: this.#timeoutMs,
      // mqtt.js logs through `debug` several times per publish, a cost even when switched off.
      // Connection failures still show as failed deliveries.
      log: noLog,
    });
    const refusedVersion = await new Promise<boolean>((resolve) => {
      client.once('connect', () => resolve(false));
      client.once('error', (error) =>
        resolve(protocolVersion === 5 && (error as { code?: number }).code === 1),
      );
      setTimeout(() => resolve(false), this.#timeoutMs).unref();
    });
    client.on('error', () => {}); // it reconnects on its own; failures show up as failed deliveries
    if (refusedVersion) {
      await client.endAsync(true);
      return this.#open(url, 4);
    }
    return client;
  }

  async close(): Promise<void> {
    const clients = await Promise.allSettled(this.#clients.values());
    this.#clients.clear();
    this.#opened.clear();
    await Promise.all(
      clients.map((result) => (result.status === 'fulfilled' ? result.value.endAsync(true) : undefined)),
    );
  }
}

function noLog(): void {}
