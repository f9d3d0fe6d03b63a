// Connection limits of the HTTP server against slow and greedy peers (docs/api.md, "Limits"):
// - one source address (IPv6: one /64) holds at most `perAddress` connections; a connection over
//   that share is held unread for `refusedHoldMs` and then closed (at most `maxConnections` are
//   held; beyond that they are closed at once). Closing at once lets an attacker reconnect at
//   once, and each accept costs the service; held, its reconnects wait on the service's clock;
// - at most `maxConnections` in all; when full, a new connection takes the place of the connection
//   that has waited longest for a request on the address holding the most connections, so a host
//   that opens connections and sends nothing (slowloris) pushes out its own, not other clients';
//   only when every connection is serving a request is the new one closed;
// - a request body that stops arriving for `bodyTimeoutMs` is answered 408 and closed;
// - a response whose client takes nothing for `sendTimeoutMs` is cut off, so a client that does
//   not read cannot keep a large answer in memory.
// Node's own headers and request timeouts still apply (serverOptions.ts).
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import { addressGroup } from '../net/peerAddress.ts';

export interface ConnectionGuardLimits {
  maxConnections: number;
  perAddress: number;
  refusedHoldMs: number;
  bodyTimeoutMs: number;
  sendTimeoutMs: number;
}

/** Why the guard closed a connection (counted in `closed`). */
export type CloseReason = 'address_full' | 'server_full' | 'pushed_out' | 'body_timeout' | 'send_timeout';

interface Exchange {
  request: IncomingMessage;
  response: ServerResponse;
  /** Last time bytes moved in the direction that matters (body in, or answer out). */
  progressAt: number;
  bytesRead: number;
  pending: number;
}

interface Tracked {
  socket: Socket;
  group: string;
  /** When it began waiting for a request (opened, or its last answer ended). */
  waitingSince: number;
  exchange: Exchange | undefined;
}

/** A socket's bytes not yet taken by the kernel (the handle's queue; TLS and tests: the stream's). */
const unsent = (socket: Socket): number =>
  (socket as unknown as { _handle?: { writeQueueSize?: number } })._handle?.writeQueueSize ??
  socket.writableLength;

const keyOf = (socket: Socket) => `${socket.remoteAddress}|${socket.remotePort}`;

export class ConnectionGuard {
  readonly #limits: ConnectionGuardLimits;
  readonly #byKey = new Map<string, Tracked>();
  readonly #byGroup = new Map<string, Set<Tracked>>();
  readonly #answerTimeout: (socket: Socket) => void;
  /** Refused connections held unread, oldest first, with the time each is closed. */
  readonly #held: { socket: Socket; closeAt: number }[] = [];
  #heldFirst = 0;
  readonly closed: Record<CloseReason, number> = {
    address_full: 0,
    server_full: 0,
    pushed_out: 0,
    body_timeout: 0,
    send_timeout: 0,
  };

  /** `answerTimeout` writes the 408 answer on a socket and closes it. */
  constructor(limits: ConnectionGuardLimits, answerTimeout: (socket: Socket) => void) {
    this.#limits = limits;
    this.#answerTimeout = answerTimeout;
  }

  get size(): number {
    return this.#byKey.size;
  }

  attach(server: Server): void {
    // The server's own connection listeners (Node's HTTP parser and timers; TLS's handshake) run
    // only for an admitted connection: a refused one costs the accept and the close, nothing
    // more, so an attacker that reconnects at once cannot make each refusal expensive.
    const listeners = server.listeners('connection') as ((socket: Socket) => void)[];
    server.removeAllListeners('connection');
    server.on('connection', (socket: Socket) => {
      if (!this.#admit(socket)) return;
      for (const listener of listeners) listener.call(server, socket);
    });
    server.on('request', (request: IncomingMessage, response: ServerResponse) =>
      this.#begin(request, response),
    );
    const shortest = Math.min(
      this.#limits.bodyTimeoutMs,
      this.#limits.sendTimeoutMs,
      this.#limits.refusedHoldMs,
    );
    const sweep = setInterval(() => this.#sweep(), Math.max(25, Math.min(1000, shortest / 4)));
    sweep.unref();
    server.once('close', () => clearInterval(sweep));
  }

  #admit(socket: Socket): boolean {
    const group = addressGroup(socket.remoteAddress);
    const own = this.#byGroup.get(group);
    // An address at its limit is refused, not given one of its own places: an attacker that
    // reconnects at once would otherwise churn its connections at the cost of accepting each.
    if (own !== undefined && own.size >= this.#limits.perAddress) {
      this.#hold(socket);
      return false;
    }
    if (this.#byKey.size >= this.#limits.maxConnections && !this.#pushOut(this.#victim())) {
      this.#refuse(socket, 'server_full');
      return false;
    }
    const tracked: Tracked = { socket, group, waitingSince: performance.now(), exchange: undefined };
    const key = keyOf(socket);
    this.#byKey.set(key, tracked);
    const members = this.#byGroup.get(group) ?? new Set<Tracked>();
    this.#byGroup.set(group, members.add(tracked));
    socket.once('close', () => {
      if (this.#byKey.get(key) === tracked) this.#byKey.delete(key);
      members.delete(tracked);
      if (members.size === 0 && this.#byGroup.get(group) === members) this.#byGroup.delete(group);
    });
    return true;
  }

  #begin(request: IncomingMessage, response: ServerResponse): void {
    const tracked = this.#byKey.get(keyOf(request.socket));
    if (tracked === undefined) return;
    const exchange: Exchange = {
      request,
      response,
      progressAt: performance.now(),
      bytesRead: request.socket.bytesRead,
      pending: 0,
    };
    tracked.exchange = exchange;
    const ended = () => {
      if (tracked.exchange !== exchange) return;
      tracked.exchange = undefined;
      tracked.waitingSince = performance.now();
    };
    response.once('finish', ended);
    response.once('close', ended);
  }

  /** The connection waiting longest for a request on the address that holds the most. */
  #victim(): Tracked | undefined {
    let victim: Tracked | undefined;
    let most = 0;
    for (const members of this.#byGroup.values()) {
      if (members.size <= most) continue;
      const waiting = oldestWaiting(members);
      if (waiting !== undefined) {
        victim = waiting;
        most = members.size;
      }
    }
    return victim;
  }

  #pushOut(victim: Tracked | undefined): boolean {
    if (victim === undefined) return false;
    this.closed.pushed_out += 1;
    this.#byKey.delete(keyOf(victim.socket));
    this.#byGroup.get(victim.group)?.delete(victim);
    victim.socket.destroy();
    return true;
  }

  #hold(socket: Socket): void {
    this.closed.address_full += 1;
    if (this.#held.length - this.#heldFirst >= this.#limits.maxConnections) {
      socket.destroy();
      return;
    }
    socket.on('error', () => {});
    this.#held.push({ socket, closeAt: performance.now() + this.#limits.refusedHoldMs });
  }

  /** Closes every held connection (the server is shutting down). */
  closeHeld(): void {
    this.#release(Number.POSITIVE_INFINITY);
  }

  /** Closes the held connections whose time has come (they were queued in closing order). */
  #release(now: number): void {
    while (this.#heldFirst < this.#held.length) {
      const held = this.#held[this.#heldFirst] as { socket: Socket; closeAt: number };
      if (held.closeAt > now) break;
      held.socket.destroy();
      this.#heldFirst += 1;
    }
    if (this.#heldFirst > 1024 && this.#heldFirst * 2 > this.#held.length) {
      this.#held.splice(0, this.#heldFirst);
      this.#heldFirst = 0;
    }
  }

  #refuse(socket: Socket, reason: CloseReason): void {
    this.closed[reason] += 1;
    socket.destroy();
  }

  #sweep(): void {
    const now = performance.now();
    this.#release(now);
    for (const tracked of this.#byKey.values()) {
      const exchange = tracked.exchange;
      if (exchange === undefined || tracked.socket.destroyed) continue;
      const { socket } = tracked;
      if (!exchange.request.complete) {
        // Still receiving the body: it must keep coming.
        if (socket.bytesRead > exchange.bytesRead) {
          exchange.bytesRead = socket.bytesRead;
          exchange.progressAt = now;
        } else if (now - exchange.progressAt > this.#limits.bodyTimeoutMs) {
          this.closed.body_timeout += 1;
          if (exchange.response.headersSent) socket.destroy();
          else this.#answerTimeout(socket);
        }
        continue;
      }
      const pending = unsent(socket);
      if (pending === 0 || pending < exchange.pending) {
        exchange.progressAt = now;
      } else if (now - exchange.progressAt > this.#limits.sendTimeoutMs) {
        this.closed.send_timeout += 1;
        socket.destroy();
        continue;
      }
      exchange.pending = pending;
    }
  }
}

function oldestWaiting(members: Set<Tracked>): Tracked | undefined {
  let oldest: Tracked | undefined;
  for (const tracked of members) {
    if (tracked.exchange !== undefined) continue;
    if (oldest === undefined || tracked.waitingSince < oldest.waitingSince) oldest = tracked;
  }
  return oldest;
}
