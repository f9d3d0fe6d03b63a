// Callback registrations (docs/api.md, "Callbacks (event delivery)"): the rules a registration must satisfy.
import { AppError } from './errors.ts';
import { EVENT_OBJECT_TYPES, EXTERNAL_EVENT_TYPE, RESERVED_EVENT_TYPES } from './events.ts';
import { isUuid } from './ids.ts';

export const REDELIVER_DEFAULT = 100;
export const REDELIVER_MAX = 10_000;
export const UNCONFIRMED_DEFAULT = 5000;
export const UNCONFIRMED_MAX = 100_000;

export interface CallbackRegistration {
  eventType: string;
  url: string;
  eventName: string | null;
  /** Event object ids the callback is restricted to; null = every object. */
  objectIds: string[] | null;
  maxRedeliverAttempts: number;
  maxUnconfirmedMessages: number;
  /** Standard Webhooks signing secret (`whsec_` + base64); null = unsigned deliveries. */
  signingSecret: string | null;
}

export interface Callback extends CallbackRegistration {
  id: string;
  clientId: string;
  creationDate: Date;
  lastTriggeredDate: Date | null;
  lastSuccessfulDate: Date | null;
  failedAttempts: number;
  discardedNotifications: number;
  /**
   * Where the registering request reached the service (`https://host/prefix`); deliveries link
   * back there unless a public URL is configured. Null for callbacks registered before it was kept.
   */
  linkRoot: string | null;
}

export interface CallbackRequest {
  eventType: string;
  url: string;
  eventName?: string | null;
  objectFilter?: { name: string; value: string }[] | null;
  maxRedeliverAttempts?: number;
  maxRedeliveryAttempts?: number;
  maxUnconfirmedMessages?: number;
  secret?: string | null;
}

const SUBSCRIBABLE = new Set([...Object.keys(EVENT_OBJECT_TYPES), EXTERNAL_EVENT_TYPE]);

const invalid = (field: string, detail: string) =>
  new AppError('VALIDATION_FAILED', { rule: 'value', field, detail });

/** The destination rule (the SSRF address policy): why a URL host is refused, or null. */
export interface DestinationRule {
  literalRefusal(host: string): string | null;
}

/** Checks a registration request against the documented rules; every refusal names the field. */
export function toRegistration(
  request: CallbackRequest,
  mqttPort: number,
  destinations?: DestinationRule,
): CallbackRegistration {
  if ((RESERVED_EVENT_TYPES as readonly string[]).includes(request.eventType)) {
    throw invalid('eventType', `${request.eventType} is reserved for the platform`);
  }
  if (!SUBSCRIBABLE.has(request.eventType))
    throw invalid('eventType', `unknown event type ${request.eventType}`);
  checkUrl(request.url, mqttPort, destinations);

  const { maxRedeliverAttempts: a, maxRedeliveryAttempts: b } = request;
  if (a !== undefined && b !== undefined && a !== b) {
    throw invalid('maxRedeliveryAttempts', 'differs from maxRedeliverAttempts; send one of them');
  }
  const objectIds = (request.objectFilter ?? []).map((filter, index) => {
    if (filter.name !== 'id') throw invalid(`objectFilter.${index}.name`, "only 'id' is supported");
    const value = filter.value.toLowerCase();
    if (!isUuid(value)) throw invalid(`objectFilter.${index}.value`, 'must be a UUID');
    return value;
  });
  return {
    eventType: request.eventType,
    url: request.url,
    eventName: request.eventName ?? null,
    objectIds: objectIds.length === 0 ? null : objectIds,
    maxRedeliverAttempts: a ?? b ?? REDELIVER_DEFAULT,
    maxUnconfirmedMessages: request.maxUnconfirmedMessages ?? UNCONFIRMED_DEFAULT,
    signingSecret: request.secret ?? null,
  };
}

function checkUrl(text: string, mqttPort: number, destinations: DestinationRule | undefined): void {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw invalid('url', 'not a valid URL');
  }
  if (url.hostname === '') throw invalid('url', 'needs a host');
  // A denied address literal, in any form (127.1, 2130706433, [::ffff:7f00:1]); host names are
  // checked on the addresses they resolve to, at every connection.
  const refused = destinations?.literalRefusal(url.hostname) ?? null;
  if (refused !== null) throw invalid('url', refused);
  // Deliveries decode the userinfo (Basic Auth) and the MQTT topic: a bad escape is refused here.
  const decoded = (part: string) => {
    try {
      return decodeURIComponent(part);
    } catch {
      throw invalid('url', 'has an invalid percent-encoding');
    }
  };
  decoded(url.username);
  decoded(url.password);
  if (url.protocol === 'http:' || url.protocol === 'https:') return;
  if (url.protocol !== 'mqtt:') throw invalid('url', 'scheme must be http, https or mqtt');
  if (Number(url.port || 1883) !== mqttPort) throw invalid('url', `MQTT port must be ${mqttPort}`);
  const topic = decoded(url.pathname.replace(/^\//, ''));
  if (topic !== 'external' && !topic.startsWith('external/'))
    throw invalid('url', "MQTT topic must begin with 'external'");
  // A bare '#' starts the URL fragment, so it never reaches the path: look at the whole URL.
  if (/[#+]/.test(topic) || url.href.includes('#'))
    throw invalid('url', 'MQTT topic must not contain wildcards');
  if (url.search !== '') throw invalid('url', 'MQTT URL must not have a query; the topic is the path');
}

/** The MQTT topic of a callback URL: its path without the leading slash. */
export const mqttTopic = (url: URL) => decodeURIComponent(url.pathname.replace(/^\//, ''));

/** The URL as shown to people and logs: a password never appears. */
export function maskUrl(text: string): string {
  const url = new URL(text);
  if (url.password !== '') url.password = '****';
  return url.toString();
}
