// Refresh tokens (docs/api.md, "Authentication"): opaque random values stored only as a SHA-256
// hash, bound to the client they were issued to, single use. Each use spends the token and issues
// the next one of its chain; a spent token that comes back means it was copied, so its whole chain
// is revoked. Removing a client removes its tokens (foreign key).
import { createHash, randomBytes, randomUUID } from 'node:crypto';
import type { Database } from '../db/database.ts';
import {
  deleteExpiredRefreshTokens,
  deleteRefreshTokenChain,
  findRefreshToken,
  insertRefreshToken,
  spendRefreshToken,
} from '../db/repositories/refreshTokenRepository.ts';
import type { NowMs } from './limits.ts';

// 256 random bits as base64url: 43 characters. Anything else cannot be a token of ours.
const TOKEN_FORMAT = /^[A-Za-z0-9_-]{43}$/;

const hashToken = (token: string) => createHash('sha256').update(token).digest('hex');

export type RefreshOutcome =
  | { kind: 'rotated'; scopes: string[]; refreshToken: string }
  /** Unknown, expired, another client's, or malformed. */
  | { kind: 'invalid' }
  /** Spent before: the chain it belongs to has been revoked. */
  | { kind: 'reused' };

export class RefreshTokenService {
  readonly ttlSeconds: number;
  readonly #db: Database;
  readonly #now: NowMs;

  constructor(db: Database, ttlSeconds: number, now: NowMs = Date.now) {
    this.#db = db;
    this.ttlSeconds = ttlSeconds;
    this.#now = now;
  }

  /** The first token of a new chain (a client_credentials grant). */
  async issue(clientId: string, scopes: readonly string[]): Promise<string> {
    const now = new Date(this.#now());
    // Spent and expired tokens are kept until they expire (reuse detection), then dropped here.
    await deleteExpiredRefreshTokens(this.#db, now);
    return this.#insert(this.#db, randomUUID(), clientId, scopes, now);
  }

  /**
   * Spends `token` for `clientId` and issues the next token of its chain. `accept` sees the
   * original grant's scopes before anything is spent: when it throws, the token stays usable.
   */
  async rotate(
    token: string,
    clientId: string,
    accept: (scopes: string[]) => void = () => {},
  ): Promise<RefreshOutcome> {
    if (!TOKEN_FORMAT.test(token)) return { kind: 'invalid' };
    const hash = hashToken(token);
    const now = new Date(this.#now());
    const outcome = await this.#db.transaction(
      async (tx): Promise<RefreshOutcome | { kind: 'spent'; chainId: string }> => {
        const row = await findRefreshToken(tx, hash);
        if (!row || row.clientId !== clientId || row.expiresAt.getTime() <= now.getTime()) {
          return { kind: 'invalid' };
        }
        if (row.usedAt === null) accept(row.scopes);
        // Spent before, or by a concurrent request a moment ago: the update finds it used.
        const spent = row.usedAt === null ? await spendRefreshToken(tx, hash, now) : undefined;
        if (!spent) return { kind: 'spent', chainId: row.chainId };
        const next = await this.#insert(tx, row.chainId, clientId, row.scopes, now);
        return { kind: 'rotated', scopes: row.scopes, refreshToken: next };
      },
    );
    if (outcome.kind !== 'spent') return outcome;
    // Outside the transaction above so that the revocation is not rolled back with it.
    await deleteRefreshTokenChain(this.#db, outcome.chainId);
    return { kind: 'reused' };
  }

  async #insert(
    db: Parameters<typeof insertRefreshToken>[0],
    chainId: string,
    clientId: string,
    scopes: readonly string[],
    now: Date,
  ): Promise<string> {
    const token = randomBytes(32).toString('base64url');
    await insertRefreshToken(db, {
      tokenHash: hashToken(token),
      chainId,
      clientId,
      scopes: [...scopes],
      createdAt: now,
      expiresAt: new Date(now.getTime() + this.ttlSeconds * 1000),
      usedAt: null,
    });
    return token;
  }
}
