// Operations end to end (docs/api.md "Collections", docs/api.md "Resources", docs/api.md "States and transitions", docs/events.md): collection and search with filters, GET with embeds,
// POST/PUT/DELETE with their events, the phase command over the whole transition table, the
// workplace a running phase needs, the phase history, and what a read-only caller may do and see.
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
import { eventsOf, withoutTime } from '../support/events.ts';
import { absolute, get } from '../support/hal.ts';

const BASE = '/api/v2/operations';
const ORDERS = '/api/v2/productionOrders';
const PHASES = [
  'RELEASED',
  'DISPATCHED',
  'SETUP',
  'TRAINING',
  'PROCESSING',
  'INTERRUPTED',
  'COMPLETED',
  'CLOSED',
] as const;
type Phase = (typeof PHASES)[number];

// docs/api.md "States and transitions", written out independently of the code: every allowed (from, to).
const ALLOWED: [Phase, Phase][] = [
  ['RELEASED', 'DISPATCHED'],
  ['RELEASED', 'SETUP'],
  ['DISPATCHED', 'RELEASED'],
  ['DISPATCHED', 'SETUP'],
  ['DISPATCHED', 'PROCESSING'],
  ['SETUP', 'TRAINING'],
  ['SETUP', 'PROCESSING'],
  ['SETUP', 'INTERRUPTED'],
  ['TRAINING', 'PROCESSING'],
  ['TRAINING', 'INTERRUPTED'],
  ['PROCESSING', 'INTERRUPTED'],
  ['PROCESSING', 'COMPLETED'],
  ['INTERRUPTED', 'SETUP'],
  ['INTERRUPTED', 'PROCESSING'],
  ['INTERRUPTED', 'COMPLETED'],
  ['COMPLETED', 'CLOSED'],
];
const allowedFrom = (from: Phase) => ALLOWED.filter(([a]) => a === from).map(([, to]) => to);
// A way from RELEASED to each phase.
const PATH_TO: Record<Phase, Phase[]> = {
  RELEASED: [],
  DISPATCHED: ['DISPATCHED'],
  SETUP: ['SETUP'],
  TRAINING: ['SETUP', 'TRAINING'],
  PROCESSING: ['SETUP', 'PROCESSING'],
  INTERRUPTED: ['SETUP', 'INTERRUPTED'],
  COMPLETED: ['SETUP', 'PROCESSING', 'COMPLETED'],
  CLOSED: ['SETUP', 'PROCESSING', 'COMPLETED', 'CLOSED'],
};

async function getOperation(t: TestApp, id: string, query = '', scopes?: string[]) {
  const response = await t.request({ url: `${BASE}/${id}${query}`, scopes });
  assert.equal(response.statusCode, 200, response.body);
  return json(response);
}

async function changePhase(t: TestApp, id: string, phase: string, body?: unknown) {
  return t.request({ method: 'POST', url: `${BASE}/${id}/${phase}`, body });
}

const phaseActions = (id: string, phase: Phase) =>
  Object.fromEntries(
    allowedFrom(phase).map((to) => [
      `changeOperationPhaseTo${to}`,
      { href: absolute(`${BASE}/${id}/${to}`), method: 'POST', embeddable: false },
    ]),
  );

/** The result writes a writer is offered on every operation (docs/resources/production-orders.md). */
const resultActions = (id: string) => ({
  setOperationPhase: {
    href: absolute(`${BASE}/${id}/{operationPhaseId}`),
    method: 'POST',
    embeddable: false,
    templated: true,
  },
  updatePlanningResult: { href: absolute(`${BASE}/${id}/planningResult`), method: 'PUT', embeddable: false },
  deletePlanningResult: {
    href: absolute(`${BASE}/${id}/planningResult`),
    method: 'DELETE',
    embeddable: false,
  },
  updateForecastResult: { href: absolute(`${BASE}/${id}/forecastResult`), method: 'PUT', embeddable: false },
  deleteForecastResult: {
    href: absolute(`${BASE}/${id}/forecastResult`),
    method: 'DELETE',
    embeddable: false,
  },
});

const NO_DATES = {
  earliestStartDate: null,
  latestStartDate: null,
  earliestEndDate: null,
  latestEndDate: null,
  scheduledStartDate: null,
  scheduledEndDate: null,
};

/** The links to an operation's sub-resources. */
const subLinks = (id: string, orderId: string) => ({
  recordedOperatingStates: get(`${BASE}/${id}/recordedOperatingStates`),
  recordedOutputQuantities: get(`${BASE}/${id}/recordedOutputQuantities`),
  specification: get(`${BASE}/${id}/specification`),
  productionOrderSpecification: get(`${ORDERS}/${orderId}/specification`),
  quantitySummary: get(`${BASE}/${id}/quantitySummary`),
  operatingStateSummary: get(`${BASE}/${id}/operatingStateSummary`),
  scheduledDates: get(`${BASE}/${id}/scheduledDates`),
  components: get(`${BASE}/${id}/components`),
  productionResourcesAndTools: get(`${BASE}/${id}/productionResourcesAndTools`),
  alternativeWorkplaces: get(`${BASE}/${id}/alternativeWorkplaces`),
  manufacturingVariants: get(`${BASE}/${id}/manufacturingVariants`),
  requiredTools: get(`${BASE}/${id}/requiredTools`),
  requiredSkills: get(`${BASE}/${id}/requiredSkills`),
  materialCharacteristics: get(`${BASE}/${id}/materialCharacteristics`),
  userFields: get(`${BASE}/${id}/userFields`),
  currentProductionData: get(`${BASE}/${id}/currentProductionData`),
  planningResult: get(`${BASE}/${id}/planningResult`),
  forecastResult: get(`${BASE}/${id}/forecastResult`),
});

const numbersOf = (collection: ReturnType<typeof json>) =>
  collection._embedded.operations.map((item: { properties: { number: string } }) => item.properties.number);

describeEachBackend('operations', (t) => {
  test('POST {productionOrderId, number}: 201, RELEASED, whole body; readers see no actions', async () => {
    const id = await createOperation(t(), 'MIN-10');
    const body = await getOperation(t(), id);
    const orderId = body.properties.productionOrderId;
    const expected = {
      properties: {
        id,
        number: 'MIN-10',
        description: null,
        productionOrderId: orderId,
        productionOrder: {
          id: orderId,
          number: 'MIN-10-PO',
          split: null,
          description: null,
          material: null,
          erpContextId: null,
        },
        split: null,
        sequence: 1,
        sequenceNumber: 1,
        erpContextId: null,
        currentWorkplace: null,
        material: null,
        operationPhaseId: 'RELEASED',
        workplaceId: null,
        workplaceGroupId: null,
        targetQuantity: null,
        quantityUnit: null,
        targetTimePerUnit: null,
        targetProcessingTime: null,
        targetSetupTime: null,
        targetTeardownTime: null,
        targetMoveTime: null,
        targetWaitTime: null,
        components: [],
        productionResourcesAndTools: [],
        scheduledDates: NO_DATES,
        alternativeWorkplaceIds: [],
        materialCharacteristics: [],
        userFields: [],
        targetMachineCycleTime: null,
        unitsPerMachineCycle: null,
        manufacturingVariants: [],
        requiredTools: [],
        requiredSkills: { setup: [], processing: [] },
        startDate: null,
        endDate: null,
      },
      _links: {
        self: get(`${BASE}/${id}`),
        operations: get(BASE),
        productionOrder: get(`${ORDERS}/${orderId}`, true),
        operationPhase: get('/api/v2/masterData/operationPhases/RELEASED'),
        recordedOperationPhases: get(`${BASE}/${id}/recordedOperationPhases`),
        ...subLinks(id, orderId),
        ...phaseActions(id, 'RELEASED'),
        ...resultActions(id),
      },
    };
    assert.deepEqual(body, expected);
    const readerLinks = Object.fromEntries(
      Object.entries(expected._links).filter(
        ([rel]) => !rel.startsWith('changeOperationPhaseTo') && !(rel in resultActions(id)),
      ),
    );
    assert.deepEqual(await getOperation(t(), id, '', ['read']), { ...expected, _links: readerLinks });
    assert.deepEqual(withoutTime(await eventsOf(t(), id)), [
      {
        eventType: 'OPERATION_CREATED',
        objectType: 'OPERATION',
        objectId: id,
        data: {
          operationId: id,
          number: 'MIN-10',
          description: null,
          productionOrderId: orderId,
          sequence: 1,
          material: null,
          workplaceId: null,
          workplaceGroupId: null,
          targetQuantity: null,
          quantityUnit: null,
          targetTimePerUnit: null,
          targetSetupTime: null,
          targetTeardownTime: null,
          targetMoveTime: null,
          targetWaitTime: null,
          components: [],
          productionResourcesAndTools: [],
          split: null,
          erpContextId: null,
          scheduledDates: NO_DATES,
          alternativeWorkplaceIds: [],
          materialCharacteristics: [],
          userFields: [],
          targetMachineCycleTime: null,
          unitsPerMachineCycle: null,
          manufacturingVariants: [],
          requiredTools: [],
          requiredSkills: { setup: [], processing: [] },
          startDate: null,
          endDate: null,
          targetProcessingTime: null,
        },
      },
      {
        eventType: 'RESOURCES_UPDATED',
        objectType: 'OPERATION',
        objectId: id,
        data: { changeType: 'CREATED' },
      },
    ]);
  });

  test('POST with every standard value; processing time derived; a wrong one is 400', async () => {
    const workplaceId = await createWorkplace(t(), 'FULL-WP');
    const order = json(await t().request({ method: 'POST', url: ORDERS, body: { number: 'FULL-PO' } }));
    const full = {
      productionOrderId: order.properties.id,
      number: '0010',
      description: 'Turning',
      sequence: 10,
      material: { number: 'M-7', description: 'Shaft' },
      workplaceId,
      targetQuantity: 12.5,
      quantityUnit: 'kg',
      targetTimePerUnit: 2000,
      targetSetupTime: 600000,
      targetTeardownTime: 60000,
      targetMoveTime: 1000,
      targetWaitTime: 0,
      components: [{ materialNumber: 'C-1', description: 'Bar', quantity: 2, quantityUnit: 'pcs' }],
      productionResourcesAndTools: [{ type: 'GAUGE', identifier: 'G-1', description: null, toolId: null }],
      startDate: '2030-05-01T06:00:00.000Z',
      endDate: '2030-05-01T14:00:00.000Z',
    };
    const response = await t().request({
      method: 'POST',
      url: BASE,
      body: { ...full, targetProcessingTime: 25000 },
    });
    assert.equal(response.statusCode, 201, response.body);
    const { properties } = json(response);
    assert.deepEqual(properties, {
      ...full,
      id: properties.id,
      productionOrder: {
        id: order.properties.id,
        number: 'FULL-PO',
        split: null,
        description: null,
        material: null,
        erpContextId: null,
      },
      material: { ...full.material, type: null },
      productionResourcesAndTools: [
        {
          ...full.productionResourcesAndTools[0],
          itemNumber: null,
          group: null,
          quantity: null,
          quantityUnit: null,
        },
      ],
      split: null,
      sequenceNumber: 10,
      erpContextId: null,
      currentWorkplace: null,
      scheduledDates: NO_DATES,
      alternativeWorkplaceIds: [],
      materialCharacteristics: [],
      userFields: [],
      targetMachineCycleTime: null,
      unitsPerMachineCycle: null,
      manufacturingVariants: [],
      requiredTools: [],
      requiredSkills: { setup: [], processing: [] },
      operationPhaseId: 'RELEASED',
      workplaceGroupId: null,
      targetProcessingTime: 25000,
    });
    assert.equal(response.headers.location, absolute(`${BASE}/${properties.id}`));
    const wrong = await t().request({
      method: 'POST',
      url: BASE,
      body: { ...full, number: '0020', targetProcessingTime: 24000 },
    });
    assert.equal(wrong.statusCode, 400);
    assert.equal(json(wrong).code, 'VALIDATION_FAILED');
    assert.match(json(wrong).message, /targetProcessingTime/);
  });

  test('GET with embed=productionOrder,workplace embeds both; unknown embed is 400', async () => {
    const workplaceId = await createWorkplace(t(), 'EMB-WP');
    const id = await createOperation(t(), 'EMB-10', { workplaceId });
    const body = await getOperation(t(), id, '?embed=productionOrder,workplace,');
    assert.equal(body._embedded.productionOrder.properties.number, 'EMB-10-PO');
    assert.equal(body._embedded.workplace.properties.id, workplaceId);
    assert.deepEqual(body._links.workplace, get(`/api/v2/workplaces/${workplaceId}`, true));
    const list = json(await t().request({ url: `${BASE}?workplaceId=${workplaceId}&embed=workplace` }));
    assert.equal(list._embedded.operations[0]._embedded.workplace.properties.id, workplaceId);
    const bad = await t().request({ url: `${BASE}/${id}?embed=operations` });
    assert.equal(bad.statusCode, 400);
    assert.equal(json(bad).code, 'UNKNOWN_EMBED');
  });

  test('the SDK embeds: workplaces, capacity groups, phase, specification, results, sub-resources', async () => {
    const workplaceId = await createWorkplace(t(), 'SDK-WP');
    const id = await createOperation(t(), 'SDK-10', {
      workplaceId,
      targetQuantity: 10,
      components: [{ materialNumber: 'C-1' }],
      userFields: [{ position: 1, value: 'one' }],
      alternativeWorkplaceIds: [workplaceId],
      productionResourcesAndTools: [{ identifier: 'T-1' }, { identifier: 'T-2' }],
      requiredSkills: { processing: [{ skillId: 'S-1' }] },
    });
    const group = json(await t().request({ url: `/api/v2/workplaces/${workplaceId}` })).properties
      .capacityGroupId;
    const names = [
      'plannedWorkplace',
      'targetWorkplace',
      'plannedCapacityGroup',
      'targetCapacityGroup',
      'operationPhase',
      'specification',
      'planningResult',
      'forecastResults',
      'components',
      'userFields',
      'alternativeWorkplaces',
      'productionResourcesAndTools',
      'scheduledDates',
      'requiredSkills',
      'manufacturingVariants',
    ];
    // No forecast result yet: that embed is left out.
    const put = await t().request({
      method: 'PUT',
      url: `${BASE}/${id}/planningResult`,
      body: { workplaceId, startDate: '2030-01-01T06:00:00.000Z', endDate: '2030-01-01T07:00:00.000Z' },
    });
    assert.equal(put.statusCode, 201, put.body);
    const body = await getOperation(t(), id, `?embed=${names.join(',')}`);
    const embedded = body._embedded;
    assert.deepEqual(Object.keys(embedded).sort(), names.filter((name) => name !== 'forecastResults').sort());
    assert.equal(embedded.plannedWorkplace.properties.id, workplaceId);
    assert.equal(embedded.targetWorkplace.properties.id, workplaceId);
    assert.equal(embedded.plannedCapacityGroup.properties.id, group);
    assert.equal(embedded.targetCapacityGroup.properties.id, group);
    assert.equal(embedded.operationPhase.properties.id, 'RELEASED');
    assert.equal(embedded.specification.properties.targetQuantity, 10);
    assert.equal(embedded.specification.properties.targetCapacityGroup.id, group);
    assert.equal(embedded.planningResult.properties.workplaceId, workplaceId);
    assert.deepEqual(embedded.components.properties.elements, [
      { material: { number: 'C-1', description: null, type: null }, quantity: null, quantityUnit: null },
    ]);
    assert.deepEqual(embedded.userFields.properties.elements, [{ value: 'one', position: 1 }]);
    assert.equal(
      embedded.alternativeWorkplaces._embedded.alternativeWorkplaces[0].properties.id,
      workplaceId,
    );
    // Each embedded sub-resource is what its own GET answers.
    for (const name of [
      'productionResourcesAndTools',
      'scheduledDates',
      'requiredSkills',
      'manufacturingVariants',
    ])
      assert.deepEqual(embedded[name], json(await t().request({ url: `${BASE}/${id}/${name}` })), name);
    assert.equal(embedded.productionResourcesAndTools.pagination.total, 2);

    // A page embeds them per operation, and links the plans and the list with one embed each.
    const page = json(
      await t().request({ url: `${BASE}?workplaceId=${workplaceId}&embed=components,planningResults` }),
    );
    assert.deepEqual(page._embedded.operations[0]._embedded.components, embedded.components);
    assert.deepEqual(page._embedded.operations[0]._embedded.planningResults, embedded.planningResult);
    assert.deepEqual(page._links.planningResults, get('/api/v2/operations/planningResults'));
    assert.deepEqual(page._links.planningScenarios, get('/api/v2/operations/planningScenarios'));
    assert.deepEqual(page._links.operationsWithComponents, get('/api/v2/operations?embed=components'));
    assert.deepEqual(page._links.searchOperationsWithSpecification, {
      href: absolute('/api/v2/operations/search?embed=specification'),
      method: 'POST',
      embeddable: false,
    });
    for (const [rel, link] of Object.entries(page._links) as [
      string,
      { href: string; method: 'GET' | 'POST' },
    ][]) {
      const url = link.href.replace('http://localhost:80', '');
      const answer = await t().request({
        method: link.method,
        url,
        body: link.method === 'POST' ? {} : undefined,
      });
      assert.equal(answer.statusCode, rel === 'createOperation' ? 400 : 200, `${rel}: ${answer.body}`);
    }
    const results = json(
      await t().request({ url: '/api/v2/operations/planningResults?startDate=2030-01-01T00:00:00Z' }),
    );
    assert.deepEqual(
      results._embedded.planningResults.map(
        (item: { properties: { operationId: string } }) => item.properties.operationId,
      ),
      [id],
    );
    assert.deepEqual(results._embedded.planningResults[0]._links.updatePlanningResult, {
      href: absolute(`${BASE}/${id}/planningResult`),
      method: 'PUT',
      embeddable: false,
    });
    const none = json(
      await t().request({ url: '/api/v2/operations/planningResults?endDate=2029-01-01T00:00:00Z' }),
    );
    assert.equal(none.pagination.total, 0);
  });

  test('400s on create and replace; 404s for unknown and malformed ids', async () => {
    const id = await createOperation(t(), 'ERR-10');
    const { productionOrderId } = (await getOperation(t(), id)).properties;
    const cases: [string, string, unknown, string][] = [
      [
        'POST',
        BASE,
        { productionOrderId: '00000000-0000-7000-8000-000000000000', number: '1' },
        'INVALID_REFERENCE',
      ],
      [
        'POST',
        BASE,
        { productionOrderId, number: '2', workplaceGroupId: '00000000-0000-7000-8000-000000000000' },
        'INVALID_REFERENCE',
      ],
      [
        'POST',
        BASE,
        {
          productionOrderId,
          number: '3',
          productionResourcesAndTools: [{ identifier: 'T', toolId: '00000000-0000-7000-8000-000000000000' }],
        },
        'INVALID_REFERENCE',
      ],
      ['POST', BASE, { productionOrderId, number: 'ERR-10' }, 'ALREADY_EXISTS'],
      ['POST', BASE, { productionOrderId }, 'VALIDATION_FAILED'],
      ['POST', BASE, { productionOrderId, number: '4', operationPhaseId: 'SETUP' }, 'UNKNOWN_FIELD'],
      ['POST', BASE, { productionOrderId, number: '5', targetSetupTime: 1.5 }, 'VALIDATION_FAILED'],
      [
        'POST',
        BASE,
        {
          productionOrderId,
          number: '6',
          startDate: '2030-01-02T00:00:00Z',
          endDate: '2030-01-01T00:00:00Z',
        },
        'VALIDATION_FAILED',
      ],
      [
        'PUT',
        `${BASE}/${id}`,
        { id: '00000000-0000-7000-8000-000000000000', productionOrderId, number: 'ERR-10' },
        'ID_MISMATCH',
      ],
      ['GET', `${BASE}?operationPhaseId=RUNNING`, undefined, 'VALIDATION_FAILED'],
      ['GET', `${BASE}?limit=101`, undefined, 'VALIDATION_FAILED'],
    ];
    for (const [method, url, body, code] of cases) {
      const response = await t().request({ method: method as 'POST', url, body });
      assert.equal(response.statusCode, 400, `${method} ${url} ${JSON.stringify(body)}: ${response.body}`);
      assert.equal(json(response).code, code, `${method} ${url} ${JSON.stringify(body)}`);
    }
    for (const missing of ['00000000-0000-7000-8000-000000000000', 'nope']) {
      for (const [method, url, body] of [
        ['GET', `${BASE}/${missing}`, undefined],
        ['PUT', `${BASE}/${missing}`, { productionOrderId, number: 'X' }],
        ['DELETE', `${BASE}/${missing}`, undefined],
        ['POST', `${BASE}/${missing}/DISPATCHED`, undefined],
        ['GET', `${BASE}/${missing}/recordedOperationPhases`, undefined],
        ['POST', `${BASE}/${id}/${missing}`, undefined],
        ['GET', `${BASE}/${id}/recordedOperationPhases/${missing}`, undefined],
      ] as const) {
        const response = await t().request({ method, url, body });
        assert.equal(response.statusCode, 404, `${method} ${url}`);
        assert.equal(json(response).code, 'NOT_FOUND');
      }
    }
  });

  test('PUT emits OPERATION_UPDATED with changedProperties; an unchanged PUT emits nothing', async () => {
    const id = await createOperation(t(), 'PUT-10');
    const before = await getOperation(t(), id);
    const { productionOrderId } = before.properties;
    const same = await t().request({
      method: 'PUT',
      url: `${BASE}/${id}`,
      body: { id, productionOrderId, number: 'PUT-10' },
    });
    assert.equal(same.statusCode, 200, same.body);
    assert.deepEqual(json(same), before);
    assert.equal((await eventsOf(t(), id)).length, 2);

    const changed = await t().request({
      method: 'PUT',
      url: `${BASE}/${id}`,
      body: {
        productionOrderId,
        number: 'PUT-10',
        targetQuantity: 3,
        targetTimePerUnit: 100,
        components: [{ materialNumber: 'C' }],
      },
    });
    assert.equal(changed.statusCode, 200, changed.body);
    assert.equal(json(changed).properties.targetProcessingTime, 300);
    assert.equal(json(changed).properties.sequence, 1, 'a missing sequence keeps the position');
    const [updated, condensed, ...rest] = (await eventsOf(t(), id)).slice(2);
    assert.equal(rest.length, 0);
    assert.equal(updated?.eventType, 'OPERATION_UPDATED');
    assert.equal(updated?.objectType, 'OPERATION');
    assert.deepEqual(updated?.data.changedProperties, [
      'targetQuantity',
      'targetTimePerUnit',
      'components',
      'targetProcessingTime',
    ]);
    assert.deepEqual(updated?.data.components, [
      { materialNumber: 'C', description: null, quantity: null, quantityUnit: null },
    ]);
    assert.deepEqual(condensed?.data, { changeType: 'UPDATED' });
  });

  test('an unchanged PUT with components and tools emits nothing (jsonb key order is no change)', async () => {
    const fields = {
      number: 'PUT-20',
      components: [{ materialNumber: 'C', description: 'd', quantity: 1, quantityUnit: 'pc' }],
      productionResourcesAndTools: [{ type: 'JIG', identifier: 'T1', description: 'x' }],
    };
    const id = await createOperation(t(), 'PUT-20', fields);
    const { productionOrderId } = (await getOperation(t(), id)).properties;
    const same = await t().request({
      method: 'PUT',
      url: `${BASE}/${id}`,
      body: { productionOrderId, ...fields },
    });
    assert.equal(same.statusCode, 200, same.body);
    assert.deepEqual(
      (await eventsOf(t(), id)).map((event) => event.eventType),
      ['OPERATION_CREATED', 'RESOURCES_UPDATED'],
    );
  });

  test('DELETE: 204, OPERATION_DELETED; the order stays', async () => {
    const id = await createOperation(t(), 'DEL-10');
    const { productionOrderId } = (await getOperation(t(), id)).properties;
    const response = await t().request({ method: 'DELETE', url: `${BASE}/${id}` });
    assert.equal(response.statusCode, 204);
    assert.equal((await t().request({ url: `${BASE}/${id}` })).statusCode, 404);
    assert.equal((await t().request({ url: `${ORDERS}/${productionOrderId}` })).statusCode, 200);
    const events = (await eventsOf(t(), id)).slice(2);
    assert.deepEqual(
      events.map((event) => [
        event.eventType,
        event.objectType,
        event.data.operationId ?? event.data.changeType,
      ]),
      [
        ['OPERATION_DELETED', 'OPERATION', id],
        ['RESOURCES_UPDATED', 'OPERATION', 'DELETED'],
      ],
    );
  });

  test('operations created at the same time in one order get one position each', async () => {
    const first = await createOperation(t(), 'SEQ-10');
    const { productionOrderId } = (await getOperation(t(), first)).properties;
    const created = await Promise.all(
      ['20', '30', '40', '50', '60'].map((number) =>
        t().request({ method: 'POST', url: BASE, body: { productionOrderId, number: `SEQ-${number}` } }),
      ),
    );
    const sequences = created.map((response) => json(response).properties.sequence).sort();
    assert.deepEqual(sequences, [2, 3, 4, 5, 6]);
  });

  test('phase transitions: every (from, to) pair as docs/api.md "States and transitions" says, action links match', async () => {
    const workplaceId = await createWorkplace(t(), 'TRANS-WP');
    let n = 0;
    /** A new operation (with a planned workplace) brought to `phase`. */
    async function operationIn(phase: Phase) {
      const id = await createOperation(t(), `TR-${n++}`, { workplaceId });
      for (const step of PATH_TO[phase]) {
        const response = await changePhase(t(), id, step);
        assert.equal(response.statusCode, 200, response.body);
      }
      return id;
    }
    for (const from of PHASES) {
      const id = await operationIn(from);
      const body = await getOperation(t(), id);
      assert.equal(body.properties.operationPhaseId, from);
      const actions = Object.keys(body._links).filter((rel) => rel.startsWith('changeOperationPhaseTo'));
      assert.deepEqual(actions.sort(), Object.keys(phaseActions(id, from)).sort(), from);
      for (const to of PHASES) {
        const allowed = allowedFrom(from).includes(to);
        if (allowed) {
          const other = await operationIn(from);
          const response = await changePhase(t(), other, to);
          assert.equal(response.statusCode, 200, `${from} -> ${to}: ${response.body}`);
          assert.equal(json(response).properties.operationPhaseId, to);
        } else {
          const response = await changePhase(t(), id, to);
          assert.equal(response.statusCode, 400, `${from} -> ${to}`);
          assert.equal(json(response).code, 'INVALID_TRANSITION');
          const list = allowedFrom(from).length === 0 ? '-' : allowedFrom(from).join(', ');
          assert.match(json(response).message, new RegExp(`from ${from} to ${to}; allowed: ${list}\\.`));
        }
      }
      assert.equal(
        (await getOperation(t(), id)).properties.operationPhaseId,
        from,
        'refusals change nothing',
      );
    }
  });

  test('phase command: workplace needed for SETUP, taken from the body, events and history', async () => {
    const id = await createOperation(t(), 'PH-10');
    const refused = await changePhase(t(), id, 'SETUP', {});
    assert.equal(refused.statusCode, 400);
    assert.equal(json(refused).code, 'VALIDATION_FAILED');
    assert.match(json(refused).message, /workplaceId/);
    const badRef = await changePhase(t(), id, 'SETUP', {
      workplaceId: '00000000-0000-7000-8000-000000000000',
    });
    assert.equal(json(badRef).code, 'INVALID_REFERENCE');
    const unknownField = await changePhase(t(), id, 'DISPATCHED', { reason: 'x' });
    assert.equal(json(unknownField).code, 'UNKNOWN_FIELD');

    const dispatched = await changePhase(t(), id, 'DISPATCHED');
    assert.equal(dispatched.statusCode, 200, 'no workplace needed, no body needed');
    const workplaceId = await createWorkplace(t(), 'PH-WP');
    const staffMemberId = await createStaffMember(t(), 'PH-STAFF');
    const setup = await changePhase(t(), id, 'SETUP', { workplaceId, staffMemberId });
    assert.equal(setup.statusCode, 200, setup.body);
    assert.equal(json(setup).properties.workplaceId, workplaceId);
    assert.deepEqual(
      Object.keys(phaseActions(id, 'SETUP')).sort(),
      Object.keys(json(setup)._links)
        .filter((rel) => rel.startsWith('change'))
        .sort(),
    );
    const processing = await changePhase(t(), id, 'PROCESSING');
    assert.equal(processing.statusCode, 200, 'the workplace is now the planned one');

    const events = (await eventsOf(t(), id)).slice(2);
    assert.deepEqual(
      events.map(({ eventType, objectType, data }) => ({ eventType, objectType, data })),
      [
        {
          eventType: 'OPERATION_PHASE_CHANGED',
          objectType: 'OPERATION',
          data: {
            operationId: id,
            currentOperationPhase: 'DISPATCHED',
            previousOperationPhase: 'RELEASED',
            workplaceId: null,
            staffMemberId: null,
          },
        },
        {
          eventType: 'OPERATION_PHASE_CHANGED',
          objectType: 'OPERATION',
          data: {
            operationId: id,
            currentOperationPhase: 'SETUP',
            previousOperationPhase: 'DISPATCHED',
            workplaceId,
            staffMemberId,
          },
        },
        {
          eventType: 'OPERATION_UPDATED',
          objectType: 'OPERATION',
          data: { ...events[2]?.data, workplaceId, changedProperties: ['workplaceId'] },
        },
        { eventType: 'RESOURCES_UPDATED', objectType: 'OPERATION', data: { changeType: 'UPDATED' } },
        {
          eventType: 'OPERATION_PHASE_CHANGED',
          objectType: 'OPERATION',
          data: {
            operationId: id,
            currentOperationPhase: 'PROCESSING',
            previousOperationPhase: 'SETUP',
            workplaceId,
            staffMemberId: null,
          },
        },
      ],
    );

    // History, newest first; each record ends where the next begins.
    const history = json(await t().request({ url: `${BASE}/${id}/recordedOperationPhases` }));
    const records = history._embedded.recordedOperationPhases.map(
      (item: { properties: Record<string, unknown> }) => item.properties,
    );
    assert.deepEqual(
      records.map((record: Record<string, unknown>) => [
        record.operationPhaseId,
        record.workplaceId,
        record.staffMemberId,
      ]),
      [
        ['PROCESSING', workplaceId, null],
        ['SETUP', workplaceId, staffMemberId],
        ['DISPATCHED', null, null],
        ['RELEASED', null, null],
      ],
    );
    assert.equal(records[0].endDate, null);
    for (let i = 1; i < records.length; i++) assert.equal(records[i].endDate, records[i - 1].startDate);
    assert.equal(history.pagination.offset, null);
    const first = history._embedded.recordedOperationPhases[0];
    assert.deepEqual(json(await t().request({ url: first._links.self.href })), first);
    const page = json(await t().request({ url: `${BASE}/${id}/recordedOperationPhases?limit=3` }));
    const next = json(await t().request({ url: page._links.next.href }));
    assert.deepEqual(
      next._embedded.recordedOperationPhases.map(
        (item: { properties: { operationPhaseId: string } }) => item.properties.operationPhaseId,
      ),
      ['RELEASED'],
    );
  });

  test('GET /operations filters and POST /operations/search', async () => {
    const workplaceId = await createWorkplace(t(), 'FLT-OP-WP');
    const order = json(
      await t().request({
        method: 'POST',
        url: ORDERS,
        body: {
          number: 'FLT-OP-PO',
          operations: [
            {
              number: 'A',
              workplaceId,
              material: { number: 'FM-1' },
              startDate: '2032-01-01T00:00:00Z',
              endDate: '2032-01-02T00:00:00Z',
            },
            {
              number: 'B',
              material: { number: 'FM-2' },
              startDate: '2032-02-01T00:00:00Z',
              endDate: '2032-02-02T00:00:00Z',
            },
            { number: 'C', workplaceId },
          ],
        },
      }),
    );
    const orderId = order.properties.id;
    const [a] = order._embedded.operations;
    assert.equal((await changePhase(t(), a.properties.id, 'DISPATCHED')).statusCode, 200);
    const list = async (query: string) => {
      const response = await t().request({ url: `${BASE}?productionOrderId=${orderId}${query}` });
      assert.equal(response.statusCode, 200, response.body);
      return numbersOf(json(response)).sort();
    };
    assert.deepEqual(await list(''), ['A', 'B', 'C']);
    assert.deepEqual(await list(`&workplaceId=${workplaceId}`), ['A', 'C']);
    assert.deepEqual(await list('&operationPhaseId=DISPATCHED'), ['A']);
    assert.deepEqual(await list('&startDate=2032-01-15T00:00:00Z'), ['B', 'C']);
    assert.deepEqual(await list('&endDate=2032-01-15T00:00:00Z'), ['A', 'C']);

    const search = async (body: Record<string, unknown>, scopes?: string[]) => {
      const response = await t().request({ method: 'POST', url: `${BASE}/search`, body, scopes });
      assert.equal(response.statusCode, 200, response.body);
      return json(response);
    };
    const found = await search({ productionOrderNumbers: ['FLT-OP-PO'], materialNumbers: ['FM-1', 'FM-2'] }, [
      'read',
    ]);
    assert.deepEqual(numbersOf(found).sort(), ['A', 'B']);
    assert.equal(found._links.self.method, 'POST');
    assert.equal(found._links.createOperation, undefined);
    assert.deepEqual(
      numbersOf(
        await search({
          productionOrderIds: [orderId],
          operationPhaseIds: ['RELEASED'],
          workplaceIds: [workplaceId],
        }),
      ),
      ['C'],
    );
    assert.deepEqual(
      numbersOf(
        await search({
          productionOrderIds: [orderId],
          startDate: '2032-01-15T00:00:00Z',
          endDate: '2032-01-20T00:00:00Z',
        }),
      ),
      ['C'],
    );
    const bad = await t().request({
      method: 'POST',
      url: `${BASE}/search`,
      body: { operationPhaseIds: ['RUNNING'] },
    });
    assert.equal(bad.statusCode, 400);
  });

  test('a workplace referenced by an operation cannot be deleted: 400 RESOURCE_IN_USE', async () => {
    const workplaceId = await createWorkplace(t(), 'INUSE-WP');
    const id = await createOperation(t(), 'INUSE-10', { workplaceId });
    const response = await t().request({ method: 'DELETE', url: `/api/v2/workplaces/${workplaceId}` });
    assert.equal(response.statusCode, 400);
    assert.equal(json(response).code, 'RESOURCE_IN_USE');
    assert.equal((await getOperation(t(), id)).properties.workplaceId, workplaceId);
  });

  test('read-only token: 403 on every write, no create link; reading and searching allowed', async () => {
    const id = await createOperation(t(), 'RO-10');
    const { productionOrderId } = (await getOperation(t(), id)).properties;
    for (const [method, url, body] of [
      ['POST', BASE, { productionOrderId, number: 'RO-20' }],
      ['PUT', `${BASE}/${id}`, { productionOrderId, number: 'RO-10' }],
      ['DELETE', `${BASE}/${id}`, undefined],
      ['POST', `${BASE}/${id}/DISPATCHED`, undefined],
    ] as const) {
      const response = await t().request({ method, url, body, scopes: ['read'] });
      assert.equal(response.statusCode, 403, `${method} ${url}`);
      assert.equal(json(response).code, 'INSUFFICIENT_SCOPE');
    }
    const list = json(await t().request({ url: BASE, scopes: ['read'] }));
    assert.equal(list._links.createOperation, undefined);
    for (const item of list._embedded.operations)
      assert.deepEqual(
        Object.values(item._links).filter((l) => (l as { method: string }).method !== 'GET'),
        [],
      );
    const writer = json(await t().request({ url: BASE }));
    assert.deepEqual(writer._links.createOperation, {
      href: absolute(BASE),
      method: 'POST',
      embeddable: false,
    });
    assert.equal((await getOperation(t(), id)).properties.operationPhaseId, 'RELEASED');
  });
});
