// A short-lived memory of (client id, secret) pairs that were verified, so a valid client does not
// pay the secret hash (scrypt) on every token request. Keyed by an HMAC under a key made at start
// and never stored: the memory holds no secret and nothing a secret could be guessed from offline.
// An entry also holds the stored hash it was verified against: a changed secret misses at once.
import { createHmac, randomBytes } from 'node:crypto';
import type { NowMs } from './limits.ts';

interface Entry {
  secretHash: string;
  expiresAt: number;
}

export class VerifiedSecrets {
  readonly #key = randomBytes(32);
  readonly #ttlMs: number;
  readonly #maxEntries: number;
  readonly #now: NowMs;
  readonly #entries = new Map<string, Entry>();

  constructor(ttlSeconds: number, now: NowMs = Date.now, maxEntries = 10_000) {
    this.#ttlMs = ttlSeconds * 1000;
    this.#now = now;
    this.#maxEntries = maxEntries;
  }

  /** Whether this pair was verified against `secretHash` within the lifetime. */
  has(clientId: string, secret: string, secretHash: string): boolean {
    if (this.#ttlMs === 0) return false;
    const key = this.#digest(clientId, secret);
    const entry = this.#entries.get(key);
    if (entry === undefined) return false;
    if (entry.expiresAt <= this.#now() || entry.secretHash !== secretHash) {
      this.#entries.delete(key);
      return false;
    }
    return true;
  }

  remember(clientId: string, secret: string, secretHash: string): void {
    if (this.#ttlMs === 0) return;
    const key = this.#digest(clientId, secret);
    this.#entries.delete(key);
    if (this.#entries.size >= this.#maxEntries) {
      const oldest = this.#entries.keys().next().value;
      if (oldest !== undefined) this.#entries.delete(oldest);
    }
    this.#entries.set(key, { secretHash, expiresAt: this.#now() + this.#ttlMs });
  }

  // Lengths first, so no two different pairs give the same input.
  #digest(clientId: string, secret: string): string {
    return createHmac('sha256', this.#key)
      .update(`${clientId.length}:${clientId}:${secret.length}:${secret}`)
      .digest('base64url');
  }
}
