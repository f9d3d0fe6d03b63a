import { randomBytes } from 'node:crypto';
import { errors as joseErrors, jwtVerify, SignJWT } from 'jose';
import type { Scope } from '../config.ts';
import type { Database } from '../db/database.ts';
import { findClient, signingKey } from '../db/repositories/clients.ts';
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
// A removed client's tokens stop working within this time, though they are cached.
const RECHECK_MS = 30_000;

/** Issues and verifies JWT access tokens; verified tokens are cached to keep checks off the hot path. */
export class TokenService {
  readonly ttlSeconds: number;
  readonly #key: Uint8Array;
  readonly #db: Database;
  readonly #cache = new Map<string, CachedToken>();

  constructor(key: Uint8Array, ttlSeconds: number, db: Database) {
    this.#key = key;
    this.ttlSeconds = ttlSeconds;
    this.#db = db;
  }

  /** The key from settings, else the one stored in the database (shared by every instance). */
  static async create(db: Database, secret: string | undefined, ttlSeconds: number): Promise<TokenService> {
    const keyText = secret ?? (await signingKey(db, 'access-token', randomBytes(32).toString('base64url')));
    return new TokenService(new TextEncoder().encode(keyText), ttlSeconds, db);
  }

  async issue(clientId: string, scopes: readonly string[]): Promise<string> {
    return new SignJWT({ scope: scopes.join(' ') })
      .setProtectedHeader({ alg: ALGORITHM, typ: 'at+jwt' })
      .setIssuer(ISSUER)
      .setAudience(AUDIENCE)
      .setSubject(clientId)
      .setJti(randomBytes(12).toString('base64url'))
      .setIssuedAt()
      .setExpirationTime(`${this.ttlSeconds}s`)
      .sign(this.#key);
  }

  /** The claims of a valid token; AppError INVALID_TOKEN or EXPIRED_TOKEN otherwise. */
  async verify(token: string): Promise<AccessTokenClaims> {
    const now = Date.now();
    const cached = this.#cache.get(token);
    if (cached && cached.validUntil > now) return cached;
    this.#cache.delete(token);

    let payload: Awaited<ReturnType<typeof jwtVerify>>['payload'];
    try {
      ({ payload } = await jwtVerify(token, this.#key, {
        algorithms: [ALGORITHM],
        issuer: ISSUER,
        audience: AUDIENCE,
        requiredClaims: ['sub', 'exp', 'scope'],
      }));
    } catch (error) {
      throw new AppError(error instanceof joseErrors.JWTExpired ? 'EXPIRED_TOKEN' : 'INVALID_TOKEN');
    }
    const clientId = String(payload.sub);
    if (!(await findClient(this.#db, clientId))) throw new AppError('INVALID_TOKEN');
    const scopes = String(payload.scope)
      .split(' ')
      .filter((scope): scope is Scope => scope === 'read' || scope === 'write');
    const entry: CachedToken = {
      clientId,
      scopes,
      validUntil: Math.min(Number(payload.exp) * 1000, now + RECHECK_MS),
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
