// OPC UA connector (node-opcua): one session, one subscription, a monitored item per mapped node
// id; every data change is a value. Reconnecting is this client's own loop, not node-opcua's
// (its connection strategy is switched off): each attempt resolves the host through the address
// policy and connects to the address it checked, and a failed attempt (no connection, no session,
// no subscription) tears the client down and waits the connector's backoff. CONNECTED is only
// reported once the session and its subscription are live; losing them makes every mapped value
// stale. A new subscription sends each item's current value, so a piece counter is read again
// on every (re)connect and the difference to the stored reading is booked.
import type { DataValue, OPCUAClient } from 'node-opcua-client';
import { type Connector, type OpcUaSource, reconnectDelay } from '../domain/connectors.ts';
import { literalAddress } from '../net/addressPolicy.ts';
import { type ClientOptions, errorText, type LiveState, type ProtocolClient, type Sink } from './protocol.ts';

// node-opcua takes about half a second to load: loaded when the first OPC UA connector runs, not
// by every start of the service (and every test process) that never uses one.
const loadOpcUa = () => import('node-opcua-client');
type OpcUa = Awaited<ReturnType<typeof loadOpcUa>>;

/** How long closing a session and its channel may take before the client is dropped anyway. */
const DISCONNECT_TIMEOUT_MS = 5_000;
const DEFAULT_PORT = 4840;

/** A failed attempt: the state it leaves the connector in and why. */
class AttemptFailed extends Error {
  readonly state: LiveState;
  constructor(state: LiveState, message: string) {
    super(message);
    this.state = state;
  }
}

export function opcUaClient(connector: Connector, sink: Sink, options: ClientOptions): ProtocolClient {
  const sources = connector.mappings.map((mapping) => mapping.source as OpcUaSource);
  const allIndexes = sources.map((_, index) => index);
  let client: OPCUAClient | undefined;
  let closed = false;
  /** Ends the backoff wait or a live connection early (close()). */
  let interrupt: (() => void) | undefined;

  /** The checked address to connect to: a permitted literal, or the host resolved by the policy. */
  async function checkedAddress(host: string): Promise<string> {
    const literal = literalAddress(host);
    if (literal !== null) {
      if (!options.policy.permits(literal))
        throw new AttemptFailed('ERROR', `address ${literal} is not allowed for connectors`);
      return literal;
    }
    return new Promise((resolve, reject) => {
      options.policy.lookup(host, {}, (error, address) => {
        if (!error) return resolve(address as string);
        const refused = (error as { code?: unknown }).code === 'EADDRNOTALLOWED';
        reject(new AttemptFailed(refused ? 'ERROR' : 'DISCONNECTED', errorText(error)));
      });
    });
  }

  /**
   * One attempt: connect, create the session and the subscription, monitor every mapped node.
   * Resolves once they are live, with a promise of why they were lost (in an object: a promise
   * returned as such would be awaited).
   */
  async function attempt(opcua: OpcUa): Promise<{ lost: Promise<string> }> {
    const url = new URL(connector.url);
    const address = await checkedAddress(url.hostname.replace(/^\[|\]$/g, ''));
    const host = address.includes(':') ? `[${address}]` : address;
    const endpoint = `opc.tcp://${host}:${url.port || DEFAULT_PORT}${url.pathname === '/' ? '' : url.pathname}`;
    const created = opcua.OPCUAClient.create({
      applicationName: 'bridge-connector',
      // No retries of its own: every attempt is this loop's, through the address policy.
      connectionStrategy: { maxRetry: 0, initialDelay: 100, maxDelay: 100 },
      securityMode: opcua.MessageSecurityMode[connector.securityMode],
      securityPolicy:
        connector.securityMode === 'None' ? opcua.SecurityPolicy.None : opcua.SecurityPolicy.Basic256Sha256,
      endpointMustExist: false,
      keepSessionAlive: true,
      requestedSessionTimeout: 60_000,
    });
    client = created;
    let lose: (reason: string) => void = () => {};
    const lost = new Promise<string>((resolve) => {
      lose = resolve;
    });
    created.on('connection_lost', () => lose('connection to the OPC UA server lost'));
    created.on('close', (error?: Error | null) => lose(error ? errorText(error) : 'connection closed'));
    try {
      await created.connect(endpoint);
    } catch (error) {
      throw new AttemptFailed('DISCONNECTED', `OPC UA server not reachable: ${errorText(error)}`);
    }
    if (closed) return { lost };
    try {
      const session = await created.createSession(
        connector.username
          ? {
              type: opcua.UserTokenType.UserName,
              userName: connector.username,
              password: connector.password ?? '',
            }
          : undefined,
      );
      session.on('session_closed', () => lose('session closed'));
      session.on('keepalive_failure', () => lose('session keep-alive failed'));
      const subscription = await session.createSubscription2({
        requestedPublishingInterval: 100,
        requestedLifetimeCount: 600,
        requestedMaxKeepAliveCount: 20,
        maxNotificationsPerPublish: 10_000,
        publishingEnabled: true,
        priority: 10,
      });
      subscription.on('terminated', () => lose('subscription terminated'));
      subscription.on('internal_error', (error: Error) => lose(`subscription failed: ${errorText(error)}`));
      sources.forEach((source, index) => {
        const item = opcua.ClientMonitoredItem.create(
          subscription,
          { nodeId: source.nodeId, attributeId: opcua.AttributeIds.Value },
          // The server keeps up to queueSize changes per item between two publishes: enough for
          // the sampling rate over a few publishing intervals, so changes are not overwritten.
          { samplingInterval: source.samplingIntervalMs ?? 100, discardOldest: true, queueSize: 100 },
          opcua.TimestampsToReturn.Both,
        );
        item.on('err', (message) => sink.reject(`node ${source.nodeId}: ${message}`));
        item.on('changed', (dataValue: DataValue) => {
          sink.message();
          if (!dataValue.statusCode.isGoodish()) {
            sink.reject(`node ${source.nodeId}: status ${dataValue.statusCode.name}`);
            return;
          }
          const timestamp = dataValue.sourceTimestamp ?? dataValue.serverTimestamp ?? new Date();
          sink.value(index, dataValue.value.value, timestamp);
        });
      });
    } catch (error) {
      // Connected, but the server refuses the session or subscription (a security mode it does not
      // offer, a rejected identity): retried, but shown as ERROR.
      throw new AttemptFailed('ERROR', errorText(error));
    }
    return { lost };
  }

  async function teardown(): Promise<void> {
    const current = client;
    client = undefined;
    if (!current) return;
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([
      current.disconnect().catch(() => {}),
      new Promise<void>((resolve) => {
        timer = setTimeout(resolve, DISCONNECT_TIMEOUT_MS);
      }),
    ]);
    clearTimeout(timer);
  }

  /** Waits `ms` unless closed meanwhile. */
  function pause(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const timer = setTimeout(resolve, ms);
      interrupt = () => {
        clearTimeout(timer);
        resolve();
      };
    });
  }

  async function run(): Promise<void> {
    const opcua = await loadOpcUa();
    let failures = 0;
    sink.state('CONNECTING');
    while (!closed) {
      let outcome: { state: LiveState; message: string };
      try {
        const { lost } = await attempt(opcua);
        if (closed) break;
        failures = 0;
        sink.state('CONNECTED');
        const reason = await Promise.race([
          lost,
          new Promise<string>((resolve) => {
            interrupt = () => resolve('closed');
          }),
        ]);
        if (closed) break;
        sink.stale(allIndexes, `OPC UA session lost: ${reason}`);
        outcome = { state: 'DISCONNECTED', message: reason };
      } catch (error) {
        outcome =
          error instanceof AttemptFailed
            ? { state: error.state, message: error.message }
            : { state: 'ERROR', message: errorText(error) };
      }
      await teardown();
      if (closed) break;
      // The same failure again is no new state (no event); its error joins the history.
      sink.state(outcome.state, outcome.message);
      await pause(reconnectDelay(failures++, options.random()));
    }
    await teardown();
  }

  return {
    start() {
      run().catch((error: unknown) => {
        if (!closed) sink.state('ERROR', errorText(error));
      });
    },
    async close() {
      closed = true;
      interrupt?.();
      await teardown();
    },
  };
}
