// OPC UA connector (node-opcua): one session, one subscription, a monitored item per mapped node
// id; every data change is a value. node-opcua reconnects with its connection strategy
// (exponential backoff with randomisation) and restores the session and its subscription.
import type { DataValue, OPCUAClient } from 'node-opcua-client';
import {
  type Connector,
  type OpcUaSource,
  RECONNECT_BASE_MS,
  RECONNECT_MAX_MS,
} from '../domain/connectors.ts';
import { type ClientOptions, errorText, type ProtocolClient, type Sink } from './protocol.ts';

// node-opcua takes about half a second to load: loaded when the first OPC UA connector runs, not
// by every start of the service (and every test process) that never uses one.
const loadOpcUa = () => import('node-opcua-client');

export function opcUaClient(connector: Connector, sink: Sink, options: ClientOptions): ProtocolClient {
  const sources = connector.mappings.map((mapping) => mapping.source as OpcUaSource);
  let client: OPCUAClient | undefined;
  let closed = false;

  async function run() {
    const url = new URL(connector.url);
    try {
      await options.policy.check(url.hostname);
    } catch (error) {
      sink.state('ERROR', errorText(error));
      return;
    }
    const {
      AttributeIds,
      ClientMonitoredItem,
      ClientSubscription,
      MessageSecurityMode,
      OPCUAClient,
      SecurityPolicy,
      TimestampsToReturn,
      UserTokenType,
    } = await loadOpcUa();
    if (closed) return;
    client = OPCUAClient.create({
      applicationName: 'bridge-connector',
      connectionStrategy: {
        initialDelay: RECONNECT_BASE_MS,
        maxDelay: RECONNECT_MAX_MS,
        randomisationFactor: 0.5,
        maxRetry: Number.MAX_SAFE_INTEGER,
      },
      securityMode: MessageSecurityMode[connector.securityMode],
      securityPolicy: connector.securityMode === 'None' ? SecurityPolicy.None : SecurityPolicy.Basic256Sha256,
      endpointMustExist: false,
      keepSessionAlive: true,
      requestedSessionTimeout: 60_000,
    });
    client.on('backoff', (count) => {
      if (count > 0) sink.state('DISCONNECTED', 'OPC UA server not reachable');
    });
    client.on('start_reconnection', () => sink.state('DISCONNECTED', 'connection to the OPC UA server lost'));
    client.on('after_reconnection', () => sink.state('CONNECTED'));
    sink.state('CONNECTING');
    await client.connect(connector.url);
    if (closed) return;
    const session = await client.createSession(
      connector.username
        ? { type: UserTokenType.UserName, userName: connector.username, password: connector.password ?? '' }
        : undefined,
    );
    if (closed) return;
    const subscription = ClientSubscription.create(session, {
      requestedPublishingInterval: 100,
      requestedLifetimeCount: 600,
      requestedMaxKeepAliveCount: 20,
      maxNotificationsPerPublish: 10_000,
      publishingEnabled: true,
      priority: 10,
    });
    subscription.on('error', (error) => sink.state('ERROR', errorText(error)));
    sources.forEach((source, index) => {
      const item = ClientMonitoredItem.create(
        subscription,
        { nodeId: source.nodeId, attributeId: AttributeIds.Value },
        { samplingInterval: source.samplingIntervalMs ?? 100, discardOldest: true, queueSize: 100 },
        TimestampsToReturn.Both,
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
    sink.state('CONNECTED');
  }

  return {
    start() {
      run().catch((error: unknown) => {
        if (!closed) sink.state('ERROR', errorText(error));
      });
    },
    async close() {
      closed = true;
      await client?.disconnect().catch(() => {});
    },
  };
}
