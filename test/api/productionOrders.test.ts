// Production orders end to end (docs/api.md "Collections", docs/api.md "Resources", docs/api.md "States and transitions", docs/events.md): timestamp-mode collection with filters, search,
// GET with embed=operations, POST (with operations in one transaction), PUT, DELETE (with its
// operations), the stored events, and what a read-only caller may do and see.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { descriptionLiteralId } from '../../src/http/presenters/texts.ts';
import { createWorkplace, describeEachBackend, json, type TestApp } from '../support/app.ts';
import { eventsOf, withoutTime } from '../support/events.ts';
import { absolute, get, normalized } from '../support/hal.ts';

const BASE = '/api/v2/productionOrders';
const OPERATIONS = '/api/v2/operations';

async function createOrder(t: TestApp, body: Record<string, unknown>) {
  const response = await t.request({ method: 'POST', url: BASE, body });
  assert.equal(response.statusCode, 201, response.body);
  return json(response);
}

const orderBody = (properties: Record<string, unknown>) => ({
  properties,
  _links: {
    self: get(`${BASE}/${properties.id}`),
    ...(typeof properties.description === 'string'
      ? {
          description: get(
            `/api/v2/literals/${descriptionLiteralId('production_orders', String(properties.id))}`,
            true,
          ),
        }
      : {}),
    specification: get(`${BASE}/${properties.id}/specification`),
    scheduledDates: get(`${BASE}/${properties.id}/scheduledDates`),
    operationSequence: get(`${BASE}/${properties.id}/operationSequence`),
    operations: get(`${OPERATIONS}?productionOrderId=${properties.id}`, true),
  },
});

const numbersOf = (collection: ReturnType<typeof json>) =>
  collection._embedded.productionOrders.map(
    (item: { properties: { number: string } }) => item.properties.number,
  );

describeEachBackend('productionOrders', (t) => {
  test('POST with the number only: 201, Location = self, every other property null', async () => {
    const response = await t().request({ method: 'POST', url: BASE, body: { number: 'MIN-1' } });
    assert.equal(response.statusCode, 201, response.body);
    const body = json(response);
    assert.deepEqual(
      body,
      orderBody({
        id: body.properties.id,
        number: 'MIN-1',
        split: null,
        description: null,
        material: null,
        erpContextId: null,
        targetQuantity: null,
        quantityUnit: null,
        basicStartDate: null,
        basicEndDate: null,
        deliveryDate: null,
      }),
    );
    assert.equal(response.headers.location, absolute(`${BASE}/${body.properties.id}`));
    const again = await t().request({ url: `${BASE}/${body.properties.id}` });
    assert.deepEqual(json(again), body);
  });

  test('POST with every property; basicEndDate defaults to the delivery date; events stored', async () => {
    const body = await createOrder(t(), {
      number: 'FULL-1',
      description: 'Gear shafts',
      material: { number: 'M-100', description: 'Gear shaft' },
      targetQuantity: 250,
      quantityUnit: 'pcs',
      basicStartDate: '2030-01-10T06:00:00.000Z',
      deliveryDate: '2030-01-20T16:00:00.000Z',
    });
    const id = body.properties.id;
    const properties = {
      id,
      number: 'FULL-1',
      split: null,
      description: 'Gear shafts',
      material: { number: 'M-100', description: 'Gear shaft', type: null },
      erpContextId: null,
      targetQuantity: 250,
      quantityUnit: 'pcs',
      basicStartDate: '2030-01-10T06:00:00.000Z',
      basicEndDate: '2030-01-20T16:00:00.000Z',
      deliveryDate: '2030-01-20T16:00:00.000Z',
    };
    assert.deepEqual(body, orderBody(properties));
    const { id: _id, ...characteristics } = properties;
    assert.deepEqual(withoutTime(await eventsOf(t(), id)), [
      {
        eventType: 'PRODUCTION_ORDER_CREATED',
        objectType: 'PRODUCTION_ORDER',
        objectId: id,
        data: { productionOrderId: id, ...characteristics, scheduledStartDate: null, scheduledEndDate: null },
      },
      {
        eventType: 'RESOURCES_UPDATED',
        objectType: 'PRODUCTION_ORDER',
        objectId: id,
        data: { changeType: 'CREATED' },
      },
    ]);
  });

  test('POST with operations: one transaction, the 201 body embeds them in sequence order', async () => {
    const workplaceId = await createWorkplace(t(), 'PO-OPS-WP');
    const body = await createOrder(t(), {
      number: 'WITH-OPS',
      operations: [
        { number: '0020', sequence: 20 },
        { number: '0010', sequence: 10, workplaceId, targetQuantity: 4, targetTimePerUnit: 1500 },
        { number: '0030' },
      ],
    });
    const embedded = body._embedded.operations.map((item: { properties: Record<string, unknown> }) => [
      item.properties.number,
      item.properties.sequence,
      item.properties.productionOrderId,
      item.properties.operationPhaseId,
    ]);
    const id = body.properties.id;
    assert.deepEqual(embedded, [
      ['0030', 3, id, 'RELEASED'],
      ['0010', 10, id, 'RELEASED'],
      ['0020', 20, id, 'RELEASED'],
    ]);
    assert.equal(body._embedded.operations[1].properties.targetProcessingTime, 6000);
    // The same operations when asked for later, and each has its OPERATION_CREATED.
    const again = json(await t().request({ url: `${BASE}/${id}?embed=operations` }));
    assert.deepEqual(again._embedded.operations, body._embedded.operations);
    for (const operation of body._embedded.operations) {
      const events = await eventsOf(t(), operation.properties.id);
      assert.deepEqual(
        events.map((event) => [event.eventType, event.objectType]),
        [
          ['OPERATION_CREATED', 'OPERATION'],
          ['RESOURCES_UPDATED', 'OPERATION'],
        ],
      );
    }
  });

  test('POST whose third operation is bad: 400 naming the element, nothing stored', async () => {
    const count = async () =>
      (await t().app.db.query<{ n: number }>('SELECT count(*)::int AS n FROM production_orders'))[0]?.n;
    const before = await count();
    const cases: [unknown[], string, string][] = [
      [
        [
          { number: 'A' },
          { number: 'B' },
          { number: 'C', workplaceId: '00000000-0000-7000-8000-000000000000' },
        ],
        'INVALID_REFERENCE',
        'operations[2].workplaceId',
      ],
      [[{ number: 'A' }, { number: 'A' }], 'ALREADY_EXISTS', 'operations[1].number'],
      [
        [{ number: 'A', targetQuantity: 2, targetTimePerUnit: 10, targetProcessingTime: 21 }],
        'VALIDATION_FAILED',
        'operations[0].targetProcessingTime',
      ],
    ];
    for (const [operations, code, field] of cases) {
      const response = await t().request({
        method: 'POST',
        url: BASE,
        body: { number: 'BROKEN', operations },
      });
      assert.equal(response.statusCode, 400, response.body);
      assert.equal(json(response).code, code);
      assert.match(json(response).message, new RegExp(field.replace(/[[\].]/g, '\\$&')));
    }
    assert.equal(await count(), before);
  });

  test('descriptions are literals and the ERP context a link, embedded with the operations', async () => {
    const PLANT = 'BF0268C3CAFD4430B85485FB35FEE00D';
    const order = await createOrder(t(), {
      number: 'TEXTS-1',
      description: 'Gear shafts',
      erpContextId: PLANT,
      operations: [{ number: '0010', description: 'Turning', erpContextId: PLANT }],
    });
    const id = order.properties.id;
    const literalOf = async (href: string) => json(await t().request({ url: href }));
    const plant = await literalOf(`/api/v2/erpContexts/${PLANT}`);
    for (const path of [`${BASE}/${id}`, `${BASE}?productionOrderNumber=TEXTS-1`]) {
      const response = await t().request({
        url: `${path}${path.includes('?') ? '&' : '?'}embed=erpContext,operations,description`,
      });
      assert.equal(response.statusCode, 200, response.body);
      const answer = json(response);
      const item = answer._embedded.productionOrders?.[0] ?? answer;
      assert.deepEqual(item._links.erpContext, get(`/api/v2/erpContexts/${PLANT}`, true));
      const literal = await literalOf(item._links.description.href);
      assert.deepEqual(literal.properties.translations, [{ language: 'en-GB', translation: 'Gear shafts' }]);
      assert.deepEqual(item._embedded.description, literal);
      assert.deepEqual(item._embedded.erpContext, plant);
      const [operation] = item._embedded.operations;
      assert.equal(
        operation._links.description.href,
        absolute(`/api/v2/literals/${descriptionLiteralId('operations', operation.properties.id)}`),
      );
      assert.equal(
        (await literalOf(operation._links.description.href)).properties.translations[0].translation,
        'Turning',
      );
      assert.deepEqual(operation._links.erpContext, get(`/api/v2/erpContexts/${PLANT}`, true));
    }
    const operationId = order._embedded.operations[0].properties.id;
    const operation = json(
      await t().request({ url: `${OPERATIONS}/${operationId}?embed=description,erpContext` }),
    );
    assert.deepEqual(operation._embedded.description, await literalOf(operation._links.description.href));
    assert.deepEqual(operation._embedded.erpContext, plant);
    // Deleting the order deletes its operations, and with them both literals.
    const literals = [order._links.description.href, operation._links.description.href];
    assert.equal((await t().request({ method: 'DELETE', url: `${BASE}/${id}` })).statusCode, 204);
    for (const href of literals) assert.equal((await t().request({ url: href })).statusCode, 404, href);
  });

  test('400s: duplicate number, unknown field, end before start, id mismatch, unknown embed', async () => {
    const order = await createOrder(t(), { number: 'DUP-1' });
    const id = order.properties.id;
    const cases: [string, string, unknown, string][] = [
      ['POST', BASE, { number: 'DUP-1' }, 'ALREADY_EXISTS'],
      ['POST', BASE, { number: 'X-1', colour: 'red' }, 'UNKNOWN_FIELD'],
      ['POST', BASE, { number: 'X-2', targetQuantity: '5' }, 'VALIDATION_FAILED'],
      [
        'POST',
        BASE,
        { number: 'X-3', basicStartDate: '2030-02-01T00:00:00Z', basicEndDate: '2030-01-01T00:00:00Z' },
        'VALIDATION_FAILED',
      ],
      [
        'PUT',
        `${BASE}/${id}`,
        { id: '00000000-0000-7000-8000-000000000000', number: 'DUP-1' },
        'ID_MISMATCH',
      ],
      ['GET', `${BASE}/${id}?embed=workplace`, undefined, 'UNKNOWN_EMBED'],
      ['GET', `${BASE}?offset=0`, undefined, 'UNKNOWN_QUERY_PARAMETER'],
      ['GET', `${BASE}?startDate=yesterday`, undefined, 'VALIDATION_FAILED'],
    ];
    for (const [method, url, body, code] of cases) {
      const response = await t().request({ method: method as 'POST', url, body });
      assert.equal(response.statusCode, 400, `${method} ${url}: ${response.body}`);
      assert.equal(json(response).code, code, `${method} ${url}`);
    }
  });

  test('404 for unknown and malformed ids on GET, PUT and DELETE', async () => {
    for (const id of ['00000000-0000-7000-8000-000000000000', 'not-a-uuid', 'ABC']) {
      for (const method of ['GET', 'PUT', 'DELETE'] as const) {
        const response = await t().request({
          method,
          url: `${BASE}/${id}`,
          body: method === 'PUT' ? { number: 'N' } : undefined,
        });
        assert.equal(response.statusCode, 404, `${method} ${id}`);
        assert.equal(json(response).code, 'NOT_FOUND');
      }
    }
  });

  test('PUT replaces fully and emits PRODUCTION_ORDER_UPDATED with changedProperties; no change, no event', async () => {
    const order = await createOrder(t(), {
      number: 'PUT-1',
      material: { number: 'M-1' },
      deliveryDate: '2030-03-01T00:00:00.000Z',
    });
    const id = order.properties.id;
    const same = await t().request({
      method: 'PUT',
      url: `${BASE}/${id}`,
      body: {
        id,
        number: 'PUT-1',
        material: { description: null, number: 'M-1' },
        deliveryDate: '2030-03-01T00:00:00Z',
      },
    });
    assert.equal(same.statusCode, 200, same.body);
    assert.deepEqual(json(same), order);
    assert.equal((await eventsOf(t(), id)).length, 2);

    const changed = await t().request({
      method: 'PUT',
      url: `${BASE}/${id}`,
      body: { number: 'PUT-1', description: 'now described', deliveryDate: '2030-03-01T00:00:00.000Z' },
    });
    assert.equal(changed.statusCode, 200, changed.body);
    assert.equal(json(changed).properties.material, null, 'a missing optional field becomes null');
    const events = (await eventsOf(t(), id)).slice(2);
    assert.deepEqual(withoutTime(events), [
      {
        eventType: 'PRODUCTION_ORDER_UPDATED',
        objectType: 'PRODUCTION_ORDER',
        objectId: id,
        data: {
          productionOrderId: id,
          number: 'PUT-1',
          description: 'now described',
          material: null,
          targetQuantity: null,
          quantityUnit: null,
          basicStartDate: null,
          basicEndDate: '2030-03-01T00:00:00.000Z',
          deliveryDate: '2030-03-01T00:00:00.000Z',
          split: null,
          erpContextId: null,
          scheduledStartDate: null,
          scheduledEndDate: null,
          changedProperties: ['description', 'material'],
        },
      },
      {
        eventType: 'RESOURCES_UPDATED',
        objectType: 'PRODUCTION_ORDER',
        objectId: id,
        data: { changeType: 'UPDATED' },
      },
    ]);
  });

  test('DELETE removes the order and its operations, each with OPERATION_DELETED', async () => {
    const order = await createOrder(t(), {
      number: 'DEL-1',
      operations: [{ number: '10' }, { number: '20' }],
    });
    const id = order.properties.id;
    const operationIds: string[] = order._embedded.operations.map(
      (item: { properties: { id: string } }) => item.properties.id,
    );
    const response = await t().request({ method: 'DELETE', url: `${BASE}/${id}` });
    assert.equal(response.statusCode, 204);
    assert.equal((await t().request({ url: `${BASE}/${id}` })).statusCode, 404);
    for (const operationId of operationIds) {
      assert.equal((await t().request({ url: `${OPERATIONS}/${operationId}` })).statusCode, 404);
      const deleted = (await eventsOf(t(), operationId)).slice(2);
      assert.deepEqual(
        deleted.map((event) => [
          event.eventType,
          event.objectType,
          event.data.operationId ?? event.data.changeType,
        ]),
        [
          ['OPERATION_DELETED', 'OPERATION', operationId],
          ['RESOURCES_UPDATED', 'OPERATION', 'DELETED'],
        ],
      );
    }
    const events = (await eventsOf(t(), id)).slice(2);
    assert.deepEqual(
      events.map((event) => [event.eventType, event.data.productionOrderId ?? event.data.changeType]),
      [
        ['PRODUCTION_ORDER_DELETED', id],
        ['RESOURCES_UPDATED', 'DELETED'],
      ],
    );
  });

  test('filters: date period, productionOrderNumber, materialNumber; links keep them', async () => {
    const make = (number: string, start: string | null, end: string | null, material = 'FLT-M') =>
      createOrder(t(), { number, basicStartDate: start, basicEndDate: end, material: { number: material } });
    await make('FLT-JAN', '2031-01-01T00:00:00Z', '2031-01-31T00:00:00Z');
    await make('FLT-FEB', '2031-02-01T00:00:00Z', '2031-02-28T00:00:00Z');
    await make('FLT-MAR', '2031-03-01T00:00:00Z', '2031-03-31T00:00:00Z', 'FLT-OTHER');
    const list = async (query: string) => {
      const response = await t().request({ url: `${BASE}?${query}` });
      assert.equal(response.statusCode, 200, response.body);
      return json(response);
    };
    const period = await list(
      'materialNumber=FLT-M&startDate=2031-01-31T00:00:00Z&endDate=2031-02-15T00:00:00Z',
    );
    assert.deepEqual(numbersOf(period), ['FLT-FEB', 'FLT-JAN']);
    assert.deepEqual(
      numbersOf(
        await list('startDate=2031-02-01T00:00:00Z&endDate=2031-12-31T00:00:00Z&materialNumber=FLT-M'),
      ),
      ['FLT-FEB'],
    );
    assert.deepEqual(numbersOf(await list('productionOrderNumber=FLT-MAR')), ['FLT-MAR']);
    assert.deepEqual(numbersOf(await list('materialNumber=FLT-OTHER')), ['FLT-MAR']);
    const first = normalized(period._links.first);
    assert.deepEqual(
      first,
      normalized(
        get(
          `${BASE}?materialNumber=FLT-M&startDate=2031-01-31T00:00:00Z&endDate=2031-02-15T00:00:00Z&limit=100&paginationDirection=NEXT`,
        ),
      ),
    );
    assert.equal(period.pagination.offset, null);
    assert.equal(period.pagination.total, 2);
  });

  test('POST /search: lists match any value, lists combine; paging links are POSTs to the search URL', async () => {
    const ids: string[] = [];
    for (const number of ['S-1', 'S-2', 'S-3', 'S-4'])
      ids.push((await createOrder(t(), { number, material: { number: 'S-MAT' } })).properties.id);
    const search = async (body: unknown, query = '', scopes?: string[]) => {
      const response = await t().request({ method: 'POST', url: `${BASE}/search${query}`, body, scopes });
      assert.equal(response.statusCode, 200, response.body);
      return json(response);
    };
    assert.deepEqual(numbersOf(await search({ productionOrderNumbers: ['S-1', 'S-3', 'nope'] })), [
      'S-3',
      'S-1',
    ]);
    assert.deepEqual(
      numbersOf(await search({ productionOrderIds: [ids[1], ids[3]], materialNumbers: ['S-MAT'] })),
      ['S-4', 'S-2'],
    );
    assert.deepEqual(
      numbersOf(await search({ productionOrderIds: [ids[1]], productionOrderNumbers: ['S-1'] })),
      [],
    );
    // A reader may search; pages of two, following the POST links with the same body.
    const body = { materialNumbers: ['S-MAT'] };
    const page = await search(body, '?limit=2&embed=operations', ['read']);
    assert.deepEqual(numbersOf(page), ['S-4', 'S-3']);
    assert.deepEqual(page._embedded.productionOrders[0]._embedded, { operations: [] });
    for (const rel of ['self', 'current', 'first', 'next', 'last']) {
      assert.equal(page._links[rel].method, 'POST', rel);
      assert.match(page._links[rel].href, /^http:\/\/localhost:80\/api\/v2\/productionOrders\/search\?/, rel);
    }
    assert.equal(page._links.createProductionOrder, undefined);
    const next = await search(body, page._links.next.href.replace(absolute(`${BASE}/search`), ''), ['read']);
    assert.deepEqual(numbersOf(next), ['S-2', 'S-1']);
    const bad = await t().request({
      method: 'POST',
      url: `${BASE}/search`,
      body: { productionOrderNumbers: Array.from({ length: 1001 }, (_, i) => `N${i}`) },
    });
    assert.equal(bad.statusCode, 400);
    assert.equal(json(bad).code, 'VALIDATION_FAILED');
  });

  test('read-only token: 403 on writes, no create link', async () => {
    const order = await createOrder(t(), { number: 'RO-1' });
    const id = order.properties.id;
    const writes: [string, string, unknown][] = [
      ['POST', BASE, { number: 'RO-2' }],
      ['PUT', `${BASE}/${id}`, { number: 'RO-1' }],
      ['DELETE', `${BASE}/${id}`, undefined],
    ];
    for (const [method, url, body] of writes) {
      const response = await t().request({ method: method as 'POST', url, body, scopes: ['read'] });
      assert.equal(response.statusCode, 403, `${method} ${url}`);
      assert.equal(json(response).code, 'INSUFFICIENT_SCOPE');
    }
    const list = json(await t().request({ url: BASE, scopes: ['read'] }));
    assert.equal(list._links.createProductionOrder, undefined);
    const writer = json(await t().request({ url: BASE }));
    assert.deepEqual(writer._links.createProductionOrder, {
      href: absolute(BASE),
      method: 'POST',
      embeddable: false,
    });
  });
});
