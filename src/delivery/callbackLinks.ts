// The `_links.callback` of a delivery depends on where the client that registered the callback
// reached the service (docs/api.md, "Addresses and versions"). That root is read once per
// callback and kept, bounded: deliveries to the same few callbacks repeat it.
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

  constructor(db: Queryable, href: CallbackHref) {
    this.#db = db;
    this.#href = href;
  }

  async href(callbackId: string): Promise<string> {
    let root = this.#roots.get(callbackId);
    if (root === undefined) {
      root = findCallbackLinkRoot(this.#db, callbackId);
      if (this.#roots.size >= ROOTS_KEPT) this.#roots.clear();
      this.#roots.set(callbackId, root);
      // A failed read is not kept: the next send reads again.
      root.catch(() => this.#roots.delete(callbackId));
    }
    return this.#href(await root, callbackId);
  }
}
