// A family's item routes in one declaration (src/http/resourceRoutes.ts, `items`): the four routes
// with their words, and each service called with the ids of the path and the body's input.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import Fastify, { type RouteOptions } from 'fastify';
import { Type } from 'typebox';
import type { Database } from '../../../src/db/database.ts';
import type { Api } from '../../../src/http/api.ts';
import type { Resource } from '../../../src/http/hal.ts';
import { resourceRoutes } from '../../../src/http/resourceRoutes.ts';

const db = {} as Database;
const Body = Type.Object({ name: Type.String() });
const Item = Type.Object({ id: Type.String() });

interface Thing {
  id: string;
}

const presentPage = (things: Thing[]) =>
  things.map(
    (thing) => ({ properties: thing, _links: { self: { href: `/${thing.id}` } } }) as unknown as Resource,
  );

/** Registers routes on an app that is never started; each found by `METHOD url`. */
function capture() {
  const app = Fastify();
  const routes = new Map<string, RouteOptions>();
  app.addHook('onRoute', (route) => {
    routes.set(`${route.method} ${route.url}`, route);
  });
  const routeAt = (key: string) => {
    const route = routes.get(key);
    assert.ok(route, key);
    return route;
  };
  return { api: app as unknown as Api, routes, routeAt };
}

/** Calls a route's handler with these path parameters and body; the status code it answered with. */
async function call(route: RouteOptions, params: Record<string, string>, body?: unknown) {
  let code = 200;
  const reply = {
    code(value: number) {
      code = value;
      return reply;
    },
    header: () => reply,
    send: (sent?: unknown) => sent,
  };
  await (route.handler as (request: unknown, reply: unknown) => Promise<unknown>)(
    { params, query: {}, body },
    reply,
  );
  return code;
}

describe('items', () => {
  test('a collection: its four routes, each service called with the item id and the input', async () => {
    const { api, routeAt } = capture();
    const calls: unknown[][] = [];
    const get = async (_db: Database, id: string): Promise<Thing> => {
      calls.push(['get', id]);
      return { id };
    };
    const create = async (_db: Database, name: string): Promise<Thing> => {
      calls.push(['create', name]);
      return { id: 'T2' };
    };
    const replace = async (_db: Database, id: string, name: string): Promise<Thing> => {
      calls.push(['replace', id, name]);
      return { id };
    };
    const remove = async (_db: Database, id: string) => {
      calls.push(['delete', id]);
    };
    resourceRoutes(api, { path: '/things', schema: Item, presentPage }).items(db, {
      input: (body) => body.name.toUpperCase(),
      get: { summary: 'One thing', run: get },
      create: { summary: 'Create a thing', body: Body, run: create },
      replace: { summary: 'Replace a thing', body: Body, run: replace },
      remove: { summary: 'Delete a thing', run: remove },
    });
    const summaryOf = (key: string) => (routeAt(key).schema as { summary: string }).summary;
    assert.equal(summaryOf('GET /things/:id'), 'One thing');
    assert.equal(summaryOf('POST /things'), 'Create a thing');
    assert.equal(summaryOf('PUT /things/:id'), 'Replace a thing');
    assert.equal(summaryOf('DELETE /things/:id'), 'Delete a thing');

    assert.equal(await call(routeAt('GET /things/:id'), { id: 'T1' }), 200);
    assert.equal(await call(routeAt('POST /things'), {}, { name: 'a' }), 201);
    assert.equal(await call(routeAt('PUT /things/:id'), { id: 'T1' }, { name: 'b' }), 200);
    assert.equal(await call(routeAt('DELETE /things/:id'), { id: 'T1' }), 204);
    assert.deepEqual(calls, [
      ['get', 'T1'],
      ['create', 'A'],
      ['replace', 'T1', 'B'],
      ['delete', 'T1'],
    ]);
  });

  test("below an owner: the owner's id first, then the item's own", async () => {
    const { api, routeAt } = capture();
    const calls: unknown[][] = [];
    const get = async (_db: Database, owner: string, id: string): Promise<Thing> => {
      calls.push(['get', owner, id]);
      return { id };
    };
    const create = async (_db: Database, owner: string, name: string): Promise<Thing> => {
      calls.push(['create', owner, name]);
      return { id: 'T2' };
    };
    const replace = async (_db: Database, owner: string, id: string, name: string): Promise<Thing> => {
      calls.push(['replace', owner, id, name]);
      return { id };
    };
    const remove = async (_db: Database, owner: string, id: string) => {
      calls.push(['delete', owner, id]);
    };
    const path = '/owners/:id/things';
    resourceRoutes(api, { path, itemParam: 'thingId', schema: Item, presentPage }).items(db, {
      input: (body) => body.name,
      get: { summary: 'One', run: get },
      create: { summary: 'Create', body: Body, run: create },
      replace: { summary: 'Replace', body: Body, run: replace },
      remove: { summary: 'Delete', run: remove },
    });
    const item = { id: 'O1', thingId: 'T1' };
    await call(routeAt(`GET ${path}/:thingId`), item);
    await call(routeAt(`POST ${path}`), { id: 'O1' }, { name: 'a' });
    await call(routeAt(`PUT ${path}/:thingId`), item, { name: 'b' });
    await call(routeAt(`DELETE ${path}/:thingId`), item);
    assert.deepEqual(calls, [
      ['get', 'O1', 'T1'],
      ['create', 'O1', 'a'],
      ['replace', 'O1', 'T1', 'b'],
      ['delete', 'O1', 'T1'],
    ]);
  });

  test("a get without words of its own says One and the collection's item in words", () => {
    const { api, routeAt } = capture();
    const get = async (_db: Database, id: string): Promise<Thing> => ({ id });
    const thing = async (): Promise<Thing> => ({ id: 'T1' });
    resourceRoutes(api, { path: '/plantThings', schema: Item, presentPage }).items(db, {
      input: (body) => body.name,
      get: { run: get },
      create: { summary: 'Create', body: Body, run: thing },
    });
    assert.equal((routeAt('GET /plantThings/:id').schema as { summary: string }).summary, 'One plant thing');
  });

  test('a family without replace or delete gets neither route', () => {
    const { api, routes } = capture();
    const thing = async (): Promise<Thing> => ({ id: 'T1' });
    const get = async (_db: Database, id: string): Promise<Thing> => ({ id });
    resourceRoutes(api, { path: '/things', schema: Item, presentPage }).items(db, {
      input: (body) => body.name,
      get: { summary: 'One', run: get },
      create: { summary: 'Create', body: Body, run: thing },
    });
    assert.deepEqual(
      [...routes.keys()].filter((key) => !key.startsWith('HEAD')),
      ['GET /things/:id', 'POST /things'],
    );
  });

  test('a service of the other arity stops the server at start', () => {
    const { api } = capture();
    const thing = async (): Promise<Thing> => ({ id: 'T1' });
    const get = async (_db: Database, _owner: string, id: string): Promise<Thing> => ({ id });
    assert.throws(
      () =>
        resourceRoutes(api, { path: '/things', schema: Item, presentPage }).items(db, {
          input: (body) => body.name,
          get: { summary: 'One', run: get },
          create: { summary: 'Create', body: Body, run: thing },
          replace: { summary: 'Replace', body: Body, run: thing },
          remove: { summary: 'Delete', run: thing },
        }),
      /\/things: get takes one id/,
    );
  });
});
