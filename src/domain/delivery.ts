// The delivery policy (docs/api.md, "Callbacks (event delivery)"): what a finished attempt means
// for its notification. The worker applies it; the notifications repository only stores it.

export type AttemptResult = 'DELIVERED' | 'FAILED' | 'DISCARDED';

/**
 * A success delivers. A failure is retried while retries are left: attempt 1 is the first
 * delivery, so attempt `maxRedeliverAttempts + 1` is the last one; its failure discards.
 */
export function attemptResult(ok: boolean, attempt: number, maxRedeliverAttempts: number): AttemptResult {
  if (ok) return 'DELIVERED';
  return attempt > maxRedeliverAttempts ? 'DISCARDED' : 'FAILED';
}

/** A failed attempt is tried again one retry interval after it ended. */
export const nextAttemptAt = (now: Date, retryIntervalMs: number): Date =>
  new Date(now.getTime() + retryIntervalMs);

/**
 * How long a claim holds a notification: longer than a send (bounded by the delivery timeout)
 * plus recording its outcome, so only a crashed sender's claims come back to be sent again.
 */
export const claimLockMs = (deliveryTimeoutMs: number): number => deliveryTimeoutMs + 15_000;
