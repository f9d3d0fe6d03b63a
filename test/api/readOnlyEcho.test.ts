// GET-modify-PUT round trips over every PUT route of the app (docs/api.md, "Read-only
// properties" under "Errors"): a client GETs a resource, changes one writable field and PUTs the whole
// `properties` back: 200. Changing a read-only property instead is 400 READ_ONLY_PROPERTY
// naming it, and changes nothing stored. The PUT routes come from the route table, so a new one
// fails here until it has a fixture (or is listed as not taking a resource body).
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

const V = '/api/v2';

// PUT routes whose body is not a resource's properties.
const NOT_RESOURCE_BODIES: Record<string, string> = {
  '/documents/:id/file': 'raw bytes of the file',
  '/fileRepository/documents/:id/file': 'a file as multipart/form-data or raw bytes',
  '/workplaces/:id/shifts': 'a shift plan for a period (bulk)',
  '/tickets/:id/attachments/:attachmentId/data': 'the bytes of the attachment',
  '/tickets/:id/activities/:activityId/attachments/:attachmentId/data': 'the bytes of the attachment',
  '/tools/:id/characteristics': 'a list of characteristics (the SDK sends a JSON array)',
  '/tools/:id/edges/:edgeId/characteristics': 'a list of characteristics (the SDK sends a JSON array)',
  // Its GET answer sent back unchanged is taken: test/api/v3SubResources.test.ts.
  '/productionOrders/:id/scheduledDates': 'a scheduling result for the order and its operations (bulk)',
  // Its GET answer sent back with a change is taken: test/api/planning.test.ts.
  '/staffMembers/:id/shifts/:shiftId/planningResult': "the shift's assignments as a list (elements)",
};

async function created(t: TestApp, url: string, body: Record<string, unknown>): Promise<string> {
  const response = await t.request({ method: 'POST', url: `${V}${url}`, body });
  assert.equal(response.statusCode, 201, response.body);
  return json(response).properties.id;
}

/** One resource behind each PUT route (the route's path without the version). */
async function fixtures(t: TestApp): Promise<Record<string, string>> {
  const workplaceId = await createWorkplace(t, 'ECHO-WP');
  const workplace = json(await t.request({ url: `${V}/workplaces/${workplaceId}` })).properties;
  const operationId = await createOperation(t, 'ECHO-OP', { description: 'first', workplaceId });
  const operation = json(await t.request({ url: `${V}/operations/${operationId}` })).properties;
  const staffMemberId = await createStaffMember(t, 'ECHO-SM');
  const order = await t.request({
    method: 'POST',
    url: `${V}/tools/assemblyOrders`,
    body: { toolDescription: 'Echo drill' },
  });
  assert.equal(order.statusCode, 201, order.body);
  const toolId = json(order).properties.toolId;
  const edgeId = await created(t, `/tools/${toolId}/edges`, { identifier: 'Echo edge' });
  const located = await t.request({
    method: 'PUT',
    url: `${V}/tools/${toolId}/location`,
    body: { workplaceId, magazineNumber: 1, magazinePlace: 2 },
  });
  assert.equal(located.statusCode, 200, located.body);
  const documentId = await created(t, '/documents', { name: 'echo.txt', folder: '/Echo' });
  const upload = await t.request({
    method: 'PUT',
    url: `${V}/documents/${documentId}/file`,
    body: 'hello',
    headers: { 'content-type': 'text/plain' },
  });
  assert.equal(upload.statusCode, 200, upload.body);
  const deviceId = await created(t, '/devices', { name: 'Echo PLC', type: 'PLC', workplaceId });
  const shiftId = await created(t, `/workplaces/${workplaceId}/shifts`, {
    name: 'Early',
    startDate: '2030-01-01T06:00:00.000Z',
    endDate: '2030-01-01T14:00:00.000Z',
  });
  const maintenanceId = await created(t, `/workplaces/${workplaceId}/scheduledMaintenances`, {
    description: 'Oil change',
    startDate: '2030-01-02T06:00:00.000Z',
    endDate: '2030-01-02T08:00:00.000Z',
  });
  const setupRuleId = await created(t, `/workplaceGroups/${workplace.capacityGroupId}/setupTransitionRules`, {
    origin: 'MANUAL_DATA_MAINTENANCE',
    criterion: 'MATERIAL_NUMBER',
    predecessorConditions: 'M-1',
    successorConditions: 'M-2',
    setupTime: 60_000,
  });
  const variantRuleId = await created(
    t,
    `/workplaceGroups/${workplace.capacityGroupId}/manufacturingVariantRules`,
    {
      origin: 'MANUAL_DATA_MAINTENANCE',
      criterion: 'MATERIAL_NUMBER',
      conditions: 'M-1',
      workplaceIds: [workplaceId],
      tools: [{ id: 'T-1', name: 'Face mill' }],
      forecastedDelays: { processAvailability: 0.9, performance: 1, qualityRate: 0.95 },
    },
  );
  const forecast = await t.request({
    method: 'PUT',
    url: `${V}/operations/${operationId}/forecastResult`,
    body: { workplaceId, startDate: '2030-01-03T06:00:00.000Z', endDate: '2030-01-03T08:00:00.000Z' },
  });
  assert.ok([200, 201].includes(forecast.statusCode), forecast.body);
  const planned = await t.request({
    method: 'PUT',
    url: `${V}/operations/${operationId}/planningResult`,
    body: { workplaceId, startDate: '2030-01-04T06:00:00.000Z', endDate: '2030-01-04T08:00:00.000Z' },
  });
  assert.ok([200, 201].includes(planned.statusCode), planned.body);
  // Disabled: no instance connects to its broker while the round trip runs.
  const connectorId = await created(t, '/connectors', {
    name: 'Echo press',
    type: 'MQTT',
    url: 'mqtt://127.0.0.1:1883',
    enabled: false,
    mappings: [
      {
        source: { topic: 'echo/state' },
        target: { kind: 'OPERATING_STATE', workplaceId, values: { RUN: '000' } },
      },
    ],
  });
  const ticketId = await created(t, '/tickets', { title: 'Echo ticket', priority: 'LOW', workplaceId });
  const activityId = await created(t, `/tickets/${ticketId}/activities`, { title: 'Echo activity' });
  return {
    '/tickets/:id': `/tickets/${ticketId}`,
    '/tickets/:id/activities/:activityId': `/tickets/${ticketId}/activities/${activityId}`,
    '/workplaceGroups/:id': `/workplaceGroups/${workplace.capacityGroupId}`,
    '/workplaces/:id': `/workplaces/${workplaceId}`,
    '/workplaces/:id/location': `/workplaces/${workplaceId}/location`,
    '/productionOrders/:id': `/productionOrders/${operation.productionOrderId}`,
    '/operations/:id': `/operations/${operationId}`,
    '/operations/:id/forecastResult': `/operations/${operationId}/forecastResult`,
    '/operations/:id/planningResult': `/operations/${operationId}/planningResult`,
    '/staffMembers/:id': `/staffMembers/${staffMemberId}`,
    '/tools/:id': `/tools/${toolId}`,
    '/tools/:id/edges/:edgeId': `/tools/${toolId}/edges/${edgeId}`,
    '/tools/:id/location': `/tools/${toolId}/location`,
    '/documents/:id': `/documents/${documentId}`,
    '/devices/:id': `/devices/${deviceId}`,
    '/connectors/:id': `/connectors/${connectorId}`,
    '/workplaces/:id/shifts/:shiftId': `/workplaces/${workplaceId}/shifts/${shiftId}`,
    '/workplaces/:id/scheduledMaintenances/:scheduledMaintenanceId': `/workplaces/${workplaceId}/scheduledMaintenances/${maintenanceId}`,
    '/workplaceGroups/:id/setupTransitionRules/:setupTransitionRuleId': `/workplaceGroups/${workplace.capacityGroupId}/setupTransitionRules/${setupRuleId}`,
    '/workplaceGroups/:id/manufacturingVariantRules/:manufacturingVariantRuleId': `/workplaceGroups/${workplace.capacityGroupId}/manufacturingVariantRules/${variantRuleId}`,
  };
}

// Read-only properties the real clients send back (docs/api.md, "Errors").
const ECHOED_BY_CLIENTS: Record<string, string[]> = {
  '/workplaces/:id': ['operatingState'],
  '/operations/:id': ['operationPhaseId'],
  '/tools/:id': ['toolStateId'],
  '/documents/:id': ['contentType', 'size', 'version'],
  '/operations/:id/forecastResult': ['operationId'],
  '/operations/:id/planningResult': ['operationId'],
};

type Schema = { properties?: Record<string, Schema>; description?: string; type?: string | string[] };

/** The PUT body schema of a route as the OpenAPI document gives it. */
function bodySchema(openapi: ReturnType<typeof json>, path: string): Schema {
  const openapiPath = `${V}${path}`.replace(/:(\w+)/g, '{$1}');
  const schema = openapi.paths[openapiPath]?.put?.requestBody?.content?.['application/json']?.schema;
  assert.ok(schema, `no PUT body schema for ${openapiPath}`);
  return schema;
}

/** A different value for one writable field: a text field, else a flag. */
function changeWritable(properties: Record<string, unknown>, body: Schema): [string, unknown] {
  const fields = body.properties ?? {};
  for (const name of ['description', 'name', 'lastName', 'identifier']) {
    if (fields[name] && !fields[name].description?.startsWith('Read-only')) {
      return [name, `${String(properties[name] ?? '')} changed`];
    }
  }
  if (fields.fixed) return ['fixed', !properties.fixed];
  if (fields.magazinePlace) return ['magazinePlace', Number(properties.magazinePlace ?? 0) + 1];
  if (fields.successorConditions)
    return ['successorConditions', `${String(properties.successorConditions)}-B`];
  if (fields.conditions) return ['conditions', `${String(properties.conditions)}-B`];
  if (fields.geoCoordinates)
    return ['geoCoordinates', properties.geoCoordinates ? null : { latitude: 1.5, longitude: 2.5 }];
  assert.fail(`no writable field to change among ${Object.keys(fields).join(', ')}`);
}

/** A value different from the stored one, of the same JSON shape where that is easy. */
function otherValue(value: unknown): unknown {
  if (typeof value === 'string') return `${value}-x`;
  if (typeof value === 'number') return value + 1;
  if (typeof value === 'boolean') return !value;
  if (value === null) return 'not-null';
  if (Array.isArray(value)) return [...value, 'x'];
  return { ...(value as object), extra: 'x' };
}

describeEachBackend('GET-modify-PUT round trips with read-only properties', (t) => {
  test('every PUT route takes back its GET properties; a changed read-only one is 400', async () => {
    const urls = await fixtures(t());
    const openapi = json(await t().request({ url: '/api/openapi.json' }));
    const putPaths = t()
      .app.server.routeTable.filter((route) => route.method === 'PUT' && route.url.startsWith(`${V}/`))
      .map((route) => route.url.slice(V.length))
      .filter((path) => !(path in NOT_RESOURCE_BODIES));
    assert.deepEqual(
      putPaths.filter((path) => !(path in urls)),
      [],
      'PUT routes without a fixture',
    );
    assert.deepEqual([...putPaths].sort(), Object.keys(urls).sort(), 'fixtures without a PUT route');

    let readOnlyChecked = 0;
    for (const path of putPaths) {
      const url = `${V}${urls[path]}`;
      const before = json(await t().request({ url })).properties;
      const body = bodySchema(openapi, path);
      const readOnly = Object.entries(body.properties ?? {})
        .filter(([, field]) => field.description?.startsWith('Read-only:'))
        .map(([name]) => name);
      // Those that change on their own (a connector's status) are taken back whatever their value.
      const changing = Object.entries(body.properties ?? {})
        .filter(([, field]) => field.description?.startsWith('Read-only, changes on its own'))
        .map(([name]) => name);
      for (const name of ECHOED_BY_CLIENTS[path] ?? []) assert.ok(readOnly.includes(name), `${path} ${name}`);

      const [field, value] = changeWritable(before, body);
      const put = await t().request({ method: 'PUT', url, body: { ...before, [field]: value } });
      assert.equal(put.statusCode, 200, `${path}: ${put.body}`);
      assert.deepEqual(json(put).properties[field], value, path);
      const stored = json(await t().request({ url })).properties;
      assert.deepEqual(stored[field], value, path);

      for (const name of readOnly) {
        const refused = await t().request({
          method: 'PUT',
          url,
          body: { ...stored, [name]: otherValue(stored[name]) },
        });
        assert.equal(refused.statusCode, 400, `${path} ${name}: ${refused.body}`);
        assert.equal(json(refused).code, 'READ_ONLY_PROPERTY', path);
        assert.match(json(refused).message, new RegExp(`'${name}'`), path);
        readOnlyChecked += 1;
      }
      assert.deepEqual(json(await t().request({ url })).properties, stored, `${path}: nothing changed`);
      for (const name of changing) {
        const taken = await t().request({
          method: 'PUT',
          url,
          body: { ...stored, [name]: otherValue(stored[name]) },
        });
        assert.equal(taken.statusCode, 200, `${path} ${name}: ${taken.body}`);
        assert.deepEqual(
          json(await t().request({ url })).properties[name],
          stored[name],
          `${path} ${name} ignored`,
        );
        readOnlyChecked += 1;
      }

      const unknown = await t().request({ method: 'PUT', url, body: { ...stored, noSuchProperty: 1 } });
      assert.equal(unknown.statusCode, 400, path);
      assert.equal(json(unknown).code, 'UNKNOWN_FIELD', path);
    }
    assert.ok(readOnlyChecked >= putPaths.length, `read-only properties checked: ${readOnlyChecked}`);
  });
});
