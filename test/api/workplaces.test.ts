// Workplaces end to end (docs/api.md "Representations (HAL)", docs/api.md "Collections", docs/api.md "Resources", docs/api.md "States and transitions"): collection with filters and embed, GET, POST, PUT, DELETE,
// references to groups of the right type, the exact field names, action links only for writers,
// and a client that reaches a workplace from the entry point by following links only.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { type DescribedTable, descriptionLiteralId } from '../../src/http/presenters/texts.ts';
import { OffsetCollection } from '../../src/http/schemas/common.ts';
import { WorkplaceSchema } from '../../src/http/schemas/workplaceSchemas.ts';
import { buildSerializer } from '../../src/http/serialization.ts';
import { describeEachBackend, json, type TestApp } from '../support/app.ts';
import { absolute, get, normalized } from '../support/hal.ts';

const BASE = '/api/v2/workplaces';
const PLANT = 'BF0268C3CAFD4430B85485FB35FEE00D';
const GROUPS = '/api/v2/workplaceGroups';

// Operating states as a workplace shows them (master data, en-GB).
const UNDEFINED_STOPPAGE = {
  id: '6b5e3e20-94f4-55ee-9a6e-eb7a3eb4f379',
  code: '999',
  description: 'Undefined stoppage',
  workplaceStateId: 'DOWNTIME',
};
const PRODUCTION = {
  id: 'b6ec1cd6-d254-5106-99ea-43edce9543dd',
  code: '000',
  description: 'Production',
  workplaceStateId: 'PRODUCTION',
};
const MALFUNCTION = {
  id: '70bc3dba-1d9d-5a3c-a0f5-fb4cfafe11fa',
  code: '110',
  description: 'Malfunction',
  workplaceStateId: 'DOWNTIME',
};

interface Group {
  id: string;
  number: string;
  description: string | null;
  type: 'CAPACITY_GROUP' | 'PRODUCTION_LINE';
}

/** The groups the tests made, by id: a workplace shows its groups beside their ids. */
const knownGroups = new Map<string, Group>();
const groupProperty = (id: string | null) => {
  const group = id === null ? undefined : knownGroups.get(id);
  return group === undefined ? null : { ...group, erpContextId: null };
};

interface Workplace {
  id: string;
  number: string;
  description: string | null;
  isManualWorkplace: boolean;
  operatingState: typeof UNDEFINED_STOPPAGE;
  capacityGroupId: string;
  productionLineId: string | null;
}

/** The link to the literal of a description (none without one). */
const literalLink = (table: DescribedTable, item: { id: string; description: string | null }) =>
  item.description === null
    ? {}
    : { description: get(`/api/v2/literals/${descriptionLiteralId(table, item.id)}`, true) };

const groupBody = (group: Group) => ({
  properties: { ...group, erpContextId: null },
  _links: {
    self: get(`${GROUPS}/${group.id}`),
    ...literalLink('workplace_groups', group),
    assignedWorkplaces: get(`${GROUPS}/${group.id}/assignedWorkplaces`),
    workplaces: get(`${BASE}?workplaceGroupNumber=${encodeURIComponent(group.number)}`, true),
  },
});

/** The representation docs/api.md "Resources" fixes for a workplace; `write`: the caller holds the write scope. */
function workplaceBody(
  workplace: Workplace,
  options: { write?: boolean; embedded?: Record<string, unknown> } = {},
) {
  const self = `${BASE}/${workplace.id}`;
  return {
    properties: {
      erpContextId: null,
      ...workplace,
      workplaceType: workplace.isManualWorkplace ? 'MANUAL_WORKPLACE' : 'MACHINE_WORKPLACE',
      capacityGroup: groupProperty(workplace.capacityGroupId),
      productionLine: groupProperty(workplace.productionLineId),
    },
    _links: {
      self: get(self),
      ...literalLink('workplaces', workplace),
      capacityGroup: get(`${GROUPS}/${workplace.capacityGroupId}`, true),
      ...(workplace.productionLineId
        ? { productionLine: get(`${GROUPS}/${workplace.productionLineId}`, true) }
        : {}),
      operatingState: get(`/api/v2/masterData/operatingStates/${workplace.operatingState.id}`),
      ...(workplace.isManualWorkplace ? {} : { machine: get(`/api/v2/machines/${workplace.id}`, true) }),
      currentOperations: get(`/api/v2/operations?isInProgress=true&workplaceId=${workplace.id}`, true),
      currentStaffMembers: get(`${self}?embed=currentStaffMembers`, true),
      workplaces: get(BASE),
      location: get(`${self}/location`, true),
      recordedOperatingStates: get(`${self}/recordedOperatingStates`),
      recordedOutputQuantities: get(`${self}/recordedOutputQuantities`),
      recordedOperationPhases: get(`${self}/recordedOperationPhases`),
      quantitySummary: get(`${self}/quantitySummary`),
      operatingStateSummary: get(`${self}/operatingStateSummary`),
      scheduledOperatingTimes: get(`${self}/scheduledOperatingTimes`),
      scheduledMaintenanceTimes: get(`${self}/scheduledMaintenanceTimes`),
      devices: get(`${self}/devices`),
      shifts: get(`${self}/shifts`),
      scheduledMaintenances: get(`${self}/scheduledMaintenances`),
      predictedMalfunctionScenarios: get(`${BASE}/predictedMalfunctionScenarios?workplaceId=${workplace.id}`),
      ...((options.write ?? true)
        ? {
            changeOperatingState: {
              href: absolute(`${self}/operatingState/{operatingStateId}`),
              method: 'POST',
              embeddable: false,
              templated: true,
            },
          }
        : {}),
    },
    ...(options.embedded ? { _embedded: options.embedded } : {}),
  };
}

async function createGroup(
  t: TestApp,
  number: string,
  type: Group['type'] = 'CAPACITY_GROUP',
): Promise<Group> {
  const response = await t.request({ method: 'POST', url: GROUPS, body: { number, type } });
  assert.equal(response.statusCode, 201, response.body);
  const group: Group = { id: json(response).properties.id, number, description: null, type };
  knownGroups.set(group.id, group);
  return group;
}

async function createWorkplace(
  t: TestApp,
  body: {
    number: string;
    capacityGroupId: string;
    productionLineId?: string | null;
    description?: string;
    erpContextId?: string;
  },
): Promise<Workplace> {
  const response = await t.request({ method: 'POST', url: BASE, body });
  assert.equal(response.statusCode, 201, response.body);
  return json(response).properties;
}

/** A HAL body as the harness parses it. */
type Body = ReturnType<typeof json>;

const numbersOf = (collection: Body) =>
  collection._embedded.workplaces.map((item: { properties: Workplace }) => item.properties.number);

describeEachBackend('workplaces', (t) => {
  test('POST with the required fields only: 201, Location = self, defaults filled in', async () => {
    const group = await createGroup(t(), 'MIN-CG');
    const response = await t().request({
      method: 'POST',
      url: BASE,
      body: { number: 'MIN-1', capacityGroupId: group.id },
    });
    assert.equal(response.statusCode, 201);
    const id = json(response).properties.id;
    const expected = workplaceBody({
      id,
      number: 'MIN-1',
      description: null,
      isManualWorkplace: false,
      operatingState: UNDEFINED_STOPPAGE,
      capacityGroupId: group.id,
      productionLineId: null,
    });
    assert.deepEqual(json(response), expected);
    assert.equal(response.headers.location, absolute(`${BASE}/${id}`));
    const fetched = await t().request({ url: String(response.headers.location) });
    assert.deepEqual([fetched.statusCode, json(fetched)], [200, expected]);
  });

  test('POST with every field; the initial operating state by code or by id', async () => {
    const capacity = await createGroup(t(), 'FULL-CG');
    const line = await createGroup(t(), 'FULL-PL', 'PRODUCTION_LINE');
    const byCode = await t().request({
      method: 'POST',
      url: BASE,
      body: {
        number: 'FULL-1',
        description: 'Bench 1',
        isManualWorkplace: true,
        capacityGroupId: capacity.id,
        productionLineId: line.id,
        operatingStateId: '000',
      },
    });
    assert.equal(byCode.statusCode, 201);
    assert.deepEqual(
      json(byCode),
      workplaceBody({
        id: json(byCode).properties.id,
        number: 'FULL-1',
        description: 'Bench 1',
        isManualWorkplace: true,
        operatingState: PRODUCTION,
        capacityGroupId: capacity.id,
        productionLineId: line.id,
      }),
    );
    const byId = await t().request({
      method: 'POST',
      url: BASE,
      body: { number: 'FULL-2', capacityGroupId: capacity.id, operatingStateId: MALFUNCTION.id },
    });
    assert.equal(byId.statusCode, 201);
    assert.deepEqual(json(byId).properties.operatingState, MALFUNCTION);

    const unknown = await t().request({
      method: 'POST',
      url: BASE,
      body: { number: 'FULL-3', capacityGroupId: capacity.id, operatingStateId: 'nope' },
    });
    assert.deepEqual(
      [unknown.statusCode, json(unknown)],
      [
        400,
        {
          status: 400,
          code: 'INVALID_REFERENCE',
          message: "Field 'operatingStateId' refers to 'nope', which is not an existing operatingState.",
        },
      ],
    );
  });

  test('the groups shown are those of now: after a move to other groups, after a group is renamed', async () => {
    const first = await createGroup(t(), 'MOVE-CG1');
    const second = await createGroup(t(), 'MOVE-CG2');
    const line = await createGroup(t(), 'MOVE-PL', 'PRODUCTION_LINE');
    const workplace = await createWorkplace(t(), { number: 'MOVE-1', capacityGroupId: first.id });
    const groupsShown = (body: Body) => [
      body.properties.capacityGroup?.number,
      body.properties.productionLine?.number,
    ];
    const moved = await t().request({
      method: 'PUT',
      url: `${BASE}/${workplace.id}`,
      body: { number: 'MOVE-1', capacityGroupId: second.id, productionLineId: line.id },
    });
    assert.equal(moved.statusCode, 200, moved.body);
    assert.deepEqual(groupsShown(json(moved)), ['MOVE-CG2', 'MOVE-PL']);
    // A command answers with the workplace it changed: its groups as they are.
    const changed = await t().request({ method: 'POST', url: `${BASE}/${workplace.id}/operatingState/110` });
    assert.deepEqual(groupsShown(json(changed)), ['MOVE-CG2', 'MOVE-PL']);
    const renamed = await t().request({
      method: 'PUT',
      url: `${GROUPS}/${second.id}`,
      body: { number: 'MOVE-CG2-RENAMED', type: 'CAPACITY_GROUP' },
    });
    assert.equal(renamed.statusCode, 200, renamed.body);
    assert.deepEqual(groupsShown(json(await t().request({ url: `${BASE}/${workplace.id}` }))), [
      'MOVE-CG2-RENAMED',
      'MOVE-PL',
    ]);
    const page = json(await t().request({ url: `${BASE}?workplaceNumber=MOVE-1` }));
    assert.deepEqual(groupsShown(page._embedded.workplaces[0]), ['MOVE-CG2-RENAMED', 'MOVE-PL']);
  });

  test('field names are exactly those of docs/api.md "Resources"', async () => {
    const capacity = await createGroup(t(), 'NAMES-CG');
    const line = await createGroup(t(), 'NAMES-PL', 'PRODUCTION_LINE');
    const workplace = await createWorkplace(t(), {
      number: 'NAMES-1',
      capacityGroupId: capacity.id,
      productionLineId: line.id,
    });
    const body = json(await t().request({ url: `${BASE}/${workplace.id}` }));
    assert.deepEqual(Object.keys(body).sort(), ['_links', 'properties']);
    assert.deepEqual(Object.keys(body.properties).sort(), [
      'capacityGroup',
      'capacityGroupId',
      'description',
      'erpContextId',
      'id',
      'isManualWorkplace',
      'number',
      'operatingState',
      'productionLine',
      'productionLineId',
      'workplaceType',
    ]);
    assert.deepEqual(Object.keys(body.properties.operatingState).sort(), [
      'code',
      'description',
      'id',
      'workplaceStateId',
    ]);
    assert.deepEqual(Object.keys(body._links).sort(), [
      'capacityGroup',
      'changeOperatingState',
      'currentOperations',
      'currentStaffMembers',
      'devices',
      'location',
      'machine',
      'operatingState',
      'operatingStateSummary',
      'predictedMalfunctionScenarios',
      'productionLine',
      'quantitySummary',
      'recordedOperatingStates',
      'recordedOperationPhases',
      'recordedOutputQuantities',
      'scheduledMaintenanceTimes',
      'scheduledMaintenances',
      'scheduledOperatingTimes',
      'self',
      'shifts',
      'workplaces',
    ]);
    // Every plain GET link leads to a route the service serves for this workplace.
    for (const [rel, target] of Object.entries(
      body._links as Record<string, { href: string; templated?: boolean }>,
    )) {
      if (target.templated) continue;
      const answer = await t().request({ url: target.href });
      assert.equal(answer.statusCode, 200, `${rel}: ${answer.body}`);
    }
  });

  test('capacityGroupId must name a CAPACITY_GROUP, productionLineId a PRODUCTION_LINE', async () => {
    const capacity = await createGroup(t(), 'REF-CG');
    const line = await createGroup(t(), 'REF-PL', 'PRODUCTION_LINE');
    const missing = '0190a000-0000-7000-8000-00000000abcd';
    const invalid = (field: string, id: string, expected: string) => ({
      status: 400,
      code: 'INVALID_REFERENCE',
      message: `Field '${field}' refers to '${id}', which is not an existing ${expected}.`,
    });
    const cases: [Record<string, unknown>, Record<string, unknown>][] = [
      [{ capacityGroupId: line.id }, invalid('capacityGroupId', line.id, 'CAPACITY_GROUP')],
      [{ capacityGroupId: missing }, invalid('capacityGroupId', missing, 'CAPACITY_GROUP')],
      [
        { capacityGroupId: capacity.id, productionLineId: capacity.id },
        invalid('productionLineId', capacity.id, 'PRODUCTION_LINE'),
      ],
      [
        { capacityGroupId: capacity.id, productionLineId: missing },
        invalid('productionLineId', missing, 'PRODUCTION_LINE'),
      ],
      [
        { capacityGroupId: 'CG-1' },
        { status: 400, code: 'VALIDATION_FAILED', message: "Field 'capacityGroupId' must be a valid uuid." },
      ],
      [{}, { status: 400, code: 'VALIDATION_FAILED', message: "Field 'capacityGroupId' is required." }],
    ];
    for (const [references, error] of cases) {
      const response = await t().request({
        method: 'POST',
        url: BASE,
        body: { number: 'REF-1', ...references },
      });
      assert.deepEqual([response.statusCode, json(response)], [400, error], JSON.stringify(references));
    }
    assert.equal((await t().app.db.query("SELECT 1 FROM workplaces WHERE number = 'REF-1'")).length, 0);

    // The same checks on replace; the workplace stays as it was.
    const workplace = await createWorkplace(t(), { number: 'REF-2', capacityGroupId: capacity.id });
    const replace = await t().request({
      method: 'PUT',
      url: `${BASE}/${workplace.id}`,
      body: { number: 'REF-2', capacityGroupId: capacity.id, productionLineId: capacity.id },
    });
    assert.deepEqual(
      [replace.statusCode, json(replace)],
      [400, invalid('productionLineId', capacity.id, 'PRODUCTION_LINE')],
    );
    assert.deepEqual(json(await t().request({ url: `${BASE}/${workplace.id}` })), workplaceBody(workplace));
  });

  test('filters: workplaceGroupNumber matches capacity group or production line; workplaceNumber', async () => {
    const cgA = await createGroup(t(), 'FLT-A');
    const cgB = await createGroup(t(), 'FLT-B');
    const line = await createGroup(t(), 'FLT-X', 'PRODUCTION_LINE');
    await createWorkplace(t(), { number: 'FLT-1', capacityGroupId: cgA.id, productionLineId: line.id });
    await createWorkplace(t(), { number: 'FLT-2', capacityGroupId: cgB.id, productionLineId: line.id });
    await createWorkplace(t(), { number: 'FLT-3', capacityGroupId: cgA.id });
    await createWorkplace(t(), { number: 'FLT-4', capacityGroupId: cgB.id });

    const cases: [string, string[]][] = [
      ['workplaceGroupNumber=FLT-A', ['FLT-1', 'FLT-3']],
      ['workplaceGroupNumber=FLT-B', ['FLT-2', 'FLT-4']],
      ['workplaceGroupNumber=FLT-X', ['FLT-1', 'FLT-2']],
      ['workplaceNumber=FLT-3', ['FLT-3']],
      ['workplaceGroupNumber=FLT-X&workplaceNumber=FLT-1', ['FLT-1']],
      ['workplaceGroupNumber=FLT-X&workplaceNumber=FLT-3', []],
      ['workplaceGroupNumber=NO-SUCH-GROUP', []],
    ];
    for (const [query, numbers] of cases) {
      const body = json(await t().request({ url: `${BASE}?${query}` }));
      assert.deepEqual(numbersOf(body), numbers, query);
      assert.deepEqual(body.pagination, {
        limit: 100,
        count: numbers.length,
        offset: 0,
        total: numbers.length,
        firstIdentifier: null,
        lastIdentifier: null,
      });
    }
  });

  test('collection page: whole body, paging hrefs keep filter and embed', async () => {
    const group = await createGroup(t(), 'PAGE-CG');
    const workplaces = [
      await createWorkplace(t(), { number: 'PAGE-3', capacityGroupId: group.id }),
      await createWorkplace(t(), { number: 'PAGE-1', capacityGroupId: group.id, description: 'one' }),
      await createWorkplace(t(), { number: 'PAGE-2', capacityGroupId: group.id }),
    ].sort((a, b) => a.number.localeCompare(b.number));
    const at = (offset: number) =>
      get(`${BASE}?workplaceGroupNumber=PAGE-CG&embed=capacityGroup&limit=2&offset=${offset}`);
    const embedded = { capacityGroup: groupBody(group) };

    const first = await t().request({
      url: `${BASE}?workplaceGroupNumber=PAGE-CG&embed=capacityGroup&limit=2`,
    });
    assert.equal(first.statusCode, 200);
    assert.deepEqual(
      normalized(json(first)),
      normalized({
        pagination: { limit: 2, count: 2, offset: 0, total: 3, firstIdentifier: null, lastIdentifier: null },
        _embedded: { workplaces: workplaces.slice(0, 2).map((w) => workplaceBody(w, { embedded })) },
        _links: {
          self: at(0),
          current: at(0),
          first: at(0),
          next: at(2),
          last: at(2),
          createWorkplace: { href: absolute(BASE), method: 'POST', embeddable: false },
          shifts: get(`${BASE}/shifts`),
        },
      }),
    );
    // Following `next` keeps the filter and the embed.
    const second = json(await t().request({ url: json(first)._links.next.href }));
    assert.deepEqual(
      normalized(second),
      normalized({
        pagination: { limit: 2, count: 1, offset: 2, total: 3, firstIdentifier: null, lastIdentifier: null },
        _embedded: { workplaces: workplaces.slice(2).map((w) => workplaceBody(w, { embedded })) },
        _links: {
          self: at(2),
          current: at(2),
          first: at(0),
          previous: at(0),
          last: at(2),
          createWorkplace: { href: absolute(BASE), method: 'POST', embeddable: false },
          shifts: get(`${BASE}/shifts`),
        },
      }),
    );
  });

  test('embed=capacityGroup,productionLine: comma list, repeated, trailing comma; collection and one', async () => {
    const capacity = await createGroup(t(), 'EMB-CG');
    const line = await createGroup(t(), 'EMB-PL', 'PRODUCTION_LINE');
    const withLine = await createWorkplace(t(), {
      number: 'EMB-1',
      capacityGroupId: capacity.id,
      productionLineId: line.id,
    });
    const withoutLine = await createWorkplace(t(), { number: 'EMB-2', capacityGroupId: capacity.id });
    const both = {
      [withLine.id]: workplaceBody(withLine, {
        embedded: { capacityGroup: groupBody(capacity), productionLine: groupBody(line) },
      }),
      // No production line: nothing to embed for it.
      [withoutLine.id]: workplaceBody(withoutLine, { embedded: { capacityGroup: groupBody(capacity) } }),
    };

    for (const embed of [
      'embed=capacityGroup,productionLine',
      'embed=capacityGroup&embed=productionLine',
      'embed=productionLine,capacityGroup,',
      'embed=capacityGroup,&embed=productionLine',
    ]) {
      const collection = json(await t().request({ url: `${BASE}?workplaceGroupNumber=EMB-CG&${embed}` }));
      assert.deepEqual(collection._embedded.workplaces, [both[withLine.id], both[withoutLine.id]], embed);
      for (const workplace of [withLine, withoutLine]) {
        const one = await t().request({ url: `${BASE}/${workplace.id}?${embed}` });
        assert.deepEqual([one.statusCode, json(one)], [200, both[workplace.id]], embed);
      }
    }

    // Only what is asked for is embedded; nothing asked: no _embedded at all.
    const onlyLine = json(await t().request({ url: `${BASE}/${withLine.id}?embed=productionLine` }));
    assert.deepEqual(onlyLine, workplaceBody(withLine, { embedded: { productionLine: groupBody(line) } }));
    const plain = json(await t().request({ url: `${BASE}/${withLine.id}` }));
    assert.equal('_embedded' in plain, false);

    for (const url of [`${BASE}?embed=capacityGroup,operations`, `${BASE}/${withLine.id}?embed=operations`]) {
      const response = await t().request({ url });
      assert.deepEqual(
        [response.statusCode, json(response)],
        [
          400,
          {
            status: 400,
            code: 'UNKNOWN_EMBED',
            message:
              'Cannot embed operations; embeddable here: capacityGroup, productionLine, currentOperations, currentStaffMembers, location, machine, description, erpContext.',
          },
        ],
      );
    }
  });

  test('the description is a literal the machine shares; the ERP context is linked; both embed', async () => {
    const capacity = await createGroup(t(), 'TEXT-CG');
    const workplace = await createWorkplace(t(), {
      number: 'TEXT-1',
      capacityGroupId: capacity.id,
      description: 'Lathe',
      erpContextId: PLANT,
    });
    const literalHref = absolute(`/api/v2/literals/${descriptionLiteralId('workplaces', workplace.id)}`);
    const literal = json(await t().request({ url: literalHref }));
    assert.deepEqual(literal.properties.translations, [{ language: 'en-GB', translation: 'Lathe' }]);
    const plant = json(await t().request({ url: `/api/v2/erpContexts/${PLANT}` }));
    for (const path of [`${BASE}/${workplace.id}`, `/api/v2/machines/${workplace.id}`]) {
      const answer = json(await t().request({ url: `${path}?embed=description,erpContext` }));
      assert.deepEqual(answer._links.description, get(literalHref, true), path);
      assert.deepEqual(answer._links.erpContext, get(`/api/v2/erpContexts/${PLANT}`, true), path);
      assert.deepEqual(answer._embedded, { description: literal, erpContext: plant }, path);
    }
    const page = json(await t().request({ url: `${BASE}?workplaceNumber=TEXT-1&embed=erpContext` }));
    assert.deepEqual(page._embedded.workplaces[0]._embedded, { erpContext: plant });
  });

  test('a machine workplace links its machine and embeds it on embed=machine; a manual one has none', async () => {
    const group = await createGroup(t(), 'MACH-CG');
    const machine = await createWorkplace(t(), { number: 'MACH-1', capacityGroupId: group.id });
    const response = await t().request({
      method: 'POST',
      url: BASE,
      body: { number: 'MACH-2', capacityGroupId: group.id, isManualWorkplace: true },
    });
    assert.equal(response.statusCode, 201, response.body);
    const manual = json(response).properties;

    const one = json(await t().request({ url: `${BASE}/${machine.id}?embed=machine` }));
    const machineBody = json(await t().request({ url: `/api/v2/machines/${machine.id}` }));
    assert.deepEqual(one._links.machine, get(`/api/v2/machines/${machine.id}`, true));
    assert.deepEqual(one._embedded, { machine: machineBody });
    assert.equal(machineBody.properties.workplaceId, machine.id);
    // Not asked for, not embedded.
    assert.equal(json(await t().request({ url: `${BASE}/${machine.id}` }))._embedded, undefined);

    const page = json(await t().request({ url: `${BASE}?workplaceGroupNumber=MACH-CG&embed=machine` }));
    const [first, second] = page._embedded.workplaces;
    assert.deepEqual([first.properties.id, second.properties.id], [machine.id, manual.id]);
    assert.deepEqual(first._embedded.machine, machineBody);
    assert.equal(second._links.machine, undefined);
    assert.equal(second._embedded, undefined);
    assert.deepEqual(page._links.shifts, get(`${BASE}/shifts`));
  });

  test('workplaces are written as their schemas serialize them (GET answers skip the serializer)', async () => {
    const serialize = buildSerializer()({ schema: WorkplaceSchema });
    const capacity = await createGroup(t(), 'PLAIN-CG');
    const line = await createGroup(t(), 'PLAIN-PL', 'PRODUCTION_LINE');
    const bare = await createWorkplace(t(), { number: 'PLAIN-1', capacityGroupId: capacity.id });
    const full = await createWorkplace(t(), {
      number: 'PLAIN-2 "quoted" \\ ü',
      capacityGroupId: capacity.id,
      productionLineId: line.id,
      description: 'line\nbreak',
      erpContextId: PLANT,
    });
    const embedAll =
      '?embed=capacityGroup,productionLine,currentOperations,currentStaffMembers,machine,description,erpContext';
    for (const id of [bare.id, full.id]) {
      for (const query of ['', embedAll]) {
        for (const scopes of [['read'], ['read', 'write']]) {
          const response = await t().request({ url: `${BASE}/${id}${query}`, scopes });
          assert.equal(response.statusCode, 200, response.body);
          assert.equal(response.body, serialize(JSON.parse(response.body)), `${id}${query} ${scopes}`);
          assert.equal(response.headers['content-type'], 'application/json; charset=utf-8');
          assert.equal(response.headers['content-language'], 'en-GB');
        }
      }
    }
    // Pages of workplaces skip it too: their envelope is written in the collection schema's order.
    const serializePage = buildSerializer()({ schema: OffsetCollection('workplaces', WorkplaceSchema) });
    for (const query of ['?limit=1&offset=1', `${embedAll}&limit=2`]) {
      const response = await t().request({ url: `${BASE}${query}`, scopes: ['read', 'write'] });
      assert.equal(response.statusCode, 200, response.body);
      assert.equal(response.body, serializePage(JSON.parse(response.body)), query);
      assert.equal(response.headers['content-type'], 'application/json; charset=utf-8');
    }
    // The media type and the language are negotiated as for every other answer.
    const hal = await t().request({
      url: `${BASE}/${full.id}`,
      headers: { accept: 'application/hal+json', 'accept-language': 'de' },
    });
    assert.equal(hal.headers['content-type'], 'application/hal+json; charset=utf-8');
    assert.equal(hal.headers['content-language'], 'de-DE');
    assert.equal(json(hal).properties.operatingState.description, 'Undefinierter Stillstand');
  });

  test('PUT replaces: missing optional fields become null/false; the operating state is kept', async () => {
    const capacity = await createGroup(t(), 'PUT-CG');
    const other = await createGroup(t(), 'PUT-CG2');
    const line = await createGroup(t(), 'PUT-PL', 'PRODUCTION_LINE');
    const workplace = await createWorkplace(t(), {
      number: 'PUT-1',
      description: 'before',
      capacityGroupId: capacity.id,
      productionLineId: line.id,
    });
    // The operating state changes only through its command, never through PUT.
    const command = await t().request({ method: 'POST', url: `${BASE}/${workplace.id}/operatingState/110` });
    assert.equal(command.statusCode, 200);

    const replaced = await t().request({
      method: 'PUT',
      url: `${BASE}/${workplace.id}`,
      body: {
        id: workplace.id,
        number: 'PUT-1b',
        description: 'after',
        isManualWorkplace: true,
        capacityGroupId: other.id,
      },
    });
    const expected = workplaceBody({
      ...workplace,
      number: 'PUT-1b',
      description: 'after',
      isManualWorkplace: true,
      capacityGroupId: other.id,
      productionLineId: null,
      operatingState: MALFUNCTION,
    });
    assert.deepEqual([replaced.statusCode, json(replaced)], [200, expected]);
    assert.deepEqual(json(await t().request({ url: `${BASE}/${workplace.id}` })), expected);

    const cleared = await t().request({
      method: 'PUT',
      url: `${BASE}/${workplace.id}`,
      body: { number: 'PUT-1b', capacityGroupId: other.id },
    });
    assert.deepEqual(
      json(cleared),
      workplaceBody({
        ...workplace,
        number: 'PUT-1b',
        description: null,
        isManualWorkplace: false,
        capacityGroupId: other.id,
        productionLineId: null,
        operatingState: MALFUNCTION,
      }),
    );

    const withState = await t().request({
      method: 'PUT',
      url: `${BASE}/${workplace.id}`,
      body: { number: 'PUT-1b', capacityGroupId: other.id, operatingStateId: '000' },
    });
    assert.deepEqual(
      [withState.statusCode, json(withState)],
      [400, { status: 400, code: 'UNKNOWN_FIELD', message: "Field 'operatingStateId' is not allowed here." }],
    );
  });

  test('PUT: body id must equal the path id (400 ID_MISMATCH); unknown id is 404', async () => {
    const capacity = await createGroup(t(), 'PUTID-CG');
    const workplace = await createWorkplace(t(), { number: 'PUTID-1', capacityGroupId: capacity.id });
    const otherId = '0190a000-0000-7000-8000-00000000beef';
    const mismatch = await t().request({
      method: 'PUT',
      url: `${BASE}/${workplace.id}`,
      body: { id: otherId, number: 'PUTID-2', capacityGroupId: capacity.id },
    });
    assert.deepEqual(
      [mismatch.statusCode, json(mismatch)],
      [
        400,
        {
          status: 400,
          code: 'ID_MISMATCH',
          message: `The id in the body ('${otherId}') differs from the id in the path ('${workplace.id}').`,
        },
      ],
    );
    assert.deepEqual(json(await t().request({ url: `${BASE}/${workplace.id}` })), workplaceBody(workplace));

    const unknown = await t().request({
      method: 'PUT',
      url: `${BASE}/${otherId}`,
      body: { number: 'PUTID-3', capacityGroupId: capacity.id },
    });
    assert.deepEqual(
      [unknown.statusCode, json(unknown)],
      [404, { status: 404, code: 'NOT_FOUND', message: `There is no workplace with id '${otherId}'.` }],
    );
  });

  test('duplicate number: 400 ALREADY_EXISTS on create and on replace', async () => {
    const capacity = await createGroup(t(), 'DUP-CG');
    const first = await createWorkplace(t(), { number: 'DUP-1', capacityGroupId: capacity.id });
    const second = await createWorkplace(t(), { number: 'DUP-2', capacityGroupId: capacity.id });
    const duplicate = {
      status: 400,
      code: 'ALREADY_EXISTS',
      message: "Another resource already has number 'DUP-1'.",
    };
    const create = await t().request({
      method: 'POST',
      url: BASE,
      body: { number: 'DUP-1', capacityGroupId: capacity.id },
    });
    assert.deepEqual([create.statusCode, json(create)], [400, duplicate]);
    const replace = await t().request({
      method: 'PUT',
      url: `${BASE}/${second.id}`,
      body: { number: 'DUP-1', capacityGroupId: capacity.id },
    });
    assert.deepEqual([replace.statusCode, json(replace)], [400, duplicate]);
    assert.deepEqual(json(await t().request({ url: `${BASE}/${first.id}` })), workplaceBody(first));
    assert.deepEqual(json(await t().request({ url: `${BASE}/${second.id}` })), workplaceBody(second));
  });

  test('GET one and DELETE: 204 with no body, then 404; its history goes with it', async () => {
    const capacity = await createGroup(t(), 'DEL-CG');
    const workplace = await createWorkplace(t(), { number: 'DEL-1', capacityGroupId: capacity.id });
    const deleted = await t().request({ method: 'DELETE', url: `${BASE}/${workplace.id}` });
    assert.deepEqual([deleted.statusCode, deleted.body], [204, '']);
    const notFound = {
      status: 404,
      code: 'NOT_FOUND',
      message: `There is no workplace with id '${workplace.id}'.`,
    };
    for (const request of [
      { url: `${BASE}/${workplace.id}` },
      { url: `${BASE}/${workplace.id}/recordedOperatingStates` },
      { method: 'DELETE' as const, url: `${BASE}/${workplace.id}` },
    ]) {
      const response = await t().request(request);
      assert.deepEqual([response.statusCode, json(response)], [404, notFound], request.url);
    }
    const history = await t().app.db.query(
      'SELECT 1 FROM recorded_operating_states WHERE workplace_id = $1',
      [workplace.id],
    );
    assert.equal(history.length, 0);

    const malformed = await t().request({ url: `${BASE}/not-a-uuid` });
    assert.deepEqual(
      [malformed.statusCode, json(malformed)],
      [404, { status: 404, code: 'NOT_FOUND', message: "There is no workplace with id 'not-a-uuid'." }],
    );
  });

  test('DELETE of a workplace still referenced elsewhere: 400 RESOURCE_IN_USE, nothing deleted', async () => {
    // Operations, devices and tools will reference workplaces with restricting foreign keys;
    // a stand-in table with such a key exercises the same path today.
    const db = t().app.db;
    await db.query(
      'CREATE TABLE test_workplace_users (workplace_id uuid NOT NULL REFERENCES workplaces (id))',
    );
    try {
      const capacity = await createGroup(t(), 'USE-CG');
      const workplace = await createWorkplace(t(), { number: 'USE-1', capacityGroupId: capacity.id });
      await db.query('INSERT INTO test_workplace_users VALUES ($1)', [workplace.id]);
      const response = await t().request({ method: 'DELETE', url: `${BASE}/${workplace.id}` });
      assert.deepEqual(
        [response.statusCode, json(response)],
        [
          400,
          {
            status: 400,
            code: 'RESOURCE_IN_USE',
            message: `The workplace '${workplace.id}' is still referenced by other resources.`,
          },
        ],
      );
      assert.deepEqual(json(await t().request({ url: `${BASE}/${workplace.id}` })), workplaceBody(workplace));
      const events = await db.query(
        "SELECT 1 FROM events WHERE object_id = $1 AND event_type = 'WORKPLACE_DELETED'",
        [workplace.id],
      );
      assert.equal(events.length, 0);
    } finally {
      await db.query('DROP TABLE test_workplace_users');
    }
  });

  test('links: createWorkplace and changeOperatingState only for a write token', async () => {
    const capacity = await createGroup(t(), 'LNK-CG');
    const workplace = await createWorkplace(t(), { number: 'LNK-1', capacityGroupId: capacity.id });
    const reader = json(await t().request({ url: `${BASE}/${workplace.id}`, scopes: ['read'] }));
    assert.deepEqual(reader, workplaceBody(workplace, { write: false }));

    const readerList = json(await t().request({ url: `${BASE}?workplaceNumber=LNK-1`, scopes: ['read'] }));
    assert.equal('createWorkplace' in readerList._links, false);
    assert.deepEqual(readerList._embedded.workplaces, [workplaceBody(workplace, { write: false })]);
    const writerList = json(await t().request({ url: `${BASE}?workplaceNumber=LNK-1` }));
    assert.deepEqual(writerList._links.createWorkplace, {
      href: absolute(BASE),
      method: 'POST',
      embeddable: false,
    });
    assert.deepEqual(writerList._embedded.workplaces, [workplaceBody(workplace)]);
  });

  test('security: no token is 401; a read token cannot create, replace, delete or command (403)', async () => {
    const capacity = await createGroup(t(), 'SEC-CG');
    const workplace = await createWorkplace(t(), { number: 'SEC-1', capacityGroupId: capacity.id });
    for (const url of [BASE, `${BASE}/${workplace.id}`, `${BASE}/${workplace.id}/recordedOperatingStates`]) {
      const anonymous = await t().request({ url, anonymous: true });
      assert.deepEqual(
        [anonymous.statusCode, anonymous.headers['www-authenticate']],
        [401, 'Bearer realm="bridge"'],
      );
      const forged = await t().request({ url, headers: { authorization: 'Bearer not.a.token' } });
      assert.equal(forged.statusCode, 401, url);
      assert.equal(json(forged).code, 'INVALID_TOKEN');
    }
    const forbidden = {
      status: 403,
      code: 'INSUFFICIENT_SCOPE',
      message: "This request needs the scope 'write', which the access token does not grant.",
    };
    const writes = [
      { method: 'POST' as const, url: BASE, body: { number: 'SEC-2', capacityGroupId: capacity.id } },
      {
        method: 'PUT' as const,
        url: `${BASE}/${workplace.id}`,
        body: { number: 'SEC-1x', capacityGroupId: capacity.id },
      },
      { method: 'DELETE' as const, url: `${BASE}/${workplace.id}` },
      { method: 'POST' as const, url: `${BASE}/${workplace.id}/operatingState/000` },
    ];
    for (const write of writes) {
      const response = await t().request({ ...write, scopes: ['read'] });
      assert.deepEqual(
        [response.statusCode, json(response)],
        [403, forbidden],
        `${write.method} ${write.url}`,
      );
    }
    assert.deepEqual(json(await t().request({ url: `${BASE}/${workplace.id}` })), workplaceBody(workplace));
    assert.equal((await t().app.db.query("SELECT 1 FROM workplaces WHERE number = 'SEC-2'")).length, 0);
  });

  test('bad collection parameters are 400 and never 5xx', async () => {
    const cases: [string, string, string][] = [
      ['limit=0', 'VALIDATION_FAILED', "Field 'limit' must be at least 1."],
      ['limit=101', 'VALIDATION_FAILED', "Field 'limit' must be at most 100."],
      ['offset=-1', 'VALIDATION_FAILED', "Field 'offset' must be at least 0."],
      ['type=CAPACITY_GROUP', 'UNKNOWN_QUERY_PARAMETER', "Query parameter 'type' is not supported here."],
      [
        'embed=tools',
        'UNKNOWN_EMBED',
        'Cannot embed tools; embeddable here: capacityGroup, productionLine, currentOperations, currentStaffMembers, location, machine, description, erpContext.',
      ],
    ];
    for (const [query, code, message] of cases) {
      const response = await t().request({ url: `${BASE}?${query}` });
      assert.deepEqual([response.statusCode, json(response)], [400, { status: 400, code, message }], query);
    }
  });

  test('a client walks from GET /api/v2 to a workplace by following hrefs only', async () => {
    const follow = async (href: string, method: 'GET' | 'POST' = 'GET', body?: unknown) => {
      const response = await t().request({ method, url: href, body });
      assert.ok(response.statusCode < 300, `${method} ${href}: ${response.statusCode} ${response.body}`);
      return { body: json(response), location: response.headers.location };
    };
    /** Walks a collection's pages through `next` until an item matches. */
    const findInPages = async (href: string, name: string, match: (item: Body) => boolean) => {
      let page: string | undefined = href;
      while (page) {
        const { body } = await follow(page);
        const found = body._embedded[name].find(match);
        if (found) return found;
        page = body._links.next?.href;
      }
      assert.fail(`not found in ${href}`);
    };

    // Set up through the create links the collections offer.
    const entry = (await follow('/api/v2')).body;
    const groups = (await follow(entry._links.workplaceGroups.href)).body;
    const createdGroup = await follow(groups._links.createWorkplaceGroup.href, 'POST', {
      number: 'WALK-CG',
      type: 'CAPACITY_GROUP',
    });
    const workplaces = (await follow(entry._links.workplaces.href)).body;
    await follow(workplaces._links.createWorkplace.href, 'POST', {
      number: 'WALK-1',
      capacityGroupId: createdGroup.body.properties.id,
    });

    // The walk proper: entry point -> groups -> the group's workplaces -> the workplace.
    const group = await findInPages(
      entry._links.workplaceGroups.href,
      'workplaceGroups',
      (item) => item.properties.number === 'WALK-CG',
    );
    const item = await findInPages(group._links.workplaces.href, 'workplaces', () => true);
    const workplace = (await follow(item._links.self.href)).body;
    assert.equal(workplace.properties.number, 'WALK-1');
    assert.deepEqual(workplace, item);
    assert.equal(createdGroup.location, group._links.self.href);

    // Its related resources are reachable too.
    assert.deepEqual((await follow(workplace._links.capacityGroup.href)).body, group);
    const state = (await follow(workplace._links.operatingState.href)).body;
    assert.deepEqual(state.properties.id, workplace.properties.operatingState.id);
    const history = (await follow(workplace._links.recordedOperatingStates.href)).body;
    assert.equal(history.pagination.total, 1);
    assert.equal(
      history._embedded.recordedOperatingStates[0]._links.workplace.href,
      workplace._links.self.href,
    );

    // The action: pick a state from the master data linked at the entry point, expand the template.
    const malfunction = await findInPages(
      entry._links.operatingStates.href,
      'operatingStates',
      (entry) => entry.properties.code === '110',
    );
    const template: string = workplace._links.changeOperatingState.href;
    const changed = await follow(
      template.replace('{operatingStateId}', encodeURIComponent(malfunction.properties.id)),
      workplace._links.changeOperatingState.method,
    );
    assert.deepEqual(changed.body.properties.operatingState, MALFUNCTION);
    assert.equal((await follow(workplace._links.recordedOperatingStates.href)).body.pagination.total, 2);
  });
});
