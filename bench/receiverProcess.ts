// The parent's side of bench/deliveryReceiver.ts: starts the receiver as a child process and asks
// it over IPC (bench/delivery.ts, bench/fairness.ts). bench/mqttSubscriber.ts speaks the same IPC
// for MQTT deliveries (bench/mqttDelivery.ts).
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

  private constructor(child: ChildProcess, url: string) {
    this.#child = child;
    this.url = url;
    child.on('message', (message: { type: string }) => {
      if (message.type === 'complete') this.onComplete();
      else this.#reply?.(message);
    });
  }

  /**
   * Starts `script` (the HTTP receiver unless told) with `args`; resolves once it reports ready:
   * `{port}` (HTTP on 127.0.0.1) or `{url}`.
   */
  static async start(script = RECEIVER_SCRIPT, args: string[] = []): Promise<Receiver> {
    const child = fork(script, args, { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
    const url = await new Promise<string>((resolve, reject) => {
      child.once('message', (message) => {
        const ready = message as { port?: number; url?: string };
        resolve(ready.url ?? `http://127.0.0.1:${ready.port}`);
      });
      child.once('exit', (code) => reject(new Error(`receiver exited early: ${code}`)));
    });
    return new Receiver(child, url);
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
