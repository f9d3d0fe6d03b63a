// The v3 sub-resources of operations, production orders and workplaces (docs/resources/production-orders.md,
// workplaces.md): fields stored as given round trip, derived answers match
// values computed by hand, the recorded shape keys are present, bad input is 400 naming the field.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { createWorkplace, describeEachBackend, json, type TestApp } from '../support/app.ts';
import { eventsOf } from '../support/events.ts';
import { absolute } from '../support/hal.ts';

const OPS = '/api/v3/operations';
const ORDERS = '/api/v3/productionOrders';
const WPS = '/api/v3/workplaces';

async function ok(t: TestApp, url: string) {
  const response = await t.request({ url });
  assert.equal(response.statusCode, 200, `${url}: ${response.body}`);
  return json(response);
}

describeEachBackend('v3 sub-resources', (t) => {
  test('operation fields stored as given round trip and show in their sub-resources', async () => {
    const wp = await createWorkplace(t(), 'V3-WP-1');
    const alt = await createWorkplace(t(), 'V3-WP-2');
    const order = json(
      await t().request({
        method: 'POST',
        url: ORDERS,
        body: {
          number: 'V3-PO-1',
          split: '0',
          erpContextId: 'ERP-1',
          material: { number: 'M-1', type: 'FERT' },
        },
      }),
    );
    assert.equal(order.properties.split, '0');
    assert.deepEqual(order.properties.material, { number: 'M-1', description: null, type: 'FERT' });
    const body = {
      productionOrderId: order.properties.id,
      number: '0010',
      split: '1',
      erpContextId: 'ERP-1',
      workplaceId: wp,
      targetWaitTime: 500,
      targetMoveTime: 700,
      components: [{ materialNumber: 'COMP-1', quantity: 2, quantityUnit: 'Stk' }],
      productionResourcesAndTools: [{ identifier: 'M-364019', type: 'E', description: 'Tool', quantity: 0 }],
      alternativeWorkplaceIds: [alt],
      materialCharacteristics: [{ name: 'Length', identifier: 'LF', value: '12', unit: 'mm' }],
      userFields: [
        { position: 2, value: 'two' },
        { position: 1, value: 'one' },
      ],
      scheduledDates: {
        scheduledStartDate: '2030-01-01T06:00:00.000Z',
        scheduledEndDate: '2030-01-01T08:00:00.000Z',
      },
    };
    const created = await t().request({ method: 'POST', url: OPS, body });
    assert.equal(created.statusCode, 201, created.body);
    const id = json(created).properties.id;
    const operation = await ok(t(), `${OPS}/${id}`);
    for (const key of ['split', 'sequenceNumber', 'erpContextId', 'currentWorkplace', 'operationPhaseId'])
      assert.ok(key in operation.properties, key);
    assert.equal(operation.properties.split, '1');
    assert.equal(operation.properties.currentWorkplace, null);
    assert.deepEqual(operation.properties.productionOrder.material, {
      number: 'M-1',
      description: null,
      type: 'FERT',
    });
    assert.deepEqual(operation.properties.userFields, [
      { position: 2, value: 'two' },
      { position: 1, value: 'one' },
    ]);

    const components = await ok(t(), `${OPS}/${id}/components`);
    assert.deepEqual(components.properties.elements, [
      { material: { number: 'COMP-1', description: null, type: null }, quantity: 2, quantityUnit: 'Stk' },
    ]);
    assert.equal(components.pagination.total, 1);
    const tools = await ok(t(), `${OPS}/${id}/productionResourcesAndTools`);
    assert.deepEqual(tools._embedded.productionResourcesAndTools[0].properties, {
      itemNumber: null,
      type: 'E',
      group: null,
      number: 'M-364019',
      description: 'Tool',
      quantity: 0,
      quantityUnit: null,
    });
    const fields = await ok(t(), `${OPS}/${id}/userFields?limit=1&offset=1`);
    assert.deepEqual(fields.properties.elements, [{ value: 'two', position: 2 }]);
    assert.equal(fields.pagination.total, 2);
    const characteristics = await ok(t(), `${OPS}/${id}/materialCharacteristics`);
    assert.deepEqual(characteristics.properties.elements, body.materialCharacteristics);
    const alternatives = await ok(t(), `${OPS}/${id}/alternativeWorkplaces`);
    assert.deepEqual(
      alternatives._embedded.alternativeWorkplaces.map((item: { properties: unknown }) => item.properties),
      [{ id: alt, number: 'V3-WP-2', description: null, erpContextId: null }],
    );
    const dates = await ok(t(), `${OPS}/${id}/scheduledDates`);
    assert.deepEqual(dates.properties, {
      earliestStartDate: null,
      latestStartDate: null,
      earliestEndDate: null,
      latestEndDate: null,
      scheduledStartDate: '2030-01-01T06:00:00.000Z',
      scheduledEndDate: '2030-01-01T08:00:00.000Z',
    });

    // Replace without the lists: they are gone (a PUT replaces it all).
    const { alternativeWorkplaceIds: _a, userFields: _u, ...rest } = body;
    const replaced = await t().request({ method: 'PUT', url: `${OPS}/${id}`, body: rest });
    assert.equal(replaced.statusCode, 200, replaced.body);
    assert.deepEqual((await ok(t(), `${OPS}/${id}/userFields`)).properties.elements, []);
    assert.deepEqual(
      (await ok(t(), `${OPS}/${id}/alternativeWorkplaces`))._embedded.alternativeWorkplaces,
      [],
    );
  });

  test("production resources and tools: their descriptions are literals, kept with the operation's list", async () => {
    const order = json(await t().request({ method: 'POST', url: ORDERS, body: { number: 'V3-PO-PRT' } }));
    const body = {
      productionOrderId: order.properties.id,
      number: '0010',
      productionResourcesAndTools: [
        { identifier: 'PRT-1', type: 'E', description: 'Chuck 250 mm', quantity: 1 },
        { identifier: 'PRT-2', type: 'E', description: 'Vice 160 mm', quantity: 1 },
        { identifier: 'PRT-3', type: 'E', quantity: 2 },
      ],
    };
    const created = await t().request({ method: 'POST', url: OPS, body });
    assert.equal(created.statusCode, 201, created.body);
    const id = json(created).properties.id;
    const url = `${OPS}/${id}/productionResourcesAndTools`;
    type Item = { _links: { description?: { href: string } }; _embedded?: { description: unknown } };
    const literalUrl = (item: Item | undefined) => {
      const href = item?._links.description?.href;
      assert.ok(href, 'a described item links its literal');
      return new URL(href).pathname;
    };
    const literal = (href: string, translation: string) => ({
      properties: { id: href.split('/').at(-1), translations: [{ language: 'en-GB', translation }] },
      _links: { self: { href: absolute(href), method: 'GET', embeddable: false } },
    });

    const first = await ok(t(), `${url}?limit=1&embed=description`);
    const [chuck] = first._embedded.productionResourcesAndTools as Item[];
    const chuckLiteral = literalUrl(chuck);
    assert.deepEqual(chuck?._embedded?.description, literal(chuckLiteral, 'Chuck 250 mm'));
    assert.match(first._links.next.href, /embed=description/);
    const all = (await ok(t(), url))._embedded.productionResourcesAndTools as Item[];
    assert.equal(all[0]?._embedded, undefined, 'embedded only when asked');
    const viceLiteral = literalUrl(all[1]);
    assert.notEqual(viceLiteral, chuckLiteral);
    assert.equal(all[2]?._links.description, undefined, 'no description, no literal');
    assert.deepEqual(await ok(t(), viceLiteral), literal(viceLiteral, 'Vice 160 mm'));
    const embedded = await ok(t(), `${OPS}/${id}?embed=productionResourcesAndTools`);
    assert.equal(
      literalUrl(embedded._embedded.productionResourcesAndTools._embedded.productionResourcesAndTools[0]),
      chuckLiteral,
    );
    const refused = await t().request({ url: `${url}?embed=tool` });
    assert.equal(refused.statusCode, 400);
    assert.equal(json(refused).code, 'UNKNOWN_EMBED');

    // A replaced list rewrites the literals of its places; a place no longer described loses its own.
    const replaced = await t().request({
      method: 'PUT',
      url: `${OPS}/${id}`,
      body: {
        ...body,
        productionResourcesAndTools: [
          { identifier: 'PRT-1', type: 'E', description: 'Chuck 315 mm', quantity: 1 },
        ],
      },
    });
    assert.equal(replaced.statusCode, 200, replaced.body);
    assert.deepEqual(await ok(t(), chuckLiteral), literal(chuckLiteral, 'Chuck 315 mm'));
    assert.equal((await t().request({ url: viceLiteral })).statusCode, 404);

    assert.equal((await t().request({ method: 'DELETE', url: `${OPS}/${id}` })).statusCode, 204);
    assert.equal((await t().request({ url: chuckLiteral })).statusCode, 404);
  });

  test('machine cycle, manufacturing variants, required tools and skills: stored, shown, embedded', async () => {
    const wp = await createWorkplace(t(), 'V3-WP-MV');
    const gone = await createWorkplace(t(), 'V3-WP-MV-GONE');
    const order = json(await t().request({ method: 'POST', url: ORDERS, body: { number: 'V3-PO-MV' } }));
    const body = {
      productionOrderId: order.properties.id,
      number: '0010',
      workplaceId: wp,
      targetMachineCycleTime: 1500,
      unitsPerMachineCycle: 4,
      manufacturingVariants: [
        {
          workplaceIds: [wp, gone],
          tools: [{ id: 'T-1', name: 'Collet', description: 'Collet 12 mm' }],
          additionalConditions: 'only day shift',
          forecast: { delayFactor: 1.2, processingTime: 60000 },
        },
      ],
      requiredTools: [{ id: 'T-2', name: 'Gauge' }],
      requiredSkills: { setup: [{ skillId: 'TURN-SETUP', minimumSkill: 2, capacity: 0.5 }] },
    };
    const created = await t().request({ method: 'POST', url: OPS, body });
    assert.equal(created.statusCode, 201, created.body);
    const id = json(created).properties.id;
    assert.equal((await t().request({ method: 'DELETE', url: `${WPS}/${gone}` })).statusCode, 204);
    const operation = await ok(t(), `${OPS}/${id}`);
    const forecast = {
      delayFactor: 1.2,
      processAvailability: null,
      performance: null,
      qualityRate: null,
      processingTime: 60000,
      additionalSetupTime: null,
      intermediateSetupTime: null,
      staffCapacityFactor: null,
      skillFactor: null,
    };
    assert.deepEqual(operation.properties.manufacturingVariants, [
      { ...body.manufacturingVariants[0], forecast },
    ]);
    assert.deepEqual(operation.properties.requiredTools, [{ id: 'T-2', name: 'Gauge', description: null }]);
    for (const rel of ['manufacturingVariants', 'requiredTools', 'requiredSkills'])
      assert.ok(operation._links[rel].href.endsWith(`/operations/${id}/${rel}`), rel);

    // The deleted workplace drops out of its variant.
    const variants = await ok(t(), `${OPS}/${id}/manufacturingVariants`);
    assert.deepEqual(variants.properties.elements, [
      {
        workplaces: [{ id: wp, number: 'V3-WP-MV', description: null, erpContextId: null }],
        tools: body.manufacturingVariants[0]?.tools,
        additionalConditions: 'only day shift',
        forecast,
      },
    ]);
    assert.equal(variants.pagination.total, 1);
    const tools = await ok(t(), `${OPS}/${id}/requiredTools?embed=operation`);
    assert.deepEqual(tools.properties.elements, [{ id: 'T-2', name: 'Gauge', description: null }]);
    assert.equal(tools._embedded.operation.properties.id, id);
    assert.ok(tools._links.first.href.includes('embed=operation'), tools._links.first.href);
    const skills = await ok(t(), `${OPS}/${id}/requiredSkills`);
    assert.deepEqual(skills.properties, {
      setup: [{ skillId: 'TURN-SETUP', minimumSkill: 2, capacity: 0.5 }],
      processing: [],
    });
    const components = await ok(t(), `${OPS}/${id}/components?embed=operation`);
    assert.equal(components._embedded.operation.properties.number, '0010');
    const refused = await t().request({ url: `${OPS}/${id}/components?embed=workplace` });
    assert.equal(refused.statusCode, 400, refused.body);

    const spec = await ok(t(), `${OPS}/${id}/specification?embed=targetWorkplace`);
    assert.equal(spec.properties.targetMachineCycleTime, 1500);
    assert.equal(spec.properties.unitsPerMachineCycle, 4);
    assert.equal(spec._embedded.targetWorkplace.properties.id, wp);
    assert.equal((await ok(t(), `${OPS}/${id}/specification`))._embedded, undefined);

    // A workplace of a variant that does not exist is refused, naming it; nothing changes.
    const bad = await t().request({
      method: 'PUT',
      url: `${OPS}/${id}`,
      body: { ...body, manufacturingVariants: [{ workplaceIds: [gone] }] },
    });
    assert.equal(bad.statusCode, 400, bad.body);
    assert.ok(json(bad).message.includes('manufacturingVariants[0].workplaceIds[0]'), bad.body);
    assert.deepEqual((await ok(t(), `${OPS}/${id}`)).properties, operation.properties);
  });

  test('histories by period, scheduling result pages, the planning result PUT', async () => {
    const wp = await createWorkplace(t(), 'V3-WP-HP');
    const order = json(
      await t().request({
        method: 'POST',
        url: ORDERS,
        body: { number: 'V3-PO-HP', operations: [{ number: '0010' }, { number: '0020' }] },
      }),
    );
    const [first, second] = order._embedded.operations.map(
      (operation: { properties: { id: string } }) => operation.properties.id,
    ) as [string, string];
    assert.equal(
      (await t().request({ method: 'POST', url: `${OPS}/${first}/SETUP`, body: { workplaceId: wp } }))
        .statusCode,
      200,
    );
    const booked = await t().request({
      method: 'POST',
      url: `${OPS}/${first}/recordedOutputQuantities`,
      body: { quantity: 3, quantityType: 'YIELD', timestamp: '2030-03-01T10:00:00.000Z' },
    });
    assert.equal(booked.statusCode, 201, booked.body);
    const phasesOf = async (query: string) =>
      (
        await ok(t(), `${OPS}/${first}/recordedOperationPhases${query}`)
      )._embedded.recordedOperationPhases.map(
        (item: { properties: { operationPhaseId: string } }) => item.properties.operationPhaseId,
      );
    assert.deepEqual(await phasesOf(''), ['SETUP', 'RELEASED']);
    // The open SETUP record overlaps every later period; RELEASED ended when SETUP began.
    assert.deepEqual(await phasesOf('?startDate=2030-01-01T00:00:00.000Z'), ['SETUP']);
    const records = (await ok(t(), `${OPS}/${first}/recordedOperationPhases`))._embedded
      .recordedOperationPhases;
    const released = records[1].properties;
    assert.deepEqual(await phasesOf(`?endDate=${released.startDate}`), ['RELEASED']);
    assert.deepEqual(await phasesOf(`?startDate=${released.startDate}&endDate=${released.endDate}`), [
      'SETUP',
      'RELEASED',
    ]);
    const quantitiesOf = async (query: string) =>
      (await ok(t(), `${OPS}/${first}/recordedOutputQuantities${query}`)).pagination.total;
    assert.equal(
      await quantitiesOf('?startDate=2030-03-01T00:00:00.000Z&endDate=2030-03-02T00:00:00.000Z'),
      1,
    );
    assert.equal(await quantitiesOf('?startDate=2030-03-02T00:00:00.000Z'), 0);
    const wrong = await t().request({ url: `${OPS}/${first}/recordedOutputQuantities?startDate=yesterday` });
    assert.equal(wrong.statusCode, 400);

    const page = await ok(t(), `${ORDERS}/${order.properties.id}/scheduledDates?limit=1`);
    assert.deepEqual(
      page.properties.elements.map((element: { operationId: string }) => element.operationId),
      [first],
    );
    assert.deepEqual(page.pagination, {
      offset: 0,
      limit: 1,
      count: 1,
      total: 2,
      firstIdentifier: null,
      lastIdentifier: null,
    });
    assert.ok(page._links.next.href.includes('offset=1'), page._links.next.href);
    assert.ok(page._links.last.href.includes('offset=1'));
    const last = await ok(t(), `${ORDERS}/${order.properties.id}/scheduledDates?limit=1&offset=1`);
    assert.equal(last.properties.elements[0].operationId, second);
    assert.equal(last._links.next, undefined);

    const url = `${OPS}/${second}/planningResult`;
    const result = {
      workplaceId: wp,
      startDate: '2030-04-01T06:00:00.000Z',
      endDate: '2030-04-01T08:00:00.000Z',
    };
    const put = await t().request({ method: 'PUT', url, body: result });
    assert.equal(put.statusCode, 201, put.body);
    assert.equal(put.headers.location, `http://localhost:80${url}`);
    const read = await ok(t(), url);
    assert.equal(read.properties.workplaceId, wp);
    assert.equal(read.properties.startDate, result.startDate);
    const again = await t().request({ method: 'PUT', url, body: read.properties });
    assert.equal(again.statusCode, 200, again.body);
    const types = (await eventsOf(t(), second)).map((event: { eventType: string }) => event.eventType);
    assert.deepEqual(
      types.filter((type: string) => type.startsWith('OPERATION_PLANNING_RESULT')),
      ['OPERATION_PLANNING_RESULT_CREATED'],
    );
    const missing = await t().request({
      method: 'PUT',
      url: `${OPS}/${order.properties.id}/planningResult`,
      body: result,
    });
    assert.equal(missing.statusCode, 404, missing.body);
  });

  test('bad input is 400 naming the field, nothing stored', async () => {
    const order = json(await t().request({ method: 'POST', url: ORDERS, body: { number: 'V3-PO-BAD' } }));
    const base = { productionOrderId: order.properties.id, number: '0010' };
    const cases: [Record<string, unknown>, string][] = [
      [{ userFields: [{ position: 1 }, { position: 1 }] }, 'userFields[1].position'],
      [{ alternativeWorkplaceIds: ['01a21cab-d812-76b4-9217-e3fe7d7c914d'] }, 'alternativeWorkplaceIds[0]'],
      [
        {
          scheduledDates: {
            scheduledStartDate: '2030-01-02T00:00:00Z',
            scheduledEndDate: '2030-01-01T00:00:00Z',
          },
        },
        'scheduledDates.scheduledEndDate',
      ],
    ];
    for (const [fields, field] of cases) {
      const response = await t().request({ method: 'POST', url: OPS, body: { ...base, ...fields } });
      assert.equal(response.statusCode, 400, response.body);
      assert.ok(json(response).message.includes(field), `${field}: ${response.body}`);
    }
    const list = await ok(t(), `${OPS}?productionOrderId=${order.properties.id}`);
    assert.equal(list.pagination.total, 0);
    const bad = await t().request({
      url: `${OPS}/${order.properties.id}/currentProductionData?additionalOperationTime=x`,
    });
    assert.equal(bad.statusCode, 400);
  });

  test('current production data, phase histories and the operation sequence, computed by hand', async () => {
    const wp = await createWorkplace(t(), 'V3-WP-3');
    const order = json(await t().request({ method: 'POST', url: ORDERS, body: { number: 'V3-PO-3' } }));
    const ids: string[] = [];
    for (const number of ['0010', '0020']) {
      const response = await t().request({
        method: 'POST',
        url: OPS,
        body: {
          productionOrderId: order.properties.id,
          number,
          workplaceId: wp,
          targetWaitTime: 100,
          targetMoveTime: 200,
        },
      });
      ids.push(json(response).properties.id);
    }
    const [first, second] = ids as [string, string];
    assert.equal((await t().request({ method: 'POST', url: `${OPS}/${first}/SETUP` })).statusCode, 200);
    const running = await ok(t(), `${OPS}/${first}`);
    assert.deepEqual(running.properties.currentWorkplace, {
      id: wp,
      number: 'V3-WP-3',
      description: null,
      erpContextId: null,
    });
    assert.equal((await t().request({ method: 'POST', url: `${OPS}/${first}/PROCESSING` })).statusCode, 200);
    assert.equal((await t().request({ method: 'POST', url: `${OPS}/${first}/COMPLETED` })).statusCode, 200);

    const phases = await ok(t(), `${OPS}/${first}/recordedOperationPhases`);
    const records = phases._embedded.recordedOperationPhases.map(
      (item: { properties: Record<string, string> }) => item.properties,
    );
    const span = (phase: string) =>
      records
        .filter((record: Record<string, string>) => record.operationPhaseId === phase)
        .reduce(
          (sum: number, record: Record<string, string>) =>
            sum + Date.parse(record.endDate as string) - Date.parse(record.startDate as string),
          0,
        );
    assert.equal(phases.properties.elements.length, records.length);
    assert.equal(phases.properties.setupPhaseDuration, span('SETUP'));
    assert.equal(phases.properties.processingPhaseDuration, span('PROCESSING'));
    assert.equal(phases.properties.executionTime, span('SETUP') + span('PROCESSING'));

    const data = await ok(
      t(),
      `${OPS}/${first}/currentProductionData?additionalOperationTime=operationSetupTime`,
    );
    assert.deepEqual(data.properties, {
      workplace: { id: wp, number: 'V3-WP-3', description: null, erpContextId: null },
      strokes: null,
      operationTimes: [{ name: 'setupTime', duration: span('SETUP') }],
      operationPhaseId: 'COMPLETED',
    });

    const atWorkplace = await ok(t(), `${WPS}/${wp}/recordedOperationPhases`);
    assert.deepEqual(
      new Set(atWorkplace.properties.elements.map((element: { operationId: string }) => element.operationId)),
      new Set([first, second]),
    );
    assert.ok('occupancyTime' in atWorkplace.properties);

    const sequence = await ok(t(), `${ORDERS}/${order.properties.id}/operationSequence`);
    assert.deepEqual(
      sequence.properties.elements.map(
        (element: {
          operation: { id: string };
          predecessors: { operationId: string }[];
          successors: unknown[];
        }) => [
          element.operation.id,
          element.predecessors.map((p: { operationId: string }) => p.operationId),
          element.successors,
        ],
      ),
      [
        [first, [], [{ operationId: second, targetWaitTime: 100, targetMoveTime: 200 }]],
        [second, [first], []],
      ],
    );
    const filtered = await ok(t(), `${ORDERS}/${order.properties.id}/operationSequence?operationNumber=0020`);
    assert.equal(filtered.pagination.total, 1);

    const states = await ok(t(), `${WPS}/${wp}/recordedOperatingStates`);
    assert.equal(states.properties.elements.length, states._embedded.recordedOperatingStates.length);
    assert.deepEqual(Object.keys(states.properties.elements[0].timePeriod), [
      'startDate',
      'endDate',
      'duration',
    ]);
  });

  test('order scheduled dates: PUT stores them with events, GET reads them; specification', async () => {
    const order = json(
      await t().request({
        method: 'POST',
        url: ORDERS,
        body: { number: 'V3-PO-4', targetQuantity: 5, operations: [{ number: '0010' }] },
      }),
    );
    const orderId = order.properties.id;
    const operationId = order._embedded.operations[0].properties.id;
    const put = await t().request({
      method: 'PUT',
      url: `${ORDERS}/${orderId}/scheduledDates`,
      body: {
        scheduledStartDate: '2030-02-01T00:00:00.000Z',
        scheduledEndDate: '2030-02-02T00:00:00.000Z',
        elements: [{ operationId, scheduledDates: { earliestStartDate: '2030-02-01T01:00:00.000Z' } }],
      },
    });
    assert.equal(put.statusCode, 200, put.body);
    const read = await ok(t(), `${ORDERS}/${orderId}/scheduledDates`);
    assert.equal(read.properties.scheduledStartDate, '2030-02-01T00:00:00.000Z');
    assert.equal(read.properties.elements[0].scheduledDates.earliestStartDate, '2030-02-01T01:00:00.000Z');
    // The GET answer sent back unchanged is taken and changes nothing.
    const echoed = await t().request({
      method: 'PUT',
      url: `${ORDERS}/${orderId}/scheduledDates`,
      body: read.properties,
    });
    assert.equal(echoed.statusCode, 200, echoed.body);
    assert.deepEqual(json(echoed).properties, read.properties);
    const types = (await eventsOf(t(), orderId)).map((event: { eventType: string }) => event.eventType);
    assert.equal(types.filter((type: string) => type === 'PRODUCTION_ORDER_UPDATED').length, 1);
    const opTypes = (await eventsOf(t(), operationId)).map((event: { eventType: string }) => event.eventType);
    assert.ok(opTypes.includes('OPERATION_UPDATED'));
    const foreign = await t().request({
      method: 'PUT',
      url: `${ORDERS}/${orderId}/scheduledDates`,
      body: { elements: [{ operationId: orderId, scheduledDates: {} }] },
    });
    assert.equal(foreign.statusCode, 400);
    assert.ok(json(foreign).message.includes('elements[0].operationId'));
    const spec = await ok(t(), `${ORDERS}/${orderId}/specification`);
    assert.equal(spec.properties.targetQuantity, 5);
    assert.equal(spec.properties.priority, null);
  });

  test('shifts of all workplaces, scheduled operating and maintenance times', async () => {
    const wp = await createWorkplace(t(), 'V3-WP-5');
    const shift = await t().request({
      method: 'POST',
      url: `${WPS}/${wp}/shifts`,
      body: { startDate: '2030-03-01T06:00:00.000Z', endDate: '2030-03-01T14:00:00.000Z' },
    });
    assert.equal(shift.statusCode, 201, shift.body);
    const shiftId = json(shift).properties.id;
    const all = await ok(t(), `${WPS}/shifts?workplaceId=${wp}`);
    assert.deepEqual(all._embedded.shifts[0].properties.shift.timePeriod, {
      startDate: '2030-03-01T06:00:00.000Z',
      endDate: '2030-03-01T14:00:00.000Z',
      duration: 8 * 3600_000,
    });
    assert.equal((await ok(t(), `${WPS}/shifts/${shiftId}`)).properties.workplaceId, wp);
    const times = await ok(t(), `${WPS}/${wp}/scheduledOperatingTimes`);
    assert.deepEqual(times.properties.elements, [
      { startDate: '2030-03-01T06:00:00.000Z', endDate: '2030-03-01T14:00:00.000Z', duration: 8 * 3600_000 },
    ]);
    const maintenance = await t().request({
      method: 'POST',
      url: `${WPS}/${wp}/scheduledMaintenances`,
      body: {
        description: 'Oil',
        startDate: '2030-03-02T06:00:00.000Z',
        endDate: '2030-03-02T07:00:00.000Z',
      },
    });
    assert.equal(maintenance.statusCode, 201, maintenance.body);
    const maintenanceTimes = await ok(t(), `${WPS}/${wp}/scheduledMaintenanceTimes`);
    assert.deepEqual(maintenanceTimes.properties.elements, [
      { startDate: '2030-03-02T06:00:00.000Z', endDate: '2030-03-02T07:00:00.000Z', duration: 3600_000 },
    ]);
    assert.equal((await t().request({ url: `${WPS}/shifts/${wp}` })).statusCode, 404);
  });
});
