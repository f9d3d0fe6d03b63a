// Summaries and the OEE report against the worked example of docs/resources/reports.md: every
// expected number below is computed by hand there.
import assert from 'node:assert/strict';
import { before, test } from 'node:test';
import { describeEachBackend, json } from '../support/app.ts';
import { buildScenario, type Scenario, WINDOW } from '../support/summariesScenario.ts';

const API = '/api/v2';
const MIN = 60_000;
const UNKNOWN = '00000000-0000-4000-8000-000000000000';
const CODES = {
  production: '000',
  setup: '020',
  fault: '110',
  maintenance: '410',
  pause: '993',
  undefined: '999',
};

const durations = (elements: { operatingState: { code: string }; duration: number }[]) =>
  Object.fromEntries(elements.map((element) => [element.operatingState.code, element.duration]));
const query = (params: Record<string, string>) => new URLSearchParams(params).toString();

describeEachBackend('summaries and OEE', (t) => {
  let s: Scenario;
  before(async () => {
    s = await buildScenario(t(), 'SUM');
  });

  const get = async (url: string) => {
    const response = await t().request({ url: `${API}${url}`, scopes: ['read'] });
    assert.equal(response.statusCode, 200, response.body);
    return json(response).properties;
  };

  test('specification: the standard values and the planned workplace and capacity group', async () => {
    const p = await get(`/operations/${s.operationId}/specification`);
    assert.equal(p.targetQuantity, 300);
    assert.equal(p.quantityUnit, 'pcs');
    assert.equal(p.targetTimePerUnit, MIN);
    assert.equal(p.targetSetupTime, 30 * MIN);
    assert.equal(p.targetProcessingTime, 300 * MIN);
    assert.equal(p.targetTeardownTime, null);
    assert.deepEqual(p.targetWorkplace, {
      id: s.workplaceA,
      number: 'SUM-A',
      description: null,
      erpContextId: null,
    });
    assert.equal(p.targetCapacityGroup.id, s.groupId);
    assert.equal(p.targetCapacityGroup.number, 'SUM-CG');
    // The workplace's ERP context, once it has one, is the specification's too.
    const workplace = json(await t().request({ url: `${API}/workplaces/${s.workplaceA}` })).properties;
    const put = await t().request({
      method: 'PUT',
      url: `${API}/workplaces/${s.workplaceA}`,
      body: { ...workplace, erpContextId: 'ERP-SUM-A' },
    });
    assert.equal(put.statusCode, 200, put.body);
    const again = await get(`/operations/${s.operationId}/specification`);
    assert.equal(again.targetWorkplace.erpContextId, 'ERP-SUM-A');
    assert.equal(again.targetCapacityGroup.erpContextId, null);
  });

  test('operation quantity summary: total first, then per workplace', async () => {
    const p = await get(`/operations/${s.operationId}/quantitySummary`);
    assert.equal(p.targetQuantity, 300);
    assert.equal(p.totalQuantity, 295);
    assert.equal(p.remainingQuantity, 25);
    assert.deepEqual(p.elements[0], {
      workplaceId: null,
      quantities: { yield: 275, scrap: 10, rework: 10, uncategorized: 0 },
      unconfirmedQuantities: null,
      totalQuantity: 295,
    });
    const byWorkplace = Object.fromEntries(
      p.elements.slice(1).map((e: { workplaceId: string }) => [e.workplaceId, e]),
    );
    assert.deepEqual(byWorkplace[s.workplaceA].quantities, {
      yield: 255,
      scrap: 10,
      rework: 10,
      uncategorized: 0,
    });
    assert.deepEqual(byWorkplace[s.workplaceB].quantities, {
      yield: 20,
      scrap: 0,
      rework: 0,
      uncategorized: 0,
    });
    assert.equal(p.elements.length, 3);
  });

  test('operation operating state summary: phase times and the workplace states while it ran', async () => {
    const p = await get(`/operations/${s.operationId}/operatingStateSummary`);
    assert.equal(p.setupTime, 30 * MIN);
    assert.equal(p.processingTime, 330 * MIN);
    assert.equal(p.interruptionTime, 30 * MIN);
    assert.equal(p.executionTime, 390 * MIN);
    assert.equal(p.timePerUnit, 72_000);
    assert.deepEqual(durations(p.elements), {
      [CODES.production]: 270 * MIN,
      [CODES.setup]: 30 * MIN,
      [CODES.maintenance]: 30 * MIN,
      [CODES.pause]: 30 * MIN,
    });
  });

  test('workplace operating state summary over the window', async () => {
    const p = await get(`/workplaces/${s.workplaceA}/operatingStateSummary?${query(WINDOW)}`);
    assert.equal(p.startDate, WINDOW.startDate);
    assert.equal(p.endDate, WINDOW.endDate);
    assert.equal(p.setupTime, 30 * MIN);
    assert.equal(p.processingTime, 330 * MIN);
    assert.equal(p.interruptionTime, 30 * MIN);
    assert.equal(p.executionTime, 390 * MIN);
    assert.equal(p.timePerUnit, 79_200);
    assert.deepEqual(durations(p.elements), {
      [CODES.production]: 330 * MIN,
      [CODES.setup]: 30 * MIN,
      [CODES.fault]: 30 * MIN,
      [CODES.maintenance]: 30 * MIN,
      [CODES.pause]: 30 * MIN,
      // 06:00-06:30: the time before A's shift is not scheduled.
      [CODES.undefined]: 30 * MIN,
    });
  });

  test('workplace quantity summary over the window', async () => {
    const p = await get(`/workplaces/${s.workplaceA}/quantitySummary?${query(WINDOW)}`);
    assert.equal(p.targetQuantity, null);
    assert.equal(p.remainingQuantity, null);
    assert.equal(p.totalQuantity, 270);
    assert.deepEqual(p.elements[0].quantities, { yield: 250, scrap: 10, rework: 10, uncategorized: 0 });
  });

  test('OEE of workplace A equals the worked example', async () => {
    const p = await get(
      `/reports/overallEquipmentEfficiency?${query({ workplaceId: s.workplaceA, ...WINDOW })}`,
    );
    assert.equal(p.plannedProductionTime, 420 * MIN);
    assert.equal(p.productionTime, 330 * MIN);
    assert.equal(p.downtime, 90 * MIN);
    assert.equal(p.idealProductionTime, 270 * MIN);
    assert.equal(p.totalQuantity, 270);
    assert.equal(p.yieldQuantity, 250);
    assert.equal(p.scrapQuantity, 10);
    const close = (actual: number, expected: number) =>
      assert.ok(Math.abs(actual - expected) < 1e-12, `${actual}`);
    close(p.availability, 330 / 420);
    close(p.performance, 270 / 330);
    close(p.quality, 250 / 270);
    close(p.qualityRate, 250 / 270);
    close(p.oee, 250 / 420);
  });

  test('OEE of the group adds up A and B (B has no shifts: the whole window is scheduled)', async () => {
    const p = await get(
      `/reports/overallEquipmentEfficiency?${query({ workplaceGroupId: s.groupId, ...WINDOW })}`,
    );
    assert.equal(p.plannedProductionTime, 1020 * MIN);
    assert.equal(p.productionTime, 330 * MIN);
    assert.equal(p.downtime, 690 * MIN);
    assert.equal(p.idealProductionTime, 290 * MIN);
    assert.equal(p.totalQuantity, 290);
    assert.equal(p.yieldQuantity, 270);
    assert.ok(Math.abs(p.oee - 270 / 1020) < 1e-12, `${p.oee}`);
  });

  test('no bookings: quality and oee are null, not 0 or a division by zero', async () => {
    const empty = { startDate: '2025-01-01T00:00:00.000Z', endDate: '2025-01-02T00:00:00.000Z' };
    const p = await get(
      `/reports/overallEquipmentEfficiency?${query({ workplaceId: s.workplaceA, ...empty })}`,
    );
    assert.equal(p.quality, null);
    assert.equal(p.performance, null);
    assert.equal(p.oee, null);
    assert.equal(p.totalQuantity, 0);
  });

  test('default period: the 24 hours up to now', async () => {
    const before = Date.now();
    const p = await get(`/workplaces/${s.workplaceA}/quantitySummary`);
    const end = Date.parse(p.endDate);
    assert.ok(end >= before - 1000, p.endDate);
    assert.equal(end - Date.parse(p.startDate), 24 * 3_600_000);
  });

  test('bad parameters are 400 naming the parameter', async () => {
    const cases: [string, string][] = [
      [
        `/workplaces/${s.workplaceA}/quantitySummary?startDate=${WINDOW.endDate}&endDate=${WINDOW.startDate}`,
        'endDate',
      ],
      [`/workplaces/${s.workplaceA}/operatingStateSummary?startDate=yesterday`, 'startDate'],
      [`/workplaces/${s.workplaceA}/operatingStateSummary?limit=3`, 'limit'],
      [
        `/workplaces/${s.workplaceA}/quantitySummary?startDate=2020-01-01T00:00:00Z&endDate=2026-01-01T00:00:00Z`,
        'startDate',
      ],
      [`/reports/overallEquipmentEfficiency?${query(WINDOW)}`, 'workplaceId'],
      [
        `/reports/overallEquipmentEfficiency?workplaceId=${s.workplaceA}&workplaceGroupId=${s.groupId}`,
        'workplaceId',
      ],
      [`/reports/overallEquipmentEfficiency?workplaceId=${s.workplaceA}&endDate=never`, 'endDate'],
    ];
    for (const [url, field] of cases) {
      const response = await t().request({ url: `${API}${url}` });
      assert.equal(response.statusCode, 400, `${url}: ${response.body}`);
      assert.equal(json(response).status, 400);
      assert.match(json(response).message, new RegExp(field), `${url}: ${response.body}`);
    }
  });

  test('unknown ids are 404', async () => {
    for (const url of [
      `/operations/${UNKNOWN}/specification`,
      `/operations/${UNKNOWN}/quantitySummary`,
      `/operations/not-a-uuid/operatingStateSummary`,
      `/workplaces/${UNKNOWN}/operatingStateSummary`,
      `/workplaces/${UNKNOWN}/quantitySummary`,
      `/reports/overallEquipmentEfficiency?workplaceId=${UNKNOWN}`,
      `/reports/overallEquipmentEfficiency?workplaceGroupId=${UNKNOWN}`,
    ]) {
      const response = await t().request({ url: `${API}${url}` });
      assert.equal(response.statusCode, 404, `${url}: ${response.body}`);
      assert.equal(json(response).code, 'NOT_FOUND');
    }
  });

  test('the read scope is enough and a token is needed', async () => {
    const url = `${API}/reports/overallEquipmentEfficiency?workplaceId=${s.workplaceA}`;
    assert.equal((await t().request({ url, scopes: ['read'] })).statusCode, 200);
    assert.equal((await t().request({ url, anonymous: true })).statusCode, 401);
  });
});
