import { randomBytes } from 'node:crypto';
import { errors as joseErrors, jwtVerify, SignJWT } from 'jose';
import { SCOPES, type Scope } from '../config.ts';
import type { Database } from '../db/database.ts';
import { findClient, signingKey } from '../db/repositories/clientRepository.ts';
import { AppError } from '../domain/errors.ts';

export interface AccessTokenClaims {
  clientId: string;
  scopes: Scope[];
}

interface CachedToken extends AccessTokenClaims {
  /** When this cache entry must be verified again (token expiry or the recheck interval). */
  validUntil: number;
}

const ISSUER = 'bridge-service';
const AUDIENCE = 'bridge-api';
const ALGORITHM = 'HS256';
const CACHE_SIZE = 10_000;

export interface TokenCheckOptions {
  /** Clock in milliseconds (Date.now unless a test drives one). */
  now?: () => number;
  /**
   * How often a cached token's client is read again: a removed client's tokens, and scopes taken
   * from a client, stop working within this time.
   */
  recheckSeconds?: number;
  /** A token issued (`iat`) further than this in the future is refused. */
  clockSkewSeconds?: number;
}

/** Issues and verifies JWT access tokens; verified tokens are cached to keep checks off the hot path. */
export class TokenService {
  readonly ttlSeconds: number;
  readonly #key: Uint8Array;
  readonly #db: Database;
  readonly #cache = new Map<string, CachedToken>();
  readonly #now: () => number;
  readonly #recheckMs: number;
  readonly #clockSkewSeconds: number;

  constructor(key: Uint8Array, ttlSeconds: number, db: Database, options: TokenCheckOptions = {}) {
    this.#key = key;
    this.ttlSeconds = ttlSeconds;
    this.#db = db;
    this.#now = options.now ?? Date.now;
    this.#recheckMs = (options.recheckSeconds ?? 30) * 1000;
    this.#clockSkewSeconds = options.clockSkewSeconds ?? 60;
  }

  /** The key from settings, else the one stored in the database (shared by every instance). */
  static async create(
    db: Database,
    secret: string | undefined,
    ttlSeconds: number,
    options: TokenCheckOptions = {},
  ): Promise<TokenService> {
    const keyText = secret ?? (await signingKey(db, 'access-token', randomBytes(32).toString('base64url')));
    return new TokenService(new TextEncoder().encode(keyText), ttlSeconds, db, options);
  }

  async issue(clientId: string, scopes: readonly string[]): Promise<string> {
    return new SignJWT({ scope: scopes.join(' ') })
      .setProtectedHeader({ alg: ALGORITHM, typ: 'at+jwt' })
      .setIssuer(ISSUER)
      .setAudience(AUDIENCE)
      .setSubject(clientId)
      .setJti(randomBytes(12).toString('base64url'))
      .setIssuedAt(new Date(this.#now()))
      .setExpirationTime(new Date(this.#now() + this.ttlSeconds * 1000))
      .sign(this.#key);
  }

  /** The claims of a token verified before and still within its recheck time; else undefined. */
  cached(token: string): AccessTokenClaims | undefined {
    const cached = this.#cache.get(token);
    return cached && cached.validUntil > this.#now() ? cached : undefined;
  }

  /** The claims of a valid token; AppError INVALID_TOKEN or EXPIRED_TOKEN otherwise. */
  async verify(token: string): Promise<AccessTokenClaims> {
    const cached = this.cached(token);
    if (cached) return cached;
    const now = this.#now();
    this.#cache.delete(token);

    let payload: Awaited<ReturnType<typeof jwtVerify>>['payload'];
    try {
      ({ payload } = await jwtVerify(token, this.#key, {
        algorithms: [ALGORITHM],
        issuer: ISSUER,
        audience: AUDIENCE,
        requiredClaims: ['sub', 'exp', 'iat', 'scope'],
        currentDate: new Date(now),
      }));
    } catch (error) {
      throw new AppError(error instanceof joseErrors.JWTExpired ? 'EXPIRED_TOKEN' : 'INVALID_TOKEN');
    }
    // Issued in the future (beyond clock differences between instances): not made by this service.
    if (Number(payload.iat) > now / 1000 + this.#clockSkewSeconds) throw new AppError('INVALID_TOKEN');
    const clientId = String(payload.sub);
    const client = await findClient(this.#db, clientId);
    if (!client) throw new AppError('INVALID_TOKEN');
    // The token's scopes as far as the client still holds them: a scope taken away stops working
    // at the next recheck, not at the token's expiry.
    const scopes = String(payload.scope)
      .split(' ')
      .filter(
        (scope): scope is Scope =>
          (SCOPES as readonly string[]).includes(scope) && client.scopes.includes(scope),
      );
    const entry: CachedToken = {
      clientId,
      scopes,
      validUntil: Math.min(Number(payload.exp) * 1000, now + this.#recheckMs),
    };
    if (this.#cache.size >= CACHE_SIZE) {
      // Maps iterate in insertion order: drop the oldest entry.
      const oldest = this.#cache.keys().next().value;
      if (oldest !== undefined) this.#cache.delete(oldest);
    }
    this.#cache.set(token, entry);
    return entry;
  }
}
