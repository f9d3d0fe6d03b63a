/** The result of handing one notification to a receiver. */
export interface SendResult {
  ok: boolean;
  statusCode: number | null;
  error: string | null;
}

/** Delivers a JSON body to a callback URL; never throws, the result says what happened. */
export interface Transport {
  send(url: URL, body: string, headers: Record<string, string>): Promise<SendResult>;
  close(): Promise<void>;
}

export const failure = (error: unknown, statusCode: number | null = null): SendResult => ({
  ok: false,
  statusCode,
  error: error instanceof Error ? error.message : String(error),
});
