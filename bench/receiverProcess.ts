// The parent's side of bench/deliveryReceiver.ts: starts the receiver as a child process and asks
// it over IPC (bench/delivery.ts, bench/fairness.ts).
import { type ChildProcess, fork } from 'node:child_process';
import { setTimeout as sleep } from 'node:timers/promises';
import type { ReceiverMessage, Report } from './deliveryReceiver.ts';

const RECEIVER_SCRIPT = new URL('./deliveryReceiver.ts', import.meta.url);

/** The receiver child and its IPC: 'complete' messages go to onComplete, replies to the asker. */
export class Receiver {
  readonly url: string;
  onComplete = () => {};
  readonly #child: ChildProcess;
  #reply: ((message: unknown) => void) | undefined;

  private constructor(child: ChildProcess, port: number) {
    this.#child = child;
    this.url = `http://127.0.0.1:${port}`;
    child.on('message', (message: { type: string }) => {
      if (message.type === 'complete') this.onComplete();
      else this.#reply?.(message);
    });
  }

  static async start(): Promise<Receiver> {
    const child = fork(RECEIVER_SCRIPT, { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
    const port = await new Promise<number>((resolve, reject) => {
      child.once('message', (message) => resolve((message as { port: number }).port));
      child.once('exit', (code) => reject(new Error(`receiver exited early: ${code}`)));
    });
    return new Receiver(child, port);
  }

  send(message: ReceiverMessage): void {
    this.#child.send(message);
  }

  #ask<T>(message: ReceiverMessage): Promise<T> {
    return new Promise((resolve) => {
      this.#reply = resolve as (message: unknown) => void;
      this.#child.send(message);
    });
  }

  count = (group: string) => this.#ask<{ deliveries: number; requests: number }>({ type: 'count', group });
  report = (group: string) => this.#ask<Report>({ type: 'report', group });

  stop(): void {
    this.#child.disconnect();
  }
}

/** Resolves when `group` has `expected` distinct deliveries, or when they stop coming for `stallMs`. */
export async function drain(
  receiver: Receiver,
  group: string,
  expected: number,
  stallMs: number,
): Promise<void> {
  let last = -1;
  let since = Date.now();
  for (;;) {
    const { deliveries } = await receiver.count(group);
    if (deliveries >= expected) return;
    if (deliveries !== last) [last, since] = [deliveries, Date.now()];
    if (Date.now() - since > stallMs) {
      console.log(`  ${group}: ${deliveries} of ${expected} delivered; none for ${stallMs / 1000} s`);
      return;
    }
    await sleep(100);
  }
}
