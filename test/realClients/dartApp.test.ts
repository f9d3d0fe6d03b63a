// Replay of a Dart FORCE Bridge app (docs/resources/workplaces.md): the requests exactly as it
// sends them and the JSON paths its models read. Its Workplace model requires `workplaceType`
// and `erpContextId`; its shop-floor view reads who works where from
// `_embedded.currentStaffMembers[].properties`.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import {
  createOperation,
  createStaffMember,
  describeEachBackend,
  json,
  type TestApp,
} from '../support/app.ts';

const V = '/api/v1';

async function post(t: TestApp, url: string, body: Record<string, unknown>) {
  const response = await t.request({ method: 'POST', url: `${V}${url}`, body });
  assert.equal(response.statusCode, 201, response.body);
  return json(response).properties;
}

describeEachBackend('real clients: Dart app', (t) => {
  test('workplaces?limit=100&offset=0&workplaceType=MACHINE_WORKPLACE: the fields its model requires', async () => {
    const group = await post(t(), '/workplaceGroups', {
      number: 'DART-CG',
      type: 'CAPACITY_GROUP',
      erpContextId: 'SAP-1000',
    });
    const line = await post(t(), '/workplaceGroups', { number: 'DART-PL', type: 'PRODUCTION_LINE' });
    const machine = await post(t(), '/workplaces', {
      number: 'DART-M1',
      capacityGroupId: group.id,
      productionLineId: line.id,
      erpContextId: 'SAP-1000',
    });
    const manual = await post(t(), '/workplaces', {
      number: 'DART-H1',
      capacityGroupId: group.id,
      isManualWorkplace: true,
    });
    const mixed = await post(t(), '/workplaces', {
      number: 'DART-MM1',
      capacityGroupId: group.id,
      workplaceType: 'MANUAL_MACHINE_WORKPLACE',
    });
    assert.deepEqual(
      [machine.workplaceType, machine.isManualWorkplace, manual.workplaceType, manual.isManualWorkplace],
      ['MACHINE_WORKPLACE', false, 'MANUAL_WORKPLACE', true],
    );
    assert.deepEqual([mixed.workplaceType, mixed.isManualWorkplace], ['MANUAL_MACHINE_WORKPLACE', true]);

    const page = await t().request({
      url: `${V}/workplaces?limit=100&offset=0&workplaceType=MACHINE_WORKPLACE`,
    });
    assert.equal(page.statusCode, 200, page.body);
    const items = json(page)._embedded.workplaces.map(
      (item: { properties: Record<string, unknown> }) => item.properties,
    );
    assert.deepEqual(
      items.map((item: { number: string }) => item.number),
      ['DART-M1'],
    );
    const [read] = items;
    assert.equal(read.workplaceType, 'MACHINE_WORKPLACE');
    assert.equal(read.erpContextId, 'SAP-1000');
    assert.deepEqual(read.capacityGroup, {
      id: group.id,
      number: 'DART-CG',
      description: null,
      type: 'CAPACITY_GROUP',
      erpContextId: 'SAP-1000',
    });
    assert.deepEqual(read.productionLine, {
      id: line.id,
      number: 'DART-PL',
      description: null,
      type: 'PRODUCTION_LINE',
      erpContextId: null,
    });
    assert.equal(
      json(page)._links.self.href.endsWith('workplaceType=MACHINE_WORKPLACE&limit=100&offset=0'),
      true,
    );

    const byErp = json(await t().request({ url: `${V}/workplaces?erpContextId=SAP-1000` }));
    assert.deepEqual(
      byErp._embedded.workplaces.map((item: { properties: { number: string } }) => item.properties.number),
      ['DART-M1'],
    );
    // A workplace belongs to a group as its capacity group or as its production line.
    const inLine = json(await t().request({ url: `${V}/workplaces?workplaceGroupId=${line.id}` }));
    assert.deepEqual(
      inLine._embedded.workplaces.map((item: { properties: { number: string } }) => item.properties.number),
      ['DART-M1'],
    );
    const inGroup = json(
      await t().request({ url: `${V}/workplaces?workplaceGroupId=${group.id}&limit=100&offset=0` }),
    );
    assert.equal(inGroup.pagination.total, 3);
    const bad = await t().request({ url: `${V}/workplaces?workplaceType=ROBOT` });
    assert.equal(bad.statusCode, 400);
    assert.equal(json(bad).code, 'VALIDATION_FAILED');
  });

  test('workplaceType and isManualWorkplace stay consistent on create and PUT', async () => {
    const group = await post(t(), '/workplaceGroups', { number: 'TYPE-CG', type: 'CAPACITY_GROUP' });
    const conflict = await t().request({
      method: 'POST',
      url: `${V}/workplaces`,
      body: {
        number: 'TYPE-X',
        capacityGroupId: group.id,
        workplaceType: 'MACHINE_WORKPLACE',
        isManualWorkplace: true,
      },
    });
    assert.equal(conflict.statusCode, 400);
    assert.equal(json(conflict).code, 'VALIDATION_FAILED');
    assert.match(json(conflict).message, /isManualWorkplace/);
    const none = json(await t().request({ url: `${V}/workplaces?workplaceNumber=TYPE-X` }));
    assert.equal(none.pagination.total, 0);

    const mixed = await post(t(), '/workplaces', {
      number: 'TYPE-1',
      capacityGroupId: group.id,
      workplaceType: 'MANUAL_MACHINE_WORKPLACE',
    });
    const url = `${V}/workplaces/${mixed.id}`;
    // An older client sends the flag alone: the stored type it agrees with is kept.
    const flagOnly = await t().request({
      method: 'PUT',
      url,
      body: { number: 'TYPE-1', capacityGroupId: group.id, isManualWorkplace: true },
    });
    assert.equal(json(flagOnly).properties.workplaceType, 'MANUAL_MACHINE_WORKPLACE');
    const toMachine = await t().request({
      method: 'PUT',
      url,
      body: { number: 'TYPE-1', capacityGroupId: group.id, isManualWorkplace: false },
    });
    assert.deepEqual(
      [json(toMachine).properties.workplaceType, json(toMachine).properties.isManualWorkplace],
      ['MACHINE_WORKPLACE', false],
    );
    const byType = await t().request({
      method: 'PUT',
      url,
      body: { number: 'TYPE-1', capacityGroupId: group.id, workplaceType: 'MANUAL_WORKPLACE' },
    });
    assert.deepEqual(
      [json(byType).properties.workplaceType, json(byType).properties.isManualWorkplace],
      ['MANUAL_WORKPLACE', true],
    );
    const refused = await t().request({
      method: 'PUT',
      url,
      body: {
        number: 'TYPE-1',
        capacityGroupId: group.id,
        workplaceType: 'MANUAL_WORKPLACE',
        isManualWorkplace: false,
      },
    });
    assert.equal(refused.statusCode, 400);
    assert.equal(json(await t().request({ url })).properties.workplaceType, 'MANUAL_WORKPLACE');
  });

  test('workplaces/{id}?embed=currentStaffMembers: staff with an open activity there', async () => {
    const group = await post(t(), '/workplaceGroups', { number: 'STAFF-CG', type: 'CAPACITY_GROUP' });
    const here = await post(t(), '/workplaces', { number: 'STAFF-W1', capacityGroupId: group.id });
    const there = await post(t(), '/workplaces', { number: 'STAFF-W2', capacityGroupId: group.id });
    const operationId = await createOperation(t(), 'STAFF-OP', { workplaceId: here.id });
    const ada = await createStaffMember(t(), 'STAFF-ADA', { erpContextId: 'HR-7' });
    const bob = await createStaffMember(t(), 'STAFF-BOB');
    const cyd = await createStaffMember(t(), 'STAFF-CYD');
    const activity = async (staffMemberId: string, workplaceId: string, kind: string) => {
      const response = await t().request({
        method: 'POST',
        url: `${V}/staffMembers/${staffMemberId}/activities`,
        body: { operationId, workplaceId, activity: kind },
      });
      assert.ok(response.statusCode < 300, response.body);
    };
    await activity(ada, here.id, 'STARTED');
    await activity(bob, here.id, 'STARTED');
    await activity(bob, here.id, 'FINISHED');
    await activity(cyd, there.id, 'STARTED');

    const response = await t().request({ url: `${V}/workplaces/${here.id}?embed=currentStaffMembers` });
    assert.equal(response.statusCode, 200, response.body);
    const body = json(response);
    const current = body._embedded.currentStaffMembers.map(
      (item: { properties: Record<string, unknown> }) => item.properties,
    );
    assert.deepEqual(
      current.map((member: { id: string }) => member.id),
      [ada],
    );
    assert.equal(current[0].staffNumber, 'STAFF-ADA');
    assert.equal(current[0].erpContextId, 'HR-7');
    assert.equal(body._links.currentStaffMembers.embeddable, true);
    assert.equal(body._links.currentOperations.embeddable, true);

    // The list embeds per workplace, and currentOperations beside it.
    const page = json(
      await t().request({
        url: `${V}/workplaces?workplaceGroupId=${group.id}&embed=currentStaffMembers,currentOperations`,
      }),
    );
    const byNumber = Object.fromEntries(
      page._embedded.workplaces.map(
        (item: {
          properties: { number: string };
          _embedded: Record<string, { properties: { id: string } }[]>;
        }) => [
          item.properties.number,
          {
            staff: (item._embedded.currentStaffMembers ?? []).map((member) => member.properties.id),
            operations: (item._embedded.currentOperations ?? []).map((operation) => operation.properties.id),
          },
        ],
      ),
    );
    assert.deepEqual(byNumber, {
      'STAFF-W1': { staff: [ada], operations: [] },
      'STAFF-W2': { staff: [cyd], operations: [] },
    });
  });
});
