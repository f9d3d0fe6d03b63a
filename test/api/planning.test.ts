// Planning and forecast results, scenarios and the OBSOLETE_* events (docs/resources/planning.md,
// docs/events.md): single-resource PUT/GET/DELETE, the all-or-nothing bulk updates (equal to repeated
// PUTs), scenario creation and reading, and the triggers of the condensed OBSOLETE_* events.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import {
  createOperation,
  createStaffMember,
  createWorkplace,
  describeEachBackend,
  json,
  type TestApp,
} from '../support/app.ts';
import { eventsSince, type UntimedEvent, withoutTime } from '../support/events.ts';
import { absolute, get } from '../support/hal.ts';

const API = '/api/v2';
const FUTURE = { startDate: '2099-01-01T06:00:00.000Z', endDate: '2099-01-01T14:00:00.000Z' };
const PAST = { startDate: '2000-01-01T06:00:00.000Z', endDate: '2000-01-01T14:00:00.000Z' };
const MALFUNCTION = {
  id: '70bc3dba-1d9d-5a3c-a0f5-fb4cfafe11fa',
  code: '110',
  description: 'Malfunction',
  workplaceStateId: 'DOWNTIME',
};
const MISSING = '0190a000-0000-7000-8000-00000000abcd';

const lastSequence = async (t: TestApp) =>
  Number(
    (await t.app.db.query<{ n: string | number | null }>('SELECT max(sequence) AS n FROM events'))[0]?.n ?? 0,
  );

/** A result body as stored after full replacement: optional fields missing become null/false. */
const fullResult = (fields: Record<string, unknown>) => ({
  setupStartDate: null,
  setupEndDate: null,
  processingStartDate: null,
  processingEndDate: null,
  fixed: false,
  ...fields,
});

/** The writes a writer is offered on an operation's result (docs/resources/planning.md). */
const writeLinks = (url: string, name: string) => ({
  [`update${name}`]: { href: absolute(url), method: 'PUT', embeddable: false },
  [`delete${name}`]: { href: absolute(url), method: 'DELETE', embeddable: false },
});

const validation = (field: string, detail: string) => ({
  status: 400,
  code: 'VALIDATION_FAILED',
  message: `Field '${field}' is invalid: ${detail}.`,
});
const invalidReference = (field: string, id: string, expected: string) => ({
  status: 400,
  code: 'INVALID_REFERENCE',
  message: `Field '${field}' refers to '${id}', which is not an existing ${expected}.`,
});

describeEachBackend('planning and forecast results, scenarios', (t) => {
  test('forecast PUT: 201 then 200, full replacement, events only on real changes', async () => {
    const workplaceId = await createWorkplace(t(), 'FC-W1');
    const otherWorkplaceId = await createWorkplace(t(), 'FC-W2');
    const operationId = await createOperation(t(), 'FC-OP1');
    const url = `${API}/operations/${operationId}/forecastResult`;
    const start = await lastSequence(t());

    const body = {
      workplaceId,
      ...FUTURE,
      setupStartDate: '2099-01-01T06:00:00.000Z',
      setupEndDate: '2099-01-01T07:00:00.000Z',
      processingStartDate: '2099-01-01T07:00:00.000Z',
      processingEndDate: '2099-01-01T14:00:00.000Z',
      fixed: true,
    };
    const created = await t().request({ method: 'PUT', url, body });
    const expected = {
      properties: { operationId, ...body },
      _links: {
        self: get(url),
        operation: get(`${API}/operations/${operationId}`),
        workplace: get(`${API}/workplaces/${workplaceId}`),
        ...writeLinks(url, 'ForecastResult'),
      },
    };
    assert.deepEqual([created.statusCode, json(created)], [201, expected], created.body);
    assert.equal(created.headers.location, absolute(url));
    const fetched = await t().request({ url });
    assert.deepEqual([fetched.statusCode, json(fetched)], [200, expected]);

    // The same body again (times written differently) changes nothing and emits nothing.
    const same = await t().request({
      method: 'PUT',
      url,
      body: { ...body, startDate: '2099-01-01T07:00:00+01:00' },
    });
    assert.deepEqual([same.statusCode, json(same)], [200, expected]);

    // Full replacement: left-out optional fields become null / false.
    const replaced = await t().request({
      method: 'PUT',
      url,
      body: { workplaceId: otherWorkplaceId, ...FUTURE },
    });
    assert.equal(replaced.statusCode, 200, replaced.body);
    const after = fullResult({ operationId, workplaceId: otherWorkplaceId, ...FUTURE });
    assert.deepEqual(json(replaced).properties, after);

    assert.deepEqual(withoutTime(await eventsSince(t(), start)), [
      {
        eventType: 'OPERATION_FORECAST_RESULT_CREATED',
        objectType: 'OPERATION',
        objectId: operationId,
        data: { operationId, ...body },
      },
      {
        eventType: 'OPERATION_FORECAST_RESULT_UPDATED',
        objectType: 'OPERATION',
        objectId: operationId,
        data: {
          ...after,
          changedProperties: [
            'workplaceId',
            'setupStartDate',
            'setupEndDate',
            'processingStartDate',
            'processingEndDate',
            'fixed',
          ],
        },
      },
    ]);
  });

  test('forecast PUT, GET, DELETE: 404s and 400s', async () => {
    const workplaceId = await createWorkplace(t(), 'FCE-W1');
    const operationId = await createOperation(t(), 'FCE-OP1');
    const url = `${API}/operations/${operationId}/forecastResult`;
    const start = await lastSequence(t());
    const cases: [string, unknown, number, Record<string, unknown>][] = [
      [`${API}/operations/${MISSING}/forecastResult`, { workplaceId, ...FUTURE }, 404, { code: 'NOT_FOUND' }],
      [`${API}/operations/not-a-uuid/forecastResult`, { workplaceId, ...FUTURE }, 404, { code: 'NOT_FOUND' }],
      [
        url,
        { workplaceId, startDate: FUTURE.endDate, endDate: FUTURE.startDate },
        400,
        validation('endDate', 'must not be before startDate'),
      ],
      [
        url,
        { workplaceId, ...FUTURE, setupStartDate: FUTURE.endDate, setupEndDate: FUTURE.startDate },
        400,
        validation('setupEndDate', 'must not be before setupStartDate'),
      ],
      [url, { workplaceId: MISSING, ...FUTURE }, 400, invalidReference('workplaceId', MISSING, 'workplace')],
      // The operation's id echoed back unchanged is taken (a GET-modify-PUT round trip); another is refused.
      [url, { operationId: MISSING, workplaceId, ...FUTURE }, 400, { code: 'READ_ONLY_PROPERTY' }],
      [url, { workplaceId, ...FUTURE, priority: 1 }, 400, { code: 'UNKNOWN_FIELD' }],
      [url, { workplaceId, startDate: FUTURE.startDate }, 400, { code: 'VALIDATION_FAILED' }],
      [url, { workplaceId, ...FUTURE, startDate: 'tomorrow' }, 400, { code: 'VALIDATION_FAILED' }],
    ];
    for (const [target, body, status, error] of cases) {
      const response = await t().request({ method: 'PUT', url: target, body });
      assert.equal(response.statusCode, status, `${target} ${JSON.stringify(body)}: ${response.body}`);
      const answer = json(response);
      if ('message' in error) assert.deepEqual(answer, error);
      else assert.equal(answer.code, error.code);
    }
    for (const method of ['GET', 'DELETE'] as const) {
      const none = await t().request({ method, url });
      assert.deepEqual([none.statusCode, json(none).code], [404, 'NOT_FOUND'], `${method} without result`);
      const noOperation = await t().request({ method, url: `${API}/operations/${MISSING}/forecastResult` });
      assert.equal(noOperation.statusCode, 404);
    }
    assert.deepEqual(await eventsSince(t(), start), []);

    await t().request({ method: 'PUT', url, body: { workplaceId, ...FUTURE } });
    const deleted = await t().request({ method: 'DELETE', url });
    assert.equal(deleted.statusCode, 204);
    assert.equal((await t().request({ url })).statusCode, 404);
    assert.deepEqual(
      (await eventsSince(t(), start)).map((event) => [event.eventType, event.objectId]),
      [
        ['OPERATION_FORECAST_RESULT_CREATED', operationId],
        ['OPERATION_FORECAST_RESULT_DELETED', operationId],
      ],
    );
  });

  test('forecast bulk update gives the same state and events as the equivalent PUTs', async () => {
    const workplaceId = await createWorkplace(t(), 'FCB-W1');
    const [a, b, c, d] = [
      await createOperation(t(), 'FCB-A'),
      await createOperation(t(), 'FCB-B'),
      await createOperation(t(), 'FCB-C'),
      await createOperation(t(), 'FCB-D'),
    ];
    // a and c exist before; b and d are new; a/c change, nothing else.
    const initial = { workplaceId, ...FUTURE };
    const changed = { workplaceId, ...FUTURE, fixed: true };
    for (const id of [a, c]) {
      await t().request({ method: 'PUT', url: `${API}/operations/${id}/forecastResult`, body: initial });
    }

    const viaPut = await lastSequence(t());
    await t().request({ method: 'PUT', url: `${API}/operations/${a}/forecastResult`, body: changed });
    await t().request({ method: 'PUT', url: `${API}/operations/${b}/forecastResult`, body: initial });
    const viaBulk = await lastSequence(t());
    const bulk = await t().request({
      method: 'POST',
      url: `${API}/operations/forecastResults/update`,
      body: {
        forecastResults: [
          { operationId: c, ...changed },
          { operationId: d, ...initial },
        ],
      },
    });
    assert.equal(bulk.statusCode, 200, bulk.body);
    const answer = json(bulk);
    assert.deepEqual(answer.properties, { created: 1, updated: 1, unchanged: 0 });
    assert.deepEqual(answer._links, {
      self: { href: absolute(`${API}/operations/forecastResults/update`), method: 'POST', embeddable: false },
    });
    assert.deepEqual(
      answer._embedded.forecastResults.map((item: { properties: unknown }) => item.properties),
      [fullResult({ operationId: c, ...changed }), fullResult({ operationId: d, ...initial })],
    );

    // Same stored state for (a, b) and (c, d), and the same events with the ids swapped.
    for (const [put, bulked] of [
      [a, c],
      [b, d],
    ] as const) {
      const viaPutBody = json(
        await t().request({ url: `${API}/operations/${put}/forecastResult` }),
      ).properties;
      const viaBulkBody = json(
        await t().request({ url: `${API}/operations/${bulked}/forecastResult` }),
      ).properties;
      assert.deepEqual({ ...viaPutBody, operationId: bulked }, viaBulkBody);
    }
    const swap = (event: UntimedEvent) => {
      const id = event.objectId === a ? c : event.objectId === b ? d : event.objectId;
      return { ...event, objectId: id, data: { ...event.data, operationId: id } };
    };
    const putEvents = withoutTime(await eventsSince(t(), viaPut)).filter(
      (_, index, all) => index < all.length - 2,
    );
    assert.deepEqual(putEvents.map(swap), withoutTime(await eventsSince(t(), viaBulk)));

    // Sending exactly what is stored is counted as unchanged and emits nothing.
    const before = await lastSequence(t());
    const again = await t().request({
      method: 'POST',
      url: `${API}/operations/forecastResults/update`,
      body: { forecastResults: [{ operationId: c, ...changed }] },
    });
    assert.deepEqual(json(again).properties, { created: 0, updated: 0, unchanged: 1 });
    assert.deepEqual(await eventsSince(t(), before), []);
  });

  test('bulk updates are all or nothing; a bad element is named by its index', async () => {
    const workplaceId = await createWorkplace(t(), 'BAD-W1');
    const operationId = await createOperation(t(), 'BAD-OP1');
    const second = await createOperation(t(), 'BAD-OP2');
    const staffMemberId = await createStaffMember(t(), 'BAD-S1');
    const good = { operationId, workplaceId, ...FUTURE };
    const start = await lastSequence(t());
    const cases: [string, Record<string, unknown>, Record<string, unknown>][] = [
      [
        '/operations/forecastResults/update',
        { forecastResults: [good, { operationId: second, workplaceId: MISSING, ...FUTURE }] },
        invalidReference('forecastResults[1].workplaceId', MISSING, 'workplace'),
      ],
      [
        '/operations/forecastResults/update',
        { forecastResults: [good, { ...good, operationId: MISSING }] },
        invalidReference('forecastResults[1].operationId', MISSING, 'operation'),
      ],
      [
        '/operations/forecastResults/update',
        { forecastResults: [good, { ...good, fixed: true }] },
        validation('forecastResults[1].operationId', 'appears more than once in this body'),
      ],
      [
        '/operations/planningResults/update',
        { assignments: [good, { operationId: second, workplaceId, ...FUTURE, endDate: PAST.endDate }] },
        validation('assignments[1].endDate', 'must not be before startDate'),
      ],
      [
        '/staffMembers/planningResults/update',
        {
          elements: [
            { staffMemberId, workplaceId, ...FUTURE },
            { staffMemberId: operationId, workplaceId, ...FUTURE },
          ],
        },
        invalidReference('elements[1].staffMemberId', operationId, 'staffMember'),
      ],
    ];
    for (const [path, body, error] of cases) {
      const response = await t().request({ method: 'POST', url: `${API}${path}`, body });
      assert.deepEqual([response.statusCode, json(response)], [400, error], path);
    }
    const shapes: [string, Record<string, unknown>][] = [
      ['/operations/forecastResults/update', { assignments: [good] }],
      [
        '/operations/forecastResults/update',
        { forecastResults: [{ ...good, operationId: undefined, id: operationId }] },
      ],
      ['/operations/planningResults/update', { assignments: Array.from({ length: 1001 }, () => good) }],
      ['/operations/planningResults/update', {}],
    ];
    for (const [path, body] of shapes) {
      const response = await t().request({ method: 'POST', url: `${API}${path}`, body });
      assert.equal(response.statusCode, 400, `${path}: ${response.body}`);
    }
    // Nothing was applied.
    assert.deepEqual(await eventsSince(t(), start), []);
    for (const path of [
      `/operations/${operationId}/forecastResult`,
      `/operations/${operationId}/planningResult`,
    ]) {
      assert.equal((await t().request({ url: `${API}${path}` })).statusCode, 404);
    }
  });

  test('operation planning results: bulk, GET, DELETE, events; OBSOLETE_OPERATION_PLANNING_SCENARIOS', async () => {
    const workplaceId = await createWorkplace(t(), 'PL-W1');
    const operationId = await createOperation(t(), 'PL-OP1');
    const url = `${API}/operations/${operationId}/planningResult`;
    const update = (assignments: unknown[]) =>
      t().request({ method: 'POST', url: `${API}/operations/planningResults/update`, body: { assignments } });
    const scenario = async () => {
      const response = await t().request({
        method: 'POST',
        url: `${API}/operations/planningScenarios`,
        body: { assignments: [{ operationId, workplaceId, ...PAST }] },
      });
      assert.equal(response.statusCode, 201, response.body);
      return json(response).properties.id as string;
    };
    const obsolete = ['OBSOLETE_OPERATION_PLANNING_SCENARIOS'];

    // No scenario yet: a plan change emits only the result's event.
    let start = await lastSequence(t());
    assert.equal((await update([{ operationId, workplaceId, ...PAST }])).statusCode, 200);
    assert.deepEqual(withoutTime(await eventsSince(t(), start)), [
      {
        eventType: 'OPERATION_PLANNING_RESULT_CREATED',
        objectType: 'OPERATION',
        objectId: operationId,
        data: fullResult({ operationId, workplaceId, ...PAST }),
      },
    ]);
    const fetched = await t().request({ url });
    assert.deepEqual(json(fetched), {
      properties: fullResult({ operationId, workplaceId, ...PAST }),
      _links: {
        self: get(url),
        operation: get(`${API}/operations/${operationId}`),
        workplace: get(`${API}/workplaces/${workplaceId}`),
        ...writeLinks(url, 'PlanningResult'),
      },
    });

    // Two scenarios, then a bulk update that changes the plan: one event naming both.
    const first = await scenario();
    const second = await scenario();
    start = await lastSequence(t());
    assert.equal((await update([{ operationId, workplaceId, ...FUTURE }])).statusCode, 200);
    assert.deepEqual(withoutTime(await eventsSince(t(), start)), [
      {
        eventType: 'OPERATION_PLANNING_RESULT_UPDATED',
        objectType: 'OPERATION',
        objectId: operationId,
        data: {
          ...fullResult({ operationId, workplaceId, ...FUTURE }),
          changedProperties: ['startDate', 'endDate'],
        },
      },
      {
        eventType: 'OBSOLETE_OPERATION_PLANNING_SCENARIOS',
        objectType: 'NONE',
        objectId: null,
        data: { operationPlanningScenarioIds: [first, second].sort() },
      },
    ]);
    const outdated = json(await t().request({ url: `${API}/operations/planningScenarios/${first}` }));
    assert.equal(typeof outdated.properties.obsoleteSince, 'string');

    // Already obsolete: a further change emits no second OBSOLETE event; an unchanged update none at all.
    start = await lastSequence(t());
    await update([{ operationId, workplaceId, ...FUTURE, fixed: true }]);
    assert.deepEqual(await eventsSince(t(), start, obsolete), []);
    const third = await scenario();
    start = await lastSequence(t());
    const unchanged = await update([{ operationId, workplaceId, ...FUTURE, fixed: true }]);
    assert.deepEqual(json(unchanged).properties, { created: 0, updated: 0, unchanged: 1 });
    assert.deepEqual(await eventsSince(t(), start), []);

    // DELETE changes the plan too.
    start = await lastSequence(t());
    assert.equal((await t().request({ method: 'DELETE', url })).statusCode, 204);
    assert.deepEqual(
      (await eventsSince(t(), start)).map((event) => [event.eventType, event.objectId, event.data]),
      [
        [
          'OPERATION_PLANNING_RESULT_DELETED',
          operationId,
          fullResult({ operationId, workplaceId, ...FUTURE, fixed: true }),
        ],
        ['OBSOLETE_OPERATION_PLANNING_SCENARIOS', null, { operationPlanningScenarioIds: [third] }],
      ],
    );
    assert.equal((await t().request({ url })).statusCode, 404);
  });

  test('result collections sum up their horizon (the worked example of docs/resources/planning.md)', async () => {
    const at = (hour: number) => new Date(Date.UTC(2098, 2, 1, hour)).toISOString();
    const w1 = await createWorkplace(t(), 'SUM-W1');
    const w2 = await createWorkplace(t(), 'SUM-W2');
    const shifts: [string, number, number][] = [
      [w1, 6, 14],
      [w1, 14, 22],
      [w1, 22, 30], // 2 hours of it inside the horizon
      [w2, 6, 14],
      [w2, 30, 38], // outside the horizon
    ];
    for (const [workplaceId, from, to] of shifts) {
      const shift = await t().request({
        method: 'POST',
        url: `${API}/workplaces/${workplaceId}/shifts`,
        body: { startDate: at(from), endDate: at(to) },
      });
      assert.equal(shift.statusCode, 201, shift.body);
    }
    const order = async (number: string, deliveryHour: number | null, operations: number) => {
      const created = await t().request({
        method: 'POST',
        url: `${API}/productionOrders`,
        body: { number, ...(deliveryHour === null ? {} : { deliveryDate: at(deliveryHour) }) },
      });
      assert.equal(created.statusCode, 201, created.body);
      const ids: string[] = [];
      for (let index = 1; index <= operations; index++) {
        const operation = await t().request({
          method: 'POST',
          url: `${API}/operations`,
          body: { productionOrderId: json(created).properties.id, number: `${number}-${index}` },
        });
        assert.equal(operation.statusCode, 201, operation.body);
        ids.push(json(operation).properties.id);
      }
      return ids;
    };
    const [a1, a2] = (await order('SUM-A', 20, 2)) as [string, string];
    const [b1] = (await order('SUM-B', 12, 1)) as [string];
    const [c1] = (await order('SUM-C', null, 2)) as [string];
    const planned = (operationId: string, workplaceId: string, hours: number[]) => {
      const [start, setupEnd, end] = hours as [number, number | undefined, number];
      return setupEnd === undefined
        ? { operationId, workplaceId, startDate: at(start), endDate: at(end) }
        : {
            operationId,
            workplaceId,
            startDate: at(start),
            endDate: at(end),
            setupStartDate: at(start),
            setupEndDate: at(setupEnd),
            processingStartDate: at(setupEnd),
            processingEndDate: at(end),
          };
    };
    const elements = [
      planned(a1, w1, [6, 7, 10]),
      planned(a2, w2, [11, 12, 15]),
      planned(b1, w1, [20, 21, 26]),
      planned(c1, w2, [15, undefined as unknown as number, 17]),
    ];
    for (const [resource, list] of [
      ['planningResults', 'assignments'],
      ['forecastResults', 'forecastResults'],
    ] as const) {
      const bulk = await t().request({
        method: 'POST',
        url: `${API}/operations/${resource}/update`,
        body: { [list]: elements },
      });
      assert.equal(bulk.statusCode, 200, bulk.body);
      const hour = 3_600_000;
      const page = await t().request({
        url: `/api/v3/operations/${resource}?startDate=${at(0)}&endDate=${at(24)}&limit=1`,
      });
      assert.equal(page.statusCode, 200, page.body);
      // Every result of the horizon counts, not only the page's one.
      assert.equal(json(page)._embedded[resource].length, 1);
      assert.deepEqual(json(page).properties, {
        startDate: at(0),
        endDate: at(24),
        numberOfWorkplaces: 2,
        scheduledOperatingTime: 26 * hour,
        plannedProcessingTime: 9 * hour,
        plannedExecutionTime: 14 * hour,
        numberOfPlannedProductionOrders: 2,
        plannedLeadTime: 15 * hour,
        minimumLeadTimeWithSetup: 14 * hour,
        numberOfPartiallyPlannedProductionOrders: 1,
        adherenceToDeliveryDates: 0.5,
        schedulingEfficiency: 14 / 15,
        occupancyRate: 14 / 26,
        setupReduction: 1 - 3 / 14,
      });
      const empty = await t().request({
        url: `/api/v3/operations/${resource}?startDate=2097-01-01T00:00:00.000Z&endDate=2097-01-02T00:00:00.000Z`,
      });
      assert.deepEqual(json(empty).properties, {
        startDate: '2097-01-01T00:00:00.000Z',
        endDate: '2097-01-02T00:00:00.000Z',
        numberOfWorkplaces: 0,
        scheduledOperatingTime: 0,
        plannedProcessingTime: 0,
        plannedExecutionTime: 0,
        numberOfPlannedProductionOrders: 0,
        plannedLeadTime: 0,
        minimumLeadTimeWithSetup: 0,
        numberOfPartiallyPlannedProductionOrders: 0,
        adherenceToDeliveryDates: null,
        schedulingEfficiency: null,
        occupancyRate: null,
        setupReduction: null,
      });
    }
  });

  test('staff member planning results: bulk, GET, DELETE, events', async () => {
    const workplaceId = await createWorkplace(t(), 'SP-W1');
    const staffMemberId = await createStaffMember(t(), 'SP-S1');
    const url = `${API}/staffMembers/${staffMemberId}/planningResult`;
    assert.equal((await t().request({ url })).statusCode, 404);
    const start = await lastSequence(t());
    const response = await t().request({
      method: 'POST',
      url: `${API}/staffMembers/planningResults/update`,
      body: { elements: [{ staffMemberId, workplaceId, ...FUTURE }] },
    });
    assert.equal(response.statusCode, 200, response.body);
    const expected = {
      properties: fullResult({ staffMemberId, workplaceId, ...FUTURE }),
      _links: {
        self: get(url),
        staffMember: get(`${API}/staffMembers/${staffMemberId}`),
        workplace: get(`${API}/workplaces/${workplaceId}`),
      },
    };
    assert.deepEqual(json(response), {
      properties: { created: 1, updated: 0, unchanged: 0 },
      _links: {
        self: {
          href: absolute(`${API}/staffMembers/planningResults/update`),
          method: 'POST',
          embeddable: false,
        },
      },
      _embedded: { planningResults: [expected] },
    });
    assert.deepEqual(json(await t().request({ url })), expected);
    assert.equal((await t().request({ method: 'DELETE', url })).statusCode, 204);
    assert.deepEqual(withoutTime(await eventsSince(t(), start)), [
      {
        eventType: 'STAFF_MEMBER_PLANNING_RESULT_CREATED',
        objectType: 'STAFF_MEMBER',
        objectId: staffMemberId,
        data: expected.properties,
      },
      {
        eventType: 'STAFF_MEMBER_PLANNING_RESULT_DELETED',
        objectType: 'STAFF_MEMBER',
        objectId: staffMemberId,
        data: expected.properties,
      },
    ]);
  });

  test('the staff member planning results of a period: figures, the page as elements', async () => {
    const at = (hour: number) => new Date(Date.UTC(2097, 5, 1, hour)).toISOString();
    const w1 = await createWorkplace(t(), 'SPC-W1');
    const w2 = await createWorkplace(t(), 'SPC-W2');
    const shift = await t().request({
      method: 'POST',
      url: `${API}/workplaces/${w1}/shifts`,
      body: { startDate: at(6), endDate: at(14) },
    });
    assert.equal(shift.statusCode, 201, shift.body);
    const s1 = await createStaffMember(t(), 'SPC-S1');
    const s2 = await createStaffMember(t(), 'SPC-S2');
    const s3 = await createStaffMember(t(), 'SPC-S3');
    const bulk = await t().request({
      method: 'POST',
      url: `${API}/staffMembers/planningResults/update`,
      body: {
        elements: [
          { staffMemberId: s1, workplaceId: w1, startDate: at(6), endDate: at(10), fixed: true },
          { staffMemberId: s2, workplaceId: w1, startDate: at(8), endDate: at(14) },
          { staffMemberId: s3, workplaceId: w2, startDate: at(20), endDate: at(22) },
        ],
      },
    });
    assert.equal(bulk.statusCode, 200, bulk.body);
    const path = '/api/v3/staffMembers/planningResults';
    const page = json(await t().request({ url: `${path}?startDate=${at(0)}&endDate=${at(15)}&limit=1` }));
    assert.deepEqual(page.properties, {
      startDate: at(0),
      endDate: at(15),
      operationsPlanningScenarioId: null,
      numberOfPlannedStaffMembers: 2,
      scheduledWorkingTime: null,
      occupancyTime: 10 * 3_600_000,
      occupancyRate: null,
      numberOfWorkplaces: 1,
      requirementOfStaffHours: null,
      coverageOfPersonnelRequirements: null,
      elements: [
        {
          staffMemberId: s1,
          staffMemberShiftId: null,
          workplaceId: w1,
          skillId: null,
          workplaceShiftId: json(shift).properties.id,
          startDate: at(6),
          endDate: at(10),
          capacity: null,
          fixed: true,
        },
      ],
    });
    assert.equal(page.pagination.total, 2);
    assert.deepEqual(page._links.createPlanningResult, {
      href: absolute('/api/v3/staffMembers/planningResults/update'),
      method: 'POST',
      embeddable: false,
    });
    const late = json(await t().request({ url: `${path}?startDate=${at(19)}&endDate=${at(23)}` }));
    assert.equal(late.properties.elements[0].workplaceShiftId, null);
    assert.equal(late.properties.numberOfPlannedStaffMembers, 1);
    assert.equal((await t().request({ url: `${path}?startDate=soon` })).statusCode, 400);
  });

  test("a staff member's planning results per shift: the dispatching's part in each shift", async () => {
    const at = (hour: number) => new Date(Date.UTC(2096, 5, 1, hour)).toISOString();
    const w1 = await createWorkplace(t(), 'SPS-W1');
    const w2 = await createWorkplace(t(), 'SPS-W2');
    const workplaceShift = async (startHour: number, endHour: number) => {
      const response = await t().request({
        method: 'POST',
        url: `${API}/workplaces/${w1}/shifts`,
        body: { shiftModelId: 'SPS-EARLY', startDate: at(startHour), endDate: at(endHour) },
      });
      assert.equal(response.statusCode, 201, response.body);
      return json(response).properties.id as string;
    };
    // An early shift with a break, and the next day's.
    await workplaceShift(6, 10);
    const afterBreak = await workplaceShift(11, 14);
    const nextDay = await workplaceShift(30, 38);
    const staff = { assignedWorkplaceIds: [w1], shiftId: 'SPS-EARLY' };
    const s = await createStaffMember(t(), 'SPS-S1', staff);
    const other = await createStaffMember(t(), 'SPS-S2', staff);
    const shiftsOf = async (staffMemberId: string) => {
      const page = json(
        await t().request({ url: `${API}/staffMembers/shifts?staffMemberId=${staffMemberId}` }),
      );
      return (page._embedded.shifts as { properties: { id: string } }[]).map((shift) => shift.properties.id);
    };
    // Latest start first: the next day's, after the break, before it.
    const [third, second, first] = (await shiftsOf(s)) as [string, string, string];
    const [othersShift] = await shiftsOf(other);
    const list = `/api/v3/staffMembers/${s}/planningResults`;
    const one = (shiftId: string) => `/api/v3/staffMembers/${s}/shifts/${shiftId}/planningResult`;
    const read = async (url: string, scopes?: string[]) => {
      const response = await t().request({ url, ...(scopes ? { scopes } : {}) });
      assert.equal(response.statusCode, 200, response.body);
      return json(response);
    };
    const element = (
      shiftId: string,
      workplaceId: string,
      start: number,
      end: number,
      shift: string | null,
    ) => ({
      staffMemberId: s,
      staffMemberShiftId: shiftId,
      workplaceId,
      skillId: null,
      workplaceShiftId: shift,
      startDate: at(start),
      endDate: at(end),
      capacity: null,
      fixed: true,
    });

    const none = await read(list);
    assert.equal(none.pagination.total, 0);
    assert.deepEqual(none._links.staffMember, {
      href: absolute(`/api/v3/staffMembers/${s}`),
      method: 'GET',
      embeddable: true,
    });

    // From the end of the first shift (touching it is no part of it) into the next day's.
    const bulk = await t().request({
      method: 'POST',
      url: `${API}/staffMembers/planningResults/update`,
      body: {
        elements: [{ staffMemberId: s, workplaceId: w1, startDate: at(10), endDate: at(31), fixed: true }],
      },
    });
    assert.equal(bulk.statusCode, 200, bulk.body);
    const page = await read(list);
    assert.equal(page.pagination.total, 2);
    assert.equal(page.pagination.offset, null);
    const [latest, earlier] = page._embedded.planningResults;
    assert.deepEqual(latest, {
      properties: { elements: [element(third, w1, 30, 31, nextDay)] },
      _links: {
        self: get(one(third)),
        staffMemberShift: get(`/api/v3/staffMembers/shifts/${third}`),
        updateAssignments: { href: absolute(one(third)), method: 'PUT', embeddable: false },
        deleteAssignments: { href: absolute(one(third)), method: 'DELETE', embeddable: false },
        workplaces: [{ href: absolute(`/api/v3/workplaces/${w1}`), method: 'GET', embeddable: true }],
        skills: [],
      },
    });
    assert.deepEqual(earlier.properties.elements, [element(second, w1, 11, 14, afterBreak)]);
    const paged = await read(`${list}?limit=1`);
    assert.deepEqual(paged._embedded.planningResults, [latest]);
    assert.ok(paged._links.next, 'a page of one has a next page');
    const window = await read(`${list}?startDate=${at(0)}&endDate=${at(20)}`);
    assert.deepEqual(
      window._embedded.planningResults.map(
        (result: { _links: { self: { href: string } } }) => result._links.self.href,
      ),
      [absolute(one(second))],
    );

    assert.deepEqual(await read(one(second)), earlier);
    assert.deepEqual((await read(one(first))).properties.elements, []);
    const readOnly = await read(one(second), ['read']);
    assert.equal(readOnly._links.updateAssignments, undefined);
    assert.equal(readOnly._links.deleteAssignments, undefined);
    for (const url of [
      `/api/v3/staffMembers/${s}/shifts/${othersShift}/planningResult`,
      `/api/v3/staffMembers/${MISSING}/shifts/${first}/planningResult`,
      `/api/v3/staffMembers/${s}/shifts/${MISSING}/planningResult`,
      `/api/v3/staffMembers/${MISSING}/planningResults`,
    ]) {
      assert.equal((await t().request({ url })).statusCode, 404, url);
    }

    // A PUT makes the shift's assignment the whole dispatching: the other shifts lose theirs.
    const before = await lastSequence(t());
    const refusals: [unknown, number, string][] = [
      [
        { elements: [{ staffMemberId: s, workplaceId: w2, startDate: at(5), endDate: at(9) }] },
        400,
        'VALIDATION_FAILED',
      ],
      [
        { elements: [{ staffMemberId: other, workplaceId: w2, startDate: at(7), endDate: at(9) }] },
        400,
        'VALIDATION_FAILED',
      ],
      [
        { elements: [{ staffMemberId: s, workplaceId: MISSING, startDate: at(7), endDate: at(9) }] },
        400,
        'INVALID_REFERENCE',
      ],
      [
        { elements: [{ staffMemberId: s, workplaceId: w2, startDate: at(9), endDate: at(7) }] },
        400,
        'VALIDATION_FAILED',
      ],
      [
        {
          elements: [
            { staffMemberId: s, workplaceId: w2, startDate: at(7), endDate: at(8) },
            { staffMemberId: s, workplaceId: w2, startDate: at(8), endDate: at(9) },
          ],
        },
        400,
        'VALIDATION_FAILED',
      ],
    ];
    for (const [body, status, code] of refusals) {
      const refused = await t().request({ method: 'PUT', url: one(first), body });
      assert.deepEqual([refused.statusCode, json(refused).code], [status, code], JSON.stringify(body));
    }
    // What a GET derives may come back only as derived.
    const echoed = { staffMemberId: s, workplaceId: w1, startDate: at(11), endDate: at(12) };
    for (const [field, value] of [
      ['staffMemberShiftId', first],
      ['workplaceShiftId', nextDay],
      ['skillId', MISSING],
      ['capacity', 1],
    ] as const) {
      const refused = await t().request({
        method: 'PUT',
        url: one(second),
        body: { elements: [{ ...echoed, [field]: value }] },
      });
      assert.equal(refused.statusCode, 400, `${field}: ${refused.body}`);
    }
    const outside = await t().request({ method: 'PUT', url: one(first), body: refusals[0]?.[0] });
    assert.match(json(outside).message, /elements\[0\]\.startDate/);
    assert.equal(await lastSequence(t()), before, 'a refused PUT changes nothing');
    const put = await t().request({
      method: 'PUT',
      url: one(first),
      body: {
        elements: [{ staffMemberId: s, workplaceId: w2, startDate: at(7), endDate: at(9), fixed: true }],
      },
    });
    assert.equal(put.statusCode, 200, put.body);
    assert.deepEqual(json(put).properties.elements, [element(first, w2, 7, 9, null)]);
    const stored = await read(`${API}/staffMembers/${s}/planningResult`);
    assert.deepEqual(
      stored.properties,
      fullResult({ staffMemberId: s, workplaceId: w2, startDate: at(7), endDate: at(9), fixed: true }),
    );
    assert.deepEqual((await read(one(second))).properties.elements, []);
    assert.deepEqual(
      (await eventsSince(t(), before)).map((event) => [event.eventType, event.data.changedProperties]),
      [['STAFF_MEMBER_PLANNING_RESULT_UPDATED', ['workplaceId', 'startDate', 'endDate']]],
    );

    // GET-modify-PUT: the answer sent back with one change is taken.
    const shown = (await read(one(first))).properties;
    const roundTrip = await t().request({
      method: 'PUT',
      url: one(first),
      body: { elements: [{ ...shown.elements[0], fixed: false }] },
    });
    assert.equal(roundTrip.statusCode, 200, roundTrip.body);
    assert.deepEqual(json(roundTrip).properties.elements, [
      { ...element(first, w2, 7, 9, null), fixed: false },
    ]);

    // DELETE: only through a shift the dispatching shares time with; it goes from every shift.
    const afterPut = await lastSequence(t());
    assert.equal((await t().request({ method: 'DELETE', url: one(second) })).statusCode, 404);
    assert.equal((await t().request({ method: 'DELETE', url: one(first) })).statusCode, 204);
    assert.equal((await t().request({ url: `${API}/staffMembers/${s}/planningResult` })).statusCode, 404);
    assert.deepEqual(
      (await eventsSince(t(), afterPut)).map((event) => event.eventType),
      ['STAFF_MEMBER_PLANNING_RESULT_DELETED'],
    );
    const empty = await t().request({ method: 'PUT', url: one(first), body: { elements: [] } });
    assert.equal(empty.statusCode, 200, empty.body);
    assert.deepEqual(json(empty).properties.elements, []);
    assert.equal(await lastSequence(t()), afterPut + 1, 'no dispatching, nothing to delete');
  });

  test('concurrent writers of a new result: one CREATED, the others UPDATED; crossing bulks do not deadlock', async () => {
    const workplaceId = await createWorkplace(t(), 'RACE-W1');
    const operationId = await createOperation(t(), 'RACE-OP1');
    const start = await lastSequence(t());
    const puts = await Promise.all(
      [false, true, false].map((fixed) =>
        t().request({
          method: 'PUT',
          url: `${API}/operations/${operationId}/forecastResult`,
          body: { workplaceId, ...FUTURE, fixed },
        }),
      ),
    );
    assert.deepEqual(puts.map((response) => response.statusCode).sort(), [200, 200, 201]);
    const types = (await eventsSince(t(), start)).map((event) => event.eventType);
    assert.equal(
      types.filter((type) => type === 'OPERATION_FORECAST_RESULT_CREATED').length,
      1,
      String(types),
    );

    const a = await createOperation(t(), 'RACE-OP2');
    const b = await createOperation(t(), 'RACE-OP3');
    const element = (id: string, endDate: string) => ({ operationId: id, workplaceId, ...FUTURE, endDate });
    const bulks = await Promise.all(
      Array.from({ length: 6 }, (_, i) =>
        t().request({
          method: 'POST',
          url: `${API}/operations/planningResults/update`,
          body: {
            assignments:
              i % 2 === 0
                ? [element(a, `2099-01-0${i + 2}T00:00:00.000Z`), element(b, '2099-01-02T00:00:00.000Z')]
                : [element(b, `2099-01-0${i + 2}T00:00:00.000Z`), element(a, '2099-01-02T00:00:00.000Z')],
          },
        }),
      ),
    );
    assert.deepEqual(
      bulks.map((response) => response.statusCode),
      bulks.map(() => 200),
      bulks.map((response) => response.body).join('\n'),
    );
    const created = (await eventsSince(t(), start)).filter(
      (event) => event.eventType === 'OPERATION_PLANNING_RESULT_CREATED',
    );
    assert.deepEqual(created.map((event) => event.objectId).sort(), [a, b].sort());
  });

  test('a workplace that results plan on cannot be deleted', async () => {
    const workplaceId = await createWorkplace(t(), 'USE-W1');
    const operationId = await createOperation(t(), 'USE-OP1');
    await t().request({
      method: 'PUT',
      url: `${API}/operations/${operationId}/forecastResult`,
      body: { workplaceId, ...FUTURE },
    });
    const response = await t().request({ method: 'DELETE', url: `${API}/workplaces/${workplaceId}` });
    assert.deepEqual([response.statusCode, json(response).code], [400, 'RESOURCE_IN_USE']);
  });

  test('planning scenarios: create (201, events), read one and the collection, refusals', async () => {
    const workplaceId = await createWorkplace(t(), 'SC-W1');
    const operationId = await createOperation(t(), 'SC-OP1');
    const staffMemberId = await createStaffMember(t(), 'SC-S1');
    const shift = await t().request({
      method: 'POST',
      url: `${API}/workplaces/${workplaceId}/shifts`,
      body: FUTURE,
    });
    assert.equal(shift.statusCode, 201, shift.body);
    const workplaceShiftId = json(shift).properties.id;
    const kinds = [
      {
        path: `${API}/operations/planningScenarios`,
        list: 'assignments',
        element: fullResult({ operationId, workplaceId, ...FUTURE }),
        name: 'planningScenarios',
        createRel: 'createPlanningScenario',
        event: 'OPERATION_PLANNING_SCENARIO',
        idKey: 'operationPlanningScenarioId',
        // One workplace on shift for the whole element; the operation is its order's only one,
        // so the order is planned.
        figures: {
          numberOfWorkplaces: 1,
          scheduledOperatingTime: 8 * 3_600_000,
          plannedProcessingTime: 0,
          plannedExecutionTime: 8 * 3_600_000,
          numberOfPlannedProductionOrders: 1,
          plannedLeadTime: 8 * 3_600_000,
          minimumLeadTimeWithSetup: 8 * 3_600_000,
          numberOfPartiallyPlannedProductionOrders: 0,
          adherenceToDeliveryDates: null,
          schedulingEfficiency: 1,
          occupancyRate: 1,
          setupReduction: 1,
        },
        extra: { obsoleteSince: null },
      },
      {
        path: `${API}/staffMembers/planningScenarios`,
        list: 'elements',
        element: fullResult({ staffMemberId, workplaceId, ...FUTURE }),
        // Not recorded, but the workplace's shift running at the element's start.
        shown: { staffMemberShiftId: null, skillId: null, workplaceShiftId, capacity: null },
        name: 'planningScenarios',
        createRel: 'createPlanningScenario',
        event: 'STAFF_MEMBER_PLANNING_SCENARIO',
        idKey: 'staffMemberPlanningScenarioId',
        figures: {
          operationsPlanningScenarioId: null,
          numberOfPlannedStaffMembers: 1,
          scheduledWorkingTime: null,
          occupancyTime: 8 * 3_600_000,
          occupancyRate: null,
          numberOfWorkplaces: 1,
          requirementOfStaffHours: null,
          coverageOfPersonnelRequirements: null,
        },
        extra: {},
      },
    ];
    for (const kind of kinds) {
      const totalBefore = json(await t().request({ url: kind.path })).pagination.total;
      const start = await lastSequence(t());
      const response = await t().request({
        method: 'POST',
        url: kind.path,
        body: { name: 'Rush order first', description: 'What if', [kind.list]: [kind.element] },
      });
      assert.equal(response.statusCode, 201, response.body);
      const body = json(response);
      const id = body.properties.id;
      const clients = await t().app.db.query<{ client_id: string }>(
        "SELECT client_id FROM oauth_clients WHERE name = 'test read write'",
      );
      const creator = clients[0]?.client_id;
      const expected = {
        properties: {
          id,
          creator,
          creationDate: body.properties.createdAt,
          startDate: FUTURE.startDate,
          endDate: FUTURE.endDate,
          ...kind.figures,
          elements: [{ ...kind.element, ...kind.shown }],
          name: 'Rush order first',
          description: 'What if',
          ...(kind.list === 'assignments' ? { assignments: [kind.element] } : {}),
          createdAt: body.properties.createdAt,
          ...kind.extra,
        },
        _links: { self: get(`${kind.path}/${id}`) },
      };
      assert.deepEqual(body, expected);
      assert.equal(response.headers.location, absolute(`${kind.path}/${id}`));
      // One scenario is a page of its elements.
      const pageOf = (offset: number) => get(`${kind.path}/${id}?limit=100&offset=${offset}`);
      assert.deepEqual(json(await t().request({ url: `${kind.path}/${id}` })), {
        properties: expected.properties,
        pagination: {
          limit: 100,
          count: 1,
          offset: 0,
          total: 1,
          firstIdentifier: null,
          lastIdentifier: null,
        },
        _links: { self: pageOf(0), current: pageOf(0), first: pageOf(0), last: pageOf(0) },
      });
      const beyond = json(await t().request({ url: `${kind.path}/${id}?offset=1` }));
      assert.deepEqual(beyond.properties.elements, []);
      // The figures still cover every element.
      assert.deepEqual(beyond.properties.numberOfWorkplaces, 1);
      assert.equal(beyond.pagination.count, 0);
      assert.equal((await t().request({ url: `${kind.path}/${id}?limit=0` })).statusCode, 400);
      // startDate/endDate page the elements overlapping the period.
      const elementsIn = async (query: string) =>
        json(await t().request({ url: `${kind.path}/${id}?${query}` })).pagination.total;
      assert.equal(await elementsIn(`startDate=${FUTURE.endDate}`), 1);
      assert.equal(await elementsIn('startDate=2099-01-01T14:00:00.001Z'), 0);
      assert.equal(await elementsIn('endDate=2099-01-01T05:00:00Z'), 0);
      const filteredPage = json(
        await t().request({ url: `${kind.path}/${id}?startDate=${FUTURE.startDate}` }),
      );
      assert.equal(
        filteredPage._links.first.href,
        absolute(`${kind.path}/${id}?startDate=${encodeURIComponent(FUTURE.startDate)}&limit=100&offset=0`),
      );
      assert.deepEqual(withoutTime(await eventsSince(t(), start)), [
        {
          eventType: `${kind.event}_CREATED`,
          objectType: kind.event,
          objectId: id,
          data: { [kind.idKey]: id, name: 'Rush order first', description: 'What if' },
        },
        {
          eventType: 'RESOURCES_UPDATED',
          objectType: kind.event,
          objectId: id,
          data: { changeType: 'CREATED' },
        },
      ]);

      const minimal = await t().request({ method: 'POST', url: kind.path, body: { [kind.list]: [] } });
      assert.equal(minimal.statusCode, 201, minimal.body);
      assert.deepEqual([json(minimal).properties.name, json(minimal).properties.description], [null, null]);
      // Without elements there is no horizon.
      assert.deepEqual([json(minimal).properties.startDate, json(minimal).properties.endDate], [null, null]);

      // startDate/endDate keep the scenarios created in the period.
      const createdAt = body.properties.createdAt;
      const since = json(await t().request({ url: `${kind.path}?startDate=${createdAt}` }));
      assert.equal(since.pagination.total, 2);
      const until = json(await t().request({ url: `${kind.path}?endDate=${createdAt}` }));
      const untilItems: { properties: { id: string; creationDate: string } }[] = until._embedded[kind.name];
      assert.ok(untilItems.some((item) => item.properties.id === id));
      assert.ok(untilItems.every((item) => item.properties.creationDate <= createdAt));
      const later = json(await t().request({ url: `${kind.path}?startDate=2999-01-01T00:00:00Z` }));
      assert.equal(later.pagination.total, 0);
      const badDate = await t().request({ url: `${kind.path}?startDate=yesterday` });
      assert.equal(badDate.statusCode, 400);

      const collection = json(await t().request({ url: `${kind.path}?limit=1` }));
      assert.deepEqual(collection.pagination, {
        limit: 1,
        count: 1,
        offset: 0,
        total: totalBefore + 2,
        firstIdentifier: null,
        lastIdentifier: null,
      });
      assert.equal(collection._embedded[kind.name][0].properties.id, json(minimal).properties.id);
      assert.deepEqual(collection._links[kind.createRel], {
        href: absolute(kind.path),
        method: 'POST',
        embeddable: false,
      });

      const duplicate = await t().request({
        method: 'POST',
        url: kind.path,
        body: { [kind.list]: [kind.element, kind.element] },
      });
      assert.deepEqual(
        [duplicate.statusCode, json(duplicate)],
        [
          400,
          validation(
            `${kind.list}[1].${kind.list === 'assignments' ? 'operationId' : 'staffMemberId'}`,
            'appears more than once in this body',
          ),
        ],
      );
      const badWorkplace = await t().request({
        method: 'POST',
        url: kind.path,
        body: { [kind.list]: [{ ...kind.element, workplaceId: MISSING }] },
      });
      assert.deepEqual(
        [badWorkplace.statusCode, json(badWorkplace)],
        [400, invalidReference(`${kind.list}[0].workplaceId`, MISSING, 'workplace')],
      );
      for (const url of [`${kind.path}/${MISSING}`, `${kind.path}/nope`]) {
        assert.equal((await t().request({ url })).statusCode, 404, url);
      }
    }
  });

  test('predicted malfunction scenarios: create, read, filter, refusals', async () => {
    const workplaceId = await createWorkplace(t(), 'PM-W1');
    const otherWorkplaceId = await createWorkplace(t(), 'PM-W2');
    const path = `${API}/workplaces/predictedMalfunctionScenarios`;
    const start = await lastSequence(t());
    const response = await t().request({
      method: 'POST',
      url: path,
      body: {
        workplaceId,
        ...FUTURE,
        probability: 0.25,
        operatingStateId: '110',
        description: 'Spindle wear',
      },
    });
    assert.equal(response.statusCode, 201, response.body);
    const body = json(response);
    const id = body.properties.id;
    const clients = await t().app.db.query<{ client_id: string }>(
      "SELECT client_id FROM oauth_clients WHERE name = 'test read write'",
    );
    const expected = {
      properties: {
        id,
        creator: clients[0]?.client_id,
        creationDate: body.properties.createdAt,
        workplaceId,
        ...FUTURE,
        // The prediction as the real API's imminent malfunction: likely from its start; when it
        // becomes highly likely one period and one probability do not say.
        elements: [
          {
            workplaceId,
            operatingStateId: MALFUNCTION.id,
            prewarningDate: FUTURE.startDate,
            criticalDate: null,
          },
        ],
        probability: 0.25,
        operatingState: MALFUNCTION,
        description: 'Spindle wear',
        createdAt: body.properties.createdAt,
        obsoleteSince: null,
      },
      _links: {
        self: get(`${path}/${id}`),
        workplace: get(`${API}/workplaces/${workplaceId}`),
        operatingState: get(`${API}/masterData/operatingStates/${MALFUNCTION.id}`),
      },
    };
    assert.deepEqual(body, expected);
    assert.equal(response.headers.location, absolute(`${path}/${id}`));
    // One scenario is a page of its imminent malfunctions, as the real API reads it.
    const page = (offset: number) => get(`${path}/${id}?limit=100&offset=${offset}`);
    assert.deepEqual(json(await t().request({ url: `${path}/${id}` })), {
      properties: expected.properties,
      pagination: { limit: 100, count: 1, offset: 0, total: 1, firstIdentifier: null, lastIdentifier: null },
      _links: { ...expected._links, self: page(0), current: page(0), first: page(0), last: page(0) },
    });
    const beyond = json(await t().request({ url: `${path}/${id}?offset=1` }));
    assert.deepEqual(beyond.properties.elements, []);
    assert.equal(beyond.pagination.count, 0);
    assert.equal((await t().request({ url: `${path}/${id}?limit=0` })).statusCode, 400);
    assert.deepEqual(withoutTime(await eventsSince(t(), start)), [
      {
        eventType: 'PREDICTED_MALFUNCTION_SCENARIO_CREATED',
        objectType: 'WORKPLACE',
        objectId: workplaceId,
        data: {
          predictedMalfunctionScenarioId: id,
          workplaceId,
          ...FUTURE,
          probability: 0.25,
          operatingStateId: MALFUNCTION.id,
          description: 'Spindle wear',
        },
      },
      {
        eventType: 'RESOURCES_UPDATED',
        objectType: 'PREDICTED_MALFUNCTION_SCENARIO',
        objectId: id,
        data: { changeType: 'CREATED' },
      },
    ]);

    const other = await t().request({
      method: 'POST',
      url: path,
      body: { workplaceId: otherWorkplaceId, ...FUTURE, probability: 1 },
    });
    assert.equal(other.statusCode, 201, other.body);
    assert.deepEqual(
      [json(other).properties.operatingState, json(other)._links.operatingState],
      [null, undefined],
    );
    const filtered = json(await t().request({ url: `${path}?workplaceId=${workplaceId}` }));
    assert.deepEqual(filtered.pagination, {
      limit: 100,
      count: 1,
      offset: 0,
      total: 1,
      firstIdentifier: null,
      lastIdentifier: null,
    });
    assert.deepEqual(filtered._embedded.predictedMalfunctionScenarios, [expected]);
    assert.equal(
      filtered._links.self.href,
      absolute(`${path}?workplaceId=${workplaceId}&limit=100&offset=0`),
    );
    // startDate/endDate keep the predictions whose period overlaps the one asked for.
    const overlapping = async (query: string) =>
      json(await t().request({ url: `${path}?workplaceId=${workplaceId}&${query}` })).pagination.total;
    assert.equal(await overlapping(`startDate=${FUTURE.endDate}`), 1);
    assert.equal(await overlapping(`endDate=${FUTURE.startDate}`), 1);
    assert.equal(await overlapping('startDate=2099-01-01T14:00:00.001Z'), 0);
    assert.equal(await overlapping('endDate=2099-01-01T05:59:59.999Z'), 0);
    assert.equal(await overlapping('startDate=2099-01-01T08:00:00Z&endDate=2099-01-01T09:00:00Z'), 1);
    const collection = json(await t().request({ url: path }));
    assert.deepEqual(collection._links.createMalfunctionScenario, {
      href: absolute(path),
      method: 'POST',
      embeddable: false,
    });

    const refusals: [Record<string, unknown>, Record<string, unknown>][] = [
      [
        { operatingStateId: '000' },
        validation('operatingStateId', 'must be an operating state of workplace state DOWNTIME'),
      ],
      [{ operatingStateId: 'nope' }, invalidReference('operatingStateId', 'nope', 'operatingState')],
      [{ workplaceId: MISSING }, invalidReference('workplaceId', MISSING, 'workplace')],
      [
        { startDate: FUTURE.endDate, endDate: FUTURE.startDate },
        validation('endDate', 'must not be before startDate'),
      ],
      [{ probability: 1.5 }, { code: 'VALIDATION_FAILED' }],
      [{ probability: -0.1 }, { code: 'VALIDATION_FAILED' }],
    ];
    for (const [change, error] of refusals) {
      const refused = await t().request({
        method: 'POST',
        url: path,
        body: { workplaceId, ...FUTURE, probability: 0.5, ...change },
      });
      assert.equal(refused.statusCode, 400, JSON.stringify(change));
      if ('message' in error) assert.deepEqual(json(refused), error);
      else assert.equal(json(refused).code, error.code);
    }
    assert.equal((await t().request({ url: `${path}/${MISSING}` })).statusCode, 404);
  });

  test('a change into a DOWNTIME state outdates malfunction predictions and running forecasts', async () => {
    const workplaceId = await createWorkplace(t(), 'OB-W1');
    const quietWorkplaceId = await createWorkplace(t(), 'OB-W2');
    const running = await createOperation(t(), 'OB-RUN');
    const finished = await createOperation(t(), 'OB-DONE');
    const elsewhere = await createOperation(t(), 'OB-ELSE');
    const forecast = (operationId: string, workplace: string, dates: typeof FUTURE) =>
      t().request({
        method: 'PUT',
        url: `${API}/operations/${operationId}/forecastResult`,
        body: { workplaceId: workplace, ...dates },
      });
    await forecast(running, workplaceId, FUTURE);
    await forecast(finished, workplaceId, PAST);
    await forecast(elsewhere, quietWorkplaceId, FUTURE);
    const prediction = await t().request({
      method: 'POST',
      url: `${API}/workplaces/predictedMalfunctionScenarios`,
      body: { workplaceId, ...FUTURE, probability: 0.5 },
    });
    const predictionId = json(prediction).properties.id;
    const setState = (workplace: string, state: string) =>
      t().request({ method: 'POST', url: `${API}/workplaces/${workplace}/operatingState/${state}` });
    await setState(workplaceId, '000');
    await setState(quietWorkplaceId, '000');

    const OBSOLETE = ['OBSOLETE_PREDICTED_MALFUNCTION_SCENARIOS', 'OBSOLETE_OPERATION_FORECAST_RESULTS'];
    const malfunctionEvent = {
      eventType: 'OBSOLETE_PREDICTED_MALFUNCTION_SCENARIOS',
      objectType: 'NONE',
      objectId: null,
      data: { workplaceId, predictedMalfunctionScenarioIds: [predictionId] },
    };
    const forecastEvent = (operatingStateId: string) => ({
      eventType: 'OBSOLETE_OPERATION_FORECAST_RESULTS',
      objectType: 'OPERATION',
      objectId: running,
      data: { operationId: running, workplaceId, operatingStateId },
    });
    const PLANNED_MAINTENANCE_CODE = '410';
    const states = json(await t().request({ url: `${API}/masterData/operatingStates` }))._embedded;
    const idOf = (code: string) =>
      (Object.values(states)[0] as { properties: { id: string; code: string } }[]).find(
        (state) => state.properties.code === code,
      )?.properties.id as string;

    // (workplace, to state, expected OBSOLETE_* events), in order.
    const table: [string, string, UntimedEvent[]][] = [
      // PRODUCTION -> DOWNTIME: the prediction (once) and the running forecast only.
      [workplaceId, '110', [malfunctionEvent, forecastEvent(idOf('110'))]],
      // DOWNTIME -> PRODUCTION: nothing.
      [workplaceId, '000', []],
      // PRODUCTION -> DOWNTIME again: the prediction is already obsolete; the forecast is not.
      [workplaceId, PLANNED_MAINTENANCE_CODE, [forecastEvent(idOf(PLANNED_MAINTENANCE_CODE))]],
      // DOWNTIME -> another DOWNTIME state: a new cause, the forecast again.
      [workplaceId, '110', [forecastEvent(idOf('110'))]],
      // The same state again is no change at all.
      [workplaceId, '110', []],
      // Another workplace: only the forecast running there, no prediction (it has none).
      [
        quietWorkplaceId,
        '999',
        [
          {
            eventType: 'OBSOLETE_OPERATION_FORECAST_RESULTS',
            objectType: 'OPERATION',
            objectId: elsewhere,
            data: { operationId: elsewhere, workplaceId: quietWorkplaceId, operatingStateId: idOf('999') },
          },
        ],
      ],
    ];
    for (const [workplace, state, expected] of table) {
      const start = await lastSequence(t());
      const response = await setState(workplace, state);
      assert.equal(response.statusCode, 200, response.body);
      assert.deepEqual(
        withoutTime(await eventsSince(t(), start, OBSOLETE)),
        expected,
        `${workplace} -> ${state}`,
      );
      // The events of one change sort by id in the order the log numbers them (same recordedAt).
      const ids = (
        await t().app.db.query<{ id: string }>(
          'SELECT id FROM events WHERE sequence > $1 ORDER BY sequence',
          [start],
        )
      ).map((row) => row.id);
      assert.deepEqual(ids, [...ids].sort(), `${workplace} -> ${state}: ids in log order`);
    }
    const outdated = json(
      await t().request({ url: `${API}/workplaces/predictedMalfunctionScenarios/${predictionId}` }),
    );
    assert.equal(typeof outdated.properties.obsoleteSince, 'string');
  });

  test('read-only token: reads work, writes are 403, no create links', async () => {
    const workplaceId = await createWorkplace(t(), 'RO-W1');
    const operationId = await createOperation(t(), 'RO-OP1');
    const staffMemberId = await createStaffMember(t(), 'RO-S1');
    await t().request({
      method: 'PUT',
      url: `${API}/operations/${operationId}/forecastResult`,
      body: { workplaceId, ...FUTURE },
    });
    const read = ['read'];
    const forecast = await t().request({
      url: `${API}/operations/${operationId}/forecastResult`,
      scopes: read,
    });
    assert.equal(forecast.statusCode, 200);
    for (const [path, rel] of [
      ['/operations/planningScenarios', 'createPlanningScenario'],
      ['/staffMembers/planningScenarios', 'createPlanningScenario'],
      ['/workplaces/predictedMalfunctionScenarios', 'createMalfunctionScenario'],
    ] as const) {
      const collection = await t().request({ url: `${API}${path}`, scopes: read });
      assert.equal(collection.statusCode, 200);
      assert.equal(json(collection)._links[rel], undefined, path);
    }
    const writes: ['POST' | 'PUT' | 'DELETE', string, unknown][] = [
      ['PUT', `/operations/${operationId}/forecastResult`, { workplaceId, ...FUTURE }],
      ['DELETE', `/operations/${operationId}/forecastResult`, undefined],
      ['DELETE', `/operations/${operationId}/planningResult`, undefined],
      ['DELETE', `/staffMembers/${staffMemberId}/planningResult`, undefined],
      ['POST', '/operations/forecastResults/update', { forecastResults: [] }],
      ['POST', '/operations/planningResults/update', { assignments: [] }],
      ['POST', '/staffMembers/planningResults/update', { elements: [] }],
      ['POST', '/operations/planningScenarios', { assignments: [] }],
      ['POST', '/staffMembers/planningScenarios', { elements: [] }],
      ['POST', '/workplaces/predictedMalfunctionScenarios', { workplaceId, ...FUTURE, probability: 0.5 }],
    ];
    for (const [method, path, body] of writes) {
      const response = await t().request({ method, url: `${API}${path}`, body, scopes: read });
      assert.deepEqual(
        [response.statusCode, json(response).code],
        [403, 'INSUFFICIENT_SCOPE'],
        `${method} ${path}`,
      );
    }
  });
});
