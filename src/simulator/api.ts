// A small HTTP client of the bridge API for the seeder and the simulator: a client-credentials
// token (renewed before it expires and once on a 401), and get/post/put/delete by path or href.
// Kept this small on purpose so the generated client (clients/typescript) can replace it.

export interface ApiClientOptions {
  /** Where the server is, e.g. http://127.0.0.1:8080 (hrefs of the API are resolved against it). */
  baseUrl: string;
  clientId: string;
  clientSecret: string;
  /** The API entry point path; default /api/v2. */
  entryPath?: string;
  /** The token endpoint's path; default /oauth/token. */
  tokenPath?: string;
}

export interface ApiResponse {
  status: number;
  // biome-ignore lint/suspicious/noExplicitAny: HAL bodies are read by property name
  body: any;
}

/** An answer the caller did not expect: carries the status and the API's error body. */
export class ApiError extends Error {
  readonly status: number;
  readonly body: unknown;
  constructor(method: string, path: string, status: number, body: unknown) {
    super(`${method} ${path}: ${status} ${typeof body === 'string' ? body : JSON.stringify(body)}`);
    this.status = status;
    this.body = body;
  }
}

class RawBody {
  readonly content: string;
  readonly contentType: string;
  constructor(content: string, contentType: string) {
    this.content = content;
    this.contentType = contentType;
  }
}

export class ApiClient {
  readonly #options: ApiClientOptions;
  #token: { value: string; renewAt: number } | undefined;
  #tokenRequest: Promise<string> | undefined;
  /** Requests answered, by status: what a run can report. */
  readonly statusCounts = new Map<number, number>();

  constructor(options: ApiClientOptions) {
    this.#options = options;
  }

  /** The entry point path; links from its body lead everywhere else. */
  get entryPath(): string {
    return this.#options.entryPath ?? '/api/v2';
  }

  get(path: string, expected: number[] = [200]): Promise<ApiResponse> {
    return this.request('GET', path, undefined, expected);
  }

  post(path: string, body?: unknown, expected: number[] = [200, 201]): Promise<ApiResponse> {
    return this.request('POST', path, body, expected);
  }

  put(path: string, body: unknown, expected: number[] = [200, 201]): Promise<ApiResponse> {
    return this.request('PUT', path, body, expected);
  }

  delete(path: string, expected: number[] = [200, 204]): Promise<ApiResponse> {
    return this.request('DELETE', path, undefined, expected);
  }

  /** Uploads a file's bytes (e.g. a document's content) with their content type. */
  putFile(path: string, content: string, contentType: string): Promise<ApiResponse> {
    return this.request('PUT', path, new RawBody(content, contentType), [200, 201]);
  }

  /** One request; a status outside `expected` throws ApiError. A 401 renews the token once. */
  async request(method: string, path: string, body: unknown, expected: number[]): Promise<ApiResponse> {
    let response = await this.#send(method, path, body, await this.#currentToken());
    if (response.status === 401) {
      this.#token = undefined;
      response = await this.#send(method, path, body, await this.#currentToken());
    }
    this.statusCounts.set(response.status, (this.statusCounts.get(response.status) ?? 0) + 1);
    if (!expected.includes(response.status)) throw new ApiError(method, path, response.status, response.body);
    return response;
  }

  async #send(method: string, path: string, body: unknown, token: string): Promise<ApiResponse> {
    const headers: Record<string, string> = { authorization: `Bearer ${token}`, accept: 'application/json' };
    let payload: string | undefined;
    if (body instanceof RawBody) {
      headers['content-type'] = body.contentType;
      payload = body.content;
    } else if (body !== undefined) {
      headers['content-type'] = 'application/json';
      payload = JSON.stringify(body);
    }
    const response = await fetch(new URL(path, this.#options.baseUrl), { method, headers, body: payload });
    const text = await response.text();
    let parsed: unknown = text;
    if (text !== '' && (response.headers.get('content-type') ?? '').includes('json'))
      parsed = JSON.parse(text);
    return { status: response.status, body: parsed };
  }

  #currentToken(): Promise<string> {
    if (this.#token && Date.now() < this.#token.renewAt) return Promise.resolve(this.#token.value);
    // Concurrent requests share one token request.
    this.#tokenRequest ??= this.#fetchToken().finally(() => {
      this.#tokenRequest = undefined;
    });
    return this.#tokenRequest;
  }

  async #fetchToken(): Promise<string> {
    const { baseUrl, clientId, clientSecret, tokenPath = '/oauth/token' } = this.#options;
    const response = await fetch(new URL(tokenPath, baseUrl), {
      method: 'POST',
      headers: {
        authorization: `Basic ${Buffer.from(`${clientId}:${clientSecret}`).toString('base64')}`,
        'content-type': 'application/x-www-form-urlencoded',
      },
      body: 'grant_type=client_credentials',
    });
    const text = await response.text();
    if (response.status !== 200) throw new ApiError('POST', tokenPath, response.status, text);
    const { access_token: value, expires_in: seconds } = JSON.parse(text) as {
      access_token: string;
      expires_in: number;
    };
    // Renewed at 80 % of its lifetime, so a request never leaves with an expiring token.
    this.#token = { value, renewAt: Date.now() + seconds * 800 };
    return value;
  }
}

/** Runs `work` over `items` with at most `concurrency` at a time; rejects on the first failure. */
export async function inBatches<T>(
  items: readonly T[],
  concurrency: number,
  work: (item: T, index: number) => Promise<void>,
): Promise<void> {
  let next = 0;
  let failed = false;
  const worker = async () => {
    while (!failed && next < items.length) {
      const index = next++;
      try {
        await work(items[index] as T, index);
      } catch (error) {
        failed = true;
        throw error;
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, items.length) }, worker));
}
