// The (client id, address) pairs that authenticated with the right secret recently. A client
// whose secret others are guessing from other addresses waits for its hash in a lane of its own
// when it comes from an address it used before, so guesses at its id cannot fill its turn
// (docs/api.md, "Limits"). A new address of the client shares the id's lane with everyone else.
import type { NowMs } from './limits.ts';
import { pairKey } from './pairBackoff.ts';

/** How long a successful pair counts as known. */
const KNOWN_FOR_MS = 24 * 60 * 60 * 1000;

export class KnownAddresses {
  readonly #now: NowMs;
  readonly #maxPairs: number;
  /** Pair -> when it last succeeded; the Map's order is the order of those successes. */
  readonly #pairs = new Map<string, number>();

  constructor(now: NowMs = Date.now, maxPairs = 100_000) {
    this.#now = now;
    this.#maxPairs = maxPairs;
  }

  has(clientId: string, address: string): boolean {
    const key = pairKey(clientId, address);
    const at = this.#pairs.get(key);
    if (at === undefined) return false;
    if (this.#now() - at > KNOWN_FOR_MS) {
      this.#pairs.delete(key);
      return false;
    }
    return true;
  }

  succeeded(clientId: string, address: string): void {
    const key = pairKey(clientId, address);
    this.#pairs.delete(key);
    if (this.#pairs.size >= this.#maxPairs) {
      const oldest = this.#pairs.keys().next().value;
      if (oldest !== undefined) this.#pairs.delete(oldest);
    }
    this.#pairs.set(key, this.#now());
  }

  /** The hash lane of a request: its own for a known pair, else the client id's shared one. */
  lane(clientId: string, address: string): string {
    return this.has(clientId, address) ? pairKey(clientId, address) : clientId;
  }
}
