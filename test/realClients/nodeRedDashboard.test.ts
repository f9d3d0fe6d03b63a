// Replay of the Node-RED dashboard's "current operation" panel (docs/resources/production-orders.md):
// it asks for the operations in progress at one workplace exactly as below and reads
// `productionOrder.{id,number,description}` and `material` of each.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { createWorkplace, describeEachBackend, json, type TestApp } from '../support/app.ts';

const V = '/api/v1';

async function post(t: TestApp, url: string, body?: Record<string, unknown>) {
  const response = await t.request({ method: 'POST', url: `${V}${url}`, ...(body ? { body } : {}) });
  assert.ok(response.statusCode === 200 || response.statusCode === 201, response.body);
  return json(response).properties;
}

describeEachBackend('real clients: Node-RED dashboard', (t) => {
  test('operations?isInProgress=true&limit=100&paginationDirection=NEXT&workplaceId=..', async () => {
    const workplaceId = await createWorkplace(t(), 'NR-WP');
    const otherWorkplaceId = await createWorkplace(t(), 'NR-WP2');
    const order = await post(t(), '/productionOrders', {
      number: 'NR-PO',
      description: 'Gear housings',
      material: { number: 'MAT-1', description: 'Housing' },
    });
    const operation = (number: string, fields: Record<string, unknown> = {}) =>
      post(t(), '/operations', { productionOrderId: order.id, number, workplaceId, ...fields });
    const running = await operation('NR-10');
    const setup = await operation('NR-20', { material: { number: 'MAT-OWN', description: null } });
    const released = await operation('NR-30');
    const elsewhere = await operation('NR-40', { workplaceId: otherWorkplaceId });
    await post(t(), `/operations/${running.id}/SETUP`);
    await post(t(), `/operations/${running.id}/PROCESSING`);
    await post(t(), `/operations/${setup.id}/SETUP`);
    await post(t(), `/operations/${elsewhere.id}/SETUP`);

    const response = await t().request({
      url: `${V}/operations?isInProgress=true&limit=100&paginationDirection=NEXT&workplaceId=${workplaceId}`,
    });
    assert.equal(response.statusCode, 200, response.body);
    const body = json(response);
    const items = body._embedded.operations.map(
      (item: { properties: Record<string, unknown> }) => item.properties,
    );
    // Newest change first: NR-20 went to SETUP after NR-10 reached PROCESSING.
    assert.deepEqual(
      items.map((item: { number: string; operationPhaseId: string }) => [item.number, item.operationPhaseId]),
      [
        ['NR-20', 'SETUP'],
        ['NR-10', 'PROCESSING'],
      ],
    );
    for (const item of items) {
      assert.deepEqual(item.productionOrder, {
        id: order.id,
        number: 'NR-PO',
        description: 'Gear housings',
        // The v3 fields of the order (split, ERP context, material) come along; the plant set none.
        split: null,
        erpContextId: null,
        material: { number: 'MAT-1', description: 'Housing', type: null },
      });
    }
    // Without its own material an operation shows its order's.
    assert.deepEqual(items[1].material, { number: 'MAT-1', description: 'Housing', type: null });
    assert.deepEqual(items[0].material, { number: 'MAT-OWN', description: null, type: null });
    assert.match(body._links.self.href, /isInProgress=true/);
    assert.match(body._links.self.href, new RegExp(`workplaceId=${workplaceId}`));

    const notRunning = json(
      await t().request({ url: `${V}/operations?isInProgress=false&workplaceId=${workplaceId}&limit=100` }),
    );
    assert.deepEqual(
      notRunning._embedded.operations.map((item: { properties: { id: string } }) => item.properties.id),
      [released.id],
    );
    const everywhere = json(await t().request({ url: `${V}/operations?isInProgress=true&limit=100` }));
    assert.equal(
      everywhere._embedded.operations.some(
        (item: { properties: { id: string } }) => item.properties.id === elsewhere.id,
      ),
      true,
    );
    const bad = await t().request({ url: `${V}/operations?isInProgress=maybe` });
    assert.equal(bad.statusCode, 400);

    // The workplace links its current operations and embeds them.
    const workplace = json(
      await t().request({ url: `${V}/workplaces/${workplaceId}?embed=currentOperations` }),
    );
    assert.deepEqual(
      workplace._embedded.currentOperations.map(
        (item: { properties: { number: string } }) => item.properties.number,
      ),
      ['NR-20', 'NR-10'],
    );
    const linked = await t().request({ url: workplace._links.currentOperations.href });
    assert.equal(linked.statusCode, 200, linked.body);
    assert.equal(json(linked)._embedded.operations.length, 2);
  });

  test("GET-modify-PUT of an operation showing its order material keeps it the order's", async () => {
    const order = await post(t(), '/productionOrders', {
      number: 'NR-PO2',
      material: { number: 'MAT-2', description: null },
    });
    const created = await post(t(), '/operations', { productionOrderId: order.id, number: 'NR-50' });
    const url = `${V}/operations/${created.id}`;
    const before = json(await t().request({ url })).properties;
    assert.deepEqual(before.material, { number: 'MAT-2', description: null, type: null });
    const put = await t().request({ method: 'PUT', url, body: { ...before, description: 'renamed' } });
    assert.equal(put.statusCode, 200, put.body);
    // Still the order's: a new order material shows through.
    const orderUrl = `${V}/productionOrders/${order.id}`;
    const orderBefore = json(await t().request({ url: orderUrl })).properties;
    const changed = await t().request({
      method: 'PUT',
      url: orderUrl,
      body: { ...orderBefore, material: { number: 'MAT-3', description: null } },
    });
    assert.equal(changed.statusCode, 200, changed.body);
    assert.deepEqual(json(await t().request({ url })).properties.material, {
      number: 'MAT-3',
      description: null,
      type: null,
    });
    const phase = await t().request({
      method: 'PUT',
      url,
      body: { ...before, operationPhaseId: 'PROCESSING' },
    });
    assert.equal(phase.statusCode, 400);
    assert.equal(json(phase).code, 'READ_ONLY_PROPERTY');
    assert.match(json(phase).message, /'operationPhaseId'/);
  });
});
