// Machines and corrections (docs/resources/machines.md, docs/resources/workplaces.md
// "Corrections"): a machine state moves the workplace's operating state with its event; counts
// book on the operation in PROCESSING or on the workplace; quantities with quality details book
// their quality type with the detail; a correction splits the history and the summary follows;
// bad input is 400 naming the field with nothing stored.
import assert from 'node:assert/strict';
import { before, test } from 'node:test';
import { createOperation, createWorkplace, describeEachBackend, json, type TestApp } from '../support/app.ts';
import { eventsOf } from '../support/events.ts';

const API = '/api/v3';
const MALFUNCTION = '7C4E2A9B1D3F4B5A8E6C0D2F4A6B8C1E';
const SETUP_DETAIL = '18B9C0BC3D5F49268C0CB801651FB119';
const SCRAP_SURFACE = '2121dab74e2844e9a890d19c861b5ac3';
const REWORK_GEOMETRY = '874ba6d8d5b44ac4a727b7393328eec3';
const MIN = 60_000;
const codeOf = (state: unknown) => (state as { code?: string } | undefined)?.code;

describeEachBackend('machines', (t) => {
  let workplaceId: string;
  const post = (url: string, body?: unknown) =>
    t().request({ method: 'POST', url: `${API}${url}`, ...(body === undefined ? {} : { body }) });
  const get = async (url: string) => {
    const response = await t().request({ url: `${API}${url}` });
    assert.equal(response.statusCode, 200, response.body);
    return json(response);
  };
  const operatingCode = async (id: string) => (await get(`/workplaces/${id}`)).properties.operatingState.code;
  const count = async (app: TestApp, sql: string, params: unknown[]) =>
    Number((await app.app.db.query<{ n: number }>(sql, params))[0]?.n);

  before(async () => {
    workplaceId = await createWorkplace(t(), 'MA-1');
  });

  test('every machine workplace has one machine, with its id; a manual one has none', async () => {
    const machine = await get(`/machines/${workplaceId}`);
    assert.deepEqual(machine.properties, {
      id: workplaceId,
      number: 'MA-1',
      description: null,
      erpContextId: null,
      workplaceId,
      machineStateId: 'DOWNTIME',
    });
    const list = await get('/machines?machineNumber=MA-1&embed=workplace,description,erpContext');
    assert.equal(list._embedded.machines.length, 1);
    assert.equal(list._embedded.machines[0]._embedded.workplace.properties.id, workplaceId);
    assert.deepEqual((await get(`/workplaces/${workplaceId}/machine`)).properties, machine.properties);

    const group = json(await t().request({ url: `${API}/workplaces/${workplaceId}` })).properties
      .capacityGroupId;
    const manual = await t().request({
      method: 'POST',
      url: `${API}/workplaces`,
      body: { number: 'MA-MANUAL', capacityGroupId: group, workplaceType: 'MANUAL_WORKPLACE' },
    });
    const manualId = json(manual).properties.id;
    assert.equal((await t().request({ url: `${API}/machines/${manualId}` })).statusCode, 404);
    assert.equal((await t().request({ url: `${API}/workplaces/${manualId}/machine` })).statusCode, 404);
  });

  test('a machine state sets the mapped operating state with its event and keeps the details', async () => {
    const response = await post(`/machines/${workplaceId}/DOWNTIME`, {
      machineStateDetailIds: [MALFUNCTION],
      remark: 'spindle',
    });
    assert.equal(response.statusCode, 200, response.body);
    assert.equal(json(response).properties.machineStateId, 'DOWNTIME');
    assert.equal(await operatingCode(workplaceId), '110');
    const events = await eventsOf(t(), workplaceId, 'WORKPLACE_OPERATING_STATE_CHANGED');
    assert.equal(codeOf(events.at(-1)?.data.currentOperatingState), '110');
    const history = await get(`/workplaces/${workplaceId}/machine/recordedMachineStateDetails`);
    const newest = history._embedded.recordedMachineStateDetails[0].properties;
    assert.deepEqual(
      [newest.code, newest.machineStateDetailIds, newest.remark],
      ['110', [MALFUNCTION], 'spindle'],
    );
    assert.equal(newest.timePeriod.endDate, null);

    const setup = await post(`/workplaces/${workplaceId}/machine/SETUP`, {
      machineStateDetailIds: [SETUP_DETAIL],
    });
    assert.equal(setup.statusCode, 200, setup.body);
    assert.equal(json(setup).properties.machineStateId, 'SETUP');
    assert.equal(await operatingCode(workplaceId), '020');
    const production = await post(`/workplaces/${workplaceId}/machine/PRODUCTION`);
    assert.equal(json(production).properties.machineStateId, 'PRODUCTION');
    assert.equal(await operatingCode(workplaceId), '000');
  });

  test('bad machine states: 400 naming the field or 404, nothing changed', async () => {
    const before = (await eventsOf(t(), workplaceId)).length;
    const foreign = await post(`/machines/${workplaceId}/PRODUCTION`, {
      machineStateDetailIds: [MALFUNCTION],
    });
    assert.equal(foreign.statusCode, 400, foreign.body);
    assert.ok(foreign.body.includes('machineStateDetailIds'), foreign.body);
    const unknown = await post(`/machines/${workplaceId}/DOWNTIME`, { machineStateDetailIds: ['nope'] });
    assert.equal(unknown.statusCode, 400);
    assert.ok(unknown.body.includes('machineStateDetailIds'));
    assert.equal((await post(`/machines/${workplaceId}/RUNNING`)).statusCode, 404);
    assert.equal(await operatingCode(workplaceId), '000');
    assert.equal((await eventsOf(t(), workplaceId)).length, before);
  });

  test('counts book on the workplace when no operation runs, on the operation in PROCESSING else', async () => {
    const onWorkplace = await post(`/machines/${workplaceId}/counterIncrease`, { count: 3 });
    assert.equal(onWorkplace.statusCode, 200, onWorkplace.body);
    const booked = await t().app.db.query<{ quantity: number; quantity_type: string }>(
      'SELECT quantity, quantity_type FROM recorded_workplace_output_quantities WHERE workplace_id = $1',
      [workplaceId],
    );
    assert.deepEqual(
      booked.map((row) => [Number(row.quantity), row.quantity_type]),
      [[3, 'UNCATEGORIZED']],
    );
    const workplaceEvents = await eventsOf(t(), workplaceId, 'WORKPLACE_OUTPUT_QUANTITY_RECORDED');
    assert.equal(workplaceEvents.at(-1)?.data.quantity, 3);

    const operationId = await createOperation(t(), 'MA-OP1', { workplaceId });
    for (const phase of ['DISPATCHED', 'PROCESSING'])
      assert.equal((await post(`/operations/${operationId}/${phase}`)).statusCode, 200);
    assert.equal((await post(`/machines/${workplaceId}/strokes`, { strokes: 2 })).statusCode, 200);
    const quality = await post(`/machines/${workplaceId}/quantitiesWithQualityDetails`, {
      quantity: 1,
      qualityDetailId: SCRAP_SURFACE,
    });
    assert.equal(quality.statusCode, 200, quality.body);
    const onOperation = await t().app.db.query<{
      quantity: number;
      quantity_type: string;
      quality_detail_id: string;
    }>(
      'SELECT quantity, quantity_type, quality_detail_id FROM recorded_output_quantities WHERE operation_id = $1 ORDER BY recorded_at, id',
      [operationId],
    );
    assert.deepEqual(
      onOperation.map((row) => [Number(row.quantity), row.quantity_type, row.quality_detail_id]),
      [
        [2, 'UNCATEGORIZED', null],
        [1, 'SCRAP', SCRAP_SURFACE],
      ],
    );
    const events = await eventsOf(t(), operationId, 'OPERATION_OUTPUT_QUANTITY_RECORDED');
    assert.deepEqual(
      events.map((event) => event.data.qualityDetailId),
      [null, SCRAP_SURFACE],
    );

    // A quantity with a quality detail on the operation itself.
    const created = await post(`/operations/${operationId}/qualityDetails`, {
      quantity: 4,
      qualityDetailId: REWORK_GEOMETRY,
      remark: 'burr',
    });
    assert.equal(created.statusCode, 201, created.body);
    const record = json(created);
    assert.equal(created.headers.location, record._links.self.href);
    assert.deepEqual(
      [record.properties.quantityType, record.properties.qualityDetailId, record.properties.remark],
      ['REWORK', REWORK_GEOMETRY, 'burr'],
    );
    const read = await t().request({ url: created.headers.location as string });
    assert.equal(json(read).properties.quantity, 4);

    const storedBefore = await count(t(), 'SELECT count(*)::int AS n FROM recorded_output_quantities', []);
    for (const [url, body, field] of [
      [
        `/operations/${operationId}/qualityDetails`,
        { quantity: 1, qualityDetailId: 'nope' },
        'qualityDetailId',
      ],
      [
        `/operations/${operationId}/qualityDetails`,
        { quantity: 0, qualityDetailId: SCRAP_SURFACE },
        'quantity',
      ],
      [`/machines/${workplaceId}/counterIncrease`, { count: 0 }, 'count'],
      [
        `/machines/${workplaceId}/quantitiesWithQualityDetails`,
        { quantity: 1, qualityDetailId: 'x' },
        'qualityDetailId',
      ],
    ] as const) {
      const response = await post(url, body);
      assert.equal(response.statusCode, 400, `${url}: ${response.body}`);
      assert.ok(response.body.includes(field), `${url} names ${field}: ${response.body}`);
    }
    assert.equal(
      await count(t(), 'SELECT count(*)::int AS n FROM recorded_output_quantities', []),
      storedBefore,
    );
  });
});

describeEachBackend('corrections', (t) => {
  const post = (url: string, body: unknown) => t().request({ method: 'POST', url: `${API}${url}`, body });
  const get = async (url: string) => {
    const response = await t().request({ url: `${API}${url}` });
    assert.equal(response.statusCode, 200, response.body);
    return json(response);
  };
  const history = async (workplaceId: string) =>
    (await get(`/workplaces/${workplaceId}/recordedOperatingStates`))._embedded.recordedOperatingStates
      .map((item: { properties: Record<string, any> }) => item.properties)
      .map((p: Record<string, any>) => [p.operatingState.code, p.startDate, p.endDate])
      .reverse();
  const iso = (ms: number) => new Date(ms).toISOString();

  test('a correction splits the period it falls inside of; the summary follows', async () => {
    const workplaceId = await createWorkplace(t(), 'CO-1');
    const base = Math.floor(Date.now() / MIN) * MIN - 180 * MIN;
    const first = await post(`/workplaces/${workplaceId}/recordedOperatingStates/update`, {
      operatingStateId: '000',
      startDate: iso(base),
      endDate: iso(base + 120 * MIN),
    });
    assert.equal(first.statusCode, 200, first.body);
    const second = await post(`/workplaces/${workplaceId}/recordedOperatingStates/update`, {
      operatingStateId: '110',
      startDate: iso(base + 30 * MIN),
      endDate: iso(base + 60 * MIN),
      remark: 'found in the log',
    });
    assert.equal(second.statusCode, 200, second.body);
    const records = await history(workplaceId);
    assert.deepEqual(records.slice(0, 3), [
      ['000', iso(base), iso(base + 30 * MIN)],
      ['110', iso(base + 30 * MIN), iso(base + 60 * MIN)],
      ['000', iso(base + 60 * MIN), iso(base + 120 * MIN)],
    ]);
    assert.equal(records[3][0], '999', 'the record from the creation on stays');

    const window = new URLSearchParams({ startDate: iso(base), endDate: iso(base + 120 * MIN) });
    const summary = await get(`/workplaces/${workplaceId}/operatingStateSummary?${window}`);
    const durations = Object.fromEntries(
      summary.properties.elements.map((e: { operatingState: { code: string }; duration: number }) => [
        e.operatingState.code,
        e.duration,
      ]),
    );
    assert.equal(durations['000'], 90 * MIN);
    assert.equal(durations['110'], 30 * MIN);

    const events = await eventsOf(t(), workplaceId, 'WORKPLACE_RECORDED_OPERATING_STATES_CORRECTED');
    assert.equal(events.length, 2);
    assert.equal(events[1]?.data.remark, 'found in the log');
    assert.equal(codeOf(events[1]?.data.operatingState), '110');
  });

  test('a correction reaching now sets the current operating state; the machine one keeps its details', async () => {
    const workplaceId = await createWorkplace(t(), 'CO-2');
    const [[, createdAt]] = await history(workplaceId);
    const response = await post(`/workplaces/${workplaceId}/machine/recordedMachineStateDetails/update`, {
      machineStateDetailIds: [MALFUNCTION],
      startDate: createdAt,
    });
    assert.equal(response.statusCode, 200, response.body);
    assert.equal(json(response).properties.operatingState.code, '110');
    assert.deepEqual(await history(workplaceId), [['110', createdAt, null]]);
    const changed = await eventsOf(t(), workplaceId, 'WORKPLACE_OPERATING_STATE_CHANGED');
    assert.equal(codeOf(changed.at(-1)?.data.currentOperatingState), '110');
    const details = await get(`/workplaces/${workplaceId}/machine/recordedMachineStateDetails`);
    assert.deepEqual(details._embedded.recordedMachineStateDetails[0].properties.machineStateDetailIds, [
      MALFUNCTION,
    ]);

    // On an operation: its workplace's history.
    const operationId = await createOperation(t(), 'CO-OP', { workplaceId });
    const onOperation = await post(`/operations/${operationId}/recordedOperatingStates/update`, {
      operatingStateId: '000',
      startDate: createdAt,
    });
    assert.equal(onOperation.statusCode, 200, onOperation.body);
    assert.equal(json(onOperation).properties.id, operationId);
    assert.deepEqual(await history(workplaceId), [['000', createdAt, null]]);
    const corrected = await eventsOf(t(), workplaceId, 'WORKPLACE_RECORDED_OPERATING_STATES_CORRECTED');
    assert.equal(corrected.at(-1)?.data.operationId, operationId);
  });

  test('bad corrections: 400 naming the field, the history unchanged', async () => {
    const workplaceId = await createWorkplace(t(), 'CO-3');
    const before = await history(workplaceId);
    const now = Date.now();
    for (const [body, field] of [
      [{ operatingStateId: '000', startDate: iso(now - MIN), endDate: iso(now - 2 * MIN) }, 'endDate'],
      [{ operatingStateId: '000', startDate: iso(now + 60 * MIN) }, 'startDate'],
      [{ operatingStateId: 'nope', startDate: iso(now - MIN) }, 'operatingStateId'],
      [{ startDate: iso(now - MIN) }, 'operatingStateId'],
      [{ operatingStateId: '000', startDate: 'yesterday' }, 'startDate'],
    ] as const) {
      const response = await post(`/workplaces/${workplaceId}/recordedOperatingStates/update`, body);
      assert.equal(response.statusCode, 400, response.body);
      assert.ok(response.body.includes(field), `${field}: ${response.body}`);
    }
    const machine = await post(`/workplaces/${workplaceId}/machine/recordedMachineStateDetails/update`, {
      machineStateDetailIds: ['nope'],
      startDate: iso(now - MIN),
    });
    assert.equal(machine.statusCode, 400);
    assert.ok(machine.body.includes('machineStateDetailIds'));
    assert.deepEqual(await history(workplaceId), before);
    assert.equal(
      (await eventsOf(t(), workplaceId, 'WORKPLACE_RECORDED_OPERATING_STATES_CORRECTED')).length,
      0,
    );
  });
});
