// The one polling helper of the test suite: wait until something observable holds, bounded.
// The bound is against hanging, never a timing assertion; absence is proved by state (an empty
// queue, a stopped process, a sequence number or high-water mark), never by sleeping.
import { setTimeout as sleep } from 'node:timers/promises';

export interface WaitOptions {
  /** Fail after this long (default 10 s). */
  timeoutMs?: number;
  /** Pause between checks (default 25 ms). */
  intervalMs?: number;
  /** What was seen last, for the failure message (so a failure says how far it got). */
  describe?: () => unknown;
  /** A reason to stop waiting at once (e.g. the watched process exited): fails with it. */
  giveUp?: () => string | undefined;
}

/**
 * Polls `check` until it returns something other than undefined/false, and returns that value.
 * A check that throws counts as "not yet" (its last error is in the failure message).
 */
export async function waitFor<T>(
  what: string,
  check: () => T | undefined | false | Promise<T | undefined | false>,
  options: WaitOptions = {},
): Promise<T> {
  const { timeoutMs = 10_000, intervalMs = 25 } = options;
  const deadline = Date.now() + timeoutMs;
  let lastError: unknown;
  for (;;) {
    try {
      const value = await check();
      if (value !== undefined && value !== false) return value;
      lastError = undefined;
    } catch (error) {
      lastError = error;
    }
    const seen = options.describe ? ` (last seen: ${String(JSON.stringify(options.describe()))})` : '';
    const cause = lastError ? ` (last error: ${(lastError as Error).message})` : '';
    const gaveUp = options.giveUp?.();
    if (gaveUp !== undefined) throw new Error(`${gaveUp} while waiting for ${what}${seen}${cause}`);
    if (Date.now() > deadline)
      throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}${seen}${cause}`);
    await sleep(intervalMs);
  }
}
