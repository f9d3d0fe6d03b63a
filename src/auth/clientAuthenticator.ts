// Client authentication at the token endpoint, built so that a valid client's cost does not
// depend on what attackers send (docs/api.md, "Limits", token endpoint):
// - a pair verified recently is answered from memory (VerifiedSecrets): no hash;
// - an unknown client id is never hashed: it waits as long as a wrong secret of a known id takes
//   (a timer, no CPU), so neither the answer time nor the hash budget tells which ids exist;
// - hashes run under a budget shared in turn between client ids (FairHashBudget), not per address;
//   a client at an address it authenticated from before has a lane of its own (KnownAddresses),
//   so guesses at its id from elsewhere cannot fill its turn;
// - failures slow down the (client id, address) pair that makes them (pairBackoff), and an address
//   that fails with any ids is refused for a while (failureLimiter): a guesser cannot lock a client
//   out at the client's own address;
// - requests of one address are not limited in number: concurrent ones wait for a hash in turn.
import { setTimeout as delay } from 'node:timers/promises';
import { Counter, type Registry } from 'prom-client';
import type { TokenEndpointLimits } from '../config.ts';
import type { Database } from '../db/database.ts';
import { findClient, type OAuthClient } from '../db/repositories/clientRepository.ts';
import { addressGroup } from '../net/peerAddress.ts';
import { FairHashBudget } from './fairHashBudget.ts';
import { KnownAddresses } from './knownAddresses.ts';
import { failureLimiter, type NowMs, QueueFullError } from './limits.ts';
import { pairBackoff, pairKey } from './pairBackoff.ts';
import { HASH_MS_AT_START, verifySecret } from './secrets.ts';
import { type Credentials, OAuthError } from './tokenEndpoint.ts';
import { VerifiedSecrets } from './verifiedSecrets.ts';

const CLIENT_FAILED = 'Client authentication failed.';
// No real client has ids or secrets this long; longer values are refused before any lookup or hash.
const MAX_ID_LENGTH = 256;
const MAX_SECRET_LENGTH = 1024;
// Control characters (NUL included); U+FFFD is what undecodable (non-UTF-8) bytes become.
const UNUSABLE = /[\p{Cc}\ufffd]/u;

/**
 * A value that cannot be any client's credential: NUL (PostgreSQL text cannot hold it, and scrypt
 * treats trailing NULs of a secret as absent), control characters, undecodable bytes, lone
 * surrogates, or absurd length.
 */
const unusable = (value: string, maxLength: number) =>
  value.length > maxLength || UNUSABLE.test(value) || !value.isWellFormed();

/** How a client check was decided (the metric `bridge_token_client_checks_total`). */
export type CheckKind = 'remembered' | 'hashed' | 'unknown_client' | 'refused' | 'unusable';

export class ClientAuthenticator {
  readonly #db: Database;
  readonly #byAddress: ReturnType<typeof failureLimiter>;
  readonly #backoff: ReturnType<typeof pairBackoff>;
  readonly #hashing: FairHashBudget;
  readonly #verified: VerifiedSecrets;
  readonly #known: KnownAddresses;
  readonly #answerTime = new AnswerTime(HASH_MS_AT_START);
  readonly #checks: Counter<'how'> | undefined;
  /** Checks by how they were decided, since start. */
  readonly counts: Record<CheckKind, number> = {
    remembered: 0,
    hashed: 0,
    unknown_client: 0,
    refused: 0,
    unusable: 0,
  };
  /** How long a refusal (429) is held before it is sent, in milliseconds. */
  readonly refusalDelayMs: number;

  constructor(db: Database, limits: TokenEndpointLimits, now: NowMs = Date.now, registry?: Registry) {
    this.#db = db;
    this.#byAddress = failureLimiter(limits.failuresPerAddress, limits.failureWindowSeconds * 1000, now);
    this.#backoff = pairBackoff(limits.backoffAfterFailures, limits.backoffMaxSeconds, now);
    this.#hashing = new FairHashBudget(limits.hashConcurrency, limits.hashQueue, limits.hashQueuePerClient);
    this.#verified = new VerifiedSecrets(limits.verifiedCacheSeconds, now);
    this.#known = new KnownAddresses(now);
    this.refusalDelayMs = limits.refusalDelayMs;
    this.#checks = registry
      ? new Counter({
          name: 'bridge_token_client_checks_total',
          help: 'Client authentications at the token endpoint, by how they were decided',
          labelNames: ['how'] as const,
          registers: [registry],
        })
      : undefined;
  }

  /** 429 when this address has failed too often. */
  checkAddress(address: string): void {
    refuseFor(this.#byAddress.retryAfter(addressGroup(address)));
  }

  /** Counts a failure that happened before the credentials could be read. */
  failed(address: string): void {
    this.#byAddress.fail(addressGroup(address));
  }

  async authenticate(credentials: Credentials, address: string): Promise<OAuthClient> {
    const { clientId, clientSecret } = credentials;
    const group = addressGroup(address);
    if (unusable(clientId, MAX_ID_LENGTH) || unusable(clientSecret, MAX_SECRET_LENGTH)) {
      this.#count('unusable');
      this.checkAddress(address);
      this.failed(address);
      throw new OAuthError('invalid_client', CLIENT_FAILED);
    }
    const client = await findClient(this.#db, clientId);
    // The right secret, verified recently: answered whatever others did from this address.
    if (client !== undefined && this.#verified.has(clientId, clientSecret, client.secretHash)) {
      this.#count('remembered');
      this.#backoff.reset(pairKey(clientId, group));
      return client;
    }
    try {
      this.checkAddress(address);
      refuseFor(this.#backoff.retryAfter(pairKey(clientId, group)));
    } catch (error) {
      this.#count('refused');
      throw error;
    }
    const started = performance.now();
    if (client === undefined) {
      this.#count('unknown_client');
      // As long as a wrong secret of a known id takes, without the hash (module comment).
      await delay(this.#answerTime.estimate());
      this.#failed(clientId, group);
      throw new OAuthError('invalid_client', CLIENT_FAILED);
    }
    let valid: boolean;
    try {
      valid = await this.#hashing.run(this.#known.lane(clientId, group), () =>
        verifySecret(clientSecret, client.secretHash),
      );
    } catch (error) {
      if (error instanceof QueueFullError) {
        this.#count('refused');
        throw busy();
      }
      throw error;
    }
    this.#count('hashed');
    if (!valid) {
      this.#answerTime.observe(performance.now() - started);
      this.#failed(clientId, group);
      throw new OAuthError('invalid_client', CLIENT_FAILED);
    }
    this.#verified.remember(clientId, clientSecret, client.secretHash);
    this.#known.succeeded(clientId, group);
    this.#backoff.reset(pairKey(clientId, group));
    return client;
  }

  #failed(clientId: string, group: string): void {
    this.#byAddress.fail(group);
    this.#backoff.fail(pairKey(clientId, group));
  }

  #count(how: CheckKind): void {
    this.counts[how] += 1;
    this.#checks?.inc({ how });
  }
}

/**
 * A running average of how long a wrong secret of a known client takes to be answered (waiting
 * for a hash slot included), with a little jitter as real hashes have.
 */
class AnswerTime {
  #averageMs: number;

  constructor(firstMs: number) {
    this.#averageMs = firstMs;
  }

  observe(ms: number): void {
    this.#averageMs += (ms - this.#averageMs) / 8;
  }

  estimate(): number {
    return this.#averageMs * (0.9 + Math.random() * 0.2);
  }
}

const busy = () =>
  new OAuthError('slow_down', 'Too many client authentications at once; try again in 1 s.', 1);

function refuseFor(retryAfter: number): void {
  if (retryAfter > 0) {
    throw new OAuthError(
      'slow_down',
      `Too many failed client authentications; try again in ${retryAfter} s.`,
      retryAfter,
    );
  }
}
