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

/**
 * Which attempts of a batch go into the attempt history, given each one's callback and result
 * in the order they ended. Only the newest `kept` per callback are ever shown or kept (the
 * history is pruned to them), so a success with `kept` newer attempts of its callback after it
 * in the same batch is left out, unless it is the callback's newest success: that one says
 * when the callback last succeeded and which discards came after it. Failures and discards are
 * always recorded: they count in the callback's health. Under a backlog this leaves out most
 * of a drain's rows (bench/mqttDelivery.ts).
 */
export function attemptsToRecord(
  callbackIds: readonly string[],
  results: readonly AttemptResult[],
  kept: number,
): boolean[] {
  const newer = new Map<string, number>();
  const newestSuccessSeen = new Set<string>();
  const record = new Array<boolean>(results.length);
  for (let index = results.length - 1; index >= 0; index -= 1) {
    const callbackId = callbackIds[index] as string;
    const after = newer.get(callbackId) ?? 0;
    newer.set(callbackId, after + 1);
    if (results[index] !== 'DELIVERED') record[index] = true;
    else if (!newestSuccessSeen.has(callbackId)) {
      newestSuccessSeen.add(callbackId);
      record[index] = true;
    } else record[index] = after < kept;
  }
  return record;
}
