// Manufacturing variant rules of a workplace group end to end: POST/GET/PUT/DELETE with the events
// about the group, the workplaces shown as they are now, and refusals that store nothing.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { createWorkplace, describeEachBackend, json, type TestApp } from '../support/app.ts';
import { eventsOf, withoutTime } from '../support/events.ts';
import { absolute } from '../support/hal.ts';

const GROUPS = '/api/v2/workplaceGroups';
const rulesOf = (groupId: string) => `${GROUPS}/${groupId}/manufacturingVariantRules`;

async function groupOf(t: TestApp, workplaceId: string): Promise<string> {
  return json(await t.request({ url: `/api/v2/workplaces/${workplaceId}` })).properties.capacityGroupId;
}

const delays = {
  processAvailability: 0.5,
  performance: 0.8,
  qualityRate: 0.5,
  additionalSetupTime: 60_000,
  intermediateSetupInterval: 250,
};

const body = (workplaceIds: string[], extra: Record<string, unknown> = {}) => ({
  origin: 'MANUAL_DATA_MAINTENANCE',
  criterion: 'MATERIAL_NUMBER',
  conditions: 'M-1',
  workplaceIds,
  tools: [{ id: 'T-1', name: 'Face mill D66' }],
  additionalConditions: 'quantity=ge=10',
  forecastedDelays: delays,
  ...extra,
});

describeEachBackend('manufacturing variant rules', (t) => {
  test('POST: 201 with Location; GET, list and PUT answer the rule; DELETE removes it; events about the group', async () => {
    const first = await createWorkplace(t(), 'MV-1');
    const second = await createWorkplace(t(), 'MV-2');
    const groupId = await groupOf(t(), first);
    const response = await t().request({
      method: 'POST',
      url: rulesOf(groupId),
      body: body([second, first]),
    });
    assert.equal(response.statusCode, 201, response.body);
    const rule = json(response);
    const self = `${rulesOf(groupId)}/${rule.properties.id}`;
    assert.equal(response.headers.location, absolute(self));
    const workplace = async (id: string) => {
      const { number, description, erpContextId } = json(
        await t().request({ url: `/api/v2/workplaces/${id}` }),
      ).properties;
      return { id, number, description, erpContextId };
    };
    assert.deepEqual(rule.properties, {
      id: rule.properties.id,
      origin: 'MANUAL_DATA_MAINTENANCE',
      criterion: 'MATERIAL_NUMBER',
      conditions: 'M-1',
      workplaces: [await workplace(second), await workplace(first)],
      tools: [{ id: 'T-1', name: 'Face mill D66', description: null }],
      additionalConditions: 'quantity=ge=10',
      forecastedDelays: {
        delayFactor: 5,
        ...delays,
        intermediateSetupTime: null,
        staffCapacityFactor: null,
        skillFactor: null,
      },
    });
    assert.equal(rule._links.updateManufacturingVariantRule.method, 'PUT');
    assert.equal(rule._links.deleteManufacturingVariantRule.method, 'DELETE');
    assert.deepEqual(json(await t().request({ url: self })), rule);

    const list = json(await t().request({ url: rulesOf(groupId) }));
    assert.deepEqual(list._embedded.manufacturingVariantRules, [rule]);
    assert.equal(list._links.createManufacturingVariantRule.href, absolute(rulesOf(groupId)));

    const replaced = await t().request({
      method: 'PUT',
      url: self,
      body: body([first], { forecastedDelays: null, tools: [] }),
    });
    assert.equal(replaced.statusCode, 200, replaced.body);
    assert.deepEqual(json(replaced).properties.workplaces, [await workplace(first)]);
    assert.equal(json(replaced).properties.forecastedDelays, null);
    assert.deepEqual(json(replaced).properties.tools, []);
    // What a GET shows goes back unchanged: the workplaces and the derived delay factor.
    const current = json(await t().request({ url: self })).properties;
    const echoed = await t().request({
      method: 'PUT',
      url: self,
      body: { ...current, workplaceIds: [first], forecastedDelays: rule.properties.forecastedDelays },
    });
    assert.equal(echoed.statusCode, 200, echoed.body);
    assert.deepEqual(json(echoed).properties.forecastedDelays, rule.properties.forecastedDelays);
    const back = { ...current, workplaceIds: [first], forecastedDelays: null };
    assert.equal((await t().request({ method: 'PUT', url: self, body: back })).statusCode, 200);
    const same = await t().request({
      method: 'PUT',
      url: self,
      body: body([first], { forecastedDelays: null, tools: [] }),
    });
    assert.equal(same.statusCode, 200);

    // A deleted workplace leaves the rule, which no longer shows it.
    assert.equal(
      (await t().request({ method: 'DELETE', url: `/api/v2/workplaces/${first}` })).statusCode,
      204,
    );
    assert.deepEqual(json(await t().request({ url: self })).properties.workplaces, []);

    assert.equal((await t().request({ method: 'DELETE', url: self })).statusCode, 204);
    assert.equal((await t().request({ url: self })).statusCode, 404);

    const events = withoutTime(await eventsOf(t(), groupId)).filter((event) =>
      event.eventType.startsWith('MANUFACTURING_VARIANT_RULE_'),
    );
    assert.deepEqual(
      events.map((event) => [event.eventType, event.objectType, event.data.changedProperties]),
      [
        ['MANUFACTURING_VARIANT_RULE_CREATED', 'WORKPLACE_GROUP', undefined],
        [
          'MANUFACTURING_VARIANT_RULE_UPDATED',
          'WORKPLACE_GROUP',
          ['workplaceIds', 'tools', 'forecastedDelays'],
        ],
        ['MANUFACTURING_VARIANT_RULE_UPDATED', 'WORKPLACE_GROUP', ['forecastedDelays']],
        ['MANUFACTURING_VARIANT_RULE_UPDATED', 'WORKPLACE_GROUP', ['forecastedDelays']],
        ['MANUFACTURING_VARIANT_RULE_DELETED', 'WORKPLACE_GROUP', undefined],
      ],
    );
    assert.deepEqual(events[0]?.data.workplaceIds, [second, first]);
  });

  test('refusals name the field and store nothing', async () => {
    const workplaceId = await createWorkplace(t(), 'MV-3');
    const groupId = await groupOf(t(), workplaceId);
    const refused = async (sent: Record<string, unknown>, status: number, field: string) => {
      const response = await t().request({ method: 'POST', url: rulesOf(groupId), body: sent });
      assert.equal(response.statusCode, status, response.body);
      assert.match(response.body, new RegExp(field.replace(/[[\]]/g, '\\$&')), response.body);
    };
    await refused(body([workplaceId, crypto.randomUUID()]), 400, 'workplaceIds[1]');
    await refused(body([workplaceId, workplaceId]), 400, 'workplaceIds');
    await refused(
      body([], { criterion: 'MATERIAL_CHARACTERISTICS', conditions: 'color=~black' }),
      400,
      'conditions',
    );
    await refused(body([], { tools: [{ id: 'T' }, { id: 'T' }] }), 400, 'tools[1].id');
    await refused(body([], { forecastedDelays: { ...delays, qualityRate: 0 } }), 400, 'qualityRate');
    await refused(body([], { origin: 'GUESSED' }), 400, 'origin');
    const list = json(await t().request({ url: rulesOf(groupId) }));
    assert.equal(list.pagination.total, 0);
    const characteristics = await t().request({
      method: 'POST',
      url: rulesOf(groupId),
      body: body([], { criterion: 'MATERIAL_CHARACTERISTICS', conditions: 'color==black;width=lt=40' }),
    });
    assert.equal(characteristics.statusCode, 201, characteristics.body);
    const unknownGroup = await t().request({
      method: 'POST',
      url: rulesOf(crypto.randomUUID()),
      body: body([]),
    });
    assert.equal(unknownGroup.statusCode, 404);
    assert.equal((await t().request({ url: `${rulesOf(groupId)}/${crypto.randomUUID()}` })).statusCode, 404);
  });
});
