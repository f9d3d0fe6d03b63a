// Three v3 reads over stored data (docs/resources/workplaces.md, production-orders.md,
// staff-members.md): a group's assigned workplaces, the operating states an operation ran under,
// and a staff member's login periods.
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

const API = '/api/v2';
const UNKNOWN = '00000000-0000-4000-8000-000000000000';
const HOUR = 3_600_000;

// biome-ignore lint/suspicious/noExplicitAny: bodies are asserted by value
type Body = Record<string, any>;

const period = (startDate: string, endDate: string | null) => ({
  startDate,
  endDate,
  duration: endDate === null ? null : Date.parse(endDate) - Date.parse(startDate),
});

describeEachBackend('v3 last operations', (t: () => TestApp) => {
  const get = async (url: string): Promise<Body> => {
    const response = await t().request({ url: `${API}${url}` });
    assert.equal(response.statusCode, 200, response.body);
    return json(response);
  };
  const post = async (url: string, body: Record<string, unknown> = {}): Promise<Body> => {
    const response = await t().request({ method: 'POST', url: `${API}${url}`, body });
    assert.ok(response.statusCode === 200 || response.statusCode === 201, response.body);
    return json(response);
  };
  const status = async (url: string) => (await t().request({ url: `${API}${url}` })).statusCode;

  test('a group lists the workplaces of which it is the capacity group or the line', async () => {
    const group = (await post('/workplaceGroups', { number: 'LO-CG', type: 'CAPACITY_GROUP' })).properties;
    const line = (await post('/workplaceGroups', { number: 'LO-PL', type: 'PRODUCTION_LINE' })).properties;
    const other = (await post('/workplaceGroups', { number: 'LO-X', type: 'CAPACITY_GROUP' })).properties;
    const workplace = async (number: string, capacityGroupId: string, productionLineId?: string) =>
      (
        await post('/workplaces', {
          number,
          capacityGroupId,
          ...(productionLineId ? { productionLineId } : {}),
        })
      ).properties.id as string;
    const b = await workplace('LO-B', group.id);
    const a = await workplace('LO-A', other.id, line.id);
    const c = await workplace('LO-C', group.id, line.id);
    await workplace('LO-D', other.id);

    const ofGroup = await get(`/workplaceGroups/${group.id}/assignedWorkplaces`);
    const ids = (page: Body) => page._embedded.workplaces.map((w: Body) => w.properties.id);
    assert.deepEqual(ids(ofGroup), [b, c], 'by number');
    assert.equal(ofGroup.pagination.total, 2);
    assert.equal(ofGroup._embedded.workplaces[1].properties.productionLine.id, line.id);
    // Each workplace exactly as GET /workplaces presents it.
    const listed = await get(`/workplaces?workplaceGroupId=${group.id}`);
    assert.deepEqual(ofGroup._embedded.workplaces, listed._embedded.workplaces);

    assert.deepEqual(ids(await get(`/workplaceGroups/${line.id}/assignedWorkplaces`)), [a, c]);
    const paged = await get(`/workplaceGroups/${line.id}/assignedWorkplaces?limit=1&offset=1`);
    assert.deepEqual(ids(paged), [c]);
    assert.equal(paged.pagination.total, 2);
    assert.equal(await status(`/workplaceGroups/${UNKNOWN}/assignedWorkplaces`), 404);
  });

  test("an operation's operating states are its workplace's while it ran there", async () => {
    const workplaceId = await createWorkplace(t(), 'LO-W1');
    const operationId = await createOperation(t(), 'LO-OP1');
    for (const phase of ['SETUP', 'PROCESSING', 'INTERRUPTED', 'PROCESSING'])
      await post(`/operations/${operationId}/${phase}`, { workplaceId });
    const phases = (await get(`/operations/${operationId}/recordedOperationPhases`)).properties.elements
      .map((e: Body) => e)
      .reverse();
    const [, setup, processing, interrupted, resumed] = phases;
    assert.deepEqual(
      phases.map((p: Body) => p.operationPhaseId),
      ['RELEASED', 'SETUP', 'PROCESSING', 'INTERRUPTED', 'PROCESSING'],
    );
    const p1 = setup.startDate;
    const p2 = processing.startDate;
    const p3 = interrupted.startDate;
    const p4 = resumed.startDate;
    // The workplace: 000 from an hour before the setup to the processing, then 110 on.
    await post(`/workplaces/${workplaceId}/recordedOperatingStates/update`, {
      operatingStateId: '110',
      startDate: p2,
    });
    await post(`/workplaces/${workplaceId}/recordedOperatingStates/update`, {
      operatingStateId: '000',
      startDate: new Date(Date.parse(p1) - HOUR).toISOString(),
      endDate: p2,
    });
    const own = (await get(`/workplaces/${workplaceId}/recordedOperatingStates?limit=20`)).properties
      .elements;
    const state = (code: string) => own.find((e: Body) => e.operatingState.code === code).operatingState;

    // Newest first: 110 while resumed (open), 110 while processing, 000 during the setup; a
    // period of no length (two commands in the same millisecond) is none, and with no
    // interruption between them the two 110 periods are one.
    const resumedPeriods =
      p3 === p4
        ? [{ operatingState: state('110'), timePeriod: period(p2, null) }]
        : [
            { operatingState: state('110'), timePeriod: period(p4, null) },
            { operatingState: state('110'), timePeriod: period(p2, p3) },
          ];
    const expected = [...resumedPeriods, { operatingState: state('000'), timePeriod: period(p1, p2) }].filter(
      (e) => e.timePeriod.duration !== 0,
    );
    const answer = await get(`/operations/${operationId}/recordedOperatingStates`);
    assert.deepEqual(answer.properties.elements, expected);
    assert.equal(answer.pagination.total, expected.length);

    const window = new URLSearchParams({ startDate: p4 });
    const recent = await get(`/operations/${operationId}/recordedOperatingStates?${window}`);
    assert.deepEqual(recent.properties.elements, [
      { operatingState: state('110'), timePeriod: period(p4, null) },
    ]);
    const page = await get(`/operations/${operationId}/recordedOperatingStates?limit=1&offset=1`);
    assert.deepEqual(page.properties.elements, expected.slice(1, 2));

    // An operation never run has none; an unknown one is 404.
    const idle = await createOperation(t(), 'LO-OP2');
    assert.deepEqual((await get(`/operations/${idle}/recordedOperatingStates`)).properties.elements, []);
    assert.equal(await status(`/operations/${UNKNOWN}/recordedOperatingStates`), 404);
  });

  test("a staff member's login periods are its activities", async () => {
    const workplaceId = await createWorkplace(t(), 'LO-W2');
    const first = await createOperation(t(), 'LO-OP3');
    const second = await createOperation(t(), 'LO-OP4');
    const memberId = await createStaffMember(t(), 'LO-S1');
    const activity = (operationId: string, act: string) =>
      post(`/staffMembers/${memberId}/activities`, { operationId, workplaceId, activity: act });
    await activity(first, 'STARTED');
    await activity(first, 'INTERRUPTED');
    await activity(first, 'STARTED');
    await activity(second, 'STARTED');
    await activity(first, 'FINISHED');
    const records = (await get(`/staffMembers/${memberId}/recordedActivities`))._embedded.recordedActivities
      .map((r: Body) => r.properties)
      .reverse();
    const [one, two, three] = records;
    assert.deepEqual(
      records.map((r: Body) => [r.operationId, r.activity]),
      [
        [first, 'INTERRUPTED'],
        [first, 'FINISHED'],
        [second, 'STARTED'],
      ],
    );
    const element = (record: Body, proportion: number) => ({
      workplaceId,
      operationId: record.operationId,
      operationPhase: null,
      timePeriod: period(record.startDate, record.endDate),
      proportion,
    });
    // The third started while the second was open (unless both fell in one millisecond).
    const sharedAtStart = Date.parse(two.endDate) > Date.parse(three.startDate);
    const sameStart = two.startDate === three.startDate;
    const expected = [
      element(three, sharedAtStart ? 0.5 : 1),
      element(two, sameStart ? 0.5 : 1),
      element(one, 1),
    ];
    const answer = await get(`/staffMembers/${memberId}/recordedLoginPeriods`);
    assert.deepEqual(answer.properties.elements, expected);
    assert.deepEqual(answer.pagination, {
      offset: 0,
      limit: answer.pagination.limit,
      count: 3,
      total: 3,
      firstIdentifier: null,
      lastIdentifier: null,
    });
    const until = new URLSearchParams({ endDate: one.endDate });
    assert.deepEqual(
      (await get(`/staffMembers/${memberId}/recordedLoginPeriods?${until}`)).properties.elements,
      one.startDate === one.endDate ? [] : [element(one, 1)],
    );
    const idle = await createStaffMember(t(), 'LO-S2');
    assert.deepEqual((await get(`/staffMembers/${idle}/recordedLoginPeriods`)).properties.elements, []);
    assert.equal(await status(`/staffMembers/${UNKNOWN}/recordedLoginPeriods`), 404);
  });
});
