// The one place that builds hrefs: absolute paths from the server root (with the base path), or
// absolute URLs when publicUrl is set (docs/api.md, "Addresses and versions").

export type QueryValues = Record<string, string | number | undefined>;

export class Hrefs {
  readonly #root: string;
  readonly #apiRoot: string;
  readonly version: number;

  constructor(root: string, version: number) {
    this.#root = root;
    this.#apiRoot = `${root}/api/v${version}`;
    this.version = version;
  }

  /** A path outside the versioned API (token endpoint, documentation). */
  root(path: string): string {
    return `${this.#root}${path}`;
  }

  /** `/api/v2` + path, with the query values that are set. */
  api(path: string, query: QueryValues = {}): string {
    const search = new URLSearchParams();
    for (const [name, value] of Object.entries(query)) {
      if (value !== undefined && value !== '') search.set(name, String(value));
    }
    const text = search.toString();
    return `${this.#apiRoot}${path}${text === '' ? '' : `?${text}`}`;
  }
}

/** publicUrl (e.g. https://host/ffwebservices) when set, else the base path (e.g. /ffwebservices). */
export const hrefRoot = (config: { publicUrl: string | undefined; basePath: string }) =>
  config.publicUrl ?? config.basePath;
