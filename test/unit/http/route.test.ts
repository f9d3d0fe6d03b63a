// The one route shape (src/http/route.ts): the path parameters it declares, and the schema, scope
// and error answers it registers a route with.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import Fastify from 'fastify';
import { Type } from 'typebox';
import type { Api } from '../../../src/http/api.ts';
import { paramsOf, registerRoute } from '../../../src/http/route.ts';

describe('paramsOf', () => {
  test('each :name of the path, a string of up to 100 characters, in path order', () => {
    const params = paramsOf('/tickets/:id/activities/:activityId') as { properties: Record<string, unknown> };
    assert.deepEqual(Object.keys(params.properties), ['id', 'activityId']);
    assert.deepEqual(
      Object.values(params.properties).map((schema) => (schema as { maxLength: number }).maxLength),
      [100, 100],
    );
  });

  test('none without parameters', () => {
    assert.equal(paramsOf('/workplaces'), undefined);
  });
});

describe('registerRoute', () => {
  test('registers the schema with the derived parameters, the shared errors and the scope', async () => {
    const app = Fastify();
    const seen: Record<string, unknown>[] = [];
    app.addHook('onRoute', (route) => {
      if (route.method === 'POST')
        seen.push({ schema: route.schema, config: route.config, bodyLimit: route.bodyLimit });
    });
    registerRoute(app as unknown as Api, {
      method: 'POST',
      path: '/devices/:id/samples',
      tags: ['devices'],
      summary: 'Record samples',
      scope: 'read',
      config: { tokenInQuery: true },
      bodyLimit: 1024,
      body: Type.Object({ value: Type.Number() }),
      response: { 201: Type.Null() },
      errors: [404, 415],
      handler: async (_request, reply) => reply.code(201).send(null),
    });
    // onRoute sees the route as it is registered; the app is not started (no shared schemas here).
    const [route] = seen as [
      { schema: Record<string, unknown>; config: Record<string, unknown>; bodyLimit: number },
    ];
    assert.deepEqual(Object.keys(route.schema), ['tags', 'summary', 'params', 'body', 'response']);
    assert.deepEqual(Object.keys(route.schema.response as object), [
      '201',
      '400',
      '401',
      '403',
      '404',
      '415',
    ]);
    assert.deepEqual(route.config, { tokenInQuery: true, scope: 'read' });
    assert.equal(route.bodyLimit, 1024);
    await app.close();
  });
});
