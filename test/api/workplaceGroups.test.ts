// Workplace groups end to end (docs/api.md "Representations (HAL)", docs/api.md "Collections", docs/api.md "Resources"): collection paging and filter, GET, POST, PUT,
// DELETE, RESOURCE_IN_USE, duplicates, and the create link only for callers who may write.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { descriptionLiteralId } from '../../src/http/presenters/texts.ts';
import { describeEachBackend, json, type TestApp } from '../support/app.ts';
import { absolute, get, normalized, normalizeHref } from '../support/hal.ts';

const BASE = '/api/v2/workplaceGroups';

interface Group {
  id: string;
  number: string;
  description: string | null;
  type: 'CAPACITY_GROUP' | 'PRODUCTION_LINE';
}

/** The representation the contract fixes for one workplace group. */
const groupBody = (group: Group) => ({
  properties: {
    id: group.id,
    number: group.number,
    description: group.description,
    type: group.type,
    erpContextId: null,
  },
  _links: {
    self: get(`${BASE}/${group.id}`),
    ...(group.description === null
      ? {}
      : { description: get(`/api/v2/literals/${descriptionLiteralId('workplace_groups', group.id)}`, true) }),
    assignedWorkplaces: get(`${BASE}/${group.id}/assignedWorkplaces`),
    workplaces: get(`/api/v2/workplaces?workplaceGroupNumber=${encodeURIComponent(group.number)}`, true),
  },
});

const pageHref = (query: Record<string, string | number>) =>
  `${BASE}?${new URLSearchParams(Object.entries(query).map(([k, v]): [string, string] => [k, String(v)]))}`;

async function createGroup(
  t: TestApp,
  number: string,
  type: Group['type'] = 'CAPACITY_GROUP',
  description: string | null = null,
): Promise<Group> {
  const response = await t.request({ method: 'POST', url: BASE, body: { number, description, type } });
  assert.equal(response.statusCode, 201, response.body);
  return { id: json(response).properties.id, number, description, type };
}

/** A workplace to make a group "in use" (workplaces reference groups). */
async function createWorkplace(
  t: TestApp,
  number: string,
  capacityGroupId: string,
  productionLineId?: string,
) {
  const response = await t.request({
    method: 'POST',
    url: '/api/v2/workplaces',
    body: { number, capacityGroupId, productionLineId },
  });
  assert.equal(response.statusCode, 201, response.body);
  return json(response).properties.id as string;
}

describeEachBackend('workplace groups: collection paging', (t) => {
  // This suite has its own database, so totals count exactly the groups created here.

  test('an empty collection: no items, first = last = current, no next/previous', async () => {
    const response = await t().request({ url: BASE });
    assert.equal(response.statusCode, 200);
    const at0 = get(pageHref({ limit: 100, offset: 0 }));
    assert.deepEqual(
      normalized(json(response)),
      normalized({
        pagination: {
          limit: 100,
          count: 0,
          offset: 0,
          total: 0,
          firstIdentifier: null,
          lastIdentifier: null,
        },
        _embedded: { workplaceGroups: [] },
        _links: {
          self: at0,
          current: at0,
          first: at0,
          last: at0,
          createWorkplaceGroup: { href: absolute(BASE), method: 'POST', embeddable: false },
        },
      }),
    );
  });

  test('offset pages: metadata and the paging links exactly where such a page exists', async () => {
    // Sorted by number: CG-1, CG-2, CG-3, PL-1, PL-2.
    const groups = [
      await createGroup(t(), 'PL-2', 'PRODUCTION_LINE'),
      await createGroup(t(), 'CG-1', 'CAPACITY_GROUP', 'Turning'),
      await createGroup(t(), 'PL-1', 'PRODUCTION_LINE', 'Line one'),
      await createGroup(t(), 'CG-3'),
      await createGroup(t(), 'CG-2', 'CAPACITY_GROUP', 'Milling'),
    ].sort((a, b) => a.number.localeCompare(b.number));
    const at = (offset: number) => get(pageHref({ limit: 2, offset }));
    const create = { href: absolute(BASE), method: 'POST', embeddable: false };

    const first = await t().request({ url: `${BASE}?limit=2` });
    assert.equal(first.statusCode, 200);
    assert.deepEqual(
      normalized(json(first)),
      normalized({
        pagination: { limit: 2, count: 2, offset: 0, total: 5, firstIdentifier: null, lastIdentifier: null },
        _embedded: { workplaceGroups: groups.slice(0, 2).map(groupBody) },
        _links: {
          self: at(0),
          current: at(0),
          first: at(0),
          next: at(2),
          last: at(4),
          createWorkplaceGroup: create,
        },
      }),
    );

    // Follow `next` as a client would: the middle page has both neighbours.
    const middle = await t().request({ url: json(first)._links.next.href });
    assert.deepEqual(
      normalized(json(middle)),
      normalized({
        pagination: { limit: 2, count: 2, offset: 2, total: 5, firstIdentifier: null, lastIdentifier: null },
        _embedded: { workplaceGroups: groups.slice(2, 4).map(groupBody) },
        _links: {
          self: at(2),
          current: at(2),
          first: at(0),
          previous: at(0),
          next: at(4),
          last: at(4),
          createWorkplaceGroup: create,
        },
      }),
    );

    // The last page has no `next`; following `last` from page one lands on it.
    const last = await t().request({ url: json(first)._links.last.href });
    assert.deepEqual(
      normalized(json(last)),
      normalized({
        pagination: { limit: 2, count: 1, offset: 4, total: 5, firstIdentifier: null, lastIdentifier: null },
        _embedded: { workplaceGroups: groups.slice(4).map(groupBody) },
        _links: {
          self: at(4),
          current: at(4),
          first: at(0),
          previous: at(2),
          last: at(4),
          createWorkplaceGroup: create,
        },
      }),
    );
    const back = await t().request({ url: json(last)._links.previous.href });
    assert.deepEqual(json(back), json(middle));

    // An offset off the page grid: previous clamps to 0.
    const odd = json(await t().request({ url: `${BASE}?limit=2&offset=1` }));
    assert.deepEqual(odd.pagination, {
      limit: 2,
      count: 2,
      offset: 1,
      total: 5,
      firstIdentifier: null,
      lastIdentifier: null,
    });
    assert.deepEqual(
      odd._embedded.workplaceGroups.map((g: { properties: Group }) => g.properties.number),
      ['CG-2', 'CG-3'],
    );
    assert.equal(normalizeHref(odd._links.previous.href), normalizeHref(pageHref({ limit: 2, offset: 0 })));
    assert.equal(normalizeHref(odd._links.next.href), normalizeHref(pageHref({ limit: 2, offset: 3 })));
  });

  test('type filter: only that type, and every paging href keeps the filter', async () => {
    const lines = json(await t().request({ url: `${BASE}?type=PRODUCTION_LINE&limit=1` }));
    const at = (offset: number) => get(pageHref({ type: 'PRODUCTION_LINE', limit: 1, offset }));
    assert.deepEqual(lines.pagination, {
      limit: 1,
      count: 1,
      offset: 0,
      total: 2,
      firstIdentifier: null,
      lastIdentifier: null,
    });
    assert.equal(lines._embedded.workplaceGroups[0].properties.number, 'PL-1');
    assert.deepEqual(
      normalized(lines._links),
      normalized({
        self: at(0),
        current: at(0),
        first: at(0),
        next: at(1),
        last: at(1),
        createWorkplaceGroup: { href: absolute(BASE), method: 'POST', embeddable: false },
      }),
    );
    const second = json(await t().request({ url: lines._links.next.href }));
    assert.deepEqual(second.pagination, {
      limit: 1,
      count: 1,
      offset: 1,
      total: 2,
      firstIdentifier: null,
      lastIdentifier: null,
    });
    assert.equal(second._embedded.workplaceGroups[0].properties.number, 'PL-2');
    assert.equal(second._links.next, undefined);

    const capacity = json(await t().request({ url: `${BASE}?type=CAPACITY_GROUP` }));
    assert.deepEqual(
      capacity._embedded.workplaceGroups.map((g: { properties: Group }) => [
        g.properties.number,
        g.properties.type,
      ]),
      [
        ['CG-1', 'CAPACITY_GROUP'],
        ['CG-2', 'CAPACITY_GROUP'],
        ['CG-3', 'CAPACITY_GROUP'],
      ],
    );
    assert.equal(capacity.pagination.total, 3);
  });

  test('bad paging and filter parameters are 400 naming the field and the rule', async () => {
    const cases: [string, string, string][] = [
      ['limit=0', 'VALIDATION_FAILED', "Field 'limit' must be at least 1."],
      ['limit=101', 'VALIDATION_FAILED', "Field 'limit' must be at most 100."],
      ['offset=-1', 'VALIDATION_FAILED', "Field 'offset' must be at least 0."],
      ['limit=ten', 'VALIDATION_FAILED', "Field 'limit' must be of type integer."],
      ['type=MACHINE', 'VALIDATION_FAILED', "Field 'type' must be one of: CAPACITY_GROUP, PRODUCTION_LINE."],
      ['colour=red', 'UNKNOWN_QUERY_PARAMETER', "Query parameter 'colour' is not supported here."],
      [
        'embed=machines',
        'UNKNOWN_EMBED',
        'Cannot embed machines; embeddable here: description, erpContext, workplaces.',
      ],
    ];
    for (const [query, code, message] of cases) {
      const response = await t().request({ url: `${BASE}?${query}` });
      assert.deepEqual([response.statusCode, json(response)], [400, { status: 400, code, message }], query);
    }
  });
});

describeEachBackend('workplace groups', (t) => {
  test('POST: 201, Location = self href, body = the representation GET returns', async () => {
    const response = await t().request({
      method: 'POST',
      url: BASE,
      body: { number: 'ASSEMBLY', description: 'Final assembly', type: 'PRODUCTION_LINE' },
    });
    assert.equal(response.statusCode, 201);
    const body = json(response);
    assert.match(body.properties.id, /^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    const expected = groupBody({
      id: body.properties.id,
      number: 'ASSEMBLY',
      description: 'Final assembly',
      type: 'PRODUCTION_LINE',
    });
    assert.deepEqual(body, expected);
    assert.equal(response.headers.location, expected._links.self.href);

    const fetched = await t().request({ url: String(response.headers.location) });
    assert.equal(fetched.statusCode, 200);
    assert.deepEqual(json(fetched), expected);
  });

  test('the description is a literal kept with it, the ERP context a link; both embed on request', async () => {
    const PLANT = 'BF0268C3CAFD4430B85485FB35FEE00D';
    const created = json(
      await t().request({
        method: 'POST',
        url: BASE,
        body: { number: 'TEXTS', description: 'Pressing', type: 'CAPACITY_GROUP', erpContextId: PLANT },
      }),
    );
    const { id } = created.properties;
    const literalPath = `/api/v2/literals/${descriptionLiteralId('workplace_groups', id)}`;
    assert.deepEqual(created._links.description, get(literalPath, true));
    assert.deepEqual(created._links.erpContext, get(`/api/v2/erpContexts/${PLANT}`, true));
    const literal = async () => json(await t().request({ url: literalPath }));
    const literalStatus = async () => (await t().request({ url: literalPath })).statusCode;
    const stored = await literal();
    assert.deepEqual(stored.properties.translations, [{ language: 'en-GB', translation: 'Pressing' }]);

    const url = `${BASE}/${id}?embed=description,erpContext`;
    const embedded = json(await t().request({ url }))._embedded;
    assert.deepEqual(embedded.description, stored);
    assert.deepEqual(embedded.erpContext, json(await t().request({ url: `/api/v2/erpContexts/${PLANT}` })));
    const page = json(await t().request({ url: `${BASE}?embed=description&type=CAPACITY_GROUP&limit=100` }));
    const listed = page._embedded.workplaceGroups.find(
      (group: { properties: { id: string } }) => group.properties.id === id,
    );
    assert.deepEqual(listed._embedded, { description: stored });

    // A new text keeps the literal's id; no text, no literal; a deleted group takes its literal.
    const put = (description: string | null) =>
      t().request({
        method: 'PUT',
        url: `${BASE}/${id}`,
        body: { number: 'TEXTS', description, type: 'CAPACITY_GROUP' },
      });
    assert.equal((await put('Stamping')).statusCode, 200);
    assert.deepEqual((await literal()).properties.translations, [
      { language: 'en-GB', translation: 'Stamping' },
    ]);
    const cleared = json(await put(null));
    assert.equal(cleared._links.description, undefined);
    assert.equal(cleared._links.erpContext, undefined);
    assert.equal(await literalStatus(), 404);
    assert.equal((await put('Again')).statusCode, 200);
    assert.equal((await t().request({ method: 'DELETE', url: `${BASE}/${id}` })).statusCode, 204);
    assert.equal(await literalStatus(), 404);
  });

  test('embed=workplaces: each group embeds the workplaces its workplaces link lists', async () => {
    const group = async (number: string, type: Group['type']) =>
      json(await t().request({ method: 'POST', url: BASE, body: { number, type } })).properties.id as string;
    const capacity = await group('EMB-CG', 'CAPACITY_GROUP');
    const line = await group('EMB-PL', 'PRODUCTION_LINE');
    const empty = await group('EMB-EMPTY', 'CAPACITY_GROUP');
    for (const [number, productionLineId] of [
      ['EMB-2', line],
      ['EMB-1', null],
    ]) {
      const response = await t().request({
        method: 'POST',
        url: '/api/v2/workplaces',
        body: { number, capacityGroupId: capacity, productionLineId },
      });
      assert.equal(response.statusCode, 201, response.body);
    }
    const linked = async (id: string) => {
      const { _links } = json(await t().request({ url: `${BASE}/${id}` }));
      return json(await t().request({ url: _links.workplaces.href }))._embedded.workplaces;
    };
    const embedded = async (id: string) =>
      json(await t().request({ url: `${BASE}/${id}?embed=workplaces,description` }))._embedded.workplaces;
    const numbers = (workplaces: { properties: { number: string } }[]) =>
      workplaces.map((workplace) => workplace.properties.number);
    assert.deepEqual(numbers(await embedded(capacity)), ['EMB-1', 'EMB-2']);
    assert.deepEqual(await embedded(capacity), await linked(capacity));
    assert.deepEqual(numbers(await embedded(line)), ['EMB-2']);
    assert.deepEqual(await embedded(line), await linked(line));
    assert.deepEqual(await embedded(empty), []);
    // A page embeds each group's own, read at once.
    const page = json(await t().request({ url: `${BASE}?embed=workplaces&limit=100` }));
    for (const id of [capacity, line, empty]) {
      const listed = page._embedded.workplaceGroups.find(
        (item: { properties: { id: string } }) => item.properties.id === id,
      );
      assert.deepEqual(listed._embedded.workplaces, await embedded(id), id);
    }
    // Without the embed nothing is read or shown.
    assert.equal(json(await t().request({ url: `${BASE}/${capacity}` }))._embedded, undefined);
  });

  test('POST: an id in the body is 400 READ_ONLY_PROPERTY, a null id is taken; a missing description becomes null', async () => {
    const refused = await t().request({
      method: 'POST',
      url: BASE,
      body: { id: '00000000-0000-7000-8000-000000000000', number: 'NO-DESC', type: 'CAPACITY_GROUP' },
    });
    assert.equal(refused.statusCode, 400);
    assert.equal(json(refused).code, 'READ_ONLY_PROPERTY');
    const response = await t().request({
      method: 'POST',
      url: BASE,
      body: { id: null, number: 'NO-DESC', type: 'CAPACITY_GROUP' },
    });
    assert.equal(response.statusCode, 201);
    const body = json(response);
    assert.deepEqual(body.properties, {
      id: body.properties.id,
      number: 'NO-DESC',
      description: null,
      type: 'CAPACITY_GROUP',
      erpContextId: null,
    });
  });

  test('POST: invalid bodies are 400 naming the field and the rule; nothing is created', async () => {
    const cases: [unknown, string, string][] = [
      [{ number: 'X1' }, 'VALIDATION_FAILED', "Field 'type' is required."],
      [{ type: 'CAPACITY_GROUP' }, 'VALIDATION_FAILED', "Field 'number' is required."],
      [
        { number: 'X1', type: 'LINE' },
        'VALIDATION_FAILED',
        "Field 'type' must be one of: CAPACITY_GROUP, PRODUCTION_LINE.",
      ],
      [
        { number: '', type: 'CAPACITY_GROUP' },
        'VALIDATION_FAILED',
        "Field 'number' must have at least 1 characters.",
      ],
      [{ number: 7, type: 'CAPACITY_GROUP' }, 'VALIDATION_FAILED', "Field 'number' must be of type string."],
      [
        { number: 'X1', type: 'CAPACITY_GROUP', colour: 'red' },
        'UNKNOWN_FIELD',
        "Field 'colour' is not allowed here.",
      ],
      [[], 'VALIDATION_FAILED', 'The request body must be a JSON object.'],
      ['{"number": ', 'MALFORMED_JSON', 'The request body is not valid JSON.'],
    ];
    for (const [body, code, message] of cases) {
      const response = await t().request({ method: 'POST', url: BASE, body });
      assert.deepEqual(
        [response.statusCode, json(response)],
        [400, { status: 400, code, message }],
        JSON.stringify(body),
      );
    }
    const media = await t().request({
      method: 'POST',
      url: BASE,
      body: 'number=X1&type=CAPACITY_GROUP',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    assert.deepEqual(
      [media.statusCode, json(media)],
      [
        415,
        {
          status: 415,
          code: 'UNSUPPORTED_MEDIA_TYPE',
          message:
            "Content-Type 'application/x-www-form-urlencoded' is not supported; send application/json.",
        },
      ],
    );
    const rows = await t().app.db.query("SELECT 1 FROM workplace_groups WHERE number = 'X1'");
    assert.equal(rows.length, 0);
  });

  test('GET one: unknown and malformed ids are 404', async () => {
    for (const id of ['0190a000-0000-7000-8000-000000000000', 'not-a-uuid']) {
      const response = await t().request({ url: `${BASE}/${id}` });
      assert.deepEqual(
        [response.statusCode, json(response)],
        [404, { status: 404, code: 'NOT_FOUND', message: `There is no workplaceGroup with id '${id}'.` }],
      );
    }
  });

  test('duplicate number: 400 ALREADY_EXISTS on create and on replace, nothing changes', async () => {
    const taken = await createGroup(t(), 'DUP-1', 'CAPACITY_GROUP', 'first');
    const other = await createGroup(t(), 'DUP-2');
    const duplicate = {
      status: 400,
      code: 'ALREADY_EXISTS',
      message: "Another resource already has number 'DUP-1'.",
    };

    const create = await t().request({
      method: 'POST',
      url: BASE,
      body: { number: 'DUP-1', type: 'PRODUCTION_LINE' },
    });
    assert.deepEqual([create.statusCode, json(create)], [400, duplicate]);
    const replace = await t().request({
      method: 'PUT',
      url: `${BASE}/${other.id}`,
      body: { number: 'DUP-1', type: 'CAPACITY_GROUP' },
    });
    assert.deepEqual([replace.statusCode, json(replace)], [400, duplicate]);

    assert.deepEqual(json(await t().request({ url: `${BASE}/${taken.id}` })), groupBody(taken));
    assert.deepEqual(json(await t().request({ url: `${BASE}/${other.id}` })), groupBody(other));
  });

  test('PUT replaces the whole representation; a missing description becomes null', async () => {
    const group = await createGroup(t(), 'PUT-1', 'CAPACITY_GROUP', 'before');
    const replaced = await t().request({
      method: 'PUT',
      url: `${BASE}/${group.id}`,
      body: { number: 'PUT-1b', type: 'PRODUCTION_LINE', description: 'after' },
    });
    const expected = groupBody({ ...group, number: 'PUT-1b', type: 'PRODUCTION_LINE', description: 'after' });
    assert.equal(replaced.statusCode, 200);
    assert.deepEqual(json(replaced), expected);
    assert.deepEqual(json(await t().request({ url: `${BASE}/${group.id}` })), expected);

    // Full replacement: leaving the description out clears it. The body may repeat the path id.
    const cleared = await t().request({
      method: 'PUT',
      url: `${BASE}/${group.id}`,
      body: { id: group.id, number: 'PUT-1b', type: 'PRODUCTION_LINE' },
    });
    assert.equal(cleared.statusCode, 200);
    assert.deepEqual(
      json(cleared),
      groupBody({ ...group, number: 'PUT-1b', type: 'PRODUCTION_LINE', description: null }),
    );
  });

  test('PUT: body id different from the path id is 400 ID_MISMATCH; unknown id is 404', async () => {
    const group = await createGroup(t(), 'PUT-2', 'CAPACITY_GROUP', 'kept');
    const otherId = '0190a000-0000-7000-8000-000000000001';
    const mismatch = await t().request({
      method: 'PUT',
      url: `${BASE}/${group.id}`,
      body: { id: otherId, number: 'PUT-2x', type: 'CAPACITY_GROUP' },
    });
    assert.deepEqual(
      [mismatch.statusCode, json(mismatch)],
      [
        400,
        {
          status: 400,
          code: 'ID_MISMATCH',
          message: `The id in the body ('${otherId}') differs from the id in the path ('${group.id}').`,
        },
      ],
    );
    assert.deepEqual(json(await t().request({ url: `${BASE}/${group.id}` })), groupBody(group));

    const unknown = await t().request({
      method: 'PUT',
      url: `${BASE}/${otherId}`,
      body: { number: 'PUT-2y', type: 'CAPACITY_GROUP' },
    });
    assert.deepEqual(
      [unknown.statusCode, json(unknown)],
      [404, { status: 404, code: 'NOT_FOUND', message: `There is no workplaceGroup with id '${otherId}'.` }],
    );
  });

  test('DELETE: 204 with no body, then GET and DELETE are 404', async () => {
    const group = await createGroup(t(), 'DEL-1');
    const deleted = await t().request({ method: 'DELETE', url: `${BASE}/${group.id}` });
    assert.equal(deleted.statusCode, 204);
    assert.equal(deleted.body, '');
    const notFound = {
      status: 404,
      code: 'NOT_FOUND',
      message: `There is no workplaceGroup with id '${group.id}'.`,
    };
    const again = await t().request({ url: `${BASE}/${group.id}` });
    assert.deepEqual([again.statusCode, json(again)], [404, notFound]);
    const twice = await t().request({ method: 'DELETE', url: `${BASE}/${group.id}` });
    assert.deepEqual([twice.statusCode, json(twice)], [404, notFound]);
  });

  test('DELETE while a workplace uses the group (as capacity group or line): 400 RESOURCE_IN_USE', async () => {
    const capacity = await createGroup(t(), 'USED-CG');
    const line = await createGroup(t(), 'USED-PL', 'PRODUCTION_LINE');
    const workplace = await createWorkplace(t(), 'USED-WP', capacity.id, line.id);

    for (const group of [capacity, line]) {
      const response = await t().request({ method: 'DELETE', url: `${BASE}/${group.id}` });
      assert.deepEqual(
        [response.statusCode, json(response)],
        [
          400,
          {
            status: 400,
            code: 'RESOURCE_IN_USE',
            message: `The workplaceGroup '${group.id}' is still referenced by workplaces.`,
          },
        ],
      );
      assert.deepEqual(json(await t().request({ url: `${BASE}/${group.id}` })), groupBody(group));
    }

    // Once the workplace is gone the groups can go.
    assert.equal(
      (await t().request({ method: 'DELETE', url: `/api/v2/workplaces/${workplace}` })).statusCode,
      204,
    );
    for (const group of [capacity, line]) {
      assert.equal((await t().request({ method: 'DELETE', url: `${BASE}/${group.id}` })).statusCode, 204);
    }
  });

  test('type change is refused while workplaces use the group; other changes are fine', async () => {
    const capacity = await createGroup(t(), 'TYPE-CG', 'CAPACITY_GROUP', 'in use');
    const line = await createGroup(t(), 'TYPE-PL', 'PRODUCTION_LINE');
    const workplace = await createWorkplace(t(), 'TYPE-WP', capacity.id, line.id);

    for (const [group, type] of [
      [capacity, 'PRODUCTION_LINE'],
      [line, 'CAPACITY_GROUP'],
    ] as const) {
      const response = await t().request({
        method: 'PUT',
        url: `${BASE}/${group.id}`,
        body: { number: group.number, description: group.description, type },
      });
      assert.deepEqual(
        [response.statusCode, json(response)],
        [
          400,
          {
            status: 400,
            code: 'RESOURCE_IN_USE',
            message: `The workplaceGroup '${group.id}' is still referenced by workplaces.`,
          },
        ],
      );
      assert.deepEqual(json(await t().request({ url: `${BASE}/${group.id}` })), groupBody(group));
    }

    // Renaming a group in use keeps its type and is allowed.
    const renamed = await t().request({
      method: 'PUT',
      url: `${BASE}/${capacity.id}`,
      body: { number: 'TYPE-CG2', description: 'renamed', type: 'CAPACITY_GROUP' },
    });
    assert.equal(renamed.statusCode, 200);
    assert.deepEqual(json(renamed), groupBody({ ...capacity, number: 'TYPE-CG2', description: 'renamed' }));

    // Without users the type may change.
    assert.equal(
      (await t().request({ method: 'DELETE', url: `/api/v2/workplaces/${workplace}` })).statusCode,
      204,
    );
    const retyped = await t().request({
      method: 'PUT',
      url: `${BASE}/${line.id}`,
      body: { number: line.number, type: 'CAPACITY_GROUP' },
    });
    assert.equal(retyped.statusCode, 200);
    assert.equal(json(retyped).properties.type, 'CAPACITY_GROUP');
  });

  test('createWorkplaceGroup link for a write token only; a read token sees the same items', async () => {
    await createGroup(t(), 'LINK-1');
    const writer = json(await t().request({ url: BASE }));
    const reader = json(await t().request({ url: BASE, scopes: ['read'] }));
    assert.deepEqual(writer._links.createWorkplaceGroup, {
      href: absolute(BASE),
      method: 'POST',
      embeddable: false,
    });
    assert.equal('createWorkplaceGroup' in reader._links, false);
    const { createWorkplaceGroup: _create, ...writerLinks } = writer._links;
    assert.deepEqual(reader, { ...writer, _links: writerLinks });
  });

  test('security: no token is 401; a read-only token may read but not write (403)', async () => {
    const group = await createGroup(t(), 'SEC-1', 'CAPACITY_GROUP', 'guarded');
    for (const url of [BASE, `${BASE}/${group.id}`]) {
      const anonymous = await t().request({ url, anonymous: true });
      assert.equal(anonymous.statusCode, 401);
      assert.equal(anonymous.headers['www-authenticate'], 'Bearer realm="bridge"');
      assert.equal(json(anonymous).code, 'UNAUTHORIZED');
      assert.equal((await t().request({ url, scopes: ['read'] })).statusCode, 200);
    }
    const forbidden = {
      status: 403,
      code: 'INSUFFICIENT_SCOPE',
      message: "This request needs the scope 'write', which the access token does not grant.",
    };
    const writes = [
      { method: 'POST' as const, url: BASE, body: { number: 'SEC-2', type: 'CAPACITY_GROUP' } },
      {
        method: 'PUT' as const,
        url: `${BASE}/${group.id}`,
        body: { number: 'SEC-1x', type: 'CAPACITY_GROUP' },
      },
      { method: 'DELETE' as const, url: `${BASE}/${group.id}` },
    ];
    for (const write of writes) {
      const response = await t().request({ ...write, scopes: ['read'] });
      assert.deepEqual([response.statusCode, json(response)], [403, forbidden], write.method);
    }
    // None of the refused writes changed anything.
    assert.deepEqual(json(await t().request({ url: `${BASE}/${group.id}` })), groupBody(group));
    assert.equal((await t().app.db.query("SELECT 1 FROM workplace_groups WHERE number = 'SEC-2'")).length, 0);
  });
});
