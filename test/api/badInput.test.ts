// The bad-input set, generated over the route table and the OpenAPI document, so a new route is
// covered the day it is registered: every protected route under /api/v1 and /api/v2 gets broken
// JSON, wrong body shapes, wrong field types, unknown fields, oversized strings, foreign content
// types, bad paging and embed parameters and bad ids. Whatever the input, the answer is never a
// 5xx, every error has exactly the body {status, code, message}, and nothing stored changes.
//
// Inputs that hit a known gap in src/ outside the validation layer are listed in KNOWN_GAPS: the
// main suite leaves them out (they would change data) and a second suite runs them as TODO tests
// that assert what the contract wants. Delete a gap's entry once it is fixed.
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { before, test } from 'node:test';
import { Ajv, type AnySchema } from 'ajv';
import addFormats from 'ajv-formats';
import type { LightMyRequestResponse } from 'fastify';
import type { RouteEntry } from '../../src/http/server.ts';
import { describeEachBackend, json, type TestApp } from '../support/app.ts';
import { sweepSkip } from '../support/suite.ts';

// No deliveries: the fixture's events must not leave the process.
const ENV = { BRIDGE_DELIVERY_ENABLED: 'false', BRIDGE_CONNECTORS_ENABLED: 'false' };
const TABLES = [
  'workplace_groups',
  'workplaces',
  'recorded_operating_states',
  'events',
  'callbacks',
  'production_orders',
  'operations',
  'recorded_operation_phases',
  'staff_members',
  'staff_member_workplaces',
  'recorded_staff_activities',
  'tools',
  'tool_assembly_orders',
  'tool_edges',
  'tool_characteristics',
  'documents',
  'document_versions',
  'document_folders',
  'devices',
  'recorded_time_series',
  'operation_forecast_results',
  'operation_planning_results',
  'staff_member_planning_results',
  'planning_scenarios',
  'predicted_malfunction_scenarios',
  'shifts',
  'scheduled_maintenances',
  'recorded_output_quantities',
  'connectors',
  'commands',
  'tickets',
  'ticket_activities',
  'ticket_activity_remarks',
  'ticket_attachments',
];
const JSON_TYPE = { 'content-type': 'application/json' };

interface Expect {
  /** Acceptable statuses; the first one is the contract's answer. */
  status: number[];
  /** The error code, where the input alone decides it. */
  code?: string;
}

interface Case {
  route: string;
  input: string;
  method: string;
  url: string;
  headers: Record<string, string>;
  payload?: string;
  expect: Expect;
}

interface Gap {
  bug: string;
  /** Route keys without version prefix, e.g. `DELETE /workplaces/:id`. */
  routes: string[] | 'any';
  /** Input names, see casesFor. */
  inputs: RegExp[];
}

const KNOWN_GAPS: Gap[] = [];

const gapOf = (c: Case) =>
  KNOWN_GAPS.find(
    (gap) =>
      (gap.routes === 'any' || gap.routes.includes(c.route)) &&
      gap.inputs.some((pattern) => pattern.test(c.input)),
  );

// ---------------------------------------------------------------------------------------------
// What the routes look like: the route table, and their schemas from the served OpenAPI document.

interface OpenApiParameter {
  in: string;
  name: string;
  schema: JsonSchema;
}
interface OpenApiOperation {
  parameters?: OpenApiParameter[];
  requestBody?: { content?: Record<string, { schema?: JsonSchema }> };
}
interface JsonSchema {
  type?: string | string[];
  properties?: Record<string, JsonSchema>;
  items?: JsonSchema;
  anyOf?: JsonSchema[];
  maxLength?: number;
  format?: string;
  [keyword: string]: unknown;
}
type OpenApi = { paths: Record<string, Record<string, OpenApiOperation>> };

const VERSIONED = /^\/api\/v[12](?=\/|$)/;
/** `GET /api/v1/workplaces/:id` -> `GET /workplaces/:id` (v1 answers as v2). */
const routeKey = (route: RouteEntry) => `${route.method} ${route.url.replace(VERSIONED, '') || '/'}`;

const apiRoutes = (testApp: TestApp) =>
  testApp.app.server.routeTable.filter((route) => !route.public && VERSIONED.test(route.url));

function operationOf(openapi: OpenApi, route: RouteEntry): OpenApiOperation | undefined {
  // OpenAPI lists v2 only; v1 is the same API under another prefix. HEAD is GET without a body.
  const path = route.url.replace(VERSIONED, '/api/v2').replace(/:(\w+)/g, '{$1}');
  const method = route.method === 'HEAD' ? 'get' : route.method.toLowerCase();
  return openapi.paths[path]?.[method];
}

// Test-side mirrors of the service's validators, only to tell which candidate values a schema
// refuses (the service must then refuse them too).
const bodyAjv = new Ajv({ strict: false, validateFormats: false });
const queryAjv = addFormats.default(new Ajv({ strict: false, coerceTypes: 'array' }));
const refuses = (ajv: Ajv, schema: JsonSchema, value: unknown) => !ajv.validate(schema as AnySchema, value);

const stringBranches = (schema: JsonSchema): JsonSchema[] =>
  schema.anyOf ? schema.anyOf.flatMap(stringBranches) : schema.type === 'string' ? [schema] : [];

// ---------------------------------------------------------------------------------------------
// Real data the routes can find, so ":params" name something that exists.

interface Fixture {
  /** Real ids by the collection segment in front of the parameter. */
  ids: Record<string, string>;
  /** Bodies a route would accept; a bad input changes one thing in them. */
  /** A body each route takes: an object, or a list of objects where the route takes a list. */
  validBodies: Record<string, Record<string, unknown> | Record<string, unknown>[]>;
}

/** `tag` keeps the numbers of several fixtures in one database apart. */
async function createFixture(testApp: TestApp, tag = ''): Promise<Fixture> {
  const created = async (url: string, body: unknown) => {
    const response = await testApp.request({ method: 'POST', url, body });
    assert.ok([200, 201].includes(response.statusCode), `${url}: ${response.body}`);
    return json(response).properties as Record<string, string>;
  };
  const group = await created('/api/v2/workplaceGroups', { number: `BI-G1${tag}`, type: 'CAPACITY_GROUP' });
  const workplace = await created('/api/v2/workplaces', { number: `BI-W1${tag}`, capacityGroupId: group.id });
  // A second operating state gives the workplace a history with more than one record.
  await created(`/api/v2/workplaces/${workplace.id}/operatingState/110`, undefined);
  const history = json(
    await testApp.request({ url: `/api/v2/workplaces/${workplace.id}/recordedOperatingStates` }),
  );
  const callback = await created('/api/v2/callbacks', {
    eventType: 'WORKPLACE_CREATED',
    url: 'http://192.0.2.1/bad-input',
  });
  const states = json(await testApp.request({ url: '/api/v2/masterData/operatingStates' }));
  const groupId = String(group.id);
  const workplaceId = String(workplace.id);

  // The rest of the plant, one of each, so every ":param" names something real. Dates lie in
  // 2099: the shift clock must not announce anything while the cases run.
  const order = await created('/api/v2/productionOrders', {
    number: `BI-PO1${tag}`,
    material: { number: `BI-M1${tag}` },
  });
  const operation = await created('/api/v2/operations', { productionOrderId: order.id, number: 'BI-OP1' });
  const idleOperation = await created('/api/v2/operations', {
    productionOrderId: order.id,
    number: 'BI-OP2',
  });
  const phases = json(
    await testApp.request({ url: `/api/v2/operations/${operation.id}/recordedOperationPhases` }),
  );
  const staff = await created('/api/v2/staffMembers', {
    staffNumber: `BI-S1${tag}`,
    firstName: 'A',
    lastName: 'B',
    assignedWorkplaceIds: [workplaceId],
  });
  const activity = await created(`/api/v2/staffMembers/${staff.id}/activities`, {
    operationId: operation.id,
    workplaceId,
    activity: 'STARTED',
  });
  const assemblyOrder = await created('/api/v2/tools/assemblyOrders', { toolDescription: 'BI tool' });
  const edge = await created(`/api/v2/tools/${assemblyOrder.toolId}/edges`, {
    identifier: 'BI-E1',
    characteristics: [{ name: 'Diameter', identifier: 'DC', value: '8' }],
  });
  const document = await created('/api/v2/documents', { name: `bi${tag}.txt`, folder: '/bad-input' });
  const folder = await created('/api/v2/fileRepository/folders', { name: `bi-folder${tag}` });
  const device = await created('/api/v2/devices', {
    name: `BI-D1${tag}`,
    type: 'PLC',
    workplaceId,
    recordedPhysicalQuantities: [{ tag: 'temp' }],
  });
  await created(`/api/v2/devices/${device.id}/recordedTimeSeries`, {
    elements: [{ tag: 'temp', timestamp: '2099-01-01T00:00:00.000Z', value: 1 }],
  });
  const samples = json(await testApp.request({ url: `/api/v2/devices/${device.id}/recordedTimeSeries` }));
  const period = { startDate: '2099-03-01T06:00:00.000Z', endDate: '2099-03-01T14:00:00.000Z' };
  const shift = await created(`/api/v2/workplaces/${workplaceId}/shifts`, { name: 'BI', ...period });
  const maintenance = await created(`/api/v2/workplaces/${workplaceId}/scheduledMaintenances`, {
    description: 'BI',
    ...period,
  });
  const setupRule = await created(`/api/v2/workplaceGroups/${group.id}/setupTransitionRules`, {
    origin: 'MANUAL_DATA_MAINTENANCE',
    criterion: 'MATERIAL_NUMBER',
    predecessorConditions: 'BI-M1',
    successorConditions: 'BI-M2',
    setupTime: 1000,
  });
  const variantRule = await created(`/api/v2/workplaceGroups/${group.id}/manufacturingVariantRules`, {
    origin: 'MANUAL_DATA_MAINTENANCE',
    criterion: 'MATERIAL_NUMBER',
    conditions: 'BI-M1',
    workplaceIds: [workplaceId],
  });
  const scenario = await created('/api/v2/operations/planningScenarios', { name: 'BI', assignments: [] });
  const prediction = await created('/api/v2/workplaces/predictedMalfunctionScenarios', {
    workplaceId,
    probability: 0.5,
    ...period,
  });
  const quantity = await created(`/api/v2/operations/${operation.id}/recordedOutputQuantities`, {
    quantity: 1,
    quantityType: 'YIELD',
    timestamp: '2099-01-01T00:00:00.000Z',
  });
  const connectorBody = {
    name: `BI-C1${tag}`,
    type: 'MQTT',
    url: 'mqtt://127.0.0.1:1883',
    enabled: false,
    mappings: [
      { source: { topic: 'bi/temp' }, target: { kind: 'DEVICE_SAMPLE', deviceId: device.id, tag: 'temp' } },
    ],
  };
  const connector = await created('/api/v2/connectors', connectorBody);
  const command = await created('/api/v2/commands?async=false', {
    type: 'OPERATION_QUANTITY',
    operationId: operation.id,
    quantity: 1,
    qualityDetailId: 'YIELD',
  });
  const ticket = await created('/api/v2/tickets', { title: 'BI', priority: 'LOW', workplaceId });
  const ticketActivity = await created(`/api/v2/tickets/${ticket.id}/activities`, { title: 'BI' });
  const ticketRemark = await created(`/api/v2/tickets/${ticket.id}/activities/${ticketActivity.id}/remarks`, {
    remark: 'BI',
  });
  const ticketAttachment = await created(`/api/v2/tickets/${ticket.id}/attachments`, { description: 'BI' });
  const events = json(await testApp.request({ url: '/api/v2/events?limit=1' }));
  const materials = json(await testApp.request({ url: '/api/v2/materials?limit=1' }));
  const result = { workplaceId, ...period };
  return {
    ids: {
      workplaceGroups: groupId,
      workplaces: workplaceId,
      recordedOperatingStates: String(history._embedded.recordedOperatingStates[0].properties.id),
      operatingStates: String(states._embedded.operatingStates[0].properties.id),
      workplaceStates: 'PRODUCTION',
      operationPhases: 'RELEASED',
      toolAssemblyOrderStates: 'REQUESTED',
      // Not the current state (110): a wrongly accepted request would change it.
      operatingState: '010',
      callbacks: String(callback.id),
      productionOrders: String(order.id),
      operations: String(operation.id),
      // Allowed from RELEASED, so a wrongly accepted request would change the phase.
      ':operationPhaseId': 'DISPATCHED',
      recordedOperationPhases: String(phases._embedded.recordedOperationPhases[0].properties.id),
      staffMembers: String(staff.id),
      recordedActivities: String(activity.id),
      tools: String(assemblyOrder.toolId),
      // The tool is still assembling: a wrongly accepted state command would change it.
      ':toolStateId': 'AVAILABLE',
      edges: String(edge.id),
      assemblyOrders: String(assemblyOrder.id),
      ':toolAssemblyOrderStateId': 'INITIATED',
      documents: String(document.id),
      folders: String(folder.id),
      versions: '1',
      devices: String(device.id),
      recordedTimeSeries: String(samples._embedded.recordedTimeSeries[0].properties.id),
      shifts: String(shift.id),
      scheduledMaintenances: String(maintenance.id),
      setupTransitionRules: String(setupRule.id),
      manufacturingVariantRules: String(variantRule.id),
      planningScenarios: String(scenario.id),
      predictedMalfunctionScenarios: String(prediction.id),
      events: String(events._embedded.events[0].properties.id),
      recordedOutputQuantities: String(quantity.id),
      connectors: String(connector.id),
      // Master data kept in the database: seeded entries (migration 030) and what orders name.
      operatingStateClasses: '29ADD1E980304CD2AE2E381B929AAFF7',
      operationProductionStates: 'PRODUCTION',
      shiftTypes: 'B2000D67169941CCAD650A552EB1317C',
      customerSpecificSettings: 'b',
      erpContexts: 'BF0268C3CAFD4430B85485FB35FEE00D',
      literals: 'CFE58B7E9A754947AE66E37A9A8F2D51',
      materials: String(materials._embedded.materials[0].properties.id),
      commands: String(command.id),
      tickets: String(ticket.id),
      activities: String(ticketActivity.id),
      remarks: String(ticketRemark.id),
      attachments: String(ticketAttachment.id),
      // Allowed from NEW, so a wrongly accepted request would change the state.
      ':ticketStateId': 'IN_PROGRESS',
      ':ticketActivityStateId': 'IN_PROGRESS',
      // A machine has its workplace's id; PRODUCTION is not the current state (110).
      machines: workplaceId,
      ':machineStateId': 'PRODUCTION',
    },
    // Each differs from what is stored, so a wrongly accepted request would change something.
    validBodies: {
      'POST /workplaceGroups': { number: `BI-NEW-G${tag}`, type: 'PRODUCTION_LINE' },
      'PUT /workplaceGroups/:id': { number: `BI-G1${tag}`, type: 'CAPACITY_GROUP', description: 'changed' },
      'POST /workplaces': { number: `BI-NEW-W${tag}`, capacityGroupId: groupId },
      'PUT /workplaces/:id': { number: `BI-W1${tag}`, capacityGroupId: groupId, description: 'changed' },
      'POST /callbacks': { eventType: 'WORKPLACE_DELETED', url: 'http://192.0.2.1/other' },
      'POST /clients': { name: `BI-CLIENT${tag}`, scopes: ['read'] },
      'POST /events': { eventType: 'EXTERNAL', data: { bad: 'input' } },
      'POST /productionOrders': { number: `BI-PO2${tag}` },
      'PUT /productionOrders/:id': { number: `BI-PO1${tag}`, description: 'changed' },
      'PUT /productionOrders/:id/scheduledDates': { scheduledStartDate: '2099-05-01T00:00:00.000Z' },
      'POST /productionOrders/search': { productionOrderNumbers: [`BI-PO1${tag}`] },
      'POST /operations': { productionOrderId: order.id, number: 'BI-OP3' },
      'PUT /operations/:id': { productionOrderId: order.id, number: 'BI-OP1', description: 'changed' },
      'POST /operations/search': { operationPhaseIds: ['RELEASED'] },
      'POST /operations/:id/:operationPhaseId': {},
      'POST /staffMembers': { staffNumber: `BI-S2${tag}`, firstName: 'C', lastName: 'D' },
      'PUT /staffMembers/:id': { staffNumber: `BI-S1${tag}`, firstName: 'A', lastName: 'changed' },
      'POST /staffMembers/:id/activities': {
        operationId: idleOperation.id,
        workplaceId,
        activity: 'STARTED',
      },
      'POST /tools/assemblyOrders': { toolDescription: 'BI tool 2' },
      'PUT /tools/:id': { number: `BI-T1${tag}`, description: 'changed' },
      'POST /tools': { identifier1: `BI-T2${tag}` },
      'POST /tools/:id/edges': { identifier: 'BI-E2' },
      'PUT /tools/:id/edges/:edgeId': { identifier: 'changed' },
      'PUT /tools/:id/characteristics': [{ name: 'Length', identifier: 'OAL', value: '80' }],
      'PUT /tools/:id/edges/:edgeId/characteristics': [{ name: 'Length', identifier: 'OAL', value: '9' }],
      'PUT /tools/:id/location': { workplaceId, magazinePlace: 2 },
      'PUT /workplaces/:id/location': { geoCoordinates: { latitude: 1, longitude: 2 } },
      'POST /documents': { name: `bi-new${tag}.txt`, folder: '/bad-input' },
      'PUT /documents/:id': { name: `bi${tag}.txt`, folder: '/bad-input', description: 'changed' },
      'POST /fileRepository/folders': { name: `bi-new-folder${tag}`, parentFolderId: folder.id },
      'POST /fileRepository/folders/:id/documents': {
        origin: 'CREATED_EXTERNALLY',
        type: 'txt',
        name: 'bi-new.txt',
      },
      'POST /devices': { name: `BI-D2${tag}`, type: 'PLC', workplaceId },
      'PUT /devices/:id': { name: `BI-D1${tag}`, type: 'PLC', workplaceId, description: 'changed' },
      'POST /devices/:id/recordedTimeSeries': {
        elements: [{ tag: 'temp', timestamp: '2099-01-02T00:00:00.000Z', value: 2 }],
      },
      'POST /operations/:id/recordedOutputQuantities': { quantity: 1, quantityType: 'YIELD' },
      'POST /operations/:id/qualityDetails': { quantity: 1, qualityDetailId: SCRAP_DETAIL },
      'POST /machines/:id/counterIncrease': { count: 1 },
      'POST /machines/:id/strokes': { strokes: 1 },
      'POST /machines/:id/quantitiesWithQualityDetails': { quantity: 1, qualityDetailId: SCRAP_DETAIL },
      'POST /workplaces/:id/recordedOperatingStates/update': { operatingStateId: '010', startDate: PAST },
      'POST /operations/:id/recordedOperatingStates/update': { operatingStateId: '010', startDate: PAST },
      'POST /workplaces/:id/machine/recordedMachineStateDetails/update': {
        machineStateDetailIds: [MALFUNCTION_DETAIL],
        startDate: PAST,
      },
      'POST /workplaces/:id/shifts': {
        startDate: '2099-03-02T06:00:00.000Z',
        endDate: '2099-03-02T14:00:00.000Z',
      },
      'PUT /workplaces/:id/shifts': {
        startDate: '2099-04-01T00:00:00.000Z',
        endDate: '2099-04-02T00:00:00.000Z',
        shifts: [{ startDate: '2099-04-01T06:00:00.000Z', endDate: '2099-04-01T14:00:00.000Z' }],
      },
      'PUT /workplaces/:id/shifts/:shiftId': { name: 'changed', ...period },
      'POST /workplaces/:id/scheduledMaintenances': { description: 'BI new', ...period },
      'PUT /workplaces/:id/scheduledMaintenances/:scheduledMaintenanceId': {
        description: 'changed',
        ...period,
      },
      'POST /workplaceGroups/:id/setupTransitionRules': {
        origin: 'AUTOMATIC_EVALUATION_SYSTEM',
        criterion: 'MATERIAL_CHARACTERISTICS',
        predecessorConditions: 'color==black',
        successorConditions: 'width=lt=40',
        setupTimeIncrement: 5,
      },
      'PUT /workplaceGroups/:id/setupTransitionRules/:setupTransitionRuleId': {
        origin: 'MANUAL_DATA_MAINTENANCE',
        criterion: 'MATERIAL_NUMBER',
        predecessorConditions: 'BI-M1',
        successorConditions: 'BI-M3',
        setupTime: 2000,
      },
      'POST /workplaceGroups/:id/manufacturingVariantRules': {
        origin: 'AUTOMATIC_EVALUATION_SYSTEM',
        criterion: 'MATERIAL_CHARACTERISTICS',
        conditions: 'color==black',
        tools: [{ id: 'BI-T1', name: 'BI tool' }],
        forecastedDelays: { processAvailability: 0.9, performance: 1, qualityRate: 0.95 },
      },
      'PUT /workplaceGroups/:id/manufacturingVariantRules/:manufacturingVariantRuleId': {
        origin: 'MANUAL_DATA_MAINTENANCE',
        criterion: 'MATERIAL_NUMBER',
        conditions: 'BI-M3',
        workplaceIds: [workplaceId],
      },
      'PUT /operations/:id/forecastResult': result,
      'PUT /operations/:id/planningResult': result,
      'POST /operations/forecastResults/update': {
        forecastResults: [{ operationId: operation.id, ...result }],
      },
      'POST /operations/planningResults/update': { assignments: [{ operationId: operation.id, ...result }] },
      'POST /staffMembers/planningResults/update': { elements: [{ staffMemberId: staff.id, ...result }] },
      'POST /operations/planningScenarios': { name: 'S', assignments: [] },
      'POST /staffMembers/planningScenarios': { name: 'S', elements: [] },
      'POST /workplaces/predictedMalfunctionScenarios': { workplaceId, probability: 0.7, ...period },
      'POST /connectors': { ...connectorBody, name: `BI-C2${tag}` },
      'PUT /connectors/:id': { ...connectorBody, name: 'changed' },
      'POST /commands': {
        type: 'OPERATION_PHASE',
        operationId: idleOperation.id,
        operationPhaseId: 'DISPATCHED',
      },
      'POST /commands/bulk': {
        commands: [
          { type: 'OPERATION_PHASE', operationId: idleOperation.id, operationPhaseId: 'DISPATCHED' },
        ],
      },
      'POST /activities': {
        activityIdentifier: 'OPERATION_PHASE',
        data: { operationId: String(idleOperation.id), operationPhaseId: 'DISPATCHED' },
      },
      'POST /tickets': { title: 'BI new', priority: 'HIGH' },
      'PUT /tickets/:id': { title: 'changed', priority: 'LOW', workplaceId },
      'POST /tickets/:id/activities': { title: 'BI new' },
      'PUT /tickets/:id/activities/:activityId': { title: 'changed' },
      'POST /tickets/:id/activities/:activityId/remarks': { remark: 'BI new' },
      'POST /tickets/:id/attachments': { description: 'BI new' },
      'POST /tickets/:id/activities/:activityId/attachments': { description: 'BI new' },
      'PUT /staffMembers/:id/shifts/:shiftId/planningResult': { elements: [] },
    },
  };
}

function fillPath(url: string, fixture: Fixture, override?: { param: string; value: string }): string {
  const segments = url.split('/');
  return segments
    .map((segment, index) => {
      if (!segment.startsWith(':')) return segment;
      const param = segment.slice(1);
      if (override?.param === param) return override.value;
      // Named after the collection in front; a parameter right after another by its own name.
      const id = fixture.ids[segments[index - 1] ?? ''] ?? fixture.ids[segment];
      return encodeURIComponent(id ?? randomUUID());
    })
    .join('/');
}

// ---------------------------------------------------------------------------------------------
// The bad-input set for one route.

const BAD_IDS: [string, string][] = [
  ['malformed UUID', 'not-a-uuid'],
  ['unknown UUID', '0190a4c2-0000-7000-8000-000000000000'],
  ['150 chars', 'x'.repeat(150)],
  ['300 chars', 'x'.repeat(300)],
  ['NUL', '%00'],
  ['bad percent-encoding', '%FF'],
];

const UNREADABLE_IDS = ['300 chars', 'bad percent-encoding'];

// Commands whose body may be left out (no body means `{}`), so an empty one is accepted.
const OPTIONAL_BODY_ROUTES = [
  'POST /operations/:id/:operationPhaseId',
  'POST /machines/:id/:machineStateId',
  'POST /workplaces/:id/machine/:machineStateId',
];
/** Master data seeded by migration 040 (docs/resources/machines.md). */
const SCRAP_DETAIL = '2121dab74e2844e9a890d19c861b5ac3';
const MALFUNCTION_DETAIL = '7C4E2A9B1D3F4B5A8E6C0D2F4A6B8C1E';
/** A correction's start the service takes (corrections refuse the future). */
const PAST = '2020-01-01T00:00:00.000Z';

const WRONG_VALUES: unknown[] = [12345, 'wrong', true, [], { nested: 1 }, null];
const QUERY_CANDIDATES = ['abc', '-1', '0', '101', '1.5', ''];

function casesFor(route: RouteEntry, openapi: OpenApi, fixture: Fixture): Case[] {
  const key = routeKey(route);
  const { method } = route;
  const operation = operationOf(openapi, route);
  const queryParams = new Map(
    (operation?.parameters ?? []).filter((p) => p.in === 'query').map((p) => [p.name, p.schema]),
  );
  const bodySchema = operation?.requestBody?.content?.['application/json']?.schema;
  const base = fixture.validBodies[key];
  // Requests that test something else carry a body the route would take, so that thing decides.
  const goodBody = bodySchema ? JSON.stringify(base ?? {}) : undefined;
  const goodHeaders = goodBody === undefined ? {} : JSON_TYPE;
  // Without a known valid body, a body error may come first: then only the status is certain.
  const certain = bodySchema === undefined || base !== undefined;
  const path = fillPath(route.url, fixture);
  const cases: Case[] = [];
  const add = (input: string, request: Omit<Case, 'route' | 'input' | 'method'>) =>
    cases.push({ route: key, input, method, ...request });

  // Query: each value is wrong where the parameter exists and unknown where it does not.
  const invalid: Expect = { status: [400], code: 'VALIDATION_FAILED' };
  const query = (input: string, text: string, name: string, declared: Expect = invalid) => {
    const expect = queryParams.has(name) ? declared : { status: [400], code: 'UNKNOWN_QUERY_PARAMETER' };
    add(`query ${input}`, {
      url: `${path}?${text}`,
      headers: goodHeaders,
      payload: goodBody,
      expect: { status: expect.status, code: certain ? expect.code : undefined },
    });
  };
  query('limit=0', 'limit=0', 'limit');
  query('limit=101', 'limit=101', 'limit');
  query('limit=abc', 'limit=abc', 'limit');
  query('offset=-1', 'offset=-1', 'offset');
  query('offset beyond any integer', 'offset=99999999999999999999', 'offset');
  query('unknown parameter', 'noSuchParameter=1', 'noSuchParameter');
  query('unknown embed', 'embed=noSuchThing,alsoMissing', 'embed', { status: [400], code: 'UNKNOWN_EMBED' });
  query('paginationTimestamp garbage', 'paginationTimestamp=garbage', 'paginationTimestamp');
  query('paginationTimestamp impossible', 'paginationTimestamp=2024-13-45T25:61:00Z', 'paginationTimestamp');
  query('paginationTimestamp year 0', 'paginationTimestamp=0000-01-01T00:00:00Z', 'paginationTimestamp');
  query('paginationDirection unknown', 'paginationDirection=SIDEWAYS', 'paginationDirection');
  // An identifier the service never handed out: refused or simply nothing found, never a fault.
  query(
    'paginationIdentifier not a UUID',
    'paginationTimestamp=2024-01-01T00:00:00.000Z&paginationIdentifier=not-a-uuid',
    'paginationTimestamp',
    { status: [400, 200] },
  );

  // Query, from the route's own schema: every value its schema refuses, and U+0000 in text.
  for (const [name, schema] of queryParams) {
    const candidates = [...QUERY_CANDIDATES, 'x'.repeat((stringBranches(schema)[0]?.maxLength ?? 1000) + 1)];
    if (schema.format) candidates.push(`not-a-${schema.format}`);
    const object = { type: 'object', properties: { [name]: schema } };
    for (const value of candidates.filter((candidate) => refuses(queryAjv, object, { [name]: candidate })))
      query(`${name}=${value.slice(0, 20)} (schema)`, `${name}=${encodeURIComponent(value)}`, name);
    query(`${name} with U+0000`, `${name}=a%00b`, name);
  }

  // Bad ids in each path parameter, the others real.
  for (const param of route.url.match(/:\w+/g) ?? []) {
    for (const [label, value] of BAD_IDS) {
      add(`id ${param.slice(1)} ${label}`, {
        url: fillPath(route.url, fixture, { param: param.slice(1), value }),
        headers: goodHeaders,
        payload: goodBody,
        // Ids the router cannot even read (too long, bad encoding) are an invalid URI: the route is not found.
        expect: {
          status: certain ? [404] : [404, 400],
          code: !certain ? undefined : UNREADABLE_IDS.includes(label) ? 'ROUTE_NOT_FOUND' : 'NOT_FOUND',
        },
      });
    }
  }

  // Bodies: only where a body can mean something (Fastify reads none on GET and HEAD).
  if (method === 'GET' || method === 'HEAD') return cases;
  // A route that takes raw bytes of any type (a document's file) has no JSON body to break.
  if (operation?.requestBody !== undefined && bodySchema === undefined) return cases;
  const body = (
    input: string,
    payload: string,
    expect: Expect,
    headers: Record<string, string> = JSON_TYPE,
  ) => add(`body ${input}`, { url: path, headers, payload, expect });
  const refused = (code: string): Expect => ({ status: [400], code });
  body('malformed JSON', '{"number": "BI-', refused('MALFORMED_JSON'));
  body('JSON with trailing garbage', '{"a":1} x', refused('MALFORMED_JSON'));
  // An empty body under a JSON type is no body: a route that needs one says it must be an object.
  if (bodySchema && !OPTIONAL_BODY_ROUTES.includes(key))
    body('empty with JSON type', '', refused('VALIDATION_FAILED'));
  // A route that takes a list (the SDK's characteristics) is judged on the objects in it.
  const listBody = bodySchema?.type === 'array';
  const objectSchema = listBody ? bodySchema?.items : bodySchema;
  const baseObject = listBody ? (base as Record<string, unknown>[] | undefined)?.[0] : base;
  const asBody = (object: Record<string, unknown>) => JSON.stringify(listBody ? [object] : object);
  if (listBody) body('JSON object', '{}', refused('VALIDATION_FAILED'));
  else body('JSON array', '[]', refused('VALIDATION_FAILED'));
  body('JSON string', '"text"', refused('VALIDATION_FAILED'));
  body('JSON number', '42', refused('VALIDATION_FAILED'));
  body('JSON null', 'null', refused('VALIDATION_FAILED'));
  body('deeply nested', `${'['.repeat(5000)}${']'.repeat(5000)}`, refused('VALIDATION_FAILED'));
  body('unknown field', asBody({ ...baseObject, noSuchField: 1 }), refused('UNKNOWN_FIELD'));
  for (const [type, label] of [
    ['text/plain', 'text/plain'],
    ['application/xml', 'application/xml'],
    ['multipart/form-data; boundary=x', 'multipart'],
    ['application/x-www-form-urlencoded', 'form'],
  ] as const) {
    body(
      `as ${label}`,
      goodBody ?? '{}',
      { status: [415], code: 'UNSUPPORTED_MEDIA_TYPE' },
      { 'content-type': type },
    );
  }
  body('without content type', goodBody ?? '{}', { status: [415], code: 'UNSUPPORTED_MEDIA_TYPE' }, {});

  // Fields, from the route's own schema: a wrong type each, too long, not in format, U+0000.
  for (const [field, schema] of Object.entries(objectSchema?.properties ?? {})) {
    const withField = (value: unknown) => asBody({ ...baseObject, [field]: value });
    const wrong = WRONG_VALUES.find((value) => refuses(bodyAjv, schema, value));
    if (wrong !== undefined) body(`${field} wrong type`, withField(wrong), refused('VALIDATION_FAILED'));
    for (const branch of stringBranches(schema)) {
      if (branch.maxLength !== undefined) {
        body(`${field} too long`, withField('x'.repeat(branch.maxLength + 1)), refused('VALIDATION_FAILED'));
        body(`${field} huge`, withField('x'.repeat(100_000)), refused('VALIDATION_FAILED'));
      }
      if (branch.format)
        body(`${field} not a ${branch.format}`, withField('garbage'), refused('VALIDATION_FAILED'));
      body(`${field} with U+0000`, withField('a\u0000b'), refused('VALIDATION_FAILED'));
    }
  }
  return cases;
}

// ---------------------------------------------------------------------------------------------
// Sending and judging.

async function send(testApp: TestApp, c: Case): Promise<LightMyRequestResponse> {
  return testApp.app.server.inject({
    method: c.method as 'GET',
    url: c.url,
    // Every scope: the sweep is about input, not about the guard (routeAuth.test.ts).
    headers: { authorization: `Bearer ${await testApp.token(['read', 'write', 'admin'])}`, ...c.headers },
    ...(c.payload === undefined ? {} : { payload: c.payload }),
  });
}

/** What is wrong with the answer to a case, or undefined. */
function judge(c: Case, response: LightMyRequestResponse): string | undefined {
  const where = `${c.method} ${c.url.slice(0, 120)} [${c.input}] -> ${response.statusCode}`;
  const status = response.statusCode;
  if (status >= 500) return `${where}: server error ${response.body.slice(0, 200)}`;
  if (!c.expect.status.includes(status)) return `${where}: expected ${c.expect.status.join(' or ')}`;
  if (status < 400 || c.method === 'HEAD') return undefined;
  let body: Record<string, unknown>;
  try {
    body = JSON.parse(response.body) as Record<string, unknown>;
  } catch {
    return `${where}: body is not JSON: ${response.body.slice(0, 200)}`;
  }
  const keys = Object.keys(body).sort().join(',');
  if (keys !== 'code,message,status') return `${where}: body keys ${keys}: ${response.body.slice(0, 200)}`;
  if (body.status !== status) return `${where}: body status ${String(body.status)}`;
  if (typeof body.message !== 'string' || body.message === '') return `${where}: empty message`;
  if (c.expect.code !== undefined && body.code !== c.expect.code)
    return `${where}: code ${String(body.code)}, expected ${c.expect.code} (${String(body.message)})`;
  return undefined;
}

async function snapshot(testApp: TestApp): Promise<Record<string, string>> {
  const tables: Record<string, string> = {};
  for (const table of TABLES) {
    tables[table] = JSON.stringify(await testApp.app.db.query(`SELECT * FROM ${table} t ORDER BY t::text`));
  }
  return tables;
}

async function openapiOf(testApp: TestApp): Promise<OpenApi> {
  const response = await testApp.request({ url: '/api/openapi.json' });
  assert.equal(response.statusCode, 200);
  return json(response) as OpenApi;
}

// ---------------------------------------------------------------------------------------------

describeEachBackend(
  'bad input, over every route',
  (t) => {
    // Every test below reads the same fixture, made before any of them runs, so each can run alone.
    let fixture: Fixture;
    let openapi: OpenApi;
    before(async () => {
      fixture = await createFixture(t());
      openapi = await openapiOf(t());
    });

    test('the route table covers both versions and the generated set is not empty', () => {
      const routes = apiRoutes(t());
      for (const version of ['/api/v1', '/api/v2'])
        assert.ok(
          routes.some((route) => route.url === `${version}/workplaces/:id`),
          version,
        );
      const cases = routes.flatMap((route) => casesFor(route, openapi, fixture));
      // Schema-derived cases exist: the OpenAPI lookup works for both versions.
      assert.ok(cases.some((c) => c.input === 'body number too long' && c.url.startsWith('/api/v1/')));
      assert.ok(cases.some((c) => c.input.startsWith('query limit=abc (schema)')));
      assert.ok(cases.filter((c) => !gapOf(c)).length > 1000, `${cases.length} cases`);
    });

    test('every route: never a 5xx, errors are exactly {status, code, message}, nothing stored changes', async (ctx) => {
      const skip = sweepSkip(t().backend);
      if (skip) return ctx.skip(skip);
      const stored = await snapshot(t());
      assert.equal(JSON.parse(stored.workplaces ?? '[]').length, 1, 'the fixture made its one workplace');
      for (const route of apiRoutes(t())) {
        await ctx.test(routeKey(route).replace(' ', ` ${route.url.match(VERSIONED)?.[0]} `), async () => {
          const problems: string[] = [];
          for (const c of casesFor(route, openapi, fixture).filter((c) => !gapOf(c))) {
            const problem = judge(c, await send(t(), c));
            if (problem) problems.push(problem);
          }
          assert.deepEqual(problems, []);
        });
      }
      const after = await snapshot(t());
      for (const table of TABLES) assert.equal(after[table], stored[table], `${table} changed`);
    });
  },
  ENV,
);

// The known gaps, each asserting the contract's answer: TODO until fixed (then delete the entry).
describeEachBackend(
  'bad input, known gaps',
  (t) => {
    for (const [index, gap] of KNOWN_GAPS.entries()) {
      test(`known gap ${index + 1}`, { todo: gap.bug }, async () => {
        // Its own data: a gap's wrongly accepted requests may delete or change what they touch.
        const fixture = await createFixture(t(), `-gap${index}`);
        const openapi = await openapiOf(t());
        const problems: string[] = [];
        for (const route of apiRoutes(t())) {
          for (const c of casesFor(route, openapi, fixture).filter((c) => gapOf(c) === gap)) {
            const problem = judge(c, await send(t(), c));
            if (problem) problems.push(problem);
          }
        }
        assert.deepEqual(problems, []);
      });
    }
  },
  ENV,
);
