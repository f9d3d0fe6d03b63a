// OpenAPI operationIds for client generators (docs/clients.md): the resource routes derive theirs
// from the collection's name and path (resourceRoutes.ts); every other route without its own gets
// one from its method and path when it is registered (server.ts).

const pascal = (word: string) => word.charAt(0).toUpperCase() + word.slice(1);
/** `workplaces` -> `workplace`, `activities` -> `activity`; `recordedTimeSeries` stays. */
export const singular = (word: string) =>
  word.endsWith('Series') || word.endsWith('ss')
    ? word
    : word.endsWith('ies')
      ? `${word.slice(0, -3)}y`
      : word.replace(/s$/, '');

/**
 * OpenAPI operationIds for client generators (docs/clients.md), derived from the
 * collection's name and the owners in its path: `listWorkplaces`, `getWorkplace`,
 * `createWorkplace`, `replaceWorkplace`, `deleteWorkplace`, `searchOperations`,
 * `listWorkplaceShifts`, `changeWorkplaceOperatingState`.
 */
export function operationIds(path: string, name: string) {
  const segments = path.split('/').filter(Boolean);
  // Each segment followed by a parameter names an owner: /workplaces/:id/shifts -> Workplace.
  const owners = segments
    .filter((segment, index) => !segment.startsWith(':') && segments[index + 1]?.startsWith(':'))
    .map((segment) => pascal(singular(segment)))
    .join('');
  const plural = `${owners}${pascal(name)}`;
  const one = `${owners}${pascal(singular(name))}`;
  return {
    list: `list${plural}`,
    search: `search${plural}`,
    get: `get${one}`,
    create: `create${one}`,
    /** The rel of a list's create link: the item without its owners (`createShift`). */
    createRel: `create${pascal(singular(name))}`,
    replace: `replace${one}`,
    delete: `delete${one}`,
    command: (commandPath: string) => {
      const words = [
        ...new Set(
          commandPath
            .split('/')
            .filter(Boolean)
            .map((word) => pascal(word.replace(/^:/, '').replace(/Id$/, ''))),
        ),
      ].join('');
      return `change${words.startsWith(pascal(singular(name))) ? owners : one}${words}`;
    },
  };
}

/** `GET /api/v2/workplaces/:id/history` -> `getWorkplacesByIdHistory` (routes that name none). */
export function fallbackOperationId(method: string | string[], url: string, basePath: string): string {
  const verb = [method].flat()[0]?.toLowerCase() ?? 'call';
  const words = url
    .slice(basePath.length)
    .replace(/^\/api\/v\d+/, '')
    .split(/[/.]/)
    .filter(Boolean)
    .map((word) => (word.startsWith(':') ? `by-${word.slice(1)}` : word))
    .map((word) =>
      `-${word}`.replace(/[^A-Za-z0-9]+(.)?/g, (_, letter?: string) => (letter ?? '').toUpperCase()),
    );
  return `${verb}${words.join('') || 'Root'}`;
}
