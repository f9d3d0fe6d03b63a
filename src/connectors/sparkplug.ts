// Sparkplug B connector: an MQTT client on the edge nodes' namespace (spBv1.0/<group>/<type>/<edge>[/<device>]).
// Birth certificates (NBIRTH, DBIRTH) give each metric's name and alias; data messages (NDATA,
// DDATA) may name metrics by alias only. Every message of a node carries `seq` (0..255, one more
// each time): a gap, or data without a birth, asks the node for a rebirth (NCMD
// `Node Control/Rebirth`). NDEATH and DDEATH make the values of that node or device stale; an
// NDEATH whose bdSeq is not the one of the node's current birth is a stale death (an earlier
// session's will, delivered late) and is ignored, as Sparkplug 3.0 requires of a host.
import sparkplug from 'sparkplug-payload';
import type { Connector, SparkplugSource } from '../domain/connectors.ts';
import { MAX_PAYLOAD_BYTES } from '../domain/connectors.ts';
import { openMqtt, subscribeAll } from './mqttConnection.ts';
import type { ClientOptions, ProtocolClient, Sink } from './protocol.ts';

const found = sparkplug.get('spBv1.0');
if (!found) throw new Error('sparkplug-payload has no spBv1.0 codec');
const codec = found;
const NAMESPACE = 'spBv1.0';
const REBIRTH_METRIC = 'Node Control/Rebirth';
/** One rebirth request per node in this time at most, whatever arrives meanwhile. */
const REBIRTH_INTERVAL_MS = 5_000;

interface Metric {
  name?: string | null;
  alias?: number | { toString(): string } | null;
  value?: unknown;
  timestamp?: number | { toNumber(): number } | null;
  isNull?: boolean | null;
}

interface NodeState {
  /** Alias -> metric name, per device ('' for the node itself). */
  aliases: Map<string, Map<string, string>>;
  /** The seq expected next; undefined until a birth. */
  nextSeq: number | undefined;
  /** The bdSeq of the node's current birth (its session); undefined before one or without it. */
  bdSeq: number | undefined;
  lastRebirthRequest: number;
}

const BD_SEQ = 'bdSeq';

const scalar = (value: unknown): unknown =>
  value !== null && typeof value === 'object' && 'toNumber' in value
    ? (value as { toNumber(): number }).toNumber()
    : value;

export function sparkplugClient(connector: Connector, sink: Sink, options: ClientOptions): ProtocolClient {
  const sources = connector.mappings.map((mapping) => mapping.source as SparkplugSource);
  const nodes = new Map<string, NodeState>();
  const nodeKeys = [...new Set(sources.map((source) => `${source.groupId}/${source.edgeNodeId}`))];
  let client: ReturnType<typeof openMqtt> | undefined;

  const nodeState = (key: string): NodeState => {
    let state = nodes.get(key);
    if (!state) {
      state = {
        aliases: new Map(),
        nextSeq: undefined,
        bdSeq: undefined,
        lastRebirthRequest: Number.NEGATIVE_INFINITY,
      };
      nodes.set(key, state);
    }
    return state;
  };

  function requestRebirth(groupId: string, edgeNodeId: string, state: NodeState, reason: string) {
    const now = Date.now();
    if (now - state.lastRebirthRequest < REBIRTH_INTERVAL_MS) {
      sink.reject(`${groupId}/${edgeNodeId}: ${reason}; rebirth already requested`);
      return;
    }
    state.lastRebirthRequest = now;
    sink.reject(`${groupId}/${edgeNodeId}: ${reason}; rebirth requested`);
    const payload = codec.encodePayload({
      timestamp: now,
      metrics: [{ name: REBIRTH_METRIC, type: 'Boolean', value: true }],
    });
    client?.publish(`${NAMESPACE}/${groupId}/NCMD/${edgeNodeId}`, Buffer.from(payload), { qos: 0 });
  }

  function apply(
    groupId: string,
    edgeNodeId: string,
    deviceId: string,
    metrics: Metric[],
    at: Date,
    state: NodeState,
  ) {
    const aliases = state.aliases.get(deviceId);
    for (const metric of metrics) {
      let name = metric.name ?? undefined;
      if (name === undefined || name === '') {
        const alias = metric.alias === null || metric.alias === undefined ? undefined : String(metric.alias);
        name = alias === undefined ? undefined : aliases?.get(alias);
        if (name === undefined) {
          requestRebirth(groupId, edgeNodeId, state, `unknown alias ${alias ?? '(none)'}`);
          continue;
        }
      }
      const timestamp =
        metric.timestamp === null || metric.timestamp === undefined
          ? at
          : new Date(Number(scalar(metric.timestamp)));
      sources.forEach((source, index) => {
        if (
          source.groupId === groupId &&
          source.edgeNodeId === edgeNodeId &&
          (source.deviceId ?? '') === deviceId &&
          source.metric === name
        ) {
          if (metric.isNull) sink.reject(`${groupId}/${edgeNodeId}: metric '${name}' is null`);
          else sink.value(index, scalar(metric.value), timestamp);
        }
      });
    }
  }

  function staleOf(groupId: string, edgeNodeId: string, deviceId: string | undefined, reason: string) {
    const indexes = sources.flatMap((source, index) =>
      source.groupId === groupId &&
      source.edgeNodeId === edgeNodeId &&
      (deviceId === undefined || (source.deviceId ?? '') === deviceId)
        ? [index]
        : [],
    );
    if (indexes.length > 0) sink.stale(indexes, reason);
  }

  function onMessage(topic: string, payload: Buffer) {
    const parts = topic.split('/');
    const [namespace, groupId, messageType, edgeNodeId, deviceId = ''] = parts;
    if (namespace !== NAMESPACE || !groupId || !messageType || !edgeNodeId) return;
    if (messageType === 'NCMD' || messageType === 'DCMD' || messageType === 'STATE') return;
    sink.message();
    if (payload.length > MAX_PAYLOAD_BYTES) {
      sink.reject(`payload of ${payload.length} bytes on '${topic}' exceeds ${MAX_PAYLOAD_BYTES}`);
      return;
    }
    let decoded: { timestamp?: unknown; seq?: unknown; metrics?: Metric[] | null };
    try {
      decoded = codec.decodePayload(payload) as typeof decoded;
    } catch {
      sink.reject(`'${topic}': not a Sparkplug B payload`);
      return;
    }
    const key = `${groupId}/${edgeNodeId}`;
    const state = nodeState(key);
    const metrics = decoded.metrics ?? [];
    const at =
      decoded.timestamp === undefined || decoded.timestamp === null
        ? new Date()
        : new Date(Number(scalar(decoded.timestamp)));
    const seq = decoded.seq === undefined || decoded.seq === null ? undefined : Number(scalar(decoded.seq));

    const bdSeqOf = () => {
      const metric = metrics.find((candidate) => candidate.name === BD_SEQ);
      const value = metric === undefined ? undefined : Number(scalar(metric.value));
      return value === undefined || Number.isNaN(value) ? undefined : value;
    };
    if (messageType === 'NDEATH') {
      const died = bdSeqOf();
      if (died !== undefined && state.bdSeq !== undefined && died !== state.bdSeq) {
        sink.reject(`${key}: NDEATH with bdSeq ${died} ignored, the node's session has bdSeq ${state.bdSeq}`);
        return;
      }
      state.nextSeq = undefined;
      state.bdSeq = undefined;
      state.aliases.clear();
      staleOf(groupId, edgeNodeId, undefined, `edge node ${key} died (NDEATH)`);
      return;
    }
    if (messageType === 'NBIRTH') {
      state.bdSeq = bdSeqOf();
      state.aliases.clear();
      state.nextSeq = seq === undefined ? undefined : (seq + 1) % 256;
    } else {
      // Every other message of the node continues the sequence.
      if (state.nextSeq === undefined) {
        requestRebirth(groupId, edgeNodeId, state, `${messageType} before a birth certificate`);
        return;
      }
      if (seq !== state.nextSeq) {
        const due = state.nextSeq;
        state.nextSeq = undefined;
        requestRebirth(groupId, edgeNodeId, state, `seq ${seq ?? '(none)'} where ${due} was due`);
        return;
      }
      state.nextSeq = (state.nextSeq + 1) % 256;
    }
    if (messageType === 'DDEATH') {
      state.aliases.delete(deviceId);
      staleOf(groupId, edgeNodeId, deviceId, `device ${key}/${deviceId} died (DDEATH)`);
      return;
    }
    if (messageType === 'NBIRTH' || messageType === 'DBIRTH') {
      const aliases = new Map<string, string>();
      for (const metric of metrics) {
        if (metric.alias !== null && metric.alias !== undefined && metric.name)
          aliases.set(String(metric.alias), metric.name);
      }
      state.aliases.set(messageType === 'NBIRTH' ? '' : deviceId, aliases);
    }
    if (['NBIRTH', 'DBIRTH', 'NDATA', 'DDATA'].includes(messageType)) {
      apply(groupId, edgeNodeId, messageType.startsWith('N') ? '' : deviceId, metrics, at, state);
    }
  }

  return {
    start() {
      client = openMqtt(connector, sink, options);
      client.on('connect', () => {
        const filters = nodeKeys.map((key) => {
          const [groupId, edgeNodeId] = key.split('/');
          return `${NAMESPACE}/${groupId}/+/${edgeNodeId}/#`;
        });
        if (client) subscribeAll(client, filters, sink);
      });
      client.on('message', (topic, payload) => onMessage(topic, payload));
    },
    async close() {
      await client?.endAsync(true);
    },
  };
}
