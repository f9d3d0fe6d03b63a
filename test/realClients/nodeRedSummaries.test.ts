// Replays the requests of the Node-RED dashboard for FORCE Bridge (docs/resources/reports.md):
// its http request nodes GET these URLs, built by string concatenation in function nodes, with a
// bearer token and `Accept: application/json`, and its ui nodes read the JSON paths asserted
// here. The data is the worked example, so the values are the hand-computed ones.
import assert from 'node:assert/strict';
import { before, test } from 'node:test';
import { describeEachBackend, type TestApp } from '../support/app.ts';
import { at, buildScenario, type Scenario } from '../support/summariesScenario.ts';

const BASE = '/api/v2';

/** An http request node: method GET, the URL as the function node built it, its headers. */
async function nodeRedGet(t: TestApp, url: string) {
  const token = await t.token(['read']);
  const response = await t.app.server.inject({
    method: 'GET',
    url,
    headers: { authorization: `Bearer ${token}`, accept: 'application/json' },
  });
  assert.equal(response.statusCode, 200, `${url}: ${response.body}`);
  // The node's "return: a parsed JSON object".
  // biome-ignore lint/suspicious/noExplicitAny: the dashboard reads paths freely
  return JSON.parse(response.body) as any;
}

describeEachBackend('Node-RED dashboard: summaries and OEE', (t) => {
  let s: Scenario;
  before(async () => {
    s = await buildScenario(t(), 'NR');
  });

  test('quantity gauge: properties.totalQuantity and elements[0].quantities', async () => {
    const msg = await nodeRedGet(t(), `${BASE}/operations/${s.operationId}/quantitySummary`);
    assert.equal(msg.properties.totalQuantity, 295);
    const q = msg.properties.elements[0].quantities;
    assert.deepEqual([q.yield, q.scrap, q.rework, q.uncategorized], [275, 10, 10, 0]);
  });

  test('target times: specification', async () => {
    const msg = await nodeRedGet(t(), `${BASE}/operations/${s.operationId}/specification`);
    assert.equal(msg.properties.targetSetupTime, 1_800_000);
    assert.equal(msg.properties.targetProcessingTime, 18_000_000);
    assert.equal(msg.properties.targetTimePerUnit, 60_000);
    assert.equal(msg.properties.targetQuantity, 300);
  });

  test('actual times: operatingStateSummary', async () => {
    const msg = await nodeRedGet(t(), `${BASE}/operations/${s.operationId}/operatingStateSummary`);
    assert.equal(msg.properties.setupTime, 1_800_000);
    assert.equal(msg.properties.processingTime, 19_800_000);
    assert.equal(msg.properties.timePerUnit, 72_000);
  });

  test('OEE tile: reports/overallEquipmentEfficiency?workplaceId=..&startDate=..', async () => {
    // The function node sends the start of the day's first shift and no endDate (now).
    const msg = await nodeRedGet(
      t(),
      `${BASE}/reports/overallEquipmentEfficiency?workplaceId=${s.workplaceA}&startDate=${at('04:00')}`,
    );
    for (const name of ['oee', 'availability', 'performance', 'quality', 'qualityRate']) {
      const value = msg.properties[name];
      assert.equal(typeof value, 'number', name);
      assert.ok(value >= 0 && value <= 1, `${name} ${value}`);
    }
    assert.ok(Math.abs(msg.properties.oee - 250 / 420) < 1e-12);
    assert.ok(Math.abs(msg.properties.availability - 330 / 420) < 1e-12);
    assert.ok(Math.abs(msg.properties.performance - 270 / 330) < 1e-12);
    assert.ok(Math.abs(msg.properties.qualityRate - 250 / 270) < 1e-12);
  });
});
