// The deadlines of every send in flight under one timer, instead of a timer (and an
// AbortController) per send: at thousands of sends a second those were a visible part of a send's
// cost. Every deadline is the same span after its send started, so the list is in start order: a
// new one goes last, the due ones are at the front, and a send that ends unlinks itself at once.
// The timer is set for the front's deadline rounded up to the tick: a deadline fires between its
// time and one tick later, never before it, and the deadlines of one tick fire together.

/** Where the list reads the time and sets its timer: the system's, or a test's. */
export interface DeadlineTimers {
  /** Milliseconds on a clock that never goes back. */
  now(): number;
  set(fire: () => void, ms: number): unknown;
  clear(timer: unknown): void;
}

const systemTimers: DeadlineTimers = {
  now: () => performance.now(),
  set: (fire, ms) => setTimeout(fire, ms),
  clear: (timer) => clearTimeout(timer as ReturnType<typeof setTimeout>),
};

/** One send's deadline; the send's own object extends it, so a deadline costs no object of its own. */
export abstract class Deadline {
  /** When it is due, on the list's clock; -1 while not listed. */
  due = -1;
  previous: Deadline | null = null;
  next: Deadline | null = null;

  /** Called once, when the deadline passed while listed; it is no longer listed then. */
  abstract expired(): void;
}

export class DeadlineList {
  readonly #spanMs: number;
  readonly #tickMs: number;
  readonly #timers: DeadlineTimers;
  #first: Deadline | null = null;
  #last: Deadline | null = null;
  #timer: unknown;
  #armed = false;

  /** Deadlines `spanMs` after they are added, fired to within `tickMs` after they are due. */
  constructor(spanMs: number, tickMs: number, timers: DeadlineTimers = systemTimers) {
    this.#spanMs = spanMs;
    this.#tickMs = tickMs;
    this.#timers = timers;
  }

  /** Lists `deadline` as due `spanMs` from now. */
  add(deadline: Deadline): void {
    deadline.due = this.#timers.now() + this.#spanMs;
    deadline.previous = this.#last;
    deadline.next = null;
    if (this.#last === null) this.#first = deadline;
    else this.#last.next = deadline;
    this.#last = deadline;
    if (!this.#armed) this.#arm();
  }

  /** Unlists `deadline` (its send ended); nothing when it is not listed. */
  remove(deadline: Deadline): void {
    if (deadline.due < 0) return;
    this.#unlink(deadline);
    // Nothing left to time: no timer keeps the process up. A removed front otherwise leaves the
    // timer as it is; it fires early once and is set again for the new front.
    if (this.#first === null && this.#armed) {
      this.#timers.clear(this.#timer);
      this.#armed = false;
    }
  }

  /** Deadlines listed. */
  get size(): number {
    let size = 0;
    for (let deadline = this.#first; deadline !== null; deadline = deadline.next) size += 1;
    return size;
  }

  #unlink(deadline: Deadline): void {
    const { previous, next } = deadline;
    if (previous === null) this.#first = next;
    else previous.next = next;
    if (next === null) this.#last = previous;
    else next.previous = previous;
    deadline.previous = null;
    deadline.next = null;
    deadline.due = -1;
  }

  #arm(): void {
    const first = this.#first;
    if (first === null) return;
    const at = Math.ceil(first.due / this.#tickMs) * this.#tickMs;
    this.#timer = this.#timers.set(this.#fire, Math.max(1, at - this.#timers.now()));
    this.#armed = true;
  }

  readonly #fire = (): void => {
    this.#armed = false;
    const now = this.#timers.now();
    for (let first = this.#first; first !== null && first.due <= now; first = this.#first) {
      this.#unlink(first);
      first.expired();
    }
    // expired() may have added a deadline, and with it set the timer.
    if (!this.#armed) this.#arm();
  };
}
