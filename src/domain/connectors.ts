// Connectors (docs/resources/connectors.md): the bridge reads machines over OPC UA, MQTT or
// Sparkplug B and turns each mapped value into a change of the plant image. The rules here are
// pure: what a connector and its mappings are, how a raw value becomes a target's value, the
// reconnect backoff and the lease times.
import { AppError } from './errors.ts';
import { findOperatingState } from './masterData.ts';
import type { QuantityType } from './outputQuantities.ts';

export const CONNECTOR_TYPES = ['MQTT', 'SPARKPLUG_B', 'OPC_UA'] as const;
export type ConnectorType = (typeof CONNECTOR_TYPES)[number];

export const SECURITY_MODES = ['None', 'Sign', 'SignAndEncrypt'] as const;
export type SecurityMode = (typeof SECURITY_MODES)[number];

export const CONNECTOR_STATES = ['DISABLED', 'CONNECTING', 'CONNECTED', 'DISCONNECTED', 'ERROR'] as const;
export type ConnectorState = (typeof CONNECTOR_STATES)[number];

export interface MqttSource {
  /** A topic filter; `+` and `#` allowed. */
  topic: string;
  /** JSON pointer into the payload; absent: the whole payload is the value. */
  valuePath?: string | undefined;
  timestampPath?: string | undefined;
}
export interface SparkplugSource {
  groupId: string;
  edgeNodeId: string;
  /** Absent: a metric of the edge node itself. */
  deviceId?: string | undefined;
  metric: string;
}
export interface OpcUaSource {
  nodeId: string;
  samplingIntervalMs?: number | undefined;
}
type Source = MqttSource | SparkplugSource | OpcUaSource;

interface DeviceSampleTarget {
  kind: 'DEVICE_SAMPLE';
  deviceId: string;
  tag: string;
}
export interface OperatingStateTarget {
  kind: 'OPERATING_STATE';
  workplaceId: string;
  /** Source value (as text) -> operating state code or id. */
  values: Record<string, string>;
  /** The state for any other value; absent: other values are rejected. */
  otherwise?: string | undefined;
}
interface OutputQuantityTarget {
  kind: 'OUTPUT_QUANTITY';
  workplaceId: string;
  quantityType: QuantityType;
}
type Target = DeviceSampleTarget | OperatingStateTarget | OutputQuantityTarget;

export interface Mapping {
  source: Source;
  target: Target;
}

export interface ConnectorInput {
  name: string;
  type: ConnectorType;
  url: string;
  username: string | null;
  /** Write-only. On replace, undefined keeps the stored one and null removes it. */
  password: string | null | undefined;
  securityMode: SecurityMode;
  enabled: boolean;
  mappings: Mapping[];
}

/** One problem in a connector's status history; the same problem again raises `repeated`. */
export interface ConnectorError {
  at: Date;
  message: string;
  /** How often it happened in a row (1: once). */
  repeated: number;
}

export interface ConnectorStatus {
  state: ConnectorState;
  since: Date;
  lastError: string | null;
  /** The last problems, newest first, at most MAX_RECENT_ERRORS. */
  recentErrors: ConnectorError[];
  lastMessageAt: Date | null;
  messagesReceived: number;
  valuesApplied: number;
  valuesRejected: number;
}

export interface Connector extends Omit<ConnectorInput, 'password'> {
  id: string;
  password: string | null;
  /** Raised by every change of the configuration. */
  revision: number;
  status: ConnectorStatus;
  createdAt: Date;
  updatedAt: Date;
}

/** Most mappings one connector takes (one monitored item or subscription each). */
export const MAX_MAPPINGS = 1000;
/** A message larger than this is rejected unread (a flood of huge payloads stays bounded). */
export const MAX_PAYLOAD_BYTES = 64 * 1024;
/** Values waiting to be applied per connector; beyond this they are rejected (counted). */
export const MAX_PENDING_VALUES = 10_000;
/** Samples written in one insert at most; a batch is also written every SAMPLE_FLUSH_MS. */
export const SAMPLE_BATCH_SIZE = 500;
export const SAMPLE_FLUSH_MS = 200;

/** Problems a connector's status keeps (the same one in a row counts once, with `repeated`). */
const MAX_RECENT_ERRORS = 10;

/** A lease lasts this long unless renewed; the owner renews it every LEASE_RENEW_MS. */
export const LEASE_TTL_MS = 10_000;
export const LEASE_RENEW_MS = 2_000;

/** The first reconnect waits about this long, doubling up to RECONNECT_MAX_MS. */
const RECONNECT_BASE_MS = 500;
export const RECONNECT_MAX_MS = 30_000;

/**
 * The wait before reconnect attempt `attempt` (0 = first): exponential, capped, with "equal
 * jitter" (half fixed, half random) so that many connectors do not reconnect in step.
 * `random` is in [0, 1).
 */
export function reconnectDelay(attempt: number, random: number): number {
  const ceiling = Math.min(RECONNECT_MAX_MS, RECONNECT_BASE_MS * 2 ** Math.min(attempt, 20));
  return Math.round(ceiling / 2 + (ceiling / 2) * random);
}

const SCHEMES: Record<ConnectorType, string[]> = {
  MQTT: ['mqtt:', 'mqtts:'],
  SPARKPLUG_B: ['mqtt:', 'mqtts:'],
  OPC_UA: ['opc.tcp:'],
};

const invalid = (field: string, detail: string) =>
  new AppError('VALIDATION_FAILED', { rule: 'value', field, detail });

/** Parses the URL and checks its scheme against the type; credentials belong in username/password. */
export function checkConnectorUrl(type: ConnectorType, text: string): URL {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw invalid('url', 'not an absolute URL');
  }
  if (!SCHEMES[type].includes(url.protocol))
    throw invalid('url', `a ${type} connector takes ${SCHEMES[type].join(' or ')} URLs`);
  if (url.hostname === '') throw invalid('url', 'the URL names no host');
  if (url.username !== '' || url.password !== '')
    throw invalid('url', 'credentials go into username and password, not into the URL');
  return url;
}

/** Which source shape each type takes (the body schema accepts any of the three). */
export function checkSources(type: ConnectorType, mappings: readonly Mapping[]): void {
  mappings.forEach((mapping, index) => {
    const source = mapping.source as Partial<MqttSource & SparkplugSource & OpcUaSource>;
    const field = `mappings[${index}].source`;
    const wanted =
      type === 'MQTT' ? 'topic' : type === 'SPARKPLUG_B' ? 'groupId, edgeNodeId and metric' : 'nodeId';
    const fits =
      type === 'MQTT'
        ? typeof source.topic === 'string' && source.nodeId === undefined && source.metric === undefined
        : type === 'SPARKPLUG_B'
          ? typeof source.groupId === 'string' &&
            typeof source.edgeNodeId === 'string' &&
            typeof source.metric === 'string' &&
            source.topic === undefined &&
            source.nodeId === undefined
          : typeof source.nodeId === 'string' && source.topic === undefined && source.metric === undefined;
    if (!fits) throw invalid(field, `a ${type} source has ${wanted} (and no other kind's fields)`);
    if (type === 'MQTT' && !validTopicFilter(source.topic as string))
      throw invalid(`${field}.topic`, "not a valid MQTT topic filter ('#' only last, '+' a whole level)");
    for (const key of ['valuePath', 'timestampPath'] as const) {
      const pointer = source[key];
      if (pointer !== undefined && pointer !== '' && !pointer.startsWith('/'))
        throw invalid(`${field}.${key}`, "a JSON pointer starts with '/' (or is empty: the whole payload)");
    }
    if (type === 'SPARKPLUG_B') {
      for (const key of ['groupId', 'edgeNodeId', 'deviceId'] as const) {
        const value = source[key];
        if (value !== undefined && /[+#/]/.test(value))
          throw invalid(`${field}.${key}`, "must not contain '+', '#' or '/'");
      }
    }
  });
}

export function validTopicFilter(filter: string): boolean {
  if (filter === '') return false;
  const levels = filter.split('/');
  return levels.every(
    (level, index) =>
      (level === '#' ? index === levels.length - 1 : true) &&
      (level.includes('+') ? level === '+' : true) &&
      (level.includes('#') ? level === '#' : true),
  );
}

/** Whether an MQTT topic matches a filter. */
export function topicMatches(filter: string, topic: string): boolean {
  const wanted = filter.split('/');
  const got = topic.split('/');
  for (let index = 0; index < wanted.length; index++) {
    const level = wanted[index];
    if (level === '#') return true;
    if (index >= got.length) return false;
    if (level !== '+' && level !== got[index]) return false;
  }
  return wanted.length === got.length;
}

/** The state codes an OPERATING_STATE target names must exist; the first that does not is named. */
export function checkStateCodes(mappings: readonly Mapping[]): void {
  mappings.forEach((mapping, index) => {
    const target = mapping.target;
    if (target.kind !== 'OPERATING_STATE') return;
    const field = `mappings[${index}].target`;
    for (const [value, code] of Object.entries(target.values)) {
      if (!findOperatingState(code))
        throw new AppError('INVALID_REFERENCE', {
          field: `${field}.values.${value}`,
          id: code,
          expected: 'operatingState',
        });
    }
    if (target.otherwise !== undefined && !findOperatingState(target.otherwise))
      throw new AppError('INVALID_REFERENCE', {
        field: `${field}.otherwise`,
        id: target.otherwise,
        expected: 'operatingState',
      });
  });
}

/** Reads a JSON pointer (RFC 6901); undefined when the path does not exist. */
export function readPointer(document: unknown, pointer: string | undefined): unknown {
  if (pointer === undefined || pointer === '') return document;
  let current: unknown = document;
  for (const raw of pointer.slice(1).split('/')) {
    const key = raw.replace(/~1/g, '/').replace(/~0/g, '~');
    if (Array.isArray(current)) {
      if (!/^(0|[1-9]\d*)$/.test(key)) return undefined;
      current = current[Number(key)];
    } else if (current !== null && typeof current === 'object') {
      if (!Object.hasOwn(current, key)) return undefined;
      current = (current as Record<string, unknown>)[key];
    } else {
      return undefined;
    }
  }
  return current;
}

/** A value that cannot be applied: counted in valuesRejected, its text becomes lastError. */
export class RejectedValue extends Error {}

/**
 * What an MQTT payload holds for one mapping: with a valuePath the payload is JSON and the value
 * is at that pointer; without one the payload is the value (a JSON scalar or plain text).
 */
export function valueFromPayload(
  payload: string,
  source: MqttSource,
  receivedAt: Date,
): { value: unknown; timestamp: Date } {
  let document: unknown;
  const needsJson = (source.valuePath ?? '') !== '' || source.timestampPath !== undefined;
  try {
    document = JSON.parse(payload);
  } catch {
    if (needsJson) throw new RejectedValue('payload is not JSON');
    document = payload.trim();
  }
  const value = readPointer(document, source.valuePath);
  if (value === undefined) throw new RejectedValue(`payload has no value at '${source.valuePath}'`);
  let timestamp = receivedAt;
  if (source.timestampPath !== undefined) {
    const raw = readPointer(document, source.timestampPath);
    if (raw === undefined) throw new RejectedValue(`payload has no timestamp at '${source.timestampPath}'`);
    timestamp = toTimestamp(raw);
  }
  return { value, timestamp };
}

/** A timestamp in a payload: an ISO 8601 text or epoch milliseconds. */
function toTimestamp(raw: unknown): Date {
  const date =
    typeof raw === 'number' ? new Date(raw) : typeof raw === 'string' ? new Date(raw) : new Date(Number.NaN);
  if (Number.isNaN(date.getTime()) || (typeof raw === 'string' && !/^\d{4}-\d\d-\d\dT/.test(raw)))
    throw new RejectedValue('timestamp is neither ISO 8601 text nor epoch milliseconds');
  return date;
}

/** A machine value as a number: numbers, booleans (1/0), numeric text. */
export function toNumber(value: unknown): number {
  if (typeof value === 'number' && Number.isFinite(value)) return value;
  if (typeof value === 'bigint') return Number(value);
  if (typeof value === 'boolean') return value ? 1 : 0;
  if (typeof value === 'string' && value.trim() !== '' && Number.isFinite(Number(value)))
    return Number(value);
  throw new RejectedValue(`value ${describe(value)} is not a number`);
}

/** The operating state (code or id) a value stands for under an OPERATING_STATE target. */
export function operatingStateFor(target: OperatingStateTarget, value: unknown): string {
  if (value === null || typeof value === 'object')
    throw new RejectedValue(`value ${describe(value)} is not a scalar`);
  const key = String(value);
  const state = Object.hasOwn(target.values, key) ? target.values[key] : target.otherwise;
  if (state === undefined) throw new RejectedValue(`value ${describe(value)} is not mapped to a state`);
  return state;
}

/** A piece counter reads whole numbers from 0. */
export function checkCounterReading(reading: number): number {
  if (!Number.isInteger(reading) || reading < 0)
    throw new RejectedValue(`counter value ${reading} is not a whole number >= 0`);
  return reading;
}

/**
 * A piece counter: the increase since the last reading (the one stored with the last booking,
 * whichever instance made it). The first reading ever only sets the baseline; a reading below
 * the last one is a reset, and counts from zero.
 */
export function counterIncrease(last: number | undefined, reading: number): number {
  checkCounterReading(reading);
  if (last === undefined) return 0;
  return reading >= last ? reading - last : reading;
}

/**
 * The problems `newer` (oldest first) added to the history (newest first): the same message as
 * the newest entry raises its count, and only the newest MAX_RECENT_ERRORS are kept.
 */
export function withErrors(
  history: readonly ConnectorError[],
  newer: readonly ConnectorError[],
): ConnectorError[] {
  const result = [...history];
  for (const error of newer) {
    const newest = result[0];
    if (newest && newest.message === error.message)
      result[0] = { at: error.at, message: error.message, repeated: newest.repeated + error.repeated };
    else result.unshift(error);
  }
  return result.slice(0, MAX_RECENT_ERRORS);
}

/**
 * What identifies a piece counter across restarts and instances: the mapping's source (the
 * machine's counter), not its place in the list, so reordering mappings keeps the stored reading.
 */
export function counterKey(source: Source): string {
  const fields = source as Partial<MqttSource & SparkplugSource & OpcUaSource>;
  return JSON.stringify([
    fields.topic ?? null,
    fields.valuePath ?? null,
    fields.groupId ?? null,
    fields.edgeNodeId ?? null,
    fields.deviceId ?? null,
    fields.metric ?? null,
    fields.nodeId ?? null,
  ]);
}

function describe(value: unknown): string {
  const text = typeof value === 'string' ? JSON.stringify(value) : String(JSON.stringify(value) ?? value);
  return text.length > 60 ? `${text.slice(0, 57)}...` : text;
}

/** A connector's status right after it is configured: disabled, or about to connect. */
export function initialStatus(enabled: boolean, at: Date): ConnectorStatus {
  return {
    state: enabled ? 'CONNECTING' : 'DISABLED',
    since: at,
    lastError: null,
    recentErrors: [],
    lastMessageAt: null,
    messagesReceived: 0,
    valuesApplied: 0,
    valuesRejected: 0,
  };
}
