// Staff members end to end (docs/api.md "Resources", docs/resources/planning.md, docs/events.md): CRUD with filters, references to workplaces,
// absences, the assigned workplaces sub-collection, activities on operations as a state machine
// with their history, the events each change stores, and what a read-only caller may do.
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
import { eventsOf, type UntimedEvent, withoutTime } from '../support/events.ts';
import { absolute, get } from '../support/hal.ts';

const BASE = '/api/v2/staffMembers';
const READ = ['read'];

interface StaffMember {
  id: string;
  staffNumber: string;
  firstName: string;
  lastName: string;
  email: string | null;
  qualifications: string[];
  assignedWorkplaceIds: string[];
  shiftId: string | null;
  absences: { startDate: string; endDate: string; reason: string | null }[];
}

/**
 * The representation of a staff member; `write`: the caller holds the write scope; `operations`:
 * those of the member's open activities.
 */
function memberBody(member: StaffMember, write = true, operations: string[] = []) {
  const self = `${BASE}/${member.id}`;
  return {
    properties: { erpContextId: null, identificationNumber: null, ...member },
    _links: {
      self: get(self),
      assignedWorkplaces: get(`${self}/assignedWorkplaces`, true),
      skills: get(`${self}/skills`),
      scheduledWorkingTimes: get(`${self}/scheduledWorkingTimes`),
      location: get(`${self}/location`, true),
      recordedActivities: get(`${self}/recordedActivities`),
      currentlyExecutedOperations: operations.map((id) => get(`/api/v2/operations/${id}`, true)),
      ...(write
        ? { addActivity: { href: absolute(`${self}/activities`), method: 'POST', embeddable: false } }
        : {}),
    },
  };
}

const minimal = (id: string, staffNumber: string): StaffMember => ({
  id,
  staffNumber,
  firstName: 'Test',
  lastName: `Person ${staffNumber}`,
  email: null,
  qualifications: [],
  assignedWorkplaceIds: [],
  shiftId: null,
  absences: [],
});

const lifecycle = (change: string, id: string, data: Record<string, unknown>): UntimedEvent[] => [
  { eventType: `STAFF_MEMBER_${change}`, objectType: 'STAFF_MEMBER', objectId: id, data },
  { eventType: 'RESOURCES_UPDATED', objectType: 'STAFF_MEMBER', objectId: id, data: { changeType: change } },
];

// The event data leaves out erpContextId and identificationNumber (docs/events.md).
const eventData = ({
  id,
  erpContextId: _erp,
  identificationNumber: _badge,
  ...member
}: StaffMember & { erpContextId?: unknown; identificationNumber?: unknown }) => ({
  staffMemberId: id,
  ...member,
});

const error = (code: string, message: string) => ({ status: 400, code, message });

async function post(t: TestApp, body: Record<string, unknown>) {
  return t.request({ method: 'POST', url: BASE, body });
}

async function activity(t: TestApp, staffMemberId: string, body: Record<string, unknown>, scopes?: string[]) {
  return t.request({ method: 'POST', url: `${BASE}/${staffMemberId}/activities`, body, scopes });
}

describeEachBackend('staff members', (t) => {
  test('POST with the helper body: 201, Location = self, defaults, CREATED events', async () => {
    const response = await post(t(), { staffNumber: 'MIN-1', firstName: 'Test', lastName: 'Person MIN-1' });
    assert.equal(response.statusCode, 201, response.body);
    const id = json(response).properties.id;
    const expected = memberBody(minimal(id, 'MIN-1'));
    assert.deepEqual(json(response), expected);
    assert.equal(response.headers.location, absolute(`${BASE}/${id}`));
    const fetched = await t().request({ url: `${BASE}/${id}` });
    assert.deepEqual([fetched.statusCode, json(fetched)], [200, expected]);
    assert.deepEqual(
      withoutTime(await eventsOf(t(), id)),
      lifecycle('CREATED', id, eventData(minimal(id, 'MIN-1'))),
    );
  });

  test('POST with every field; absences normalised to UTC with milliseconds', async () => {
    const first = await createWorkplace(t(), 'FULL-WP1');
    const second = await createWorkplace(t(), 'FULL-WP2');
    const response = await post(t(), {
      staffNumber: 'FULL-1',
      firstName: 'Ada',
      lastName: 'Lovelace',
      email: 'ada@example.com',
      qualifications: ['WELDING', 'CNC-5AX'],
      assignedWorkplaceIds: [second, first],
      shiftId: 'EARLY',
      absences: [
        { startDate: '2030-07-01T00:00:00Z', endDate: '2030-07-14T23:59:59+02:00', reason: 'Vacation' },
        { startDate: '2030-08-01T00:00:00.000Z', endDate: '2030-08-01T00:00:00.000Z' },
      ],
    });
    assert.equal(response.statusCode, 201, response.body);
    const id = json(response).properties.id;
    const expected: StaffMember = {
      id,
      staffNumber: 'FULL-1',
      firstName: 'Ada',
      lastName: 'Lovelace',
      email: 'ada@example.com',
      qualifications: ['WELDING', 'CNC-5AX'],
      assignedWorkplaceIds: [second, first],
      shiftId: 'EARLY',
      absences: [
        { startDate: '2030-07-01T00:00:00.000Z', endDate: '2030-07-14T21:59:59.000Z', reason: 'Vacation' },
        { startDate: '2030-08-01T00:00:00.000Z', endDate: '2030-08-01T00:00:00.000Z', reason: null },
      ],
    };
    assert.deepEqual(json(response), memberBody(expected));
    assert.deepEqual(json(await t().request({ url: `${BASE}/${id}` })), memberBody(expected));
    assert.deepEqual((await eventsOf(t(), id))[0]?.data, eventData(expected));

    const assigned = json(await t().request({ url: `${BASE}/${id}/assignedWorkplaces` }));
    assert.deepEqual(assigned.pagination, {
      limit: 100,
      count: 2,
      offset: 0,
      total: 2,
      firstIdentifier: null,
      lastIdentifier: null,
    });
    assert.deepEqual(
      assigned._embedded.workplaces.map((item: { properties: { id: string } }) => item.properties.id),
      [second, first],
    );
    assert.deepEqual(assigned._embedded.workplaces[0]._links.self, get(`/api/v2/workplaces/${second}`));
  });

  test('the ERP context is linked and embeds on request', async () => {
    const AREA = '4ca712a78a2b4cf58fa5a79544707e37';
    const created = json(
      await post(t(), { staffNumber: 'ERP-1', firstName: 'Grace', lastName: 'Hopper', erpContextId: AREA }),
    );
    assert.deepEqual(created._links.erpContext, get(`/api/v2/erpContexts/${AREA}`, true));
    const area = json(await t().request({ url: `/api/v2/erpContexts/${AREA}` }));
    const one = json(await t().request({ url: `${BASE}/${created.properties.id}?embed=erpContext` }));
    assert.deepEqual(one._embedded, { erpContext: area });
    const bare = json(await post(t(), { staffNumber: 'ERP-2', firstName: 'Alan', lastName: 'Turing' }));
    assert.equal(bare._links.erpContext, undefined);
  });

  test('the identification number is optional, stored, replaced and named when it changes', async () => {
    const created = json(
      await post(t(), {
        staffNumber: 'ID-1',
        firstName: 'Ada',
        lastName: 'Lovelace',
        identificationNumber: '5000001',
      }),
    );
    assert.equal(created.properties.identificationNumber, '5000001');
    const url = `${BASE}/${created.properties.id}`;
    assert.equal(json(await t().request({ url })).properties.identificationNumber, '5000001');
    const page = json(await t().request({ url: `${BASE}?staffNumber=ID-1` }));
    assert.equal(page._embedded.staffMembers[0].properties.identificationNumber, '5000001');
    const body = {
      staffNumber: 'ID-1',
      firstName: 'Ada',
      lastName: 'Lovelace',
      identificationNumber: '5000002',
    };
    const replaced = await t().request({ method: 'PUT', url, body });
    assert.equal(replaced.statusCode, 200, replaced.body);
    assert.equal(json(await t().request({ url })).properties.identificationNumber, '5000002');
    const events = await eventsOf(t(), created.properties.id, 'STAFF_MEMBER_UPDATED');
    assert.deepEqual(events.at(-1)?.data.changedProperties, ['identificationNumber']);
    const { identificationNumber: _badge, ...withoutIt } = body;
    await t().request({ method: 'PUT', url, body: withoutIt });
    assert.equal(json(await t().request({ url })).properties.identificationNumber, null);
    const tooLong = await post(t(), {
      staffNumber: 'ID-2',
      firstName: 'A',
      lastName: 'B',
      identificationNumber: 'x'.repeat(101),
    });
    assert.equal(tooLong.statusCode, 400, tooLong.body);
  });

  test('POST refusals name the field (and the index in lists)', async () => {
    const workplace = await createWorkplace(t(), 'BAD-WP');
    await createStaffMember(t(), 'BAD-1');
    const missing = '0190b7a4-0000-7000-8000-000000000000';
    const base = { staffNumber: 'BAD-2', firstName: 'A', lastName: 'B' };
    const cases: [Record<string, unknown>, ReturnType<typeof error>][] = [
      [
        { ...base, assignedWorkplaceIds: [workplace, missing] },
        error(
          'INVALID_REFERENCE',
          `Field 'assignedWorkplaceIds[1]' refers to '${missing}', which is not an existing workplace.`,
        ),
      ],
      [
        { ...base, absences: [{ startDate: '2030-01-02T00:00:00Z', endDate: '2030-01-01T00:00:00Z' }] },
        error('VALIDATION_FAILED', "Field 'absences[0].endDate' is invalid: must not be before startDate."),
      ],
      [
        { ...base, staffNumber: 'BAD-1' },
        error('ALREADY_EXISTS', "Another resource already has staffNumber 'BAD-1'."),
      ],
      [{ ...base, nickname: 'x' }, error('UNKNOWN_FIELD', "Field 'nickname' is not allowed here.")],
      [{ staffNumber: 'BAD-2', firstName: 'A' }, error('VALIDATION_FAILED', "Field 'lastName' is required.")],
      [
        { ...base, qualifications: Array.from({ length: 101 }, (_, i) => `Q${i}`) },
        error('VALIDATION_FAILED', "Field 'qualifications' must have at most 100 entries."),
      ],
    ];
    for (const [body, expected] of cases) {
      const response = await post(t(), body);
      assert.deepEqual([response.statusCode, json(response)], [400, expected], JSON.stringify(body));
    }
    for (const body of [
      { ...base, qualifications: ['A', 'A'] },
      { ...base, assignedWorkplaceIds: [workplace, workplace] },
      { ...base, email: 'not an address' },
      { ...base, staffNumber: '' },
      { ...base, absences: [{ startDate: 'yesterday', endDate: '2030-01-01T00:00:00Z' }] },
    ]) {
      const response = await post(t(), body);
      assert.deepEqual(
        [response.statusCode, json(response).code],
        [400, 'VALIDATION_FAILED'],
        JSON.stringify(body),
      );
    }
    const listed = json(await t().request({ url: `${BASE}?staffNumber=BAD-2` }));
    assert.equal(listed.pagination.total, 0);
  });

  test('GET collection: ordered by staff number, filters, paging links, create link', async () => {
    const wp = await createWorkplace(t(), 'LIST-WP');
    await createStaffMember(t(), 'LIST-3', { qualifications: ['TURNING'] });
    await createStaffMember(t(), 'LIST-1', {
      assignedWorkplaceIds: [wp],
      qualifications: ['TURNING', 'MILLING'],
    });
    await createStaffMember(t(), 'LIST-2', { assignedWorkplaceIds: [wp] });
    const numbers = async (query: string) =>
      json(await t().request({ url: `${BASE}?${query}` }))._embedded.staffMembers.map(
        (item: { properties: StaffMember }) => item.properties.staffNumber,
      );
    assert.deepEqual(
      (await numbers('limit=100')).filter((n: string) => n.startsWith('LIST-')),
      ['LIST-1', 'LIST-2', 'LIST-3'],
    );
    assert.deepEqual(await numbers('staffNumber=LIST-2'), ['LIST-2']);
    assert.deepEqual(await numbers(`workplaceId=${wp}`), ['LIST-1', 'LIST-2']);
    assert.deepEqual(await numbers('qualification=TURNING'), ['LIST-1', 'LIST-3']);
    assert.deepEqual(await numbers(`qualification=MILLING&workplaceId=${wp}`), ['LIST-1']);

    const page = json(await t().request({ url: `${BASE}?workplaceId=${wp}&limit=1&offset=1` }));
    assert.deepEqual(page.pagination, {
      limit: 1,
      count: 1,
      offset: 1,
      total: 2,
      firstIdentifier: null,
      lastIdentifier: null,
    });
    const at = (offset: number) => get(`${BASE}?workplaceId=${wp}&limit=1&offset=${offset}`);
    assert.deepEqual(page._links, {
      self: at(1),
      current: at(1),
      first: at(0),
      previous: at(0),
      last: at(1),
      createStaffMember: { href: absolute(BASE), method: 'POST', embeddable: false },
    });

    for (const query of ['workplaceId=nope', 'limit=0', 'offset=-1', 'sort=staffNumber']) {
      const response = await t().request({ url: `${BASE}?${query}` });
      assert.equal(response.statusCode, 400, query);
    }
  });

  test('PUT replaces everything, emits UPDATED with the changed properties; an unchanged PUT emits nothing', async () => {
    const wp = await createWorkplace(t(), 'PUT-WP');
    const id = await createStaffMember(t(), 'PUT-1', {
      email: 'p@example.com',
      qualifications: ['A'],
      shiftId: 'LATE',
    });
    const before = (await eventsOf(t(), id)).length;
    const body = {
      id,
      staffNumber: 'PUT-1',
      firstName: 'Test',
      lastName: 'Renamed',
      qualifications: ['A', 'B'],
      assignedWorkplaceIds: [wp],
    };
    const response = await t().request({ method: 'PUT', url: `${BASE}/${id}`, body });
    const expected: StaffMember = {
      ...minimal(id, 'PUT-1'),
      lastName: 'Renamed',
      qualifications: ['A', 'B'],
      assignedWorkplaceIds: [wp],
    };
    assert.deepEqual([response.statusCode, json(response)], [200, memberBody(expected)]);
    assert.deepEqual(
      withoutTime(await eventsOf(t(), id)).slice(before),
      lifecycle('UPDATED', id, {
        ...eventData(expected),
        changedProperties: ['lastName', 'email', 'qualifications', 'assignedWorkplaceIds', 'shiftId'],
      }),
    );

    const again = await t().request({ method: 'PUT', url: `${BASE}/${id}`, body });
    assert.deepEqual([again.statusCode, json(again)], [200, memberBody(expected)]);
    assert.equal((await eventsOf(t(), id)).length, before + 2);
  });

  test('PUT and DELETE refusals: id mismatch, duplicate number, unknown and malformed ids', async () => {
    const id = await createStaffMember(t(), 'REF-1');
    await createStaffMember(t(), 'REF-2');
    const body = { staffNumber: 'REF-1', firstName: 'A', lastName: 'B' };
    const other = '0190b7a4-0000-7000-8000-000000000001';
    const mismatch = await t().request({ method: 'PUT', url: `${BASE}/${id}`, body: { ...body, id: other } });
    assert.deepEqual([mismatch.statusCode, json(mismatch).code], [400, 'ID_MISMATCH']);
    const duplicate = await t().request({
      method: 'PUT',
      url: `${BASE}/${id}`,
      body: { ...body, staffNumber: 'REF-2' },
    });
    assert.deepEqual([duplicate.statusCode, json(duplicate).code], [400, 'ALREADY_EXISTS']);
    for (const path of [other, 'not-a-uuid', other.toUpperCase()]) {
      for (const [method, payload] of [
        ['GET', undefined],
        ['PUT', body],
        ['DELETE', undefined],
      ] as const) {
        const response = await t().request({ method, url: `${BASE}/${path}`, body: payload });
        assert.deepEqual([response.statusCode, json(response).code], [404, 'NOT_FOUND'], `${method} ${path}`);
      }
      for (const sub of ['assignedWorkplaces', 'recordedActivities', `recordedActivities/${other}`]) {
        const response = await t().request({ url: `${BASE}/${path}/${sub}` });
        assert.equal(response.statusCode, 404, sub);
      }
    }
  });

  test('DELETE: 204, gone, DELETED events; a deleted workplace leaves the assignments', async () => {
    const wp = await createWorkplace(t(), 'DEL-WP');
    const keep = await createWorkplace(t(), 'DEL-WP2');
    const id = await createStaffMember(t(), 'DEL-1', { assignedWorkplaceIds: [wp, keep] });
    const removed = await t().request({ method: 'DELETE', url: `/api/v2/workplaces/${wp}` });
    assert.equal(removed.statusCode, 204, removed.body);
    const member = json(await t().request({ url: `${BASE}/${id}` })).properties;
    assert.deepEqual(member.assignedWorkplaceIds, [keep]);

    const before = (await eventsOf(t(), id)).length;
    const response = await t().request({ method: 'DELETE', url: `${BASE}/${id}` });
    assert.equal(response.statusCode, 204);
    assert.equal((await t().request({ url: `${BASE}/${id}` })).statusCode, 404);
    assert.deepEqual(
      withoutTime(await eventsOf(t(), id)).slice(before),
      lifecycle('DELETED', id, eventData(member)),
    );
  });

  test('a read-only caller sees no action or create links and gets 403 on every write', async () => {
    const id = await createStaffMember(t(), 'RO-1');
    const one = json(await t().request({ url: `${BASE}/${id}`, scopes: READ }));
    assert.deepEqual(one, memberBody(minimal(id, 'RO-1'), false));
    const list = json(await t().request({ url: BASE, scopes: READ }));
    assert.equal(list._links.createStaffMember, undefined);
    const body = { staffNumber: 'RO-2', firstName: 'A', lastName: 'B' };
    for (const [method, url, payload] of [
      ['POST', BASE, body],
      ['PUT', `${BASE}/${id}`, body],
      ['DELETE', `${BASE}/${id}`, undefined],
      ['POST', `${BASE}/${id}/activities`, { operationId: id, activity: 'STARTED' }],
    ] as const) {
      const response = await t().request({ method, url, body: payload, scopes: READ });
      assert.deepEqual(
        [response.statusCode, json(response).code],
        [403, 'INSUFFICIENT_SCOPE'],
        `${method} ${url}`,
      );
    }
    assert.equal((await t().request({ url: `${BASE}/${id}` })).statusCode, 200);
  });

  test('activities: the transition table', async () => {
    const wp = await createWorkplace(t(), 'TR-WP');
    // Activities that bring a fresh staff member on a fresh operation to each state.
    const reach: Record<string, string[]> = {
      NONE: [],
      STARTED: ['STARTED'],
      INTERRUPTED: ['STARTED', 'INTERRUPTED'],
      FINISHED: ['STARTED', 'FINISHED'],
    };
    const table: [string, string, boolean][] = [
      ['NONE', 'STARTED', true],
      ['NONE', 'INTERRUPTED', false],
      ['NONE', 'FINISHED', false],
      ['STARTED', 'STARTED', false],
      ['STARTED', 'INTERRUPTED', true],
      ['STARTED', 'FINISHED', true],
      ['INTERRUPTED', 'STARTED', true],
      ['INTERRUPTED', 'INTERRUPTED', false],
      ['INTERRUPTED', 'FINISHED', false],
      ['FINISHED', 'STARTED', true],
      ['FINISHED', 'INTERRUPTED', false],
      ['FINISHED', 'FINISHED', false],
    ];
    for (const [index, [from, to, allowed]] of table.entries()) {
      const staffMember = await createStaffMember(t(), `TR-${index}`);
      const operationId = await createOperation(t(), `TR-OP-${index}`);
      for (const step of reach[from] ?? []) {
        const setup = await activity(t(), staffMember, { operationId, workplaceId: wp, activity: step });
        assert.ok(setup.statusCode < 300, setup.body);
      }
      const response = await activity(t(), staffMember, { operationId, workplaceId: wp, activity: to });
      const label = `${from} -> ${to}`;
      if (allowed) {
        assert.equal(response.statusCode, to === 'STARTED' ? 201 : 200, `${label}: ${response.body}`);
        assert.equal(json(response).properties.activity, to, label);
      } else {
        const allowedNow = from === 'STARTED' ? 'INTERRUPTED, FINISHED' : 'STARTED';
        assert.deepEqual(
          [response.statusCode, json(response)],
          [
            400,
            error(
              'INVALID_TRANSITION',
              `The staffMember '${staffMember}' cannot change from ${from} to ${to}; allowed: ${allowedNow}.`,
            ),
          ],
          label,
        );
      }
    }
  });

  test('activities: answers, ACTIVITY_CHANGED events (never UPDATED), history newest first', async () => {
    const wp = await createWorkplace(t(), 'ACT-WP');
    const id = await createStaffMember(t(), 'ACT-1');
    const operationId = await createOperation(t(), 'ACT-OP');
    const eventsBefore = (await eventsOf(t(), id)).length;

    const started = await activity(t(), id, { operationId, workplaceId: wp, activity: 'STARTED' });
    assert.equal(started.statusCode, 201, started.body);
    const record = json(started);
    const self = `${BASE}/${id}/recordedActivities/${record.properties.id}`;
    assert.equal(started.headers.location, absolute(self));
    assert.deepEqual(record, {
      properties: {
        id: record.properties.id,
        staffMemberId: id,
        operationId,
        workplaceId: wp,
        activity: 'STARTED',
        startDate: record.properties.startDate,
        endDate: null,
      },
      _links: {
        self: get(self),
        staffMember: get(`${BASE}/${id}`),
        operation: get(`/api/v2/operations/${operationId}`),
        workplace: get(`/api/v2/workplaces/${wp}`),
      },
    });

    const finished = await activity(t(), id, { operationId, activity: 'FINISHED' });
    assert.equal(finished.statusCode, 200, finished.body);
    const closed = json(finished);
    assert.equal(closed.properties.id, record.properties.id);
    assert.equal(closed.properties.activity, 'FINISHED');
    assert.ok(closed.properties.endDate >= closed.properties.startDate);
    assert.deepEqual(json(await t().request({ url: self })), closed);

    const restarted = await activity(t(), id, { operationId, workplaceId: wp, activity: 'STARTED' });
    assert.equal(restarted.statusCode, 201);

    const data = (activityName: string, previousActivity: string | null) => ({
      staffMemberId: id,
      operationId,
      workplaceId: wp,
      activity: activityName,
      previousActivity,
    });
    const changed = (d: Record<string, unknown>) => ({
      eventType: 'STAFF_MEMBER_ACTIVITY_CHANGED',
      objectType: 'STAFF_MEMBER',
      objectId: id,
      data: d,
    });
    assert.deepEqual(withoutTime(await eventsOf(t(), id)).slice(eventsBefore), [
      changed(data('STARTED', null)),
      changed(data('FINISHED', 'STARTED')),
      changed(data('STARTED', 'FINISHED')),
    ]);

    const history = json(await t().request({ url: `${BASE}/${id}/recordedActivities` }));
    assert.deepEqual(
      history._embedded.recordedActivities.map(
        (item: { properties: { activity: string } }) => item.properties.activity,
      ),
      ['STARTED', 'FINISHED'],
    );
    assert.equal(history.pagination.offset, null);
    assert.equal(history.pagination.total, 2);

    // Timestamp mode: one per page, walking to older entries and back.
    const first = json(await t().request({ url: `${BASE}/${id}/recordedActivities?limit=1` }));
    assert.equal(first._embedded.recordedActivities[0].properties.id, json(restarted).properties.id);
    const older = json(await t().request({ url: first._links.next.href }));
    assert.equal(older._embedded.recordedActivities[0].properties.id, record.properties.id);
    assert.equal(older._links.next, undefined);
    const newer = json(await t().request({ url: older._links.previous.href }));
    assert.equal(newer._embedded.recordedActivities[0].properties.id, json(restarted).properties.id);

    const member = json(await t().request({ url: `${BASE}/${id}` }));
    assert.deepEqual(member, memberBody(minimal(id, 'ACT-1'), true, [operationId]));
  });

  test('absence times are the stored absences overlapping the period, newest first in timestamp pages', async () => {
    const at = (day: number) => new Date(Date.UTC(2031, 2, day)).toISOString();
    const id = await createStaffMember(t(), 'ABS-1', {
      absences: [
        { startDate: at(1), endDate: at(3), reason: 'vacation' },
        { startDate: at(10), endDate: at(11) },
        { startDate: at(20), endDate: at(25), reason: 'training' },
      ],
    });
    const self = `${BASE}/${id}`;
    const read = async (url: string) => {
      const response = await t().request({ url });
      assert.equal(response.statusCode, 200, response.body);
      return json(response);
    };
    const absence = (start: number, end: number, reason: string | null) => ({
      timePeriod: { startDate: at(start), endDate: at(end), duration: (end - start) * 86_400_000 },
      reason,
    });
    const all = await read(`${self}/absenceTimes`);
    assert.deepEqual(all.properties.elements, [
      absence(20, 25, 'training'),
      absence(10, 11, null),
      absence(1, 3, 'vacation'),
    ]);
    assert.deepEqual(all._links.staffMember, get(self));
    assert.equal(all.pagination.total, 3);

    const window = await read(`${self}/absenceTimes?startDate=${at(2)}&endDate=${at(15)}&limit=1`);
    assert.deepEqual(window.properties.elements, [absence(10, 11, null)]);
    assert.deepEqual(window.pagination, {
      offset: null,
      total: 2,
      count: 1,
      limit: 1,
      firstIdentifier: { timestamp: at(10), paginationTimestamp: at(10) },
      lastIdentifier: { timestamp: at(10), paginationTimestamp: at(10) },
    });
    const older = await read(window._links.next.href);
    assert.deepEqual(older.properties.elements, [absence(1, 3, 'vacation')]);
    assert.equal(older._links.next, undefined);

    const none = await createStaffMember(t(), 'ABS-2');
    assert.deepEqual((await read(`${BASE}/${none}/absenceTimes`)).properties.elements, []);
    const unknown = await t().request({ url: `${BASE}/${crypto.randomUUID()}/absenceTimes` });
    assert.equal(unknown.statusCode, 404);
    const bad = await t().request({ url: `${self}/absenceTimes?startDate=yesterday` });
    assert.equal(bad.statusCode, 400);
  });

  test("staff member shifts are their shift model's shifts at their assigned workplaces", async () => {
    const first = await createWorkplace(t(), 'SMS-WP1');
    const second = await createWorkplace(t(), 'SMS-WP2');
    const other = await createWorkplace(t(), 'SMS-WP3');
    const at = (hour: number) => new Date(Date.UTC(2032, 4, 3, hour)).toISOString();
    const shift = async (
      workplaceId: string,
      shiftModelId: string,
      start: number,
      end: number,
      type?: string,
    ) => {
      const response = await t().request({
        method: 'POST',
        url: `/api/v2/workplaces/${workplaceId}/shifts`,
        body: {
          shiftModelId,
          startDate: at(start),
          endDate: at(end),
          ...(type ? { shiftTypeId: type } : {}),
        },
      });
      assert.equal(response.statusCode, 201, response.body);
      return json(response).properties.id as string;
    };
    const FIRST_SHIFT = 'B2000D67169941CCAD650A552EB1317C';
    const morning = await shift(first, 'SMS-EARLY', 6, 14, FIRST_SHIFT);
    const twin = await shift(second, 'SMS-EARLY', 6, 14, FIRST_SHIFT);
    const next = await shift(second, 'SMS-EARLY', 30, 38);
    await shift(first, 'SMS-LATE', 14, 22);
    await shift(other, 'SMS-EARLY', 54, 62);
    const id = await createStaffMember(t(), 'SMS-1', {
      assignedWorkplaceIds: [first, second],
      shiftId: 'SMS-EARLY',
    });
    const read = async (url: string) => {
      const response = await t().request({ url });
      assert.equal(response.statusCode, 200, response.body);
      return json(response);
    };

    const page = await read(`${BASE}/shifts?staffMemberId=${id}`);
    const shifts = page._embedded.shifts;
    // The same period at both workplaces is one shift of theirs: the lower shift id's.
    assert.deepEqual(
      shifts.map((item: { properties: unknown }) => item.properties),
      [
        {
          id: shifts[0].properties.id,
          staffMemberId: id,
          shift: {
            timePeriod: { startDate: at(30), endDate: at(38), duration: 8 * 3_600_000 },
            associatedDay: '2032-05-04',
            breaks: [],
          },
          shiftTypeId: null,
        },
        {
          id: shifts[1].properties.id,
          staffMemberId: id,
          shift: {
            timePeriod: { startDate: at(6), endDate: at(14), duration: 8 * 3_600_000 },
            associatedDay: '2032-05-03',
            breaks: [],
          },
          shiftTypeId: FIRST_SHIFT,
        },
      ],
    );
    const kept = [morning, twin].sort()[0] as string;
    const keptWorkplace = kept === morning ? first : second;
    assert.equal(
      shifts[1]._links.workplaceShift.href.endsWith(`/workplaces/${keptWorkplace}/shifts/${kept}`),
      true,
    );
    assert.equal(shifts[0]._links.workplaceShift.href.endsWith(`/workplaces/${second}/shifts/${next}`), true);
    assert.equal(shifts[0]._links.shiftType, undefined);
    assert.equal(page.pagination.total, 2);

    // The id is stable: the item reads back, with its staff member and shift type embedded.
    const item = await read(`${BASE}/shifts/${shifts[1].properties.id}?embed=staffMember,shiftType`);
    assert.deepEqual(item.properties, shifts[1].properties);
    assert.deepEqual(item._links.staffMember, get(`${BASE}/${id}`, true));
    assert.equal(item._embedded.staffMember.properties.staffNumber, 'SMS-1');
    assert.equal(item._embedded.shiftType.properties.isWorkingShift, true);
    assert.equal(item._embedded.shiftType.properties.description, 'First shift');

    // The period and timestamp pages.
    const window = await read(`${BASE}/shifts?staffMemberId=${id}&startDate=${at(20)}`);
    assert.deepEqual(
      window._embedded.shifts.map((entry: { properties: { id: string } }) => entry.properties.id),
      [shifts[0].properties.id],
    );
    const one = await read(`${BASE}/shifts?staffMemberId=${id}&limit=1`);
    assert.equal(one._embedded.shifts[0].properties.id, shifts[0].properties.id);
    const older = await read(one._links.next.href);
    assert.equal(older._embedded.shifts[0].properties.id, shifts[1].properties.id);

    // Changing the member's shift model or assignments changes their shifts.
    const replaced = await t().request({
      method: 'PUT',
      url: `${BASE}/${id}`,
      body: {
        staffNumber: 'SMS-1',
        firstName: 'Test',
        lastName: 'Person',
        assignedWorkplaceIds: [first],
        shiftId: 'SMS-LATE',
      },
    });
    assert.equal(replaced.statusCode, 200, replaced.body);
    const late = await read(`${BASE}/shifts?staffMemberId=${id}`);
    assert.deepEqual(
      late._embedded.shifts.map(
        (entry: { properties: { shift: { timePeriod: unknown } } }) => entry.properties.shift.timePeriod,
      ),
      [{ startDate: at(14), endDate: at(22), duration: 8 * 3_600_000 }],
    );
    const gone = await t().request({ url: `${BASE}/shifts/${shifts[1].properties.id}` });
    assert.equal(gone.statusCode, 404);
    assert.equal((await t().request({ url: `${BASE}/shifts/not-an-id` })).statusCode, 404);
    assert.equal((await t().request({ url: `${BASE}/shifts?staffMemberId=nope` })).statusCode, 400);
    assert.equal((await t().request({ url: `${BASE}/shifts?embed=workplace` })).statusCode, 400);
  });

  test('skills, scheduled working time, location and current operations come from stored data', async () => {
    const early = await createWorkplace(t(), 'SUB-WP1');
    const late = await createWorkplace(t(), 'SUB-WP2');
    const elsewhere = await createWorkplace(t(), 'SUB-WP3');
    const at = (hour: number) => new Date(Date.UTC(2030, 0, 7, hour)).toISOString();
    const shift = async (workplaceId: string, shiftModelId: string, start: number, end: number) => {
      const response = await t().request({
        method: 'POST',
        url: `/api/v2/workplaces/${workplaceId}/shifts`,
        body: { shiftModelId, startDate: at(start), endDate: at(end) },
      });
      assert.equal(response.statusCode, 201, response.body);
    };
    // The EARLY shift at both assigned workplaces (overlapping there), another model, and a
    // workplace the member is not assigned to.
    await shift(early, 'EARLY', 6, 10);
    await shift(early, 'EARLY', 10, 14);
    await shift(late, 'EARLY', 8, 12);
    await shift(early, 'LATE', 14, 22);
    await shift(elsewhere, 'EARLY', 30, 34);
    await shift(early, 'EARLY', 30, 34);
    const id = await createStaffMember(t(), 'SUB-1', {
      qualifications: ['TURNING', 'MILLING'],
      assignedWorkplaceIds: [early, late],
      shiftId: 'EARLY',
      absences: [{ startDate: at(31), endDate: at(32), reason: 'doctor' }],
    });
    const self = `${BASE}/${id}`;
    const read = async (url: string) => {
      const response = await t().request({ url });
      assert.equal(response.statusCode, 200, response.body);
      return json(response);
    };

    const skills = await read(`${self}/skills`);
    const skill = (code: string) => ({
      skillId: code,
      description: null,
      shortDescription: null,
      code,
      skillLevel: null,
      startDate: null,
      endDate: null,
    });
    assert.deepEqual(skills.properties, { elements: [skill('TURNING'), skill('MILLING')] });
    assert.equal(skills.pagination.total, 2);

    const period = (start: number, end: number) => ({
      startDate: at(start),
      endDate: at(end),
      duration: (end - start) * 3_600_000,
    });
    const times = await read(`${self}/scheduledWorkingTimes`);
    assert.deepEqual(times.properties.elements, [period(32, 34), period(30, 31), period(6, 14)]);
    assert.equal(times.pagination.offset, null);
    // Timestamp mode: a period is placed by its start; next walks to older periods and back.
    const window = await read(`${self}/scheduledWorkingTimes?startDate=${at(20)}&endDate=${at(40)}&limit=1`);
    assert.deepEqual(window.properties.elements, [period(32, 34)]);
    assert.deepEqual(window.pagination, {
      offset: null,
      total: 2,
      count: 1,
      limit: 1,
      firstIdentifier: { timestamp: at(32), paginationTimestamp: at(32) },
      lastIdentifier: { timestamp: at(32), paginationTimestamp: at(32) },
    });
    assert.equal(window._links.previous, undefined);
    const older = await read(window._links.next.href);
    assert.deepEqual(older.properties.elements, [period(30, 31)]);
    assert.equal(older._links.next, undefined);
    assert.ok(older._links.previous.href.includes('startDate='), 'paging keeps the period');
    assert.deepEqual((await read(older._links.previous.href)).properties.elements, [period(32, 34)]);
    const oldest = await read(`${self}/scheduledWorkingTimes?paginationDirection=PREVIOUS&limit=2`);
    assert.deepEqual(oldest.properties.elements, [period(30, 31), period(6, 14)]);
    // Without a shift model nothing is scheduled.
    const unscheduled = await createStaffMember(t(), 'SUB-2', { assignedWorkplaceIds: [early] });
    assert.deepEqual((await read(`${BASE}/${unscheduled}/scheduledWorkingTimes`)).properties.elements, []);
    // Every staff member's, by staff number, in one page of elements.
    const all = await read(`${BASE}/scheduledWorkingTimes?startDate=${at(20)}&limit=100`);
    const of = (memberId: string) =>
      all.properties.elements.find(
        (element: { staffMemberId: string }) => element.staffMemberId === memberId,
      );
    assert.deepEqual(of(id), { staffMemberId: id, scheduledWorkingTimes: [period(32, 34), period(30, 31)] });
    assert.deepEqual(of(unscheduled), { staffMemberId: unscheduled, scheduledWorkingTimes: [] });
    assert.equal(all.pagination.total, all.properties.elements.length);
    assert.ok(all._links.self.href.includes('startDate='));

    // Signed on nowhere: no location, no current operations.
    const nowhere = await read(`${self}/location`);
    assert.deepEqual(nowhere.properties, { geoCoordinates: null });
    assert.deepEqual(nowhere._links.staffMember, get(self));
    assert.equal(nowhere._links.workplace, undefined);
    assert.deepEqual((await read(self))._links.currentlyExecutedOperations, []);

    const geoCoordinates = { latitude: 48.1, longitude: 11.5 };
    const located = await t().request({
      method: 'PUT',
      url: `/api/v2/workplaces/${late}/location`,
      body: { geoCoordinates },
    });
    assert.equal(located.statusCode, 200, located.body);
    const operationId = await createOperation(t(), 'SUB-OP');
    const started = await activity(t(), id, { operationId, workplaceId: late, activity: 'STARTED' });
    assert.equal(started.statusCode, 201, started.body);
    const there = await read(`${self}/location`);
    assert.deepEqual(there.properties, { geoCoordinates });
    assert.deepEqual(there._links.workplace, get(`/api/v2/workplaces/${late}`));
    const current = [get(`/api/v2/operations/${operationId}`, true)];
    assert.deepEqual((await read(self))._links.currentlyExecutedOperations, current);
    const page = await read(`${BASE}?staffNumber=SUB-1`);
    assert.deepEqual(page._embedded.staffMembers[0]._links.currentlyExecutedOperations, current);
    // Every link of the staff member leads to an answer.
    for (const [rel, target] of Object.entries((await read(self))._links)) {
      for (const one of [target].flat() as { href: string; method: string }[]) {
        if (one.method !== 'GET') continue;
        assert.equal((await t().request({ url: one.href })).statusCode, 200, rel);
      }
    }

    // The SDK's embeds: the operations, the assigned workplaces in assignment order, the location;
    // each as its own route answers it.
    const embedded = (await read(`${self}?embed=currentlyExecutedOperations,assignedWorkplaces,location`))
      ._embedded;
    assert.deepEqual(Object.keys(embedded).sort(), [
      'assignedWorkplaces',
      'currentlyExecutedOperations',
      'location',
    ]);
    assert.deepEqual(embedded.currentlyExecutedOperations, [await read(`/api/v2/operations/${operationId}`)]);
    assert.deepEqual(embedded.assignedWorkplaces, [
      await read(`/api/v2/workplaces/${early}`),
      await read(`/api/v2/workplaces/${late}`),
    ]);
    assert.deepEqual(embedded.location, there);
    const listed = await read(`${BASE}?staffNumber=SUB-2&embed=location,assignedWorkplaces`);
    assert.deepEqual(listed._embedded.staffMembers[0]._embedded, {
      location: await read(`${BASE}/${unscheduled}/location`),
      assignedWorkplaces: [await read(`/api/v2/workplaces/${early}`)],
    });
    assert.equal((await t().request({ url: `${self}?embed=skills` })).statusCode, 400);

    const missing = '0190b7a4-0000-7000-8000-000000000009';
    for (const sub of ['skills', 'scheduledWorkingTimes', 'location'])
      assert.equal((await t().request({ url: `${BASE}/${missing}/${sub}` })).statusCode, 404, sub);
    for (const query of ['startDate=yesterday', 'offset=0', 'paginationDirection=UP']) {
      const bad = await t().request({ url: `${self}/scheduledWorkingTimes?${query}` });
      assert.equal(bad.statusCode, 400, query);
    }
  });

  test('activities: refusals', async () => {
    const wp = await createWorkplace(t(), 'AR-WP');
    const other = await createWorkplace(t(), 'AR-WP2');
    const id = await createStaffMember(t(), 'AR-1');
    const operationId = await createOperation(t(), 'AR-OP');
    const missing = '0190b7a4-0000-7000-8000-000000000002';
    const cases: [Record<string, unknown>, ReturnType<typeof error>][] = [
      [{ operationId, activity: 'STARTED' }, error('VALIDATION_FAILED', "Field 'workplaceId' is required.")],
      [
        { operationId: missing, workplaceId: wp, activity: 'STARTED' },
        error(
          'INVALID_REFERENCE',
          `Field 'operationId' refers to '${missing}', which is not an existing operation.`,
        ),
      ],
      [
        { operationId, workplaceId: missing, activity: 'STARTED' },
        error(
          'INVALID_REFERENCE',
          `Field 'workplaceId' refers to '${missing}', which is not an existing workplace.`,
        ),
      ],
    ];
    for (const [body, expected] of cases) {
      const response = await activity(t(), id, body);
      assert.deepEqual([response.statusCode, json(response)], [400, expected], JSON.stringify(body));
    }
    const bad = await activity(t(), id, { operationId, workplaceId: wp, activity: 'PAUSED' });
    assert.deepEqual([bad.statusCode, json(bad).code], [400, 'VALIDATION_FAILED']);
    const unknown = await activity(t(), missing, { operationId, workplaceId: wp, activity: 'STARTED' });
    assert.equal(unknown.statusCode, 404);

    assert.equal(
      (await activity(t(), id, { operationId, workplaceId: wp, activity: 'STARTED' })).statusCode,
      201,
    );
    const elsewhere = await activity(t(), id, { operationId, workplaceId: other, activity: 'FINISHED' });
    assert.deepEqual(
      [elsewhere.statusCode, json(elsewhere)],
      [
        400,
        error(
          'VALIDATION_FAILED',
          "Field 'workplaceId' is invalid: differs from the workplace of the open activity.",
        ),
      ],
    );
    const notMine = await t().request({
      url: `${BASE}/${await createStaffMember(t(), 'AR-2')}/recordedActivities/${missing}`,
    });
    assert.equal(notMine.statusCode, 404);
  });
});
