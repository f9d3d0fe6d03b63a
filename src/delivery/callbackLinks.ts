// The `_links.callback` of a delivery depends on where the client that registered the callback
// reached the service (docs/api.md, "Addresses and versions"). That root is read once per
// callback and kept, bounded, with the href made from it: deliveries to the same few callbacks
// repeat it, and a send that finds it kept need not wait for a promise.
import type { Queryable } from '../db/database.ts';
import { findCallbackLinkRoot } from '../db/repositories/callbackRepository.ts';

const ROOTS_KEPT = 10_000;

/** The href of a callback from its registration's root (null when not kept). */
export type CallbackHref = (linkRoot: string | null, callbackId: string) => string;

export class CallbackLinks {
  readonly #db: Queryable;
  readonly #href: CallbackHref;
  /** The root of each callback, as a promise: concurrent first sends share one read. */
  readonly #roots = new Map<string, Promise<string | null>>();
  /** The href of each callback whose root has been read: a send takes it without waiting. */
  readonly #hrefs = new Map<string, string>();
  readonly #final: () => boolean;

  /** `final`: whether hrefs built now stay (the instance's own address is known once it listens). */
  constructor(db: Queryable, href: CallbackHref, final: () => boolean) {
    this.#db = db;
    this.#href = href;
    this.#final = final;
  }

  /** The callback's href: at once when its root has been read, else once it has. */
  href(callbackId: string): string | Promise<string> {
    return this.#hrefs.get(callbackId) ?? this.#read(callbackId);
  }

  async #read(callbackId: string): Promise<string> {
    let root = this.#roots.get(callbackId);
    if (root === undefined) {
      root = findCallbackLinkRoot(this.#db, callbackId);
      if (this.#roots.size >= ROOTS_KEPT) {
        this.#roots.clear();
        this.#hrefs.clear();
      }
      this.#roots.set(callbackId, root);
      // A failed read is not kept: the next send reads again.
      root.catch(() => this.#roots.delete(callbackId));
    }
    const href = this.#href(await root, callbackId);
    // Kept only while its root is (the two are forgotten together), and once it is final.
    if (this.#roots.has(callbackId) && this.#final()) this.#hrefs.set(callbackId, href);
    return href;
  }
}
