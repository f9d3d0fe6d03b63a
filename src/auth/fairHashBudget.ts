// The secret hashes (scrypt) computed at once, shared fairly between client ids: each id with work
// waiting gets the next free slot in turn, so guesses at one client id, however many addresses
// they come from, delay other clients by at most one hash each and cannot fill the queue for them.
import { QueueFullError } from './limits.ts';

export class FairHashBudget {
  readonly #limit: number;
  readonly #maxWaiting: number;
  readonly #maxWaitingPerKey: number;
  /** Waiting tasks by key; the Map's order is the turn order (a served key goes to the back). */
  readonly #waiting = new Map<string, (() => void)[]>();
  #waitingCount = 0;
  #running = 0;
  /** Hashes started since the process began (metrics, tests). */
  started = 0;

  constructor(limit: number, maxWaiting: number, maxWaitingPerKey: number) {
    this.#limit = limit;
    this.#maxWaiting = maxWaiting;
    this.#maxWaitingPerKey = maxWaitingPerKey;
  }

  async run<T>(key: string, task: () => Promise<T>): Promise<T> {
    if (this.#running >= this.#limit) {
      const queue = this.#waiting.get(key) ?? [];
      if (this.#waitingCount >= this.#maxWaiting || queue.length >= this.#maxWaitingPerKey) {
        throw new QueueFullError('all hash slots are busy');
      }
      this.#waitingCount += 1;
      // The slot is handed over by the task that ends, so #running stays counted.
      await new Promise<void>((resolve) => {
        queue.push(resolve);
        this.#waiting.set(key, queue);
      });
    } else {
      this.#running += 1;
    }
    this.started += 1;
    try {
      return await task();
    } finally {
      this.#handOver();
    }
  }

  #handOver(): void {
    const next = this.#waiting.entries().next().value;
    if (next === undefined) {
      this.#running -= 1;
      return;
    }
    const [key, queue] = next;
    const resolve = queue.shift();
    this.#waiting.delete(key);
    if (queue.length > 0) this.#waiting.set(key, queue);
    this.#waitingCount -= 1;
    resolve?.();
  }
}
