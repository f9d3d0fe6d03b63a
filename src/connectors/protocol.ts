// The one small interface every protocol client implements (docs/resources/connectors.md,
// "Runtime"): it connects, subscribes to the mapped sources, hands each value to the sink, and
// closes. Reconnecting (with backoff) is the client's own business; it reports its state.

import type { Connector } from '../domain/connectors.ts';
import type { AddressPolicy } from '../net/addressPolicy.ts';

export type LiveState = 'CONNECTING' | 'CONNECTED' | 'DISCONNECTED' | 'ERROR';

/** Where a client puts what it receives. */
export interface Sink {
  state(state: LiveState, error?: string): void;
  /** A message or notification arrived (counted in messagesReceived). */
  message(): void;
  /** A value for the mapping at `index`. */
  value(index: number, value: unknown, timestamp: Date): void;
  /** Something received that cannot be applied (malformed, unknown alias, too large). */
  reject(reason: string): void;
  /** The mappings' values are stale (their source died); counters start from a new baseline. */
  stale(indexes: number[], reason: string): void;
}

export interface ProtocolClient {
  start(): void;
  close(): Promise<void>;
}

export interface ClientOptions {
  policy: AddressPolicy;
  /** The random source of the reconnect jitter. */
  random: () => number;
}

export type ClientFactory = (connector: Connector, sink: Sink, options: ClientOptions) => ProtocolClient;

/** An error as one line without credentials (URLs in messages lose their user info). */
export function errorText(error: unknown): string {
  const text = error instanceof Error ? error.message : String(error);
  return text.replace(/\/\/[^/@\s]*@/g, '//').slice(0, 300);
}
