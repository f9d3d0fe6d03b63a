// Commands (docs/resources/commands.md): each command type has the stored effect and the events
// of its dedicated route plus COMMAND; a refused command changes nothing else and answers its
// resultCode; bulk, async through the runner, bad input, activities, client isolation.
import assert from 'node:assert/strict';
import { before, test } from 'node:test';
import { addClient } from '../../src/auth/clients.ts';
import {
  createOperation,
  createStaffMember,
  createWorkplace,
  describeEachBackend,
  json,
  type TestApp,
} from '../support/app.ts';
import { type EventRow, eventsOf, eventsSince } from '../support/events.ts';

const API = '/api/v3';
const UUID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g;
const PRODUCTION = 'b6ec1cd6-d254-5106-99ea-43edce9543dd';
const MATERIAL_WAIT = '3d2e0b34-7640-51ba-8d4a-179431e31693';

/** POST /commands executed now (async=false), answered 201. */
async function command(t: TestApp, body: Record<string, unknown>) {
  const response = await t.request({ method: 'POST', url: `${API}/commands?async=false`, body });
  assert.equal(response.statusCode, 201, response.body);
  assert.equal(response.headers.location, json(response)._links.self.href);
  return json(response).properties;
}

async function ok(t: TestApp, method: 'POST' | 'GET', url: string, body?: unknown) {
  const response = await t.request({ method, url, body });
  assert.ok(response.statusCode < 300, `${method} ${url}: ${response.body}`);
  return response.statusCode === 204 ? {} : json(response);
}

/** Events without times, with the ids that differ between two runs replaced by their role. */
function comparable(events: EventRow[], names: Record<string, string>) {
  return JSON.parse(
    JSON.stringify(events.map(({ timestamp: _, ...event }) => event)).replace(
      UUID,
      (id) => names[id] ?? 'id',
    ),
  );
}

/** The field a 400 names (docs/api.md, "Errors": the message starts with it). */
const fieldOf = (response: { body: string }) =>
  /^Field '([^']*)'/.exec(JSON.parse(response.body).message)?.[1];

const lastSequence = async (t: TestApp) =>
  Number((await t.app.db.query<{ n: string | null }>('SELECT max(sequence) AS n FROM events'))[0]?.n ?? 0);
const storedCommands = async (t: TestApp) =>
  Number((await t.app.db.query<{ n: string }>('SELECT count(*) AS n FROM commands'))[0]?.n);

describeEachBackend('commands', (t) => {
  let workplaceId: string;
  before(async () => {
    workplaceId = await createWorkplace(t(), 'CMD-W1');
  });

  /** Two operations planned at the workplace: one for the dedicated route, one for the command. */
  const twins = async (name: string) => [
    await createOperation(t(), `${name}-R`, { workplaceId }),
    await createOperation(t(), `${name}-C`, { workplaceId }),
  ];

  test('OPERATION_PHASE: the effect and events of POST /operations/{id}/{phase}, then COMMAND', async () => {
    const [viaRoute, viaCommand] = (await twins('CMD-PH')) as [string, string];
    await ok(t(), 'POST', `${API}/operations/${viaRoute}/DISPATCHED`, {});
    const body = { type: 'OPERATION_PHASE', operationId: viaCommand, operationPhaseId: 'DISPATCHED' };
    const done = await command(t(), body);
    assert.equal(done.resultCode, 'RC_SIMPLE_SUCCESS');
    assert.equal(done.resultDetail, null);
    assert.deepEqual(done.data, body);
    assert.ok(done.timestamp && done.bookingTimestamp);

    const route = await ok(t(), 'GET', `${API}/operations/${viaRoute}`);
    const commanded = await ok(t(), 'GET', `${API}/operations/${viaCommand}`);
    assert.equal(commanded.properties.operationPhaseId, 'DISPATCHED');
    assert.equal(commanded.properties.operationPhaseId, route.properties.operationPhaseId);

    const events = await eventsOf(t(), viaCommand);
    const own = events.filter((event) => event.eventType !== 'COMMAND');
    assert.deepEqual(
      comparable(own.slice(-1), { [viaCommand]: 'operation', [workplaceId]: 'workplace' }),
      comparable((await eventsOf(t(), viaRoute)).slice(-1), {
        [viaRoute]: 'operation',
        [workplaceId]: 'workplace',
      }),
    );
    const commandEvents = await t().app.db.query<{ event_name: string; object_type: string; data: unknown }>(
      "SELECT event_name, object_type, data FROM events WHERE event_type = 'COMMAND' AND object_id = $1",
      [viaCommand],
    );
    assert.equal(commandEvents.length, 1);
    assert.equal(commandEvents[0]?.event_name, 'OPERATION_PHASE');
    assert.equal(commandEvents[0]?.object_type, 'OPERATION');
    const data = commandEvents[0]?.data;
    assert.deepEqual(typeof data === 'string' ? JSON.parse(data) : data, body);
  });

  test('OPERATION_QUANTITY and its REVISION_INSERT: the booking of POST .../recordedOutputQuantities', async () => {
    const [viaRoute, viaCommand] = (await twins('CMD-Q')) as [string, string];
    const at = '2024-03-01T08:00:00.000Z';
    await ok(t(), 'POST', `${API}/operations/${viaRoute}/recordedOutputQuantities`, {
      quantity: 4,
      quantityType: 'SCRAP',
      timestamp: at,
    });
    const revision = await command(t(), {
      type: 'OPERATION_QUANTITY_REVISION_INSERT',
      insertionTimestamp: at,
      operationQuantityCommand: { operationId: viaCommand, quantity: 4, qualityDetailId: 'SCRAP' },
    });
    assert.equal(revision.resultCode, 'RC_SIMPLE_SUCCESS');
    assert.equal(revision.bookingTimestamp, at);
    const list = async (id: string) =>
      (
        await ok(t(), 'GET', `${API}/operations/${id}/recordedOutputQuantities`)
      )._embedded.recordedOutputQuantities.map((item: { properties: Record<string, unknown> }) => {
        const { id: _, operationId: __, recordedAt: ___, ...rest } = item.properties;
        return rest;
      });
    assert.deepEqual(await list(viaCommand), await list(viaRoute));
    const names = (id: string) => ({ [id]: 'operation', [workplaceId]: 'workplace' });
    const booked = (id: string) => eventsOf(t(), id, 'OPERATION_OUTPUT_QUANTITY_RECORDED');
    assert.deepEqual(
      comparable(await booked(viaCommand), names(viaCommand)),
      comparable(await booked(viaRoute), names(viaRoute)),
    );

    const now = await command(t(), {
      type: 'OPERATION_QUANTITY',
      operationId: viaCommand,
      quantity: 2,
      qualityDetailId: 'YIELD',
    });
    assert.equal(now.resultCode, 'RC_SIMPLE_SUCCESS');
    assert.equal((await list(viaCommand)).length, 2);
  });

  test('STAFF_MEMBER_OPERATION_STATE: SIGNED_ON/SIGNED_OFF are the activities STARTED/FINISHED', async () => {
    const [opRoute, opCommand] = (await twins('CMD-SM')) as [string, string];
    const viaRoute = await createStaffMember(t(), 'CMD-SM-R');
    const viaCommand = await createStaffMember(t(), 'CMD-SM-C');
    for (const [activity, state] of [
      ['STARTED', 'SIGNED_ON'],
      ['FINISHED', 'SIGNED_OFF'],
    ] as const) {
      await ok(t(), 'POST', `${API}/staffMembers/${viaRoute}/activities`, {
        operationId: opRoute,
        workplaceId,
        activity,
      });
      const done = await command(t(), {
        type: 'STAFF_MEMBER_OPERATION_STATE',
        staffMemberId: viaCommand,
        workplaceId,
        operationId: opCommand,
        staffMemberStateId: state,
      });
      assert.equal(done.resultCode, 'RC_SIMPLE_SUCCESS');
    }
    const own = async (member: string, operation: string) =>
      comparable(
        (await eventsOf(t(), member)).filter((event) => event.eventType === 'STAFF_MEMBER_ACTIVITY_CHANGED'),
        { [member]: 'member', [operation]: 'operation', [workplaceId]: 'workplace' },
      );
    assert.deepEqual(await own(viaCommand, opCommand), await own(viaRoute, opRoute));
    const commands = await eventsOf(t(), viaCommand, 'COMMAND');
    assert.deepEqual(
      commands.map((event) => event.objectType),
      ['STAFF_MEMBER', 'STAFF_MEMBER'],
    );
  });

  test('OPERATION_PRODUCTION_STATE: the operating state of the workplace, as its route sets it', async () => {
    const routeWorkplace = await createWorkplace(t(), 'CMD-PS-R');
    const commandWorkplace = await createWorkplace(t(), 'CMD-PS-C');
    const operation = await createOperation(t(), 'CMD-PS', { workplaceId: commandWorkplace });
    await ok(t(), 'POST', `${API}/workplaces/${routeWorkplace}/operatingState/${MATERIAL_WAIT}`, {});
    const done = await command(t(), {
      type: 'OPERATION_PRODUCTION_STATE',
      operationId: operation,
      operationProductionStateId: 'DOWNTIME',
      operationProductionStateDetailIds: [MATERIAL_WAIT],
    });
    assert.equal(done.resultCode, 'RC_SIMPLE_SUCCESS');
    const state = async (id: string) =>
      (await ok(t(), 'GET', `${API}/workplaces/${id}`)).properties.operatingState.id;
    assert.equal(await state(commandWorkplace), MATERIAL_WAIT);
    const changed = (id: string) =>
      eventsOf(t(), id, 'WORKPLACE_OPERATING_STATE_CHANGED').then((events) =>
        comparable(events, { [id]: 'workplace' }),
      );
    assert.deepEqual(await changed(commandWorkplace), await changed(routeWorkplace));

    // The detail must be a state of the workplace state asked for.
    const refused = await command(t(), {
      type: 'OPERATION_PRODUCTION_STATE',
      operationId: operation,
      operationProductionStateId: 'PRODUCTION',
      operationProductionStateDetailIds: [MATERIAL_WAIT],
    });
    assert.equal(refused.resultCode, 'RC_BOOKING_FAILURE');
    assert.equal(refused.resultDetail.field, 'operationProductionStateDetailIds');
    assert.equal(await state(commandWorkplace), MATERIAL_WAIT);
    const back = await command(t(), {
      type: 'OPERATION_PRODUCTION_STATE',
      operationId: operation,
      operationProductionStateId: 'PRODUCTION',
    });
    assert.equal(back.resultCode, 'RC_SIMPLE_SUCCESS');
    assert.equal(await state(commandWorkplace), PRODUCTION);
  });

  test('MACHINE_STATE, MACHINE_COUNT, MACHINE_STROKE, MACHINE_QUANTITY: the routes of /machines', async () => {
    const viaRoute = await createWorkplace(t(), 'CMD-M-R');
    const viaCommand = await createWorkplace(t(), 'CMD-M-C');
    const malfunction = '7C4E2A9B1D3F4B5A8E6C0D2F4A6B8C1E';
    await ok(t(), 'POST', `${API}/machines/${viaRoute}/DOWNTIME`, {
      machineStateDetailIds: [malfunction],
      remark: 'jam',
    });
    await ok(t(), 'POST', `${API}/machines/${viaRoute}/counterIncrease`, { count: 3 });
    await ok(t(), 'POST', `${API}/machines/${viaRoute}/strokes`, { strokes: 2 });
    for (const body of [
      {
        type: 'MACHINE_STATE',
        machineStateId: 'DOWNTIME',
        machineStateDetailIds: [malfunction],
        annotation: 'jam',
      },
      { type: 'MACHINE_COUNT', counterNumber: 1, count: 3 },
      { type: 'MACHINE_STROKE', counterNumber: 1, strokes: 2 },
    ]) {
      const done = await command(t(), { ...body, machineId: viaCommand });
      assert.equal(done.resultCode, 'RC_SIMPLE_SUCCESS', JSON.stringify(done));
    }
    const machine = async (id: string) => {
      const {
        id: _,
        workplaceId: __,
        number: ___,
        ...rest
      } = (await ok(t(), 'GET', `${API}/machines/${id}`)).properties;
      return rest;
    };
    assert.deepEqual(await machine(viaCommand), await machine(viaRoute));
    // The same events in the same order; the state change's data equal (bookings carry their time).
    const own = async (id: string) => {
      const events = (await eventsOf(t(), id)).filter(
        (event) => !['COMMAND', 'RESOURCES_UPDATED', 'WORKPLACE_CREATED'].includes(event.eventType),
      );
      const changed = events.filter((event) => event.eventType === 'WORKPLACE_OPERATING_STATE_CHANGED');
      return {
        types: events.map((event) => event.eventType),
        changed: comparable(changed, { [id]: 'workplace' }),
      };
    };
    assert.deepEqual(await own(viaCommand), await own(viaRoute));
    const names = await t().app.db.query<{ event_name: string }>(
      "SELECT event_name FROM events WHERE event_type = 'COMMAND' AND object_id = $1 ORDER BY sequence",
      [viaCommand],
    );
    assert.deepEqual(
      names.map((row) => row.event_name),
      ['MACHINE_STATE', 'MACHINE_COUNT', 'MACHINE_STROKE'],
    );

    // A quality detail that does not exist: the route's refusal, nothing booked.
    const refused = await command(t(), {
      type: 'MACHINE_QUANTITY',
      machineId: viaCommand,
      quantity: 1,
      qualityDetailId: 'nope',
    });
    assert.equal(refused.resultCode, 'RC_BOOKING_FAILURE');
    assert.equal(refused.resultDetail.field, 'qualityDetailId');
  });

  test('a refused command is stored with its failure and changes nothing else', async () => {
    const operation = await createOperation(t(), 'CMD-FAIL', { workplaceId });
    const sequence = await lastSequence(t());
    const failed = await command(t(), {
      type: 'OPERATION_PHASE',
      operationId: operation,
      operationPhaseId: 'COMPLETED',
    });
    assert.equal(failed.resultCode, 'RC_BOOKING_FAILURE');
    assert.equal(failed.resultDetail.code, 'INVALID_TRANSITION');
    assert.equal(failed.bookingTimestamp, null);
    assert.ok(failed.timestamp);
    assert.deepEqual(await eventsSince(t(), sequence), []);
    assert.equal(
      (await ok(t(), 'GET', `${API}/operations/${operation}`)).properties.operationPhaseId,
      'RELEASED',
    );
    const stored = await ok(t(), 'GET', `${API}/commands/${failed.id}`);
    assert.deepEqual(stored.properties, failed);

    const missing = await command(t(), {
      type: 'OPERATION_QUANTITY',
      operationId: '00000000-0000-4000-8000-000000000000',
      quantity: 1,
      qualityDetailId: 'YIELD',
    });
    assert.equal(missing.resultCode, 'RC_BOOKING_FAILURE');
    assert.equal(missing.resultDetail.code, 'NOT_FOUND');
    assert.deepEqual(await eventsSince(t(), sequence), []);
  });

  test('a type no part of the service executes is stored as RC_GENERIC_REQ_NO_MSG_LISTENER_REGISTERED', async () => {
    const sequence = await lastSequence(t());
    const done = await command(t(), {
      type: 'STAFF_MEMBER_WORKPLACE_STATE',
      staffMemberId: workplaceId,
      workplaceId,
      staffMemberStateId: 'SIGNED_ON',
    });
    assert.equal(done.resultCode, 'RC_GENERIC_REQ_NO_MSG_LISTENER_REGISTERED');
    assert.equal(done.resultDetail.code, 'BAD_REQUEST');
    assert.deepEqual(await eventsSince(t(), sequence), []);
  });

  test('bulk: 100 commands in one request, in order, one result each; a failure undoes no other', async () => {
    const operation = await createOperation(t(), 'CMD-BULK', { workplaceId });
    const commands = Array.from({ length: 100 }, (_, index) => ({
      type: 'OPERATION_QUANTITY',
      operationId: index === 50 ? '00000000-0000-4000-8000-000000000000' : operation,
      quantity: index + 1,
      qualityDetailId: 'YIELD',
    }));
    const response = await t().request({ method: 'POST', url: `${API}/commands/bulk`, body: { commands } });
    assert.equal(response.statusCode, 200, response.body);
    const results = json(response)._embedded.commands.map(
      (item: { properties: Record<string, unknown> }) => item.properties,
    );
    assert.equal(results.length, 100);
    assert.deepEqual(
      results.map((result: { data: { quantity: number } }) => result.data.quantity),
      commands.map((item) => item.quantity),
    );
    assert.equal(
      results.filter((result: { resultCode: string }) => result.resultCode === 'RC_SIMPLE_SUCCESS').length,
      99,
    );
    assert.equal(results[50].resultCode, 'RC_BOOKING_FAILURE');
    const booked = await t().app.db.query<{ n: string }>(
      'SELECT count(*) AS n FROM recorded_output_quantities WHERE operation_id = $1',
      [operation],
    );
    assert.equal(Number(booked[0]?.n), 99);

    const tooMany = await t().request({
      method: 'POST',
      url: `${API}/commands/bulk`,
      body: { commands: [...commands, commands[0]] },
    });
    assert.equal(tooMany.statusCode, 400, tooMany.body);
    assert.equal(fieldOf(tooMany), 'commands');
  });

  test('async (the default of POST /commands): 202 at once, the runner executes it in order', async () => {
    const operation = await createOperation(t(), 'CMD-ASYNC', { workplaceId });
    const first = await t().request({
      method: 'POST',
      url: `${API}/commands`,
      body: { type: 'OPERATION_PHASE', operationId: operation, operationPhaseId: 'DISPATCHED' },
    });
    assert.equal(first.statusCode, 202, first.body);
    assert.equal(json(first).properties.resultCode, null);
    assert.equal(json(first).properties.timestamp, null);
    const bulk = await t().request({
      method: 'POST',
      url: `${API}/commands/bulk?async=true`,
      body: {
        commands: [
          { type: 'OPERATION_PHASE', operationId: operation, operationPhaseId: 'SETUP' },
          { type: 'OPERATION_PHASE', operationId: operation, operationPhaseId: 'PROCESSING' },
        ],
      },
    });
    assert.equal(bulk.statusCode, 202, bulk.body);
    await t().app.commands.nextCycle();
    const ids = [
      json(first).properties.id,
      ...json(bulk)._embedded.commands.map((c: { properties: { id: string } }) => c.properties.id),
    ];
    for (const id of ids) {
      const stored = await ok(t(), 'GET', `${API}/commands/${id}`);
      assert.equal(stored.properties.resultCode, 'RC_SIMPLE_SUCCESS', JSON.stringify(stored.properties));
    }
    assert.equal(
      (await ok(t(), 'GET', `${API}/operations/${operation}`)).properties.operationPhaseId,
      'PROCESSING',
    );
    const phases = (await eventsOf(t(), operation, 'OPERATION_PHASE_CHANGED')).map(
      (event) => event.data.currentOperationPhase,
    );
    assert.deepEqual(phases, ['DISPATCHED', 'SETUP', 'PROCESSING']);
  });

  test('bad input: 400 naming the field, nothing stored', async () => {
    const before = await storedCommands(t());
    const operationId = await createOperation(t(), 'CMD-BAD');
    const cases: [unknown, string][] = [
      [{ operationId, operationPhaseId: 'DISPATCHED' }, 'type'],
      [{ type: 'NO_SUCH_COMMAND', operationId }, 'type'],
      [{ type: 'OPERATION_PHASE', operationPhaseId: 'DISPATCHED' }, 'operationId'],
      [{ type: 'OPERATION_PHASE', operationId: 'not-a-uuid', operationPhaseId: 'DISPATCHED' }, 'operationId'],
      [{ type: 'OPERATION_QUANTITY', operationId, quantity: 0, qualityDetailId: 'YIELD' }, 'quantity'],
      [{ type: 'OPERATION_QUANTITY_REVISION_INSERT', operationQuantityCommand: {} }, 'insertionTimestamp'],
      [
        {
          type: 'OPERATION_QUANTITY_REVISION_INSERT',
          insertionTimestamp: '2024-01-01T00:00:00Z',
          operationQuantityCommand: { operationId, quantity: 1 },
        },
        'operationQuantityCommand.qualityDetailId',
      ],
    ];
    for (const [body, field] of cases) {
      const response = await t().request({ method: 'POST', url: `${API}/commands?async=false`, body });
      assert.equal(response.statusCode, 400, `${JSON.stringify(body)}: ${response.body}`);
      assert.equal(fieldOf(response), field, response.body);
    }
    const unknown = await t().request({
      method: 'POST',
      url: `${API}/commands`,
      body: { type: 'OPERATION_PHASE', operationId, operationPhaseId: 'DISPATCHED', colour: 'red' },
    });
    assert.equal(json(unknown).code, 'UNKNOWN_FIELD');
    const inBulk = await t().request({
      method: 'POST',
      url: `${API}/commands/bulk`,
      body: {
        commands: [
          { type: 'OPERATION_PHASE', operationId, operationPhaseId: 'DISPATCHED' },
          { type: 'OPERATION_PHASE' },
        ],
      },
    });
    assert.equal(fieldOf(inBulk), 'commands.1.operationId');
    assert.equal(await storedCommands(t()), before);
    assert.equal(
      (await ok(t(), 'GET', `${API}/operations/${operationId}`)).properties.operationPhaseId,
      'RELEASED',
    );
  });

  test('a command is visible to the client that sent it only; sending needs the write scope', async () => {
    const operation = await createOperation(t(), 'CMD-ISO', { workplaceId });
    const mine = await command(t(), {
      type: 'OPERATION_PHASE',
      operationId: operation,
      operationPhaseId: 'DISPATCHED',
    });
    const other = await addClient(t().app.db, { name: 'another commander', scopes: ['read', 'write'] });
    const token = await t().app.tokens.issue(other.clientId, ['read', 'write']);
    const theirs = await t().request({
      url: `${API}/commands/${mine.id}`,
      headers: { authorization: `Bearer ${token}` },
    });
    assert.equal(theirs.statusCode, 404, theirs.body);
    assert.equal(
      (await t().request({ url: `${API}/commands/${mine.id}`, scopes: ['read'] })).statusCode,
      404,
    );

    const readOnly = await t().request({
      method: 'POST',
      url: `${API}/commands?async=false`,
      scopes: ['read'],
      body: { type: 'OPERATION_PHASE', operationId: operation, operationPhaseId: 'SETUP' },
    });
    assert.equal(readOnly.statusCode, 403, readOnly.body);
  });

  test('POST /activities: the command its identifier names, its data as text; 204, or the refusal', async () => {
    const operation = await createOperation(t(), 'CMD-ACT');
    const response = await t().request({
      method: 'POST',
      url: `${API}/activities`,
      body: {
        activityIdentifier: 'OPERATION_QUANTITY',
        relationType: 'WORKPLACE',
        relationIdentifier: workplaceId,
        data: { operationId: operation, quantity: '3', qualityDetailId: 'REWORK' },
      },
    });
    assert.equal(response.statusCode, 204, response.body);
    const [booked] = (await eventsOf(t(), operation, 'OPERATION_OUTPUT_QUANTITY_RECORDED')).map(
      (event) => event.data,
    );
    assert.equal(booked?.quantity, 3);
    assert.equal(booked?.quantityType, 'REWORK');
    assert.equal(booked?.workplaceId, workplaceId);

    const bad = await t().request({
      method: 'POST',
      url: `${API}/activities`,
      body: {
        activityIdentifier: 'OPERATION_QUANTITY',
        data: { operationId: operation, quantity: 'many', qualityDetailId: 'YIELD' },
      },
    });
    assert.equal(bad.statusCode, 400, bad.body);
    assert.equal(fieldOf(bad), 'data.quantity');

    const refused = await t().request({
      method: 'POST',
      url: `${API}/activities`,
      body: {
        activityIdentifier: 'OPERATION_PHASE',
        data: { operationId: operation, operationPhaseId: 'COMPLETED' },
      },
    });
    assert.equal(refused.statusCode, 400, refused.body);
    assert.equal(json(refused).code, 'INVALID_TRANSITION');
  });
});
