// How many sends this instance lets each callback have in flight (fairness in
// docs/decisions/0003-delivery-from-the-event-log.md). A receiver that does not answer (timeout,
// no connection) is cut to one send, a probe; each answer after that doubles its cap until it is
// back at perCallback.
//
// Gradually rather than at once: a receiver that answers one probe may still fall over under a
// full perCallback burst (one that just restarted, with a backlog waiting), and a receiver that
// answers now and then does not win all its slots back with one answer. It costs a healthy one
// log2(perCallback) answers, milliseconds.
//
// In this instance's memory, not in the database: each instance only limits its own claims, so
// nothing needs sharing; keeping it costs no writes on the delivery path; and what is lost with a
// restart is learnt again from one timeout. The claim counts sends in flight across instances,
// so a callback cut by every instance has one probe out in all.
import type { SendResult } from './transport.ts';

/** The receiver answered: an HTTP status of any kind, or a PUBACK. */
const answered = (result: SendResult): boolean => result.ok || result.statusCode !== null;

export class InFlightCaps {
  readonly #full: number;
  /** The callbacks below the full cap; every other callback has it. */
  readonly #reduced = new Map<string, number>();

  constructor(perCallback: number) {
    this.#full = perCallback;
  }

  /** Callback id -> cap, for the callbacks below perCallback (the claim takes these). */
  reduced(): ReadonlyMap<string, number> {
    return this.#reduced;
  }

  /** Learns from one finished send to a callback. */
  learn(callbackId: string, result: SendResult): void {
    if (result.unresponsive) {
      this.#reduced.set(callbackId, 1);
      return;
    }
    const cap = this.#reduced.get(callbackId);
    if (cap === undefined || !answered(result)) return;
    if (cap * 2 >= this.#full) this.#reduced.delete(callbackId);
    else this.#reduced.set(callbackId, cap * 2);
  }

  /** Forgets callbacks that no longer exist (`exists` says which of the reduced ones do). */
  async forgetDeleted(exists: (callbackIds: string[]) => Promise<Set<string>>): Promise<void> {
    if (this.#reduced.size === 0) return;
    const asked = [...this.#reduced.keys()];
    const existing = await exists(asked);
    for (const callbackId of asked) {
      if (!existing.has(callbackId)) this.#reduced.delete(callbackId);
    }
  }
}
