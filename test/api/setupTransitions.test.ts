// Setup transition rules of a workplace group end to end: POST/GET/PUT/DELETE with the events
// about the group, refusals that store nothing, and the setup matrix computed from the rules for
// the materials of the operations planned at the group's workplaces.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { createOperation, createWorkplace, describeEachBackend, json, type TestApp } from '../support/app.ts';
import { eventsOf, withoutTime } from '../support/events.ts';
import { absolute } from '../support/hal.ts';

const GROUPS = '/api/v2/workplaceGroups';
const rulesOf = (groupId: string) => `${GROUPS}/${groupId}/setupTransitionRules`;

async function groupOf(t: TestApp, workplaceId: string): Promise<string> {
  return json(await t.request({ url: `/api/v2/workplaces/${workplaceId}` })).properties.capacityGroupId;
}

async function createRule(t: TestApp, groupId: string, body: Record<string, unknown>) {
  const response = await t.request({ method: 'POST', url: rulesOf(groupId), body });
  assert.equal(response.statusCode, 201, response.body);
  return json(response).properties;
}

const byNumber = (number: string, setupTime: number, successor = number) => ({
  origin: 'MANUAL_DATA_MAINTENANCE',
  criterion: 'MATERIAL_NUMBER',
  predecessorConditions: number,
  successorConditions: successor,
  setupTime,
});

/** An operation of `material` with `characteristics` at the workplace. */
const operationOf = (
  t: TestApp,
  workplaceId: string,
  number: string,
  material: string,
  characteristics: [string, string][],
) =>
  createOperation(t, number, {
    workplaceId,
    material: { number: material },
    materialCharacteristics: characteristics.map(([name, value]) => ({ name, value })),
  });

describeEachBackend('setup transition rules', (t) => {
  test('POST: 201 with Location; GET, list and PUT answer the rule; DELETE removes it; events about the group', async () => {
    const groupId = await groupOf(t(), await createWorkplace(t(), 'ST-1'));
    const response = await t().request({
      method: 'POST',
      url: rulesOf(groupId),
      body: byNumber('M-1', 555, 'M-2'),
    });
    assert.equal(response.statusCode, 201, response.body);
    const rule = json(response);
    const self = `${rulesOf(groupId)}/${rule.properties.id}`;
    assert.equal(response.headers.location, absolute(self));
    assert.deepEqual(rule.properties, {
      id: rule.properties.id,
      origin: 'MANUAL_DATA_MAINTENANCE',
      criterion: 'MATERIAL_NUMBER',
      predecessorConditions: 'M-1',
      successorConditions: 'M-2',
      setupTimeIncrement: null,
      setupTime: 555,
    });
    assert.equal(rule._links.self.href, absolute(self));
    assert.deepEqual(json(await t().request({ url: self })), rule);

    const list = json(await t().request({ url: rulesOf(groupId) }));
    assert.deepEqual(list._embedded.setupTransitionRules, [rule]);
    assert.equal(list.pagination.total, 1);
    assert.equal(list._links.createSetupTransitionRule.href, absolute(rulesOf(groupId)));

    const replaced = await t().request({ method: 'PUT', url: self, body: byNumber('M-1', 600, 'M-2') });
    assert.equal(replaced.statusCode, 200, replaced.body);
    assert.equal(json(replaced).properties.setupTime, 600);
    const unchanged = await t().request({ method: 'PUT', url: self, body: byNumber('M-1', 600, 'M-2') });
    assert.equal(unchanged.statusCode, 200);

    assert.equal((await t().request({ method: 'DELETE', url: self })).statusCode, 204);
    assert.equal((await t().request({ url: self })).statusCode, 404);

    const events = withoutTime(await eventsOf(t(), groupId)).filter((event) =>
      event.eventType.startsWith('SETUP_TRANSITION_RULE_'),
    );
    assert.deepEqual(
      events.map((event) => [
        event.eventType,
        event.objectType,
        event.data.setupTime,
        event.data.changedProperties,
      ]),
      [
        ['SETUP_TRANSITION_RULE_CREATED', 'WORKPLACE_GROUP', 555, undefined],
        ['SETUP_TRANSITION_RULE_UPDATED', 'WORKPLACE_GROUP', 600, ['setupTime']],
        ['SETUP_TRANSITION_RULE_DELETED', 'WORKPLACE_GROUP', 600, undefined],
      ],
    );
  });

  test('refusals name the field and store nothing', async () => {
    const groupId = await groupOf(t(), await createWorkplace(t(), 'ST-2'));
    const refused = async (body: Record<string, unknown>, field: string) => {
      const response = await t().request({ method: 'POST', url: rulesOf(groupId), body });
      assert.equal(response.statusCode, 400, response.body);
      assert.match(json(response).message, new RegExp(field), response.body);
    };
    await refused({ ...byNumber('M-1', 5), setupTime: undefined }, 'setupTime');
    await refused({ ...byNumber('M-1', 5), setupTimeIncrement: 3 }, 'setupTimeIncrement');
    const characteristics = {
      origin: 'AUTOMATIC_EVALUATION_SYSTEM',
      criterion: 'MATERIAL_CHARACTERISTICS',
      predecessorConditions: 'color==black',
      successorConditions: 'width=lt=40',
      setupTimeIncrement: 100,
    };
    await refused({ ...characteristics, successorConditions: 'width<40' }, 'successorConditions');
    await refused({ ...characteristics, setupTime: 5 }, 'setupTime');
    await refused({ ...characteristics, setupTimeIncrement: -1 }, 'setupTimeIncrement');
    await refused({ ...characteristics, origin: 'GUESSED' }, 'origin');
    const list = json(await t().request({ url: rulesOf(groupId) }));
    assert.equal(list.pagination.total, 0);
    assert.deepEqual(
      withoutTime(await eventsOf(t(), groupId)).filter((e) => e.eventType.startsWith('SETUP_')),
      [],
    );
    const unknownGroup = await t().request({
      method: 'POST',
      url: rulesOf('00000000-0000-7000-8000-000000000000'),
      body: byNumber('M-1', 5),
    });
    assert.equal(unknownGroup.statusCode, 404);
  });

  test('the setup matrix: number rules give absolute times, characteristics rules add up, only for materials made in the group', async () => {
    const workplaceId = await createWorkplace(t(), 'ST-3');
    const groupId = await groupOf(t(), workplaceId);
    const empty = json(await t().request({ url: `${GROUPS}/${groupId}/setupTransitions` }));
    assert.deepEqual(empty.properties, { creationDate: null, elements: [] });

    await operationOf(t(), workplaceId, 'ST-3-A', 'BLACK-30', [
      ['color', 'black'],
      ['width', '30'],
    ]);
    await operationOf(t(), workplaceId, 'ST-3-B', 'WHITE-50', [
      ['color', 'white'],
      ['width', '50'],
    ]);
    await operationOf(t(), workplaceId, 'ST-3-C', 'WHITE-20', [
      ['color', 'white'],
      ['width', '20'],
    ]);
    // Made elsewhere: a rule about it gives no entry.
    await operationOf(t(), await createWorkplace(t(), 'ST-3-OTHER'), 'ST-3-D', 'RED-10', [['color', 'red']]);

    await createRule(t(), groupId, byNumber('BLACK-30', 900, 'WHITE-50'));
    await createRule(t(), groupId, byNumber('RED-10', 1, 'BLACK-30'));
    // black -> white of width below 40: +100; anything -> width >= 30: +10 (comma: or).
    await createRule(t(), groupId, {
      origin: 'AUTOMATIC_EVALUATION_SYSTEM',
      criterion: 'MATERIAL_CHARACTERISTICS',
      predecessorConditions: 'color==black',
      successorConditions: 'color==white;width=lt=40',
      setupTimeIncrement: 100,
    });
    const last = await createRule(t(), groupId, {
      origin: 'AUTOMATIC_EVALUATION_SYSTEM',
      criterion: 'MATERIAL_CHARACTERISTICS',
      predecessorConditions: 'color==black,color==white',
      successorConditions: 'width=ge=30',
      setupTimeIncrement: 10,
    });
    const matrix = json(await t().request({ url: `${GROUPS}/${groupId}/setupTransitions` }));
    const entries = matrix.properties.elements.map(
      (entry: {
        predecessorMaterial: { number: string };
        successorMaterial: { number: string };
        setupTime: number;
      }) => `${entry.predecessorMaterial.number}>${entry.successorMaterial.number}=${entry.setupTime}`,
    );
    assert.deepEqual(entries, [
      'BLACK-30>BLACK-30=10',
      'BLACK-30>WHITE-20=100',
      'BLACK-30>WHITE-50=900',
      'WHITE-20>BLACK-30=10',
      'WHITE-20>WHITE-50=10',
      'WHITE-50>BLACK-30=10',
      'WHITE-50>WHITE-50=10',
    ]);
    assert.equal(matrix.pagination.total, 7);
    // As new as its newest rule: a change to a rule moves it on.
    assert.match(matrix.properties.creationDate, /^\d{4}-\d\d-\d\dT.*Z$/);
    await t().request({
      method: 'PUT',
      url: `${rulesOf(groupId)}/${last.id}`,
      body: { ...last, id: undefined, setupTimeIncrement: 11 },
    });
    const after = json(await t().request({ url: `${GROUPS}/${groupId}/setupTransitions` }));
    assert.ok(after.properties.creationDate > matrix.properties.creationDate);
    assert.equal(after.properties.elements[0].setupTime, 11);
    const page = json(await t().request({ url: `${GROUPS}/${groupId}/setupTransitions?limit=2&offset=2` }));
    assert.equal(page.properties.elements.length, 2);
    assert.equal(page.properties.elements[0].setupTime, 900);
    assert.equal(page.pagination.total, 7);
  });
});
