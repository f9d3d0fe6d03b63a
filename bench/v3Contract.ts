// The FORCE Bridge v3 contract as data (test/fixtures/v3, see its README) and the pure checks
// against it: which of the 175 operations the route table serves, and how an answer's keys
// compare with a recorded response's. bench/v3Conformance.ts runs them against a live service;
// test/project/v3Conformance.test.ts runs the route check alone.
import { readdirSync, readFileSync } from 'node:fs';
import type { RouteEntry } from '../src/http/deps.ts';

const FIXTURES = new URL('../test/fixtures/v3/', import.meta.url);
const V3 = '/api/v3';

export interface V3Operation {
  group: string;
  operationId: string;
  method: string;
  /** Relative to /api/v3, parameters as `{name}`. */
  path: string;
}

/** A shape: a type marker ("string", "number", "boolean", "link"), null, an object or a one-element array. */
export type Shape = string | null | Shape[] | { [key: string]: Shape };

export interface RecordedResponse {
  /** The SDK's file name; also this fixture's. */
  recording: string;
  sdkCall: string;
  operation: { method: string; path: string };
  v3OperationId: string | null;
  query?: { embed?: string[]; additionalOperationTime?: string[]; window?: string[] };
  /** "properties": the recording is a resource's properties without the HAL envelope. */
  body?: 'properties';
  note?: string;
  shape: Shape;
}

export function loadOperations(): V3Operation[] {
  return JSON.parse(readFileSync(new URL('operations.json', FIXTURES), 'utf8')).operations;
}

export function loadRecorded(): RecordedResponse[] {
  const dir = new URL('recorded/', FIXTURES);
  return readdirSync(dir)
    .filter((name) => name.endsWith('.json'))
    .sort()
    .map((name) => JSON.parse(readFileSync(new URL(name, dir), 'utf8')));
}

// A parameter segment, `{name}` in the contract and `:name` in Fastify's routes, compares as one
// placeholder; literal segments must be equal. So `/operations/:id/:operationPhaseId` does not
// serve `/operations/{operationId}/components`, although the router would send that request there.
const segmentsOf = (path: string) =>
  path
    .split('/')
    .filter(Boolean)
    .map((segment) => (/^\{.+\}$|^:/.test(segment) ? '{}' : segment));

const shapeKey = (method: string, path: string) => `${method} /${segmentsOf(path).join('/')}`;

/** Whether a route of the v3 prefix serves a method and path template with the same path shape. */
export function servedBy(routeTable: RouteEntry[]): (method: string, path: string) => boolean {
  const routes = new Set(
    routeTable
      .filter((route) => route.url === V3 || route.url.startsWith(`${V3}/`))
      .map((route) => shapeKey(route.method, route.url.slice(V3.length) || '/')),
  );
  return (method, path) => routes.has(shapeKey(method, path));
}

/** The operations a route of the v3 prefix serves with the same method and the same path shape. */
export function servedOperations(operations: V3Operation[], routeTable: RouteEntry[]): Set<V3Operation> {
  const serves = servedBy(routeTable);
  return new Set(operations.filter((operation) => serves(operation.method, operation.path)));
}

/** Operations served, per group and in all. */
export function countByGroup(
  operations: V3Operation[],
  answered: (operation: V3Operation) => boolean,
): { total: number; answered: number; groups: Record<string, { total: number; answered: number }> } {
  const groups: Record<string, { total: number; answered: number }> = {};
  let count = 0;
  for (const operation of operations) {
    const group = groups[operation.group] ?? { total: 0, answered: 0 };
    groups[operation.group] = group;
    group.total += 1;
    if (answered(operation)) {
      group.answered += 1;
      count += 1;
    }
  }
  return { total: operations.length, answered: count, groups };
}

// ---------------------------------------------------------------------------------------------
// Key-for-key comparison

/**
 * Every key path of a JSON value or shape: `_embedded.tools[].properties.name`. A link object
 * counts by its relation name only (`_links.edges`): its own fields are the HAL link, not the
 * resource. Leaves that are null or empty arrays are kept apart, since nothing below them can be
 * seen.
 */
export function keyPaths(
  value: unknown,
  prefix = '',
  into = { paths: new Set<string>(), blank: new Set<string>() },
) {
  if (value === null || (Array.isArray(value) && value.length === 0)) {
    if (prefix) into.blank.add(prefix);
    return into;
  }
  if (Array.isArray(value)) {
    for (const element of value) keyPaths(element, `${prefix}[]`, into);
    return into;
  }
  if (typeof value !== 'object') return into;
  for (const [key, child] of Object.entries(value as Record<string, unknown>)) {
    const path = prefix ? `${prefix}.${key}` : key;
    into.paths.add(path);
    if (key === '_links' && child !== null && typeof child === 'object') {
      for (const relation of Object.keys(child)) into.paths.add(`${path}.${relation}`);
    } else {
      keyPaths(child, path, into);
    }
  }
  return into;
}

export interface ShapeDiff {
  /** Recorded keys the answer lacks. */
  missing: string[];
  /** Keys the answer has beyond the recording (allowed: adding a property is compatible). */
  extra: string[];
  /** Recorded keys below a value the answer gives as null or []: not visible in this answer. */
  unverified: string[];
}

export function compareShapes(recorded: Shape, answer: unknown): ShapeDiff {
  const want = keyPaths(recorded);
  const have = keyPaths(answer);
  const missing: string[] = [];
  const unverified: string[] = [];
  for (const path of want.paths) {
    if (have.paths.has(path)) continue;
    const underBlank = [...have.blank].some(
      (blank) => path.startsWith(`${blank}.`) || path.startsWith(`${blank}[]`),
    );
    (underBlank ? unverified : missing).push(path);
  }
  const extra = [...have.paths].filter((path) => !want.paths.has(path) && !underAny(path, want.blank));
  return { missing, extra, unverified };
}

const underAny = (path: string, blanks: Set<string>) =>
  [...blanks].some((blank) => path.startsWith(`${blank}.`) || path.startsWith(`${blank}[]`));

/** The property name a key path ends in (`_embedded.tools[].properties.name` -> `name`). */
export const propertyName = (path: string) => (path.split('.').pop() ?? path).replace(/\[\]$/g, '');

/** Structural keys of HAL, not property names. */
export const HAL_KEYS = new Set(['_links', '_embedded', 'properties', 'pagination']);

/** Whether a key path names a link relation rather than a property. */
export const isLinkPath = (path: string) => /(^|\.)_links\.[^.]+$/.test(path);
