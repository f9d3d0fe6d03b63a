// The reports beside the OEE and the summaries' v3 figures, against the worked example of
// docs/resources/reports.md ("Reports: worked example"): every expected number is computed by
// hand there. The example is the summaries' one with a material on the order, a quality detail
// on the scrap booking, and two bookings at the edges (05:00 before A's shift, 14:00 at the
// window's end) that no scheduled figure counts.
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { before, test } from 'node:test';
import { OPERATING_STATES } from '../../src/domain/masterData.ts';
import { describeEachBackend, json } from '../support/app.ts';
import { at, buildScenario, type Scenario, WINDOW } from '../support/summariesScenario.ts';

const API = '/api/v2';
const MIN = 60_000;
const UNKNOWN = '00000000-0000-4000-8000-000000000000';
const SCRAP_DETAIL = 'REP-SCRAP-SCRATCH';
const stateId = (code: string) => OPERATING_STATES.find((state) => state.code === code)?.id as string;
const query = (params: Record<string, string>) => new URLSearchParams(params).toString();
const close = (actual: number, expected: number) =>
  assert.ok(Math.abs(actual - expected) < 1e-12, `${actual} != ${expected}`);

type Shape = Record<string, unknown>;
/** The keys of a recorded shape that the answer lacks (properties, elements, pagination, links). */
function missingKeys(recording: string, answer: Record<string, unknown>): string[] {
  const file = new URL(`../fixtures/v3/recorded/${recording}.json`, import.meta.url);
  const shape = (JSON.parse(readFileSync(file, 'utf8')) as { shape: Shape }).shape;
  const missing: string[] = [];
  const walk = (expected: Shape, actual: Record<string, unknown>, path: string) => {
    for (const [key, value] of Object.entries(expected)) {
      if (!(key in actual)) missing.push(`${path}${key}`);
      else if (Array.isArray(value) && value[0] && Array.isArray(actual[key])) {
        for (const element of actual[key] as Record<string, unknown>[])
          walk(value[0] as Shape, element, `${path}${key}[].`);
      }
    }
  };
  for (const part of ['properties', 'pagination', '_links']) {
    if (shape[part]) walk(shape[part] as Shape, (answer[part] ?? {}) as Record<string, unknown>, `${part}.`);
  }
  return missing;
}

describeEachBackend('reports', (t) => {
  let s: Scenario;
  let orderId: string;
  const material = 'REP-MAT';
  before(async () => {
    s = await buildScenario(t(), 'REP', { material: { number: material, description: 'Gear wheel' } });
    orderId = json(await t().request({ url: `${API}/operations/${s.operationId}` })).properties
      .productionOrderId as string;
    for (const [quantity, time] of [
      [7, '05:00'],
      [9, '14:00'],
    ] as const) {
      const response = await t().request({
        method: 'POST',
        url: `${API}/operations/${s.operationId}/recordedOutputQuantities`,
        body: { quantityType: 'YIELD', quantity, timestamp: at(time), workplaceId: s.workplaceA },
      });
      assert.equal(response.statusCode, 201, response.body);
    }
    // Quality-detail bookings are another route's; the column is this report's input.
    await t().app.db.query(
      `UPDATE recorded_output_quantities SET quality_detail_id = $1
       WHERE operation_id = $2 AND quantity_type = 'SCRAP'`,
      [SCRAP_DETAIL, s.operationId],
    );
  });

  const get = async (url: string) => {
    const response = await t().request({ url: `${API}${url}`, scopes: ['read'] });
    assert.equal(response.statusCode, 200, response.body);
    return json(response);
  };
  const group = () => query({ workplaceGroupId: s.groupId, ...WINDOW });

  test('OEE: the bookings before the shift and at the window end do not count', async () => {
    const p = (
      await get(`/reports/overallEquipmentEfficiency?${query({ workplaceId: s.workplaceA, ...WINDOW })}`)
    ).properties;
    assert.equal(p.totalQuantity, 270);
    assert.equal(p.yieldQuantity, 250);
    assert.equal(p.idealProductionTime, 270 * MIN);
    close(p.oee, 250 / 420);
  });

  test('workplace operating state summary: scheduled figures and rates', async () => {
    const body = await get(`/workplaces/${s.workplaceA}/operatingStateSummary?${query(WINDOW)}`);
    assert.deepEqual(missingKeys('getWorkplaceOperatingStateSummary', body), []);
    const p = body.properties;
    assert.equal(p.scheduledOperatingTime, 480 * MIN);
    assert.equal(p.occupancyTime, 390 * MIN);
    assert.equal(p.setupTime, 30 * MIN);
    assert.equal(p.processingTime, 330 * MIN);
    assert.equal(p.productionTime, 330 * MIN);
    close(p.occupancyRate, 390 / 480);
    close(p.setupReduction, 1 - 30 / 390);
    close(p.processAvailability, 270 / 330);
    close(p.availability, 330 / 420);
    assert.equal(p.timePerUnit, 79_200);
    const byCode = Object.fromEntries(
      p.elements.map((e: { operatingState: { code: string }; duration: number; frequency: number }) => [
        e.operatingState.code,
        [e.duration / MIN, e.frequency],
      ]),
    );
    assert.deepEqual(byCode, {
      '000': [330, 3],
      '020': [30, 1],
      '110': [30, 1],
      '410': [30, 1],
      '993': [30, 1],
      '999': [30, 1], // 06:00-06:30 only: 04:00-06:00 is before the shift
    });
    assert.deepEqual(body.pagination, {
      offset: 0,
      limit: 6,
      count: 6,
      total: 6,
      firstIdentifier: null,
      lastIdentifier: null,
    });
  });

  test('workplace quantity summary: performance and both quality rates', async () => {
    const body = await get(`/workplaces/${s.workplaceA}/quantitySummary?${query(WINDOW)}`);
    assert.deepEqual(missingKeys('getWorkplaceQuantitySummary', body), []);
    const p = body.properties;
    assert.equal(p.totalQuantity, 270);
    close(p.performance, 270 / 330);
    close(p.quantityBasedQualityRate, 250 / 270);
    close(p.timeBasedQualityRate, 250 / 270);
    assert.deepEqual(p.elements[0], {
      workplaceId: null,
      quantities: { yield: 250, scrap: 10, rework: 10, uncategorized: 0 },
      unconfirmedQuantities: null,
      totalQuantity: 270,
    });
  });

  test('operation summaries: material, production time, rates, frequencies', async () => {
    const quantities = await get(`/operations/${s.operationId}/quantitySummary`);
    assert.deepEqual(missingKeys('getOperationQuantitySummary', quantities), []);
    const q = quantities.properties;
    // Its whole history: 295 of the summaries' example + 7 + 9.
    assert.equal(q.totalQuantity, 311);
    close(q.qualityRate, 291 / 311);
    assert.deepEqual(q.material, { number: material, description: 'Gear wheel', type: null });
    assert.equal(q.quantityUnit, 'pcs');
    assert.equal(q.targetTimePerUnit, MIN);
    assert.equal(q.productionTime, 270 * MIN);
    assert.equal(q.performance, 1); // 311 min ideal in 270 min: shown as 1
    assert.equal(q.timePerUnit, (330 * MIN) / 291);
    const states = await get(`/operations/${s.operationId}/operatingStateSummary`);
    assert.deepEqual(missingKeys('getOperationOperatingStateSummary', states), []);
    const o = states.properties;
    assert.equal(o.productionTime, 270 * MIN);
    close(o.setupReduction, 1 - 30 / 390);
    close(o.processAvailability, 270 / 330);
    const production = o.elements.find(
      (e: { operatingState: { code: string } }) => e.operatingState.code === '000',
    );
    assert.deepEqual([production.duration, production.frequency], [270 * MIN, 3]);
  });

  test('hit list of workplaces: A in its shift; B has no states', async () => {
    const body = await get(
      `/reports/hitListOperatingStatesWorkplace?${group()}&embed=workplaces,operatingStates`,
    );
    assert.deepEqual(missingKeys('getReportHitListOperatingStateWorkplace', body), []);
    const elements = body.properties.elements;
    assert.equal(elements.length, 6);
    assert.deepEqual(elements[0], {
      workplaceId: s.workplaceA,
      operatingStateId: stateId('000'),
      duration: 330 * MIN,
      durationPercentage: 330 / 480,
      absoluteDurationPercentage: 330 / 480,
      frequency: 3 / 8,
    });
    for (const element of elements.slice(1)) {
      assert.equal(element.duration, 30 * MIN);
      assert.equal(element.frequency, 1 / 8);
    }
    assert.deepEqual(
      body._embedded.workplaces.map((w: { properties: { id: string } }) => w.properties.id),
      [s.workplaceA],
    );
    assert.equal(body._embedded.operatingStates.length, 6);
    // Paging: two per page, the last page at offset 4.
    const page = await get(`/reports/hitListOperatingStatesWorkplace?${group()}&limit=2&offset=2`);
    assert.deepEqual(page.properties.elements, elements.slice(2, 4));
    assert.equal(page.pagination.total, 6);
    assert.match(page._links.last.href, /offset=4/);
    // Without embed, all the report's embeds, of what the page refers to.
    assert.deepEqual(Object.keys(page._embedded), ['workplaces', 'operatingStates']);
    assert.deepEqual(
      page._embedded.operatingStates.map((state: { properties: { id: string } }) => state.properties.id),
      page.properties.elements.map((element: { operatingStateId: string }) => element.operatingStateId),
    );
    assert.equal(page._links.next.href.includes('embed'), false);
    const named = await get(`/reports/hitListOperatingStatesWorkplace?${group()}&limit=2&embed=workplaces`);
    assert.deepEqual(Object.keys(named._embedded), ['workplaces']);
    // The workplace a query names is embedded though the report has nothing of it.
    const quiet = await get(
      `/reports/hitListOperatingStatesWorkplace?${query({ workplaceId: s.workplaceB, ...WINDOW })}`,
    );
    assert.deepEqual(quiet.properties.elements, []);
    assert.deepEqual(
      quiet._embedded.workplaces.map((w: { properties: { id: string } }) => w.properties.id),
      [s.workplaceB],
    );
    assert.deepEqual(quiet._embedded.operatingStates, []);
  });

  test('hit list of a material: the states while its operation ran', async () => {
    const body = await get(
      `/reports/hitListOperatingStatesMaterial?${query({ materialNumber: material, ...WINDOW })}&embed=materials`,
    );
    assert.deepEqual(missingKeys('getReportHitListOperatingStateMaterial', body), []);
    assert.deepEqual(
      body.properties.elements.map((e: Record<string, unknown>) => [
        e.materialId,
        e.operatingStateId,
        (e.duration as number) / MIN,
        e.durationPercentage,
        e.frequency,
      ]),
      [
        [material, stateId('000'), 270, 270 / 360, 3 / 6],
        ...['020', '410', '993']
          .map(stateId)
          .sort()
          .map((id) => [material, id, 30, 30 / 360, 1 / 6]),
      ],
    );
    // Embedded as /materials shows it: its own id there, elements name it by number.
    const embedded = body._embedded.materials[0];
    assert.deepEqual(embedded.properties, {
      id: embedded.properties.id,
      number: material,
      description: 'Gear wheel',
      type: null,
    });
    const response = await t().request({ url: embedded._links.self.href, scopes: ['read'] });
    assert.deepEqual(json(response), embedded);
    // The description links its literal, as the recorded material does.
    const literal = await t().request({ url: embedded._links.description.href, scopes: ['read'] });
    assert.deepEqual(json(literal).properties.translations, [
      { language: 'en-GB', translation: 'Gear wheel' },
    ]);
  });

  test('total quantity: per workplace and operation, in the scheduled time', async () => {
    const body = await get(`/reports/totalQuantity?${group()}&embed=workplaces,materials`);
    assert.deepEqual(missingKeys('getReportTotalQuantity', body), []);
    const byWorkplace = Object.fromEntries(
      body.properties.elements.map((e: { workplaceId: string }) => [e.workplaceId, e]),
    );
    assert.deepEqual(byWorkplace[s.workplaceA], {
      workplaceId: s.workplaceA,
      materialId: material,
      operationId: s.operationId,
      startDate: at('09:00'),
      endDate: at('13:00'),
      targetQuantity: 300,
      yieldQuantity: 250,
      scrapQuantity: 10,
      reworkQuantity: 10,
      totalQuantity: 270,
    });
    assert.equal(byWorkplace[s.workplaceB].totalQuantity, 20);
    assert.equal(byWorkplace[s.workplaceB].startDate, at('10:00'));
    assert.equal(body.properties.elements.length, 2);
    assert.equal(body._embedded.workplaces.length, 2);
  });

  test('quality details by workplace and by material', async () => {
    const workplace = await get(`/reports/qualityDetailsWorkplace?${group()}`);
    assert.deepEqual(missingKeys('getReportQualityDetailsWorkplace', workplace), []);
    const rows = (elements: Record<string, unknown>[], key: string) =>
      elements.map((e) => [e[key], e.qualityTypeId, e.qualityDetailId, e.quantity]);
    const [first, second] = [s.workplaceA, s.workplaceB].sort();
    const forA = [
      [s.workplaceA, 'YIELD', null, 250],
      [s.workplaceA, 'SCRAP', SCRAP_DETAIL, 10],
      [s.workplaceA, 'REWORK', null, 10],
    ];
    const forB = [[s.workplaceB, 'YIELD', null, 20]];
    assert.deepEqual(
      rows(workplace.properties.elements, 'workplaceId'),
      first === s.workplaceA ? [...forA, ...forB] : [...forB, ...forA],
    );
    assert.ok(second);
    const byMaterial = await get(
      `/reports/qualityDetailsMaterial?${query({ materialId: material, ...WINDOW })}`,
    );
    assert.deepEqual(missingKeys('getReportQualityDetailsMaterial', byMaterial), []);
    assert.deepEqual(rows(byMaterial.properties.elements, 'materialId'), [
      [material, 'YIELD', null, 270],
      [material, 'SCRAP', SCRAP_DETAIL, 10],
      [material, 'REWORK', null, 10],
    ]);
    const none = await get(`/reports/qualityDetailsWorkplace?${group()}&materialNumber=NO-SUCH-MAT`);
    assert.deepEqual(none.properties.elements, []);
  });

  test('OPE of the production order and of its material', async () => {
    for (const scope of [{ productionOrderId: orderId }, { materialId: material }] as Record<
      string,
      string
    >[]) {
      const body = await get(`/reports/overallProcessEfficiency?${query({ ...scope, ...WINDOW })}`);
      assert.deepEqual(missingKeys('getReportOverallProcessEfficiency', body), []);
      const p = body.properties;
      assert.equal(p.executionTime, 390 * MIN);
      assert.equal(p.productionTime, 270 * MIN);
      assert.equal(p.throughputTime, 390 * MIN);
      // In the window, wherever booked: 290 of the example and the 05:00 one; not 14:00.
      assert.equal(p.totalQuantity, 297);
      assert.equal(p.yieldQuantity, 277);
      close(p.setupReduction, 1 - 30 / 390);
      close(p.processAvailability, 270 / 330);
      assert.equal(p.performance, 1);
      close(p.quality, 277 / 297);
      close(p.productionProcessRatio, 270 / 390);
      assert.equal(p.schedulingEfficiency, 1);
      close(p.ope, (1 - 30 / 390) * (270 / 330) * (277 / 297));
    }
  });

  test('bad parameters are 400 naming the parameter; unknown scopes 404', async () => {
    const cases: [string, string][] = [
      [`/reports/totalQuantity?startDate=${WINDOW.endDate}&endDate=${WINDOW.startDate}`, 'endDate'],
      [`/reports/hitListOperatingStatesWorkplace?startDate=yesterday`, 'startDate'],
      [`/reports/hitListOperatingStatesMaterial?endDate=never`, 'endDate'],
      [
        `/reports/qualityDetailsMaterial?startDate=2020-01-01T00:00:00Z&endDate=2026-01-01T00:00:00Z`,
        'startDate',
      ],
      [`/reports/totalQuantity?workplaceId=${UNKNOWN}&workplaceNumber=X`, 'workplaceNumber'],
      [`/reports/qualityDetailsWorkplace?materialId=A&materialNumber=B`, 'materialNumber'],
      [`/reports/overallProcessEfficiency?${query(WINDOW)}`, 'productionOrderId'],
      [`/reports/overallProcessEfficiency?productionOrderId=${UNKNOWN}&materialId=M`, 'productionOrderId'],
      [`/reports/totalQuantity?limit=0`, 'limit'],
      [`/reports/totalQuantity?colour=red`, 'colour'],
      [`/reports/totalQuantity?embed=operations`, 'operations'],
    ];
    for (const [url, field] of cases) {
      const response = await t().request({ url: `${API}${url}` });
      assert.equal(response.statusCode, 400, `${url}: ${response.body}`);
      assert.match(json(response).message, new RegExp(field), `${url}: ${response.body}`);
    }
    for (const url of [
      `/reports/totalQuantity?workplaceId=${UNKNOWN}`,
      `/reports/hitListOperatingStatesWorkplace?workplaceGroupId=${UNKNOWN}`,
      `/reports/qualityDetailsWorkplace?workplaceNumber=NO-SUCH-WP`,
      `/reports/totalQuantity?workplaceGroupNumber=NO-SUCH-GROUP`,
      `/reports/overallProcessEfficiency?productionOrderId=${UNKNOWN}`,
    ]) {
      const response = await t().request({ url: `${API}${url}` });
      assert.equal(response.statusCode, 404, `${url}: ${response.body}`);
    }
  });

  test('a workplace and a group by number name the same workplaces as by id', async () => {
    const byId = await get(`/reports/totalQuantity?${query({ workplaceId: s.workplaceA, ...WINDOW })}`);
    const byNumber = await get(`/reports/totalQuantity?${query({ workplaceNumber: 'REP-A', ...WINDOW })}`);
    assert.deepEqual(byNumber.properties.elements, byId.properties.elements);
    const byGroupNumber = await get(
      `/reports/totalQuantity?${query({ workplaceGroupNumber: 'REP-CG', ...WINDOW })}`,
    );
    assert.equal(byGroupNumber.properties.elements.length, 2);
  });

  test('the read scope is enough and a token is needed', async () => {
    const url = `${API}/reports/totalQuantity?workplaceId=${s.workplaceA}`;
    assert.equal((await t().request({ url, scopes: ['read'] })).statusCode, 200);
    assert.equal((await t().request({ url, anonymous: true })).statusCode, 401);
  });
});

// The edges of the window and of the scheduled time, with a booking on each side of every edge:
// each quantity is a power of two, so a sum names the bookings it counted.
describeEachBackend('reports at the edges of the window and the shifts', (t) => {
  const time = (clock: string) => `2026-02-10T${clock}Z`;
  const EDGE_WINDOW = { startDate: time('05:00:00.000'), endDate: time('11:00:00.000') };
  const material = 'EDGE-MAT';
  let shifted: string;
  let unshifted: string;
  let orderId: string;
  before(async () => {
    const post = async (url: string, body: unknown) => {
      const response = await t().request({ method: 'POST', url: `${API}${url}`, body });
      assert.equal(response.statusCode, 201, response.body);
      return json(response).properties.id as string;
    };
    const groupId = await post('/workplaceGroups', { number: 'EDGE-CG', type: 'CAPACITY_GROUP' });
    shifted = await post('/workplaces', { number: 'EDGE-C', capacityGroupId: groupId });
    unshifted = await post('/workplaces', { number: 'EDGE-D', capacityGroupId: groupId });
    orderId = await post('/productionOrders', { number: 'EDGE-PO', material: { number: material } });
    const operationId = await post('/operations', {
      productionOrderId: orderId,
      number: 'EDGE-10',
      workplaceId: shifted,
      targetQuantity: 1000,
      targetTimePerUnit: 60_000,
    });
    // C works one shift inside the window, 06:00-10:00; D has none, so all of the window is its.
    await post(`/workplaces/${shifted}/shifts`, {
      startDate: time('06:00:00.000'),
      endDate: time('10:00:00.000'),
    });
    // C produces from before the window to after it.
    await t().app.db.query(
      `INSERT INTO recorded_operating_states (id, workplace_id, operating_state_id, start_date, end_date)
       VALUES ($1, $2, $3, $4, $5)`,
      [randomUUID(), shifted, stateId('000'), time('04:00:00.000'), time('12:00:00.000')],
    );
    const bookings: [number, string, string][] = [
      [1, '04:59:59.999', shifted], // before the window
      [2, '05:00:00.000', shifted], // at the window's start, before the shift
      [4, '06:00:00.000', shifted], // at the shift's start
      [8, '09:59:59.999', shifted], // the shift's last instant
      [16, '10:00:00.000', shifted], // at the shift's end
      [32, '04:59:59.999', unshifted], // before the window
      [64, '05:00:00.000', unshifted], // at the window's start
      [128, '10:59:59.999', unshifted], // the window's last instant
      [256, '11:00:00.000', unshifted], // at the window's end
    ];
    for (const [quantity, clock, workplaceId] of bookings) {
      await post(`/operations/${operationId}/recordedOutputQuantities`, {
        quantityType: 'YIELD',
        quantity,
        timestamp: time(clock),
        workplaceId,
      });
    }
  });

  const get = async (url: string) => {
    const response = await t().request({ url: `${API}${url}`, scopes: ['read'] });
    assert.equal(response.statusCode, 200, response.body);
    return json(response);
  };
  const of = (workplaceId: string) => query({ workplaceId, ...EDGE_WINDOW });

  test('a booking at a start counts, at an end or outside does not; times cut at the same edges', async () => {
    const totals = async (workplaceId: string) =>
      (await get(`/reports/totalQuantity?${of(workplaceId)}`)).properties.elements.map(
        (e: Record<string, unknown>) => [e.totalQuantity, e.startDate, e.endDate],
      );
    assert.deepEqual(await totals(shifted), [[4 + 8, time('06:00:00.000'), time('09:59:59.999')]]);
    assert.deepEqual(await totals(unshifted), [[64 + 128, time('05:00:00.000'), time('10:59:59.999')]]);

    const details = async (url: string) =>
      (await get(url)).properties.elements.map((e: Record<string, unknown>) => e.quantity);
    assert.deepEqual(await details(`/reports/qualityDetailsWorkplace?${of(shifted)}`), [12]);
    assert.deepEqual(await details(`/reports/qualityDetailsWorkplace?${of(unshifted)}`), [192]);
    assert.deepEqual(
      await details(`/reports/qualityDetailsMaterial?${query({ materialId: material, ...EDGE_WINDOW })}`),
      [12 + 192],
    );

    // C: the shift is its scheduled time; its production state counts only there, as its pieces do.
    const oee = (await get(`/reports/overallEquipmentEfficiency?${of(shifted)}`)).properties;
    assert.equal(oee.plannedProductionTime, 240 * MIN);
    assert.equal(oee.productionTime, 240 * MIN);
    assert.equal(oee.totalQuantity, 12);
    assert.equal(oee.idealProductionTime, 12 * MIN);
    const hits = (await get(`/reports/hitListOperatingStatesWorkplace?${of(shifted)}`)).properties.elements;
    assert.deepEqual(
      hits.map((e: Record<string, unknown>) => [e.operatingStateId, e.duration, e.durationPercentage]),
      [[stateId('000'), 240 * MIN, 1]],
    );
    assert.equal(
      (await get(`/reports/overallEquipmentEfficiency?${of(unshifted)}`)).properties.totalQuantity,
      192,
    );

    // The OPE counts the bookings in the window wherever booked, the shift aside: not 1, 32, 256.
    const ope = await get(
      `/reports/overallProcessEfficiency?${query({ productionOrderId: orderId, ...EDGE_WINDOW })}`,
    );
    assert.equal(ope.properties.totalQuantity, 2 + 4 + 8 + 16 + 64 + 128);
  });
});
