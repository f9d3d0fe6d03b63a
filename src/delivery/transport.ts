/** The result of handing one notification to a receiver. */
export interface SendResult {
  ok: boolean;
  /** The receiver's HTTP status; null when it gave none (and always for MQTT). */
  statusCode: number | null;
  error: string | null;
  /**
   * The receiver did not answer: the attempt timed out or no connection could be made. Such a
   * callback gets fewer sends in flight (src/delivery/inFlightCaps.ts).
   */
  unresponsive: boolean;
}

/** Delivers a JSON body to a callback URL; never throws, the result says what happened. */
export interface Transport {
  /**
   * `body` may be shared with other sends and is not changed; `headers` (name, value, ...,
   * src/delivery/payload.ts) belong to this send, and the transport may add to them.
   */
  send(url: URL, body: Buffer, headers: string[]): Promise<SendResult>;
  close(): Promise<void>;
}

export const failure = (error: unknown, statusCode: number | null = null): SendResult => ({
  ok: false,
  statusCode,
  error: error instanceof Error ? error.message : String(error),
  unresponsive: false,
});

/** A failure because the receiver could not be reached or did not answer in time. */
export const noAnswer = (error: unknown): SendResult => ({ ...failure(error), unresponsive: true });
