// Request validators and response serializers are compiled when a route first needs them, once
// per process for equal schemas (src/http/validation.ts, src/http/serialization.ts).
export type Deferred<T> = () => T;

const compiled = new Map<string, unknown>();
const pending = new Set<() => unknown>();

/**
 * `compile()` runs on the first call of the returned function, or not at all; its result is
 * shared by every later request for an equal `key` (any JSON value naming what is compiled).
 */
export function compileLater<T>(key: unknown, compile: () => T): Deferred<T> {
  let result: T | undefined;
  const get = (): T => {
    if (result !== undefined) return result;
    const text = JSON.stringify(key);
    result = (compiled.get(text) as T | undefined) ?? compile();
    compiled.set(text, result);
    pending.delete(get);
    return result;
  };
  pending.add(get);
  return get;
}

/** Compiles everything not compiled yet; throws the first failure (tests: every schema compiles). */
export function compileEverything(): void {
  for (const compile of [...pending]) compile();
}

/** How many distinct schemas have been compiled in this process. */
export const compiledCount = (): number => compiled.size;
