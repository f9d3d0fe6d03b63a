// Tools and tool assembly orders end to end (docs/api.md "Resources", docs/api.md "States and transitions", docs/events.md): an order creates its tool in one
// transaction, the order's state machine as a full (from, to, allowed) table, the tool's state
// following the order, TOOL_UPDATED only for characteristic changes, deletion rules, links for
// writers only, and the stored events.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { compareShapes, loadRecorded } from '../../bench/v3Contract.ts';
import { descriptionLiteralId } from '../../src/http/presenters/texts.ts';
import { createOperation, createWorkplace, describeEachBackend, json, type TestApp } from '../support/app.ts';
import { eventsOf, withoutTime } from '../support/events.ts';
import { absolute, get } from '../support/hal.ts';

const TOOLS = '/api/v2/tools';
const ORDERS = '/api/v2/tools/assemblyOrders';
const STATES = ['REQUESTED', 'INITIATED', 'ASSEMBLED', 'PRESETTING', 'AVAILABLE', 'UNAVAILABLE'] as const;
type State = (typeof STATES)[number];

// docs/api.md "States and transitions", written out rather than read from the code under test.
const ALLOWED = new Set([
  'REQUESTED>INITIATED',
  'INITIATED>ASSEMBLED',
  'ASSEMBLED>PRESETTING',
  'PRESETTING>AVAILABLE',
  'REQUESTED>UNAVAILABLE',
  'INITIATED>UNAVAILABLE',
  'ASSEMBLED>UNAVAILABLE',
  'PRESETTING>UNAVAILABLE',
]);
const NEXT: Partial<Record<State, State>> = {
  REQUESTED: 'INITIATED',
  INITIATED: 'ASSEMBLED',
  ASSEMBLED: 'PRESETTING',
  PRESETTING: 'AVAILABLE',
};
// How to reach each state from REQUESTED.
const PATH_TO: Record<State, State[]> = {
  REQUESTED: [],
  INITIATED: ['INITIATED'],
  ASSEMBLED: ['INITIATED', 'ASSEMBLED'],
  PRESETTING: ['INITIATED', 'ASSEMBLED', 'PRESETTING'],
  AVAILABLE: ['INITIATED', 'ASSEMBLED', 'PRESETTING', 'AVAILABLE'],
  UNAVAILABLE: ['UNAVAILABLE'],
};
const MISSING = '0190a000-0000-7000-8000-00000000abcd';

interface Order {
  id: string;
  toolId: string | null;
  toolDescription: string;
  targetWorkplaceId: string | null;
  operationId: string | null;
  toolAssemblyOrderStateId: State;
  createdAt: string;
  updatedAt: string;
}

interface Tool {
  id: string;
  number: string | null;
  description: string | null;
  storageLocation: string | null;
  workplaceId: string | null;
  lifespan: { remaining: number | null; maximum: number | null; warningLimit: number | null };
  toolStateId: 'IN_ASSEMBLY' | 'AVAILABLE' | 'UNAVAILABLE';
}

const post = (href: string) => ({ href: absolute(href), method: 'POST', embeddable: false });

/** The representation of an order; `write`: the caller holds the write scope. */
function orderBody(order: Order, write = true) {
  const self = `${ORDERS}/${order.id}`;
  const state = order.toolAssemblyOrderStateId;
  const next = NEXT[state];
  const open = ALLOWED.has(`${state}>UNAVAILABLE`);
  return {
    properties: { ...order },
    _links: {
      self: get(self),
      ...(order.toolId ? { tool: get(`${TOOLS}/${order.toolId}`) } : {}),
      ...(order.targetWorkplaceId
        ? { targetWorkplace: get(`/api/v2/workplaces/${order.targetWorkplaceId}`) }
        : {}),
      ...(order.operationId ? { operation: get(`/api/v2/operations/${order.operationId}`) } : {}),
      toolAssemblyOrderState: get(`/api/v2/masterData/toolAssemblyOrderStates/${state}`),
      ...(write && next ? { updateToolAssemblyOrderState: post(`${self}/${next}`) } : {}),
      ...(write && open ? { setToolAssemblyOrderStateUnavailable: post(`${self}/UNAVAILABLE`) } : {}),
    },
  };
}

/** The v3 properties of a tool made through an order, which sets none of them. */
const V3_UNSET = {
  name: null,
  identifier2: null,
  identifier3: null,
  documentUrl: null,
  group: null,
  class: null,
  lifeTime: { current: null, warningLimit: null, maximum: null },
};

function toolBody(tool: Tool, orderId: string) {
  return {
    properties: { ...V3_UNSET, ...tool, identifier1: tool.number },
    _links: {
      self: get(`${TOOLS}/${tool.id}`),
      ...(typeof tool.description === 'string'
        ? { description: get(`/api/v2/literals/${descriptionLiteralId('tools', tool.id)}`, true) }
        : {}),
      ...(tool.workplaceId ? { workplace: get(`/api/v2/workplaces/${tool.workplaceId}`, true) } : {}),
      toolAssemblyOrder: get(`${ORDERS}/${orderId}`),
      edges: get(`${TOOLS}/${tool.id}/edges`),
      location: get(`${TOOLS}/${tool.id}/location`),
    },
  };
}

async function createOrder(t: TestApp, body: Record<string, unknown>): Promise<Order> {
  const response = await t.request({ method: 'POST', url: ORDERS, body });
  assert.equal(response.statusCode, 201, response.body);
  return json(response).properties;
}

async function setState(t: TestApp, orderId: string, state: string) {
  return t.request({ method: 'POST', url: `${ORDERS}/${orderId}/${state}` });
}

async function driveTo(t: TestApp, orderId: string, state: State): Promise<void> {
  for (const step of PATH_TO[state]) {
    const response = await setState(t, orderId, step);
    assert.equal(response.statusCode, 200, response.body);
  }
}

const error = (status: number, code: string, message: string) => ({ status, code, message });

describeEachBackend('tools', (t) => {
  test('POST an order with the required field only: 201, Location, the new tool announced', async () => {
    const response = await t().request({
      method: 'POST',
      url: ORDERS,
      body: { toolDescription: 'Drill 8 mm' },
    });
    assert.equal(response.statusCode, 201, response.body);
    const order: Order = json(response).properties;
    assert.ok(order.toolId);
    assert.match(order.createdAt, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
    const expected = orderBody({
      id: order.id,
      toolId: order.toolId,
      toolDescription: 'Drill 8 mm',
      targetWorkplaceId: null,
      operationId: null,
      toolAssemblyOrderStateId: 'REQUESTED',
      createdAt: order.createdAt,
      updatedAt: order.createdAt,
    });
    assert.deepEqual(json(response), expected);
    assert.equal(response.headers.location, absolute(`${ORDERS}/${order.id}`));
    const fetched = await t().request({ url: `${ORDERS}/${order.id}` });
    assert.deepEqual([fetched.statusCode, json(fetched)], [200, expected]);

    const tool = await t().request({ url: json(response)._links.tool.href });
    assert.deepEqual(
      [tool.statusCode, json(tool)],
      [
        200,
        toolBody(
          {
            id: order.toolId,
            number: null,
            description: 'Drill 8 mm',
            storageLocation: null,
            workplaceId: null,
            lifespan: { remaining: null, maximum: null, warningLimit: null },
            toolStateId: 'IN_ASSEMBLY',
          },
          order.id,
        ),
      ],
    );
    const data = {
      toolId: order.toolId,
      number: null,
      description: 'Drill 8 mm',
      lifespan: { maximum: null, warningLimit: null },
    };
    assert.deepEqual(withoutTime(await eventsOf(t(), order.toolId)), [
      { eventType: 'TOOL_CREATED', objectType: 'TOOL', objectId: order.toolId, data },
      {
        eventType: 'RESOURCES_UPDATED',
        objectType: 'TOOL',
        objectId: order.toolId,
        data: { changeType: 'CREATED' },
      },
    ]);
  });

  test('POST an order with every field; remaining life defaults to the maximum', async () => {
    const workplaceId = await createWorkplace(t(), 'TL-WP1');
    const operationId = await createOperation(t(), 'TL-OP1');
    const order = await createOrder(t(), {
      toolNumber: 'T-100',
      toolDescription: 'Mill 12 mm',
      targetWorkplaceId: workplaceId,
      operationId,
      storageLocation: 'Rack A3',
      lifespan: { maximum: 3_600_000_000, warningLimit: 360_000_000 },
    });
    assert.deepEqual(
      json(await t().request({ url: `${ORDERS}/${order.id}` })),
      orderBody({
        id: order.id,
        toolId: order.toolId,
        toolDescription: 'Mill 12 mm',
        targetWorkplaceId: workplaceId,
        operationId,
        toolAssemblyOrderStateId: 'REQUESTED',
        createdAt: order.createdAt,
        updatedAt: order.createdAt,
      }),
    );
    assert.deepEqual(
      json(await t().request({ url: `${TOOLS}/${order.toolId}` })),
      toolBody(
        {
          id: String(order.toolId),
          number: 'T-100',
          description: 'Mill 12 mm',
          storageLocation: 'Rack A3',
          workplaceId: null,
          lifespan: { remaining: 3_600_000_000, maximum: 3_600_000_000, warningLimit: 360_000_000 },
          toolStateId: 'IN_ASSEMBLY',
        },
        order.id,
      ),
    );
  });

  test('POST an order: bad bodies are 400 and create nothing', async () => {
    await createOrder(t(), { toolNumber: 'T-DUP', toolDescription: 'first' });
    const count = async () =>
      (await t().app.db.query<{ n: number }>('SELECT count(*)::int AS n FROM tools'))[0]?.n;
    const before = await count();
    const cases: [Record<string, unknown>, ReturnType<typeof error>][] = [
      [{}, error(400, 'VALIDATION_FAILED', "Field 'toolDescription' is required.")],
      [
        { toolDescription: 'x', colour: 'red' },
        error(400, 'UNKNOWN_FIELD', "Field 'colour' is not allowed here."),
      ],
      [
        { toolDescription: 'x', targetWorkplaceId: MISSING },
        error(
          400,
          'INVALID_REFERENCE',
          `Field 'targetWorkplaceId' refers to '${MISSING}', which is not an existing workplace.`,
        ),
      ],
      [
        { toolDescription: 'x', operationId: MISSING },
        error(
          400,
          'INVALID_REFERENCE',
          `Field 'operationId' refers to '${MISSING}', which is not an existing operation.`,
        ),
      ],
      [
        { toolDescription: 'x', operationId: 'op-1' },
        error(400, 'VALIDATION_FAILED', "Field 'operationId' must be a valid uuid."),
      ],
      [
        { toolDescription: 'x', toolNumber: 'T-DUP' },
        error(400, 'ALREADY_EXISTS', "Another resource already has number 'T-DUP'."),
      ],
      [
        { toolDescription: 'x', lifespan: { remaining: 11, maximum: 10 } },
        error(
          400,
          'VALIDATION_FAILED',
          "Field 'lifespan.remaining' is invalid: must not exceed lifespan.maximum.",
        ),
      ],
      [
        { toolDescription: 'x', lifespan: { maximum: 10, warningLimit: 20 } },
        error(
          400,
          'VALIDATION_FAILED',
          "Field 'lifespan.warningLimit' is invalid: must not exceed lifespan.maximum.",
        ),
      ],
      [
        { toolDescription: 'x', lifespan: { maximum: -1 } },
        error(400, 'VALIDATION_FAILED', "Field 'lifespan.maximum' must be at least 0."),
      ],
      [
        { toolDescription: 'x', lifespan: { maximum: 1.5 } },
        error(400, 'VALIDATION_FAILED', "Field 'lifespan.maximum' must be of type integer."),
      ],
    ];
    for (const [body, expected] of cases) {
      const response = await t().request({ method: 'POST', url: ORDERS, body });
      assert.deepEqual([response.statusCode, json(response)], [400, expected], JSON.stringify(body));
    }
    assert.equal(await count(), before);
  });

  test('state machine: every (from, to) pair of the 6 states, allowed or 400 INVALID_TRANSITION', async () => {
    for (const from of STATES) {
      for (const to of STATES) {
        const order = await createOrder(t(), { toolDescription: `${from}>${to}` });
        await driveTo(t(), order.id, from);
        const response = await setState(t(), order.id, to);
        const pair = `${from}>${to}`;
        if (ALLOWED.has(pair)) {
          assert.equal(response.statusCode, 200, `${pair}: ${response.body}`);
          assert.equal(json(response).properties.toolAssemblyOrderStateId, to, pair);
        } else {
          const allowed = STATES.filter((state) => ALLOWED.has(`${from}>${state}`));
          assert.deepEqual(
            [response.statusCode, json(response)],
            [
              400,
              error(
                400,
                'INVALID_TRANSITION',
                `The toolAssemblyOrder '${order.id}' cannot change from ${from} to ${to}; allowed: ${
                  allowed.length === 0 ? 'none' : allowed.join(', ')
                }.`,
              ),
            ],
            pair,
          );
          const stored = json(await t().request({ url: `${ORDERS}/${order.id}` }));
          assert.equal(stored.properties.toolAssemblyOrderStateId, from, pair);
        }
      }
    }
  });

  test('a state change: answer, event, action links per state, and the tool state following it', async () => {
    const order = await createOrder(t(), { toolDescription: 'Reamer' });
    const toolId = String(order.toolId);
    const toolState = async () =>
      json(await t().request({ url: `${TOOLS}/${toolId}` })).properties.toolStateId;
    let previous: State = 'REQUESTED';
    for (const state of PATH_TO.AVAILABLE) {
      const response = await setState(t(), order.id, state);
      const body = json(response);
      assert.deepEqual(
        [response.statusCode, body],
        [200, orderBody({ ...order, toolAssemblyOrderStateId: state, updatedAt: body.properties.updatedAt })],
      );
      const events = withoutTime(await eventsOf(t(), order.id));
      assert.deepEqual(events.at(-1), {
        eventType: 'TOOL_ASSEMBLY_ORDER_STATE_CHANGED',
        objectType: 'TOOL_ASSEMBLY_ORDER',
        objectId: order.id,
        data: {
          toolAssemblyOrderId: order.id,
          toolId,
          currentToolAssemblyOrderState: state,
          previousToolAssemblyOrderState: previous,
        },
      });
      assert.equal(await toolState(), state === 'AVAILABLE' ? 'AVAILABLE' : 'IN_ASSEMBLY');
      previous = state;
    }
    assert.equal((await eventsOf(t(), order.id)).length, 4);
    // A state change is not a characteristic change of the tool.
    assert.deepEqual(
      (await eventsOf(t(), toolId)).map((event) => event.eventType),
      ['TOOL_CREATED', 'RESOURCES_UPDATED'],
    );

    const cancelled = await createOrder(t(), { toolDescription: 'Broken reamer' });
    const response = await setState(t(), cancelled.id, 'UNAVAILABLE');
    assert.equal(response.statusCode, 200);
    assert.deepEqual(Object.keys(json(response)._links).sort(), ['self', 'tool', 'toolAssemblyOrderState']);
    assert.equal(
      json(await t().request({ url: `${TOOLS}/${cancelled.toolId}` })).properties.toolStateId,
      'UNAVAILABLE',
    );
  });

  test('state command: unknown order, malformed id or unknown state are 404; a body is refused', async () => {
    const order = await createOrder(t(), { toolDescription: 'Tap M6' });
    const cases: [string, ReturnType<typeof error>][] = [
      [
        `${ORDERS}/${MISSING}/INITIATED`,
        error(404, 'NOT_FOUND', `There is no toolAssemblyOrder with id '${MISSING}'.`),
      ],
      [`${ORDERS}/nope/INITIATED`, error(404, 'NOT_FOUND', "There is no toolAssemblyOrder with id 'nope'.")],
      [
        `${ORDERS}/${order.id}/BROKEN`,
        error(404, 'NOT_FOUND', "There is no toolAssemblyOrderState with id 'BROKEN'."),
      ],
      [
        `${ORDERS}/${order.id}/initiated`,
        error(404, 'NOT_FOUND', "There is no toolAssemblyOrderState with id 'initiated'."),
      ],
    ];
    for (const [url, expected] of cases) {
      const response = await t().request({ method: 'POST', url });
      assert.deepEqual([response.statusCode, json(response)], [expected.status, expected], url);
    }
    for (const url of [`${ORDERS}/${MISSING}`, `${ORDERS}/nope`]) {
      const response = await t().request({ url });
      assert.equal(response.statusCode, 404, url);
      assert.equal(json(response).code, 'NOT_FOUND');
    }
    const withBody = await t().request({
      method: 'POST',
      url: `${ORDERS}/${order.id}/INITIATED`,
      body: { note: 'x' },
    });
    assert.equal(withBody.statusCode, 400);
    assert.equal(
      json(await t().request({ url: `${ORDERS}/${order.id}` })).properties.toolAssemblyOrderStateId,
      'REQUESTED',
    );
  });

  test('tools collection: filters, create link, link to the orders', async () => {
    const workplaceId = await createWorkplace(t(), 'TL-WP2');
    const a = await createOrder(t(), { toolNumber: 'F-A', toolDescription: 'a' });
    const b = await createOrder(t(), { toolNumber: 'F-B', toolDescription: 'b' });
    await driveTo(t(), b.id, 'AVAILABLE');
    const placed = await t().request({
      method: 'PUT',
      url: `${TOOLS}/${b.toolId}`,
      body: { number: 'F-B', description: 'b', workplaceId },
    });
    assert.equal(placed.statusCode, 200, placed.body);

    const numbers = async (query: string) =>
      json(await t().request({ url: `${TOOLS}?${query}` }))._embedded.tools.map(
        (tool: { properties: Tool }) => tool.properties.number,
      );
    assert.deepEqual(await numbers('number=F-A'), ['F-A']);
    assert.deepEqual(await numbers(`workplaceId=${workplaceId}`), ['F-B']);
    assert.deepEqual(await numbers('toolStateId=AVAILABLE&number=F-B'), ['F-B']);
    assert.deepEqual(await numbers('toolStateId=IN_ASSEMBLY&number=F-B'), []);
    assert.deepEqual(await numbers('toolStateId=IN_ASSEMBLY&number=F-A'), ['F-A']);

    const list = json(await t().request({ url: `${TOOLS}?number=F-A` }));
    assert.deepEqual(list.pagination, {
      limit: 100,
      count: 1,
      offset: 0,
      total: 1,
      firstIdentifier: null,
      lastIdentifier: null,
    });
    assert.deepEqual(list._links.toolAssemblyOrders, get(ORDERS));
    assert.deepEqual(Object.keys(list._links).sort(), [
      'createTool',
      'current',
      'first',
      'last',
      'self',
      'toolAssemblyOrders',
    ]);
    assert.deepEqual(list._links.self, get(`${TOOLS}?number=F-A&limit=100&offset=0`));
    assert.deepEqual(list._embedded.tools[0], json(await t().request({ url: `${TOOLS}/${a.toolId}` })));

    // /tools/assemblyOrders is a known path too: PUT and DELETE there are 405, not "no such tool".
    for (const method of ['PUT', 'DELETE'] as const) {
      const refused = await t().request({
        method,
        url: ORDERS,
        ...(method === 'PUT' ? { body: { extra: 1 } } : {}),
      });
      assert.deepEqual([refused.statusCode, json(refused).code], [405, 'METHOD_NOT_ALLOWED'], method);
      assert.equal(refused.headers.allow, 'GET, HEAD, POST');
    }

    const cases: [string, string][] = [
      ['toolStateId=BROKEN', 'VALIDATION_FAILED'],
      ['workplaceId=wp-1', 'VALIDATION_FAILED'],
      ['limit=0', 'VALIDATION_FAILED'],
      ['embed=edges', 'UNKNOWN_EMBED'],
    ];
    for (const [query, code] of cases) {
      const response = await t().request({ url: `${TOOLS}?${query}` });
      assert.deepEqual([response.statusCode, json(response).code], [400, code], query);
    }
  });

  test('orders collection: filters, create link for writers only, paging', async () => {
    const first = await createOrder(t(), { toolDescription: 'list-1' });
    const second = await createOrder(t(), { toolDescription: 'list-2' });
    await driveTo(t(), second.id, 'ASSEMBLED');

    const byTool = json(await t().request({ url: `${ORDERS}?toolId=${first.toolId}` }));
    assert.deepEqual(byTool._embedded.toolAssemblyOrders, [
      json(await t().request({ url: `${ORDERS}/${first.id}` })),
    ]);
    assert.deepEqual(byTool._links.createToolAssemblyOrder, post(ORDERS));

    const assembled = json(await t().request({ url: `${ORDERS}?toolAssemblyOrderStateId=ASSEMBLED` }));
    assert.ok(
      assembled._embedded.toolAssemblyOrders.every(
        (order: { properties: Order }) => order.properties.toolAssemblyOrderStateId === 'ASSEMBLED',
      ),
    );
    assert.ok(
      assembled._embedded.toolAssemblyOrders.some(
        (order: { properties: Order }) => order.properties.id === second.id,
      ),
    );

    const reader = json(await t().request({ url: `${ORDERS}?toolId=${second.toolId}`, scopes: ['read'] }));
    assert.equal('createToolAssemblyOrder' in reader._links, false);
    const readerOrder = await t().request({ url: `${ORDERS}/${second.id}`, scopes: ['read'] });
    assert.deepEqual(json(readerOrder), orderBody({ ...json(readerOrder).properties }, false));
    assert.deepEqual(reader._embedded.toolAssemblyOrders, [json(readerOrder)]);

    const paged = json(await t().request({ url: `${ORDERS}?limit=1&offset=1` }));
    assert.equal(paged.pagination.count, 1);
    assert.ok(paged._links.previous && paged._links.next);

    const bad = await t().request({ url: `${ORDERS}?toolAssemblyOrderStateId=DONE` });
    assert.deepEqual([bad.statusCode, json(bad).code], [400, 'VALIDATION_FAILED']);
  });

  test('PUT a tool: full replacement; TOOL_UPDATED only for characteristic changes', async () => {
    const workplaceId = await createWorkplace(t(), 'TL-WP3');
    const order = await createOrder(t(), {
      toolNumber: 'P-1',
      toolDescription: 'Insert',
      storageLocation: 'Rack B',
      lifespan: { maximum: 1000, warningLimit: 100 },
    });
    const toolId = String(order.toolId);
    const url = `${TOOLS}/${toolId}`;
    const base: Tool = {
      id: toolId,
      number: 'P-1',
      description: 'Insert',
      storageLocation: 'Rack B',
      workplaceId: null,
      lifespan: { remaining: 1000, maximum: 1000, warningLimit: 100 },
      toolStateId: 'IN_ASSEMBLY',
    };
    const put = (body: Record<string, unknown>) => t().request({ method: 'PUT', url, body });
    const writable = ({ id: _id, toolStateId: _state, ...rest }: Tool) => rest;
    const toolEvents = async () =>
      (await eventsOf(t(), toolId)).filter((event) => event.eventType !== 'RESOURCES_UPDATED');

    // Unchanged, then location, site and remaining life only: saved, no event.
    assert.deepEqual(json(await put({ id: toolId, ...writable(base) })), toolBody(base, order.id));
    const moved: Tool = {
      ...base,
      storageLocation: null,
      workplaceId,
      lifespan: { ...base.lifespan, remaining: 400 },
    };
    const quiet = await put(writable(moved));
    assert.deepEqual([quiet.statusCode, json(quiet)], [200, toolBody(moved, order.id)]);
    assert.deepEqual(json(await t().request({ url })), toolBody(moved, order.id));
    assert.deepEqual(
      (await toolEvents()).map((event) => event.eventType),
      ['TOOL_CREATED'],
    );

    // Characteristic changes; missing optional fields become null.
    const changed = await put({
      number: 'P-1b',
      workplaceId,
      lifespan: { remaining: 400, maximum: 2000, warningLimit: 100 },
    });
    const after: Tool = {
      ...moved,
      number: 'P-1b',
      description: null,
      lifespan: { remaining: 400, maximum: 2000, warningLimit: 100 },
    };
    assert.deepEqual([changed.statusCode, json(changed)], [200, toolBody(after, order.id)]);
    const events = withoutTime(await eventsOf(t(), toolId));
    assert.deepEqual(events.slice(-2), [
      {
        eventType: 'TOOL_UPDATED',
        objectType: 'TOOL',
        objectId: toolId,
        data: {
          toolId,
          number: 'P-1b',
          description: null,
          lifespan: { maximum: 2000, warningLimit: 100 },
          changedProperties: ['number', 'description', 'lifespan.maximum'],
        },
      },
      {
        eventType: 'RESOURCES_UPDATED',
        objectType: 'TOOL',
        objectId: toolId,
        data: { changeType: 'UPDATED' },
      },
    ]);

    const errors: [Record<string, unknown>, ReturnType<typeof error>][] = [
      [
        { id: MISSING, number: 'P-1b' },
        error(
          400,
          'ID_MISMATCH',
          `The id in the body ('${MISSING}') differs from the id in the path ('${toolId}').`,
        ),
      ],
      [
        { workplaceId: MISSING },
        error(
          400,
          'INVALID_REFERENCE',
          `Field 'workplaceId' refers to '${MISSING}', which is not an existing workplace.`,
        ),
      ],
      // The state is the assembly order's to change: echoed unchanged it is taken, changed it is refused.
      [
        { toolStateId: 'AVAILABLE' },
        error(
          400,
          'READ_ONLY_PROPERTY',
          "Property 'toolStateId' is read-only: send it unchanged or leave it out.",
        ),
      ],
      [
        { lifespan: { maximum: 5, warningLimit: 6 } },
        error(
          400,
          'VALIDATION_FAILED',
          "Field 'lifespan.warningLimit' is invalid: must not exceed lifespan.maximum.",
        ),
      ],
      [
        { lifespan: { remainingLife: 5 } },
        error(400, 'UNKNOWN_FIELD', "Field 'lifespan.remainingLife' is not allowed here."),
      ],
    ];
    for (const [body, expected] of errors) {
      const response = await put(body);
      assert.deepEqual([response.statusCode, json(response)], [400, expected], JSON.stringify(body));
    }
    await createOrder(t(), { toolNumber: 'P-2', toolDescription: 'other' });
    const duplicate = await put({ number: 'P-2' });
    assert.deepEqual(
      [duplicate.statusCode, json(duplicate)],
      [400, error(400, 'ALREADY_EXISTS', "Another resource already has number 'P-2'.")],
    );
    assert.deepEqual(json(await t().request({ url })), toolBody(after, order.id));
    assert.equal((await eventsOf(t(), toolId)).length, events.length);

    const unknown = await t().request({ method: 'PUT', url: `${TOOLS}/${MISSING}`, body: {} });
    assert.deepEqual(
      [unknown.statusCode, json(unknown)],
      [404, error(404, 'NOT_FOUND', `There is no tool with id '${MISSING}'.`)],
    );
  });

  test('DELETE a tool: refused while its order is unfinished; afterwards the order stays without it', async () => {
    const order = await createOrder(t(), { toolNumber: 'D-1', toolDescription: 'Boring bar' });
    const toolId = String(order.toolId);
    await driveTo(t(), order.id, 'PRESETTING');
    const refused = await t().request({ method: 'DELETE', url: `${TOOLS}/${toolId}` });
    assert.deepEqual(
      [refused.statusCode, json(refused)],
      [
        400,
        error(
          400,
          'RESOURCE_IN_USE',
          `The tool '${toolId}' is still referenced by the unfinished toolAssemblyOrder '${order.id}'.`,
        ),
      ],
    );
    assert.equal((await t().request({ url: `${TOOLS}/${toolId}` })).statusCode, 200);

    await driveTo(t(), order.id, 'UNAVAILABLE');
    const deleted = await t().request({ method: 'DELETE', url: `${TOOLS}/${toolId}` });
    assert.deepEqual([deleted.statusCode, deleted.body], [204, '']);
    for (const request of [
      { url: `${TOOLS}/${toolId}` },
      { method: 'DELETE' as const, url: `${TOOLS}/${toolId}` },
    ]) {
      const response = await t().request(request);
      assert.deepEqual(
        [response.statusCode, json(response)],
        [404, error(404, 'NOT_FOUND', `There is no tool with id '${toolId}'.`)],
      );
    }
    const orphan = json(await t().request({ url: `${ORDERS}/${order.id}` }));
    assert.deepEqual(
      orphan,
      orderBody({
        ...order,
        toolId: null,
        toolAssemblyOrderStateId: 'UNAVAILABLE',
        updatedAt: orphan.properties.updatedAt,
      }),
    );
    assert.deepEqual(withoutTime(await eventsOf(t(), toolId)).slice(-2), [
      {
        eventType: 'TOOL_DELETED',
        objectType: 'TOOL',
        objectId: toolId,
        data: {
          toolId,
          number: 'D-1',
          description: 'Boring bar',
          lifespan: { maximum: null, warningLimit: null },
        },
      },
      {
        eventType: 'RESOURCES_UPDATED',
        objectType: 'TOOL',
        objectId: toolId,
        data: { changeType: 'DELETED' },
      },
    ]);
  });

  test('a workplace that is a tool site or an order target cannot be deleted (RESOURCE_IN_USE)', async () => {
    const site = await createWorkplace(t(), 'TL-WP4');
    const target = await createWorkplace(t(), 'TL-WP5');
    const order = await createOrder(t(), { toolDescription: 'Holder', targetWorkplaceId: target });
    const placed = await t().request({
      method: 'PUT',
      url: `${TOOLS}/${order.toolId}`,
      body: { workplaceId: site },
    });
    assert.equal(placed.statusCode, 200);
    for (const workplaceId of [site, target]) {
      const response = await t().request({ method: 'DELETE', url: `/api/v2/workplaces/${workplaceId}` });
      assert.deepEqual([response.statusCode, json(response).code], [400, 'RESOURCE_IN_USE']);
    }
  });

  test('security: no token is 401; a read token cannot write (403) and sees no action links', async () => {
    const order = await createOrder(t(), { toolDescription: 'Secured' });
    for (const url of [TOOLS, `${TOOLS}/${order.toolId}`, ORDERS, `${ORDERS}/${order.id}`]) {
      const response = await t().request({ url, anonymous: true });
      assert.equal(response.statusCode, 401, url);
    }
    const forbidden = error(
      403,
      'INSUFFICIENT_SCOPE',
      "This request needs the scope 'write', which the access token does not grant.",
    );
    const writes = [
      { method: 'POST' as const, url: ORDERS, body: { toolDescription: 'no' } },
      { method: 'POST' as const, url: `${ORDERS}/${order.id}/INITIATED` },
      { method: 'PUT' as const, url: `${TOOLS}/${order.toolId}`, body: { number: 'no' } },
      { method: 'DELETE' as const, url: `${TOOLS}/${order.toolId}` },
    ];
    for (const write of writes) {
      const response = await t().request({ ...write, scopes: ['read'] });
      assert.deepEqual(
        [response.statusCode, json(response)],
        [403, forbidden],
        `${write.method} ${write.url}`,
      );
    }
    const reader = json(await t().request({ url: `${ORDERS}/${order.id}`, scopes: ['read'] }));
    assert.deepEqual(reader, orderBody(order, false));
    assert.equal(
      (await t().app.db.query("SELECT 1 FROM tool_assembly_orders WHERE tool_description = 'no'")).length,
      0,
    );
  });
});

// ---------------------------------------------------------------------------------------------
// FORCE Bridge v3: tools created directly, their state, edges, characteristics and location, with
// the SDK's property names (test/fixtures/v3/recorded/*Tool*.json).

const V3 = '/api/v3/tools';
const recorded = new Map(loadRecorded().map((entry) => [entry.recording.replace(/\.json$/, ''), entry]));

// Not shown: embeds where a request asks for none; a next page only where the recording had one.
const NOT_YET = /^_embedded($|\.description|\.workplace)|^_embedded\.tools\[\]\._embedded|^_links\.next$/;

/** Every key the recorded response shows is in the answer; `embedded`: the request asked for its embeds. */
function assertRecordedKeys(
  name: string,
  answer: unknown,
  embedded = false,
  absent: ReadonlySet<string> = new Set(),
): void {
  const entry = recorded.get(name);
  assert.ok(entry, name);
  const shape = entry.body === 'properties' ? { properties: entry.shape } : entry.shape;
  const missing = compareShapes(shape, answer).missing.filter(
    (key) => !absent.has(key) && (!NOT_YET.test(key) || (embedded && key.startsWith('_embedded'))),
  );
  assert.deepEqual(missing, [], name);
}

// The values the SDK's integration test sends (ToolClientIntegrationTest.createNewTool).
const sdkTool = (identifier1: string, workplaceId: string) => ({
  name: 'ToolTest Name',
  description: 'ToolTest Description',
  identifier1,
  identifier2: '2037585391',
  identifier3: '182489540',
  documentUrl: 'ToolTest DocumentURL',
  group: { name: 'ToolTest GroupName', identifier: 'ToolTest GroupIdentifier' },
  class: { name: 'ToolTest ClassName', identifier: 'ToolTest ClassIdentifier' },
  lifeTime: { current: 0, warningLimit: 0, maximum: 0 },
  location: { workplaceId, magazineNumber: 3, magazinePlace: 12 },
  characteristics: [
    {
      name: 'ToolTest CharacteristicName',
      identifier: 'ToolTest CharacteristicIdentifier',
      value: 'ToolTest CharacteristicValue',
      unit: 'MS',
    },
  ],
});

describeEachBackend('tools (v3: direct creation, state, edges, characteristics, location)', (t) => {
  const create = async (identifier1: string, workplaceId: string) => {
    const response = await t().request({ method: 'POST', url: V3, body: sdkTool(identifier1, workplaceId) });
    assert.equal(response.statusCode, 201, response.body);
    return json(response);
  };
  const toolEvents = async (toolId: string) =>
    withoutTime(await eventsOf(t(), toolId)).filter((event) => event.eventType !== 'RESOURCES_UPDATED');

  test('POST /tools: 201 with Location, the recorded properties, location and characteristics stored, TOOL_CREATED', async () => {
    const workplaceId = await createWorkplace(t(), 'V3T-WP1');
    const created = await create('376375670', workplaceId);
    const toolId = created.properties.id;
    assertRecordedKeys('createTool', created);
    assert.deepEqual(created.properties, {
      id: toolId,
      number: '376375670',
      identifier1: '376375670',
      identifier2: '2037585391',
      identifier3: '182489540',
      name: 'ToolTest Name',
      description: 'ToolTest Description',
      documentUrl: 'ToolTest DocumentURL',
      group: { name: 'ToolTest GroupName', identifier: 'ToolTest GroupIdentifier' },
      class: { name: 'ToolTest ClassName', identifier: 'ToolTest ClassIdentifier' },
      lifeTime: { current: 0, warningLimit: 0, maximum: 0 },
      lifespan: { remaining: null, maximum: null, warningLimit: null },
      storageLocation: null,
      workplaceId,
      toolStateId: null,
    });
    const fetched = await t().request({ url: `${V3}/${toolId}` });
    assert.equal(fetched.statusCode, 200);
    assert.equal(fetched.headers.location, undefined);
    assert.deepEqual(json(fetched), created);
    assertRecordedKeys('getTool', json(fetched));
    assert.equal('toolAssemblyOrder' in created._links, false);
    // The description is a literal, embedded on request as /literals serves it.
    const described = json(await t().request({ url: `${V3}/${toolId}?embed=description` }));
    const literal = json(await t().request({ url: created._links.description.href }));
    assert.deepEqual(literal.properties, {
      id: descriptionLiteralId('tools', toolId),
      translations: [{ language: 'en-GB', translation: 'ToolTest Description' }],
    });
    assert.deepEqual(described._embedded, { description: literal });
    // The recorded read asks for both: the workplace embedded is the one its link names.
    const embedded = json(await t().request({ url: `${V3}/${toolId}?embed=workplace,description` }));
    const site = json(await t().request({ url: created._links.workplace.href }));
    assert.deepEqual(embedded._embedded, { description: literal, workplace: site });
    // This site has no description and no ERP context to link (the workplace tests show both).
    const unlinked = new Set([
      '_embedded.workplace._links.erpContext',
      '_embedded.workplace._links.description',
    ]);
    assertRecordedKeys('getTool', embedded, true, unlinked);
    const page = json(await t().request({ url: `${V3}?identifier=376375670&embed=workplace,description` }));
    assert.deepEqual(page._embedded.tools, [embedded]);

    const characteristics = json(await t().request({ url: `${V3}/${toolId}/characteristics` }));
    assertRecordedKeys('getToolCharacteristics', characteristics);
    assert.deepEqual(characteristics.properties.elements, sdkTool('', '').characteristics);
    const location = json(await t().request({ url: `${V3}/${toolId}/location` }));
    assertRecordedKeys('getToolLocation', location);
    assert.deepEqual(location.properties, {
      workplace: { id: workplaceId, number: 'V3T-WP1', description: null, erpContextId: null },
      magazineNumber: 3,
      magazinePlace: 12,
      geoCoordinates: null,
    });

    assert.deepEqual(await toolEvents(toolId), [
      {
        eventType: 'TOOL_CREATED',
        objectType: 'TOOL',
        objectId: toolId,
        data: {
          toolId,
          number: '376375670',
          description: 'ToolTest Description',
          lifespan: { maximum: null, warningLimit: null },
        },
      },
    ]);
    const list = json(await t().request({ url: `${V3}?identifier=376375670&identifier2=2037585391` }));
    assert.deepEqual(
      list._embedded.tools.map((tool: { properties: { id: string } }) => tool.properties.id),
      [toolId],
    );
    assertRecordedKeys('getTools', list);
  });

  test('POST /tools: bad bodies are 400 naming the field and store nothing', async () => {
    const workplaceId = await createWorkplace(t(), 'V3T-WP2');
    await create('DUP-1', workplaceId);
    const before = json(await t().request({ url: V3 })).pagination.total;
    const { identifier1: _missing, ...noIdentifier } = sdkTool('x', workplaceId);
    const cases: [Record<string, unknown>, string, string][] = [
      [noIdentifier, 'VALIDATION_FAILED', 'identifier1'],
      [
        { ...sdkTool('B-1', workplaceId), lifeTime: { current: -1 } },
        'VALIDATION_FAILED',
        'lifeTime.current',
      ],
      [
        { ...sdkTool('B-2', workplaceId), location: { workplaceId: MISSING } },
        'INVALID_REFERENCE',
        'location.workplaceId',
      ],
      [
        { ...sdkTool('B-3', workplaceId), characteristics: [{ name: 'n', identifier: 'i' }] },
        'VALIDATION_FAILED',
        'characteristics/0/value',
      ],
      [{ ...sdkTool('B-4', workplaceId), colour: 'red' }, 'UNKNOWN_FIELD', 'colour'],
      [sdkTool('DUP-1', workplaceId), 'ALREADY_EXISTS', 'identifier1'],
    ];
    for (const [body, code, field] of cases) {
      const response = await t().request({ method: 'POST', url: V3, body });
      assert.deepEqual([response.statusCode, json(response).code], [400, code], field);
      const named = field.split('/').at(-1) as string;
      assert.match(json(response).message, new RegExp(named.replace('.', '\\.')), response.body);
    }
    assert.equal(json(await t().request({ url: V3 })).pagination.total, before);
  });

  test('POST /tools/{id}/{toolStateId}: sets the state quietly; unknown states 404; refused while assembling', async () => {
    const workplaceId = await createWorkplace(t(), 'V3T-WP3');
    const toolId = (await create('ST-1', workplaceId)).properties.id;
    const set = await t().request({ method: 'POST', url: `${V3}/${toolId}/UNAVAILABLE` });
    assert.equal(set.statusCode, 200, set.body);
    assertRecordedKeys('setToolState', json(set));
    assert.equal(json(set).properties.toolStateId, 'UNAVAILABLE');
    assert.equal(json(await t().request({ url: `${V3}/${toolId}` })).properties.toolStateId, 'UNAVAILABLE');
    const filtered = json(await t().request({ url: `${V3}?toolStateId=UNAVAILABLE&number=ST-1` }));
    assert.equal(filtered.pagination.total, 1);
    assert.deepEqual(
      (await toolEvents(toolId)).map((event) => event.eventType),
      ['TOOL_CREATED'],
    );
    for (const state of ['A', 'IN_ASSEMBLY', 'available']) {
      const response = await t().request({ method: 'POST', url: `${V3}/${toolId}/${state}` });
      assert.deepEqual([response.statusCode, json(response).code], [404, 'NOT_FOUND'], state);
    }
    const order = await createOrder(t(), { toolDescription: 'assembling' });
    const refused = await t().request({ method: 'POST', url: `${V3}/${order.toolId}/AVAILABLE` });
    assert.deepEqual([refused.statusCode, json(refused).code], [400, 'INVALID_TRANSITION']);
    await driveTo(t(), order.id, 'AVAILABLE');
    const afterOrder = await t().request({ method: 'POST', url: `${V3}/${order.toolId}/UNAVAILABLE` });
    assert.equal(json(afterOrder).properties.toolStateId, 'UNAVAILABLE');
    const missing = await t().request({ method: 'POST', url: `${V3}/${MISSING}/AVAILABLE` });
    assert.equal(missing.statusCode, 404);
  });

  test('edges: created (static path before the state command), listed, filtered, replaced; events for identifier and limits only', async () => {
    const workplaceId = await createWorkplace(t(), 'V3T-WP4');
    const toolId = (await create('ED-1', workplaceId)).properties.id;
    const edgesUrl = `${V3}/${toolId}/edges`;
    const body = {
      identifier: '1041561316',
      lifeTime: { current: 1000, warningLimit: 5000, maximum: 10000 },
      characteristics: [
        {
          name: 'ToolEdgeTest CharacteristicName',
          identifier: 'ToolEdgeTest CharacteristicIdentifier',
          value: 'ToolEdgeTest CharacteristicValue',
          unit: 'MS',
        },
      ],
    };
    const created = await t().request({ method: 'POST', url: edgesUrl, body });
    assert.equal(created.statusCode, 201, created.body);
    const edge = json(created);
    assertRecordedKeys('createToolEdge', edge);
    assert.equal(
      created.headers.location,
      absolute(`${edgesUrl}/${edge.properties.id}`).replace('/api/v3', '/api/v3'),
    );
    assert.deepEqual(edge.properties, {
      id: edge.properties.id,
      identifier: body.identifier,
      lifeTime: body.lifeTime,
    });
    const edgeUrl = `${edgesUrl}/${edge.properties.id}`;
    assertRecordedKeys('getToolEdge', json(await t().request({ url: edgeUrl })));
    const edgeCharacteristics = json(await t().request({ url: `${edgeUrl}/characteristics` }));
    assertRecordedKeys('getToolEdgeCharacteristics', edgeCharacteristics);
    assert.deepEqual(edgeCharacteristics.properties.elements, body.characteristics);
    // The tool's own characteristics are not the edge's.
    assert.equal(
      json(await t().request({ url: `${V3}/${toolId}/characteristics` })).properties.elements.length,
      1,
    );

    await t().request({ method: 'POST', url: edgesUrl, body: { identifier: 'second' } });
    const duplicate = await t().request({ method: 'POST', url: edgesUrl, body: { identifier: 'second' } });
    assert.deepEqual([duplicate.statusCode, json(duplicate).code], [400, 'ALREADY_EXISTS']);
    const noIdentifier = await t().request({ method: 'POST', url: edgesUrl, body: { lifeTime: {} } });
    assert.deepEqual([noIdentifier.statusCode, json(noIdentifier).code], [400, 'VALIDATION_FAILED']);
    assert.match(json(noIdentifier).message, /identifier/);
    const list = json(await t().request({ url: edgesUrl }));
    assertRecordedKeys('getToolEdges', list);
    assert.deepEqual(
      list._embedded.edges.map((one: { properties: { identifier: string } }) => one.properties.identifier),
      ['1041561316', 'second'],
    );
    const filtered = json(await t().request({ url: `${edgesUrl}?identifier=second` }));
    assert.equal(filtered.pagination.total, 1);

    const used = await t().request({
      method: 'PUT',
      url: edgeUrl,
      body: { identifier: body.identifier, lifeTime: { ...body.lifeTime, current: 2000 } },
    });
    assert.equal(used.statusCode, 200, used.body);
    assertRecordedKeys('updateToolEdge', json(used));
    assert.equal(json(await t().request({ url: edgeUrl })).properties.lifeTime.current, 2000);
    const renamed = await t().request({
      method: 'PUT',
      url: edgeUrl,
      body: { identifier: 'E-1', lifeTime: body.lifeTime },
    });
    assert.equal(json(renamed).properties.identifier, 'E-1');
    const events = await toolEvents(toolId);
    assert.deepEqual(
      events.map((event) => [event.eventType, event.data.changedProperties]),
      [
        ['TOOL_CREATED', undefined],
        ['TOOL_UPDATED', ['edges']],
        ['TOOL_UPDATED', ['edges']],
        ['TOOL_UPDATED', ['edges']],
      ],
    );
    const otherTool = (await create('ED-2', workplaceId)).properties.id;
    const foreign = await t().request({ url: `${V3}/${otherTool}/edges/${edge.properties.id}` });
    assert.equal(foreign.statusCode, 404);
  });

  test('characteristics: PUT replaces the list in order, pages, TOOL_UPDATED only when it changes', async () => {
    const workplaceId = await createWorkplace(t(), 'V3T-WP5');
    const toolId = (await create('CH-1', workplaceId)).properties.id;
    const url = `${V3}/${toolId}/characteristics`;
    const list = [
      { name: 'Diameter', identifier: 'DC', value: '12', unit: 'MM' },
      { name: 'Length', identifier: 'OAL', value: '80', unit: null },
    ];
    const put = await t().request({ method: 'PUT', url, body: list });
    assert.equal(put.statusCode, 200, put.body);
    assertRecordedKeys('putToolCharacteristics', json(put));
    assert.deepEqual(json(put).properties.elements, list);
    const paged = json(await t().request({ url: `${url}?limit=1&offset=1` }));
    assert.deepEqual(paged.properties.elements, [list[1]]);
    assert.deepEqual(paged.pagination, {
      offset: 1,
      limit: 1,
      count: 1,
      total: 2,
      lastIdentifier: null,
      firstIdentifier: null,
    });
    await t().request({ method: 'PUT', url, body: list });
    const bad = await t().request({ method: 'PUT', url, body: [{ name: 'x', identifier: 'y', value: 1 }] });
    assert.equal(bad.statusCode, 400);
    assert.match(json(bad).message, /value/);
    assert.deepEqual(json(await t().request({ url })).properties.elements, list);
    assert.deepEqual(
      (await toolEvents(toolId)).map((event) => [event.eventType, event.data.changedProperties]),
      [
        ['TOOL_CREATED', undefined],
        ['TOOL_UPDATED', ['characteristics']],
      ],
    );
    const missing = await t().request({ method: 'PUT', url: `${V3}/${MISSING}/characteristics`, body: list });
    assert.equal(missing.statusCode, 404);
  });

  test('location: PUT moves the tool quietly, keeps its workplace when none is sent, DELETE removes it', async () => {
    const workplaceId = await createWorkplace(t(), 'V3T-WP6');
    const other = await createWorkplace(t(), 'V3T-WP7');
    const toolId = (await create('LO-1', workplaceId)).properties.id;
    const url = `${V3}/${toolId}/location`;
    const moved = await t().request({
      method: 'PUT',
      url,
      body: {
        workplaceId: other,
        magazineNumber: 1,
        magazinePlace: 4,
        geoCoordinates: { latitude: 48.1, longitude: 11.6 },
      },
    });
    assert.equal(moved.statusCode, 200, moved.body);
    assertRecordedKeys('putToolLocation', json(moved));
    assert.equal(json(moved).properties.workplace.id, other);
    assert.deepEqual(json(moved).properties.geoCoordinates, { latitude: 48.1, longitude: 11.6 });
    assert.equal(json(await t().request({ url: `${V3}/${toolId}` })).properties.workplaceId, other);
    // A GET-modify-PUT: the echoed workplace object is read-only and may come back unchanged.
    const echoed = await t().request({
      method: 'PUT',
      url,
      body: { ...json(moved).properties, magazinePlace: 5 },
    });
    assert.equal(echoed.statusCode, 200, echoed.body);
    assert.deepEqual(
      [json(echoed).properties.workplace.id, json(echoed).properties.magazinePlace],
      [other, 5],
    );
    const unknown = await t().request({ method: 'PUT', url, body: { workplaceId: MISSING } });
    assert.deepEqual([unknown.statusCode, json(unknown).code], [400, 'INVALID_REFERENCE']);
    assert.match(json(unknown).message, /workplaceId/);

    const removed = await t().request({ method: 'DELETE', url });
    assert.equal(removed.statusCode, 204);
    assert.equal((await t().request({ url })).statusCode, 404);
    assert.equal(json(await t().request({ url: `${V3}/${toolId}` })).properties.workplaceId, null);
    const nowhere = await t().request({ method: 'PUT', url, body: { magazinePlace: 1 } });
    assert.deepEqual([nowhere.statusCode, json(nowhere).code], [400, 'VALIDATION_FAILED']);
    assert.match(json(nowhere).message, /workplaceId/);
    assert.equal((await t().request({ method: 'DELETE', url })).statusCode, 404);
    assert.deepEqual(
      (await toolEvents(toolId)).map((event) => event.eventType),
      ['TOOL_CREATED'],
    );
  });

  test('DELETE a tool created directly: 204, TOOL_DELETED, its edges and characteristics go with it', async () => {
    const workplaceId = await createWorkplace(t(), 'V3T-WP8');
    const toolId = (await create('DE-1', workplaceId)).properties.id;
    await t().request({
      method: 'POST',
      url: `${V3}/${toolId}/edges`,
      body: { identifier: 'E', characteristics: [{ name: 'n', identifier: 'i', value: 'v' }] },
    });
    const deleted = await t().request({ method: 'DELETE', url: `${V3}/${toolId}` });
    assert.equal(deleted.statusCode, 204, deleted.body);
    assert.equal((await t().request({ url: `${V3}/${toolId}` })).statusCode, 404);
    assert.equal((await t().request({ url: `${V3}/${toolId}/edges` })).statusCode, 404);
    assert.deepEqual(
      (await toolEvents(toolId)).map((event) => event.eventType),
      ['TOOL_CREATED', 'TOOL_UPDATED', 'TOOL_DELETED'],
    );
  });
});
