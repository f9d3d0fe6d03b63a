// Output quantities (POST/GET /operations/{id}/recordedOutputQuantities): a booking is stored
// with its defaults and OPERATION_OUTPUT_QUANTITY_RECORDED in the same transaction; the history
// pages in timestamp mode; bad input is 400 naming the field and stores nothing.
import assert from 'node:assert/strict';
import { before, test } from 'node:test';
import {
  createOperation,
  createStaffMember,
  createWorkplace,
  describeEachBackend,
  json,
  type TestApp,
} from '../support/app.ts';
import { eventsOf } from '../support/events.ts';

const API = '/api/v2';

describeEachBackend('output quantities', (t) => {
  let workplaceId: string;
  let operationId: string;
  let staffMemberId: string;
  const url = () => `${API}/operations/${operationId}/recordedOutputQuantities`;
  const stored = async (app: TestApp) =>
    Number(
      (
        await app.app.db.query<{ n: number }>(
          'SELECT count(*)::int AS n FROM recorded_output_quantities WHERE operation_id = $1',
          [operationId],
        )
      )[0]?.n,
    );

  before(async () => {
    workplaceId = await createWorkplace(t(), 'OQ-1');
    operationId = await createOperation(t(), 'OQ-OP1', { workplaceId });
    staffMemberId = await createStaffMember(t(), 'OQ-S1');
  });

  test('a booking takes the defaults and writes its event', async () => {
    const response = await t().request({
      method: 'POST',
      url: url(),
      body: { quantity: 5, quantityType: 'YIELD' },
    });
    assert.equal(response.statusCode, 201, response.body);
    const body = json(response);
    assert.equal(body.properties.quantity, 5);
    assert.equal(body.properties.quantityType, 'YIELD');
    assert.equal(body.properties.workplaceId, workplaceId, "the operation's workplace");
    assert.equal(body.properties.staffMemberId, null);
    assert.ok(Math.abs(Date.parse(body.properties.timestamp) - Date.now()) < 60_000);
    assert.equal(response.headers.location, body._links.self.href);
    const events = await eventsOf(t(), operationId, 'OPERATION_OUTPUT_QUANTITY_RECORDED');
    assert.equal(events.length, 1);
    assert.equal(events[0]?.objectType, 'OPERATION');
    assert.deepEqual(events[0]?.data, {
      operationId,
      recordedOutputQuantityId: body.properties.id,
      quantity: 5,
      quantityType: 'YIELD',
      timestamp: body.properties.timestamp,
      workplaceId,
      staffMemberId: null,
      qualityDetailId: null,
    });
    const one = await t().request({ url: body._links.self.href });
    assert.equal(one.statusCode, 200, one.body);
    assert.deepEqual(json(one).properties, body.properties);
  });

  test('explicit timestamp, staff member; the list is newest first in timestamp mode', async () => {
    const older = await t().request({
      method: 'POST',
      url: url(),
      body: { quantity: 1.5, quantityType: 'SCRAP', timestamp: '2020-01-01T00:00:00.000Z', staffMemberId },
    });
    assert.equal(older.statusCode, 201, older.body);
    assert.equal(json(older).properties.staffMemberId, staffMemberId);
    const list = await t().request({ url: `${url()}?limit=1` });
    assert.equal(list.statusCode, 200, list.body);
    const page = json(list);
    assert.equal(page.pagination.total, 2);
    assert.equal(page._embedded.recordedOutputQuantities.length, 1);
    assert.equal(page._embedded.recordedOutputQuantities[0].properties.quantityType, 'YIELD');
    const next = await t().request({ url: page._links.next.href });
    assert.equal(json(next)._embedded.recordedOutputQuantities[0].properties.quantityType, 'SCRAP');
  });

  test('bad input is 400 naming the field and stores nothing', async () => {
    const before = await stored(t());
    const cases: [Record<string, unknown>, string][] = [
      [{ quantity: 0, quantityType: 'YIELD' }, 'quantity'],
      [{ quantity: -1, quantityType: 'YIELD' }, 'quantity'],
      [{ quantity: '3', quantityType: 'YIELD' }, 'quantity'],
      [{ quantity: 1, quantityType: 'GOOD' }, 'quantityType'],
      [{ quantity: 1 }, 'quantityType'],
      [{ quantity: 1, quantityType: 'YIELD', timestamp: 'yesterday' }, 'timestamp'],
      [
        { quantity: 1, quantityType: 'YIELD', workplaceId: '0190a4c2-0000-7000-8000-000000000000' },
        'workplaceId',
      ],
      [
        { quantity: 1, quantityType: 'YIELD', staffMemberId: '0190a4c2-0000-7000-8000-000000000000' },
        'staffMemberId',
      ],
      [{ quantity: 1, quantityType: 'YIELD', extra: true }, 'extra'],
    ];
    for (const [body, field] of cases) {
      const response = await t().request({ method: 'POST', url: url(), body });
      assert.equal(response.statusCode, 400, `${JSON.stringify(body)}: ${response.body}`);
      assert.match(json(response).message, new RegExp(field), JSON.stringify(body));
    }
    assert.equal(await stored(t()), before);
    const missing = await t().request({
      method: 'POST',
      url: `${API}/operations/0190a4c2-0000-7000-8000-000000000000/recordedOutputQuantities`,
      body: { quantity: 1, quantityType: 'YIELD' },
    });
    assert.equal(missing.statusCode, 404);
    const readOnly = await t().request({
      method: 'POST',
      url: url(),
      body: { quantity: 1, quantityType: 'YIELD' },
      scopes: ['read'],
    });
    assert.equal(readOnly.statusCode, 403);
  });

  test('refusals come in order: the operation, then the workplace, then the staff member', async () => {
    const unknown = '0190a4c2-0000-7000-8000-0000000000ff';
    const both = { quantity: 1, quantityType: 'YIELD', workplaceId: unknown, staffMemberId: unknown };
    const missing = await t().request({
      method: 'POST',
      url: `${API}/operations/${unknown}/recordedOutputQuantities`,
      body: both,
    });
    assert.deepEqual([missing.statusCode, json(missing).code], [404, 'NOT_FOUND']);
    const answer = await t().request({ method: 'POST', url: url(), body: both });
    assert.deepEqual(
      [answer.statusCode, json(answer).code, json(answer).message],
      [
        400,
        'INVALID_REFERENCE',
        `Field 'workplaceId' refers to '${unknown}', which is not an existing workplace.`,
      ],
    );
    const staff = await t().request({
      method: 'POST',
      url: url(),
      body: { ...both, workplaceId: undefined },
    });
    assert.deepEqual([staff.statusCode, json(staff).code], [400, 'INVALID_REFERENCE']);
    assert.match(json(staff).message, /^Field 'staffMemberId'/);
  });

  test('an operation without a workplace books none, in the record and in its event', async () => {
    const bare = await createOperation(t(), 'OQ-OP2');
    const response = await t().request({
      method: 'POST',
      url: `${API}/operations/${bare}/recordedOutputQuantities`,
      body: { quantity: 2, quantityType: 'REWORK' },
    });
    assert.equal(response.statusCode, 201, response.body);
    assert.equal(json(response).properties.workplaceId, null);
    const [event] = await eventsOf(t(), bare, 'OPERATION_OUTPUT_QUANTITY_RECORDED');
    assert.equal(event?.data.workplaceId, null);
    assert.equal(event?.data.quantity, 2);
  });
});
