// Workplace shifts end to end: POST/GET/PUT/DELETE with the overlap rule, the timestamp-mode
// collection with its period filter, WORKPLACE_SHIFTS_UPDATED for every change, and the shift
// clock announcing WORKPLACE_SHIFT_CHANGED for each start and end exactly once, also with several
// clocks on one database. The app runs on a ManualClock: the tests move it to a shift's start or
// end and wait for one cycle of the shift clock, instead of waiting in real time.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { ManualClock } from '../../src/background/clock.ts';
import type { Database } from '../../src/db/database.ts';
import { openPostgres } from '../../src/db/postgres.ts';
import { ShiftClock } from '../../src/services/shiftClock.ts';
import { createWorkplace, describeEachBackend, json, type TestApp } from '../support/app.ts';
import { eventsOf, withoutTime } from '../support/events.ts';
import { absolute, get, normalized } from '../support/hal.ts';

const WORKPLACES = '/api/v2/workplaces';
const shiftsOf = (workplaceId: string) => `${WORKPLACES}/${workplaceId}/shifts`;

interface Shift {
  id: string;
  workplaceId: string;
  name: string | null;
  shiftModelId: string | null;
  shiftTypeId: string | null;
  startDate: string;
  endDate: string;
}

/** Seeded shift types (master data shiftTypes): a working and a non-working one. */
const FIRST_SHIFT = 'B2000D67169941CCAD650A552EB1317C';
const NON_WORKING = '5DF951ECF83D4ACA8D6DB702341E990A';

const shiftBody = (shift: Shift) => ({
  properties: shift,
  _links: {
    self: get(`${shiftsOf(shift.workplaceId)}/${shift.id}`),
    workplace: get(`${WORKPLACES}/${shift.workplaceId}`),
    ...(shift.shiftTypeId
      ? { shiftType: get(`/api/v2/masterData/shiftTypes/${shift.shiftTypeId}`, true) }
      : {}),
  },
});

/** Far in the future, so the clock never announces these. */
const day = (n: number, hour: number) => new Date(Date.UTC(2099, 0, n, hour)).toISOString();

async function createShift(t: TestApp, workplaceId: string, body: Record<string, unknown>): Promise<Shift> {
  const response = await t.request({ method: 'POST', url: shiftsOf(workplaceId), body });
  assert.equal(response.statusCode, 201, response.body);
  return json(response).properties;
}

const shiftChanges = async (t: TestApp, shiftId: string) =>
  withoutTime(await eventsOf(t, shiftId, 'WORKPLACE_SHIFT_CHANGED'));

const clockOf = (t: TestApp): ManualClock => {
  const { clock } = t.app;
  assert.ok(clock instanceof ManualClock);
  return clock;
};

/**
 * Moves the app's clock to `to`, or at least to real time (the services stamp changes with real
 * time, and the clock never runs backwards), then waits for one cycle of the app's shift clock.
 */
async function tick(t: TestApp, to?: string): Promise<void> {
  const clock = clockOf(t);
  clock.set(new Date(Math.max(clock.now().getTime(), Date.now(), to === undefined ? 0 : Date.parse(to))));
  await t.app.shiftClock.nextCycle();
}

/** `ms` after the later of the app's clock and real time: in the future for both. */
const later = (t: TestApp, ms: number) =>
  new Date(Math.max(clockOf(t).now().getTime(), Date.now()) + ms).toISOString();

const HOUR = 3_600_000;
const shifted = (iso: string, ms: number) => new Date(Date.parse(iso) + ms).toISOString();

const changed = (shift: Shift, change: 'STARTED' | 'ENDED') => ({
  eventType: 'WORKPLACE_SHIFT_CHANGED',
  objectType: 'WORKPLACE_SHIFT',
  objectId: shift.id,
  data: {
    shiftId: shift.id,
    workplaceId: shift.workplaceId,
    change,
    startDate: shift.startDate,
    endDate: shift.endDate,
  },
});

const inMs = (ms: number) => new Date(Date.now() + ms).toISOString();

describeEachBackend(
  'workplace shifts',
  (t) => {
    test('POST: 201, Location = self, the whole body; GET answers the same', async () => {
      const workplaceId = await createWorkplace(t(), 'SH-1');
      const response = await t().request({
        method: 'POST',
        url: shiftsOf(workplaceId),
        body: { name: 'Early', shiftModelId: 'MODEL-3x8', startDate: day(1, 6), endDate: day(1, 14) },
      });
      assert.equal(response.statusCode, 201, response.body);
      const id = json(response).properties.id;
      const expected = shiftBody({
        id,
        workplaceId,
        name: 'Early',
        shiftModelId: 'MODEL-3x8',
        shiftTypeId: null,
        startDate: '2099-01-01T06:00:00.000Z',
        endDate: '2099-01-01T14:00:00.000Z',
      });
      assert.deepEqual(json(response), expected);
      assert.equal(response.headers.location, absolute(`${shiftsOf(workplaceId)}/${id}`));
      const fetched = await t().request({ url: String(response.headers.location) });
      assert.deepEqual([fetched.statusCode, json(fetched)], [200, expected]);

      const minimal = await createShift(t(), workplaceId, { startDate: day(1, 14), endDate: day(1, 22) });
      assert.deepEqual(minimal, { ...minimal, name: null, shiftModelId: null, shiftTypeId: null });
    });

    test('every create, change and delete emits WORKPLACE_SHIFTS_UPDATED; a PUT that changes nothing emits nothing', async () => {
      const workplaceId = await createWorkplace(t(), 'SH-EV');
      const shift = await createShift(t(), workplaceId, {
        name: 'Late',
        startDate: day(2, 14),
        endDate: day(2, 22),
      });
      const data = (value: Shift) => ({
        shiftId: value.id,
        name: value.name,
        shiftModelId: value.shiftModelId,
        shiftTypeId: value.shiftTypeId,
        startDate: value.startDate,
        endDate: value.endDate,
      });
      const url = `${shiftsOf(workplaceId)}/${shift.id}`;
      const body = { name: 'Late', startDate: day(2, 14), endDate: day(2, 23) };
      const replaced = await t().request({ method: 'PUT', url, body });
      assert.equal(replaced.statusCode, 200, replaced.body);
      const after = { ...shift, endDate: '2099-01-02T23:00:00.000Z' };
      assert.deepEqual(json(replaced), shiftBody(after));
      const again = await t().request({ method: 'PUT', url, body: { ...body, id: shift.id } });
      assert.deepEqual(json(again), shiftBody(after));
      assert.equal((await t().request({ method: 'DELETE', url })).statusCode, 204);

      const event = (extra: Record<string, unknown>) => ({
        eventType: 'WORKPLACE_SHIFTS_UPDATED',
        objectType: 'WORKPLACE',
        objectId: workplaceId,
        data: { workplaceId, ...extra },
      });
      assert.deepEqual(withoutTime(await eventsOf(t(), workplaceId, 'WORKPLACE_SHIFTS_UPDATED')), [
        event({ changeType: 'CREATED', shift: data(shift) }),
        event({ changeType: 'UPDATED', shift: data(after), changedProperties: ['endDate'] }),
        event({ changeType: 'DELETED', shift: data(after) }),
      ]);
      // Not primary resources: no RESOURCES_UPDATED about the workplace beyond its own creation.
      assert.equal((await eventsOf(t(), workplaceId, 'RESOURCES_UPDATED')).length, 1);
    });

    test('a shift type: stored, linked, in the event data; an unknown one refused', async () => {
      const workplaceId = await createWorkplace(t(), 'SH-TYPE');
      const shift = await createShift(t(), workplaceId, {
        shiftTypeId: FIRST_SHIFT,
        startDate: day(6, 6),
        endDate: day(6, 14),
      });
      assert.equal(shift.shiftTypeId, FIRST_SHIFT);
      const url = `${shiftsOf(workplaceId)}/${shift.id}`;
      assert.deepEqual(json(await t().request({ url })), shiftBody(shift));
      const body = { shiftTypeId: NON_WORKING, startDate: day(6, 6), endDate: day(6, 14) };
      const replaced = await t().request({ method: 'PUT', url, body });
      assert.deepEqual(json(replaced), shiftBody({ ...shift, shiftTypeId: NON_WORKING }));
      const [, updated] = await eventsOf(t(), workplaceId, 'WORKPLACE_SHIFTS_UPDATED');
      assert.ok(updated);
      assert.deepEqual(
        [updated.data.changedProperties, (updated.data.shift as Shift).shiftTypeId],
        [['shiftTypeId'], NON_WORKING],
      );

      const refused = (field: string) => ({
        status: 400,
        code: 'INVALID_REFERENCE',
        message: `Field '${field}' refers to 'NO-SUCH-TYPE', which is not an existing shiftType.`,
      });
      const single = await t().request({
        method: 'POST',
        url: shiftsOf(workplaceId),
        body: { shiftTypeId: 'NO-SUCH-TYPE', startDate: day(7, 6), endDate: day(7, 14) },
      });
      assert.deepEqual([single.statusCode, json(single)], [400, refused('shiftTypeId')]);
      const plan = {
        startDate: day(7, 0),
        endDate: day(8, 0),
        shifts: [{ shiftTypeId: 'NO-SUCH-TYPE', startDate: day(7, 6), endDate: day(7, 14) }],
      };
      const bulk = await t().request({ method: 'PUT', url: shiftsOf(workplaceId), body: plan });
      assert.deepEqual([bulk.statusCode, json(bulk)], [400, refused('shifts[0].shiftTypeId')]);
      const all = json(await t().request({ url: shiftsOf(workplaceId) }))._embedded.shifts;
      assert.deepEqual(
        all.map((item: { properties: Shift }) => item.properties.id),
        [shift.id],
      );
    });

    test('/workplaces/shifts: the period flat and nested, the shift type linked, embed=workplace,shiftType', async () => {
      const workplaceId = await createWorkplace(t(), 'SH-V3');
      const typed = await createShift(t(), workplaceId, {
        shiftTypeId: NON_WORKING,
        startDate: day(9, 6),
        endDate: day(9, 14),
      });
      const untyped = await createShift(t(), workplaceId, { startDate: day(9, 14), endDate: day(9, 22) });
      const v3 = '/api/v3/workplaces/shifts';
      const one = json(await t().request({ url: `${v3}/${typed.id}?embed=workplace,shiftType` }));
      const period = {
        timePeriod: { startDate: day(9, 6), endDate: day(9, 14), duration: 8 * 3_600_000 },
        associatedDay: '2099-01-09',
        breaks: [],
      };
      assert.deepEqual(one.properties, {
        id: typed.id,
        workplaceId,
        shift: period,
        ...period,
        shiftTypeId: NON_WORKING,
        isWorkingShift: false,
        name: null,
        shiftModelId: null,
      });
      assert.deepEqual(one._links.shiftType, get(`/api/v3/masterData/shiftTypes/${NON_WORKING}`, true));
      assert.deepEqual(Object.keys(one._embedded), ['workplace', 'shiftType']);
      assert.equal(one._embedded.workplace.properties.id, workplaceId);
      assert.deepEqual(
        [one._embedded.shiftType.properties.id, one._embedded.shiftType.properties.isWorkingShift],
        [NON_WORKING, false],
      );
      assert.equal(one._embedded.shiftType.properties.color, null);

      const page = json(await t().request({ url: `${v3}?workplaceId=${workplaceId}&embed=shiftType` }));
      const shown = page._embedded.shifts.map(
        (item: { properties: Record<string, unknown>; _embedded?: object }) => [
          item.properties.id,
          item.properties.isWorkingShift,
          Object.keys(item._embedded ?? {}),
        ],
      );
      assert.deepEqual(shown, [
        [untyped.id, null, []],
        [typed.id, false, ['shiftType']],
      ]);
      const plain = json(await t().request({ url: `${v3}/${untyped.id}` }));
      assert.deepEqual([plain._links.shiftType, plain._embedded], [undefined, undefined]);
      const unknown = await t().request({ url: `${v3}/${typed.id}?embed=staffMember` });
      assert.deepEqual([unknown.statusCode, json(unknown).code], [400, 'UNKNOWN_EMBED']);
    });

    test('PUT replaces fully: missing optional fields become null', async () => {
      const workplaceId = await createWorkplace(t(), 'SH-PUT');
      const shift = await createShift(t(), workplaceId, {
        name: 'Night',
        shiftModelId: 'M1',
        startDate: day(3, 22),
        endDate: day(4, 6),
      });
      const response = await t().request({
        method: 'PUT',
        url: `${shiftsOf(workplaceId)}/${shift.id}`,
        body: { startDate: day(3, 22), endDate: day(4, 6) },
      });
      assert.deepEqual(
        json(response),
        shiftBody({ ...shift, name: null, shiftModelId: null, shiftTypeId: null }),
      );
    });

    test('the period: end after start, no overlap with the workplace’s other shifts (touching is fine)', async () => {
      const workplaceId = await createWorkplace(t(), 'SH-OV');
      const other = await createWorkplace(t(), 'SH-OV2');
      const early = await createShift(t(), workplaceId, { startDate: day(5, 6), endDate: day(5, 14) });
      const late = await createShift(t(), workplaceId, { startDate: day(5, 14), endDate: day(5, 22) });
      // Another workplace's shifts are no obstacle.
      await createShift(t(), other, { startDate: day(5, 6), endDate: day(5, 14) });

      const post = (body: Record<string, unknown>) =>
        t().request({ method: 'POST', url: shiftsOf(workplaceId), body });
      for (const [startDate, endDate] of [
        [day(5, 10), day(5, 10)],
        [day(5, 11), day(5, 10)],
      ]) {
        const response = await post({ startDate, endDate });
        assert.deepEqual(
          [response.statusCode, json(response)],
          [
            400,
            {
              status: 400,
              code: 'VALIDATION_FAILED',
              message: "Field 'endDate' is invalid: must be after startDate.",
            },
          ],
        );
      }
      const overlapping = await post({ startDate: day(5, 12), endDate: day(5, 16) });
      assert.deepEqual(
        [overlapping.statusCode, json(overlapping)],
        [
          400,
          {
            status: 400,
            code: 'VALIDATION_FAILED',
            message: `Field 'startDate' is invalid: the period overlaps shift ${early.id} (2099-01-05T06:00:00.000Z to 2099-01-05T14:00:00.000Z).`,
          },
        ],
      );
      const inside = await post({ startDate: day(5, 15), endDate: day(5, 16) });
      assert.equal(json(inside).code, 'VALIDATION_FAILED');
      const around = await post({ startDate: day(5, 0), endDate: day(6, 0) });
      assert.equal(json(around).code, 'VALIDATION_FAILED');

      // A PUT may move a shift within its own period, not onto another one.
      const url = `${shiftsOf(workplaceId)}/${late.id}`;
      const shrink = await t().request({
        method: 'PUT',
        url,
        body: { startDate: day(5, 15), endDate: day(5, 21) },
      });
      assert.equal(shrink.statusCode, 200, shrink.body);
      const onto = await t().request({
        method: 'PUT',
        url,
        body: { startDate: day(5, 13), endDate: day(5, 21) },
      });
      assert.deepEqual([onto.statusCode, json(onto).code], [400, 'VALIDATION_FAILED']);
      const backwards = await t().request({
        method: 'PUT',
        url,
        body: { startDate: day(5, 21), endDate: day(5, 15) },
      });
      assert.deepEqual([backwards.statusCode, json(backwards).code], [400, 'VALIDATION_FAILED']);
      // Refusals change nothing and emit nothing.
      assert.equal((await eventsOf(t(), workplaceId, 'WORKPLACE_SHIFTS_UPDATED')).length, 3);
    });

    test('bad input: unknown fields, wrong types, too long, id mismatch, bad dates: 400', async () => {
      const workplaceId = await createWorkplace(t(), 'SH-BAD');
      const shift = await createShift(t(), workplaceId, { startDate: day(7, 6), endDate: day(7, 14) });
      const cases: [string, 'POST' | 'PUT', Record<string, unknown>, string][] = [
        [
          'unknown field',
          'POST',
          { startDate: day(8, 6), endDate: day(8, 7), color: 'red' },
          'UNKNOWN_FIELD',
        ],
        ['missing endDate', 'POST', { startDate: day(8, 6) }, 'VALIDATION_FAILED'],
        ['not a date', 'POST', { startDate: 'monday', endDate: day(8, 7) }, 'VALIDATION_FAILED'],
        [
          'name too long',
          'POST',
          { name: 'x'.repeat(201), startDate: day(8, 6), endDate: day(8, 7) },
          'VALIDATION_FAILED',
        ],
        [
          'number as name',
          'POST',
          { name: 3, startDate: day(8, 6), endDate: day(8, 7) },
          'VALIDATION_FAILED',
        ],
        ['id mismatch', 'PUT', { id: workplaceId, startDate: day(7, 6), endDate: day(7, 14) }, 'ID_MISMATCH'],
      ];
      for (const [label, method, body, code] of cases) {
        const url = method === 'POST' ? shiftsOf(workplaceId) : `${shiftsOf(workplaceId)}/${shift.id}`;
        const response = await t().request({ method, url, body });
        assert.deepEqual([response.statusCode, json(response).code], [400, code], label);
      }
      const query = await t().request({ url: `${shiftsOf(workplaceId)}?offset=0` });
      assert.deepEqual([query.statusCode, json(query).code], [400, 'UNKNOWN_QUERY_PARAMETER']);
      const filter = await t().request({ url: `${shiftsOf(workplaceId)}?startDate=yesterday` });
      assert.deepEqual([filter.statusCode, json(filter).code], [400, 'VALIDATION_FAILED']);
    });

    test('404: unknown or malformed workplace or shift, and a shift under another workplace', async () => {
      const workplaceId = await createWorkplace(t(), 'SH-404');
      const other = await createWorkplace(t(), 'SH-404B');
      const shift = await createShift(t(), workplaceId, { startDate: day(9, 6), endDate: day(9, 14) });
      const body = { startDate: day(9, 6), endDate: day(9, 14) };
      const unknown = '0190a4c2-0000-7000-8000-000000000000';
      const requests: [string, 'GET' | 'POST' | 'PUT' | 'DELETE', string, unknown?][] = [
        ['list, unknown workplace', 'GET', shiftsOf(unknown)],
        ['list, malformed workplace', 'GET', shiftsOf('nope')],
        ['create, unknown workplace', 'POST', shiftsOf(unknown), body],
        ['one, unknown shift', 'GET', `${shiftsOf(workplaceId)}/${unknown}`],
        ['one, malformed shift', 'GET', `${shiftsOf(workplaceId)}/NOPE`],
        ['one, other workplace', 'GET', `${shiftsOf(other)}/${shift.id}`],
        ['put, other workplace', 'PUT', `${shiftsOf(other)}/${shift.id}`, body],
        ['delete, other workplace', 'DELETE', `${shiftsOf(other)}/${shift.id}`],
        ['delete, unknown shift', 'DELETE', `${shiftsOf(workplaceId)}/${unknown}`],
      ];
      for (const [label, method, url, requestBody] of requests) {
        const response = await t().request({ method, url, body: requestBody });
        assert.deepEqual([response.statusCode, json(response).code], [404, 'NOT_FOUND'], label);
      }
    });

    test('collection: timestamp mode, latest start first, walks by links, period filter kept in links', async () => {
      const workplaceId = await createWorkplace(t(), 'SH-LIST');
      const created: Shift[] = [];
      for (const hour of [0, 8, 16]) {
        for (const n of [10, 11]) {
          created.push(
            await createShift(t(), workplaceId, { startDate: day(n, hour), endDate: day(n, hour + 8) }),
          );
        }
      }
      const newestFirst = [...created].sort((a, b) => b.startDate.localeCompare(a.startDate));

      const first = json(await t().request({ url: `${shiftsOf(workplaceId)}?limit=4` }));
      assert.deepEqual(first._embedded.shifts, newestFirst.slice(0, 4).map(shiftBody));
      assert.deepEqual(first.pagination, {
        limit: 4,
        count: 4,
        offset: null,
        total: 6,
        firstIdentifier: {
          timestamp: newestFirst[0]?.startDate,
          identifier: newestFirst[0]?.id,
          paginationTimestamp: newestFirst[0]?.startDate,
          paginationIdentifier: newestFirst[0]?.id,
        },
        lastIdentifier: {
          timestamp: newestFirst[3]?.startDate,
          identifier: newestFirst[3]?.id,
          paginationTimestamp: newestFirst[3]?.startDate,
          paginationIdentifier: newestFirst[3]?.id,
        },
      });
      assert.deepEqual(first._links.createShift, {
        href: absolute(shiftsOf(workplaceId)),
        method: 'POST',
        embeddable: false,
      });
      const second = json(await t().request({ url: first._links.next.href }));
      assert.deepEqual(second._embedded.shifts, newestFirst.slice(4).map(shiftBody));
      assert.equal(second._links.next, undefined);
      const back = json(await t().request({ url: second._links.previous.href }));
      assert.deepEqual(back._embedded.shifts, newestFirst.slice(0, 4).map(shiftBody));

      // Day 11 only: shifts ending before startDate or starting after endDate are left out.
      const filtered = json(
        await t().request({
          url: `${shiftsOf(workplaceId)}?startDate=${day(11, 1)}&endDate=${day(11, 23)}&limit=2`,
        }),
      );
      const day11 = newestFirst.filter((shift) => shift.startDate.startsWith('2099-01-11'));
      assert.deepEqual(filtered._embedded.shifts, day11.slice(0, 2).map(shiftBody));
      assert.equal(filtered.pagination.total, 3);
      assert.deepEqual(
        normalized(filtered._links.next),
        normalized(
          get(
            `${shiftsOf(workplaceId)}?startDate=${encodeURIComponent(day(11, 1))}&endDate=${encodeURIComponent(day(11, 23))}&limit=2&paginationDirection=NEXT&paginationTimestamp=${encodeURIComponent(String(day11[1]?.startDate))}&paginationIdentifier=${day11[1]?.id}`,
          ),
        ),
      );
      const rest = json(await t().request({ url: filtered._links.next.href }));
      assert.deepEqual(rest._embedded.shifts, day11.slice(2).map(shiftBody));
    });

    test('read-only token: reads, no create link, 403 on every write', async () => {
      const workplaceId = await createWorkplace(t(), 'SH-RO');
      const shift = await createShift(t(), workplaceId, { startDate: day(12, 6), endDate: day(12, 14) });
      const read = { scopes: ['read'] };
      const list = json(await t().request({ url: shiftsOf(workplaceId), ...read }));
      assert.equal(list._links.createShift, undefined);
      assert.deepEqual(list._embedded.shifts, [shiftBody(shift)]);
      const url = `${shiftsOf(workplaceId)}/${shift.id}`;
      assert.deepEqual(json(await t().request({ url, ...read })), shiftBody(shift));
      const body = { startDate: day(13, 6), endDate: day(13, 14) };
      for (const [method, target] of [
        ['POST', shiftsOf(workplaceId)],
        ['PUT', url],
        ['PUT', shiftsOf(workplaceId)],
        ['DELETE', url],
      ] as const) {
        const response = await t().request({
          method,
          url: target,
          body: method === 'DELETE' ? undefined : target === url ? body : { ...body, shifts: [body] },
          ...read,
        });
        assert.deepEqual([response.statusCode, json(response).code], [403, 'INSUFFICIENT_SCOPE'], method);
        const anonymous = await t().request({ method, url: target, anonymous: true });
        assert.equal(anonymous.statusCode, 401, method);
      }
      assert.equal((await eventsOf(t(), workplaceId, 'WORKPLACE_SHIFTS_UPDATED')).length, 1);
    });

    test('bulk PUT of a period: keeps shifts by start, changes, deletes and creates; the same plan again changes nothing', async () => {
      const workplaceId = await createWorkplace(t(), 'SH-BULK');
      const before = await createShift(t(), workplaceId, { startDate: day(19, 22), endDate: day(20, 6) });
      const early = await createShift(t(), workplaceId, {
        name: 'Early',
        startDate: day(20, 6),
        endDate: day(20, 14),
      });
      const late = await createShift(t(), workplaceId, {
        name: 'Late',
        startDate: day(20, 14),
        endDate: day(20, 22),
      });
      const night = await createShift(t(), workplaceId, {
        name: 'Night',
        startDate: day(20, 22),
        endDate: day(21, 6),
      });
      const plan = {
        startDate: day(20, 0),
        endDate: day(21, 0),
        shifts: [
          { name: 'Short night', startDate: day(20, 21), endDate: day(21, 5) },
          { name: 'Early', startDate: day(20, 6), endDate: day(20, 14) },
          { name: 'Late (short)', startDate: day(20, 14), endDate: day(20, 21) },
        ],
      };
      const response = await t().request({ method: 'PUT', url: shiftsOf(workplaceId), body: plan });
      assert.equal(response.statusCode, 200, response.body);
      const created = json(response)._embedded.shifts[2].properties as Shift;
      const changedLate = { ...late, name: 'Late (short)', endDate: day(20, 21) };
      const expected = {
        _embedded: {
          shifts: [
            early,
            changedLate,
            {
              id: created.id,
              workplaceId,
              name: 'Short night',
              shiftModelId: null,
              shiftTypeId: null,
              startDate: day(20, 21),
              endDate: day(21, 5),
            },
          ].map(shiftBody),
        },
        _links: {
          self: get(
            `${shiftsOf(workplaceId)}?startDate=${encodeURIComponent(plan.startDate)}&endDate=${encodeURIComponent(plan.endDate)}`,
          ),
        },
      };
      assert.deepEqual(normalized(json(response)), normalized(expected));
      const again = await t().request({ method: 'PUT', url: shiftsOf(workplaceId), body: plan });
      assert.deepEqual(normalized(json(again)), normalized(expected));
      const all = json(await t().request({ url: shiftsOf(workplaceId) }))._embedded.shifts;
      assert.deepEqual(
        all.map((item: { properties: Shift }) => item.properties.id),
        [created.id, late.id, early.id, before.id],
      );

      const data = (shift: Shift) => ({
        shiftId: shift.id,
        name: shift.name,
        shiftModelId: shift.shiftModelId,
        shiftTypeId: shift.shiftTypeId,
        startDate: shift.startDate,
        endDate: shift.endDate,
      });
      const events = await eventsOf(t(), workplaceId, 'WORKPLACE_SHIFTS_UPDATED');
      assert.deepEqual(
        events.slice(4).map((event) => event.data),
        [
          { workplaceId, changeType: 'DELETED', shift: data(night) },
          { workplaceId, changeType: 'CREATED', shift: data({ ...created }) },
          {
            workplaceId,
            changeType: 'UPDATED',
            shift: data(changedLate),
            changedProperties: ['name', 'endDate'],
          },
        ],
      );

      // Refused plans change nothing.
      const refusals: [Record<string, unknown>[], string, string][] = [
        [
          [{ startDate: day(20, 5), endDate: day(20, 7) }],
          'shifts[0].startDate',
          `the period overlaps shift ${before.id}`,
        ],
        [[{ startDate: day(20, 6), endDate: day(20, 5) }], 'shifts[0].endDate', 'must be after startDate'],
        [
          [
            { startDate: day(20, 6), endDate: day(20, 7) },
            { startDate: day(21, 0), endDate: day(21, 1) },
          ],
          'shifts[1].startDate',
          'must be within the period from startDate (inclusive) to endDate (exclusive)',
        ],
        [
          [
            { startDate: day(20, 8), endDate: day(20, 10) },
            { startDate: day(20, 6), endDate: day(20, 9) },
          ],
          'shifts[0].startDate',
          'the period overlaps shifts[1]',
        ],
      ];
      for (const [shifts, field, detail] of refusals) {
        const refused = await t().request({
          method: 'PUT',
          url: shiftsOf(workplaceId),
          body: { ...plan, shifts },
        });
        assert.equal(refused.statusCode, 400, field);
        assert.ok(
          json(refused).message.startsWith(`Field '${field}' is invalid: ${detail}`),
          json(refused).message,
        );
      }
      const period = await t().request({
        method: 'PUT',
        url: shiftsOf(workplaceId),
        body: { ...plan, endDate: plan.startDate },
      });
      assert.deepEqual([period.statusCode, json(period).code], [400, 'VALIDATION_FAILED']);
      assert.equal((await eventsOf(t(), workplaceId, 'WORKPLACE_SHIFTS_UPDATED')).length, 7);
      const unknownWorkplace = await t().request({
        method: 'PUT',
        url: shiftsOf('0190a4c2-0000-7000-8000-000000000000'),
        body: plan,
      });
      assert.equal(unknownWorkplace.statusCode, 404);
    });

    test('deleting the workplace deletes its shifts (WORKPLACE_DELETED covers them)', async () => {
      const workplaceId = await createWorkplace(t(), 'SH-DEL');
      await createShift(t(), workplaceId, { startDate: day(14, 6), endDate: day(14, 14) });
      const response = await t().request({ method: 'DELETE', url: `${WORKPLACES}/${workplaceId}` });
      assert.equal(response.statusCode, 204, response.body);
      const rows = await t().app.db.query('SELECT 1 FROM shifts WHERE workplace_id = $1', [workplaceId]);
      assert.equal(rows.length, 0);
      assert.equal((await eventsOf(t(), workplaceId, 'WORKPLACE_SHIFTS_UPDATED')).length, 1);
      assert.equal((await t().request({ url: shiftsOf(workplaceId) })).statusCode, 404);
    });

    test('clock: a shift is announced STARTED at its start and ENDED at its end, once each', async () => {
      const workplaceId = await createWorkplace(t(), 'SH-CLK');
      const startDate = later(t(), HOUR);
      const shift = await createShift(t(), workplaceId, {
        name: 'Soon',
        startDate,
        endDate: shifted(startDate, HOUR / 2),
      });
      await tick(t(), shifted(shift.startDate, -1));
      assert.deepEqual(await shiftChanges(t(), shift.id), [], 'nothing before the start');
      await tick(t(), shift.startDate);
      assert.deepEqual(await shiftChanges(t(), shift.id), [changed(shift, 'STARTED')]);
      await tick(t(), shifted(shift.endDate, -1));
      assert.deepEqual(await shiftChanges(t(), shift.id), [changed(shift, 'STARTED')]);
      await tick(t(), shift.endDate);
      await tick(t(), shifted(shift.endDate, HOUR));
      assert.deepEqual(await shiftChanges(t(), shift.id), [
        changed(shift, 'STARTED'),
        changed(shift, 'ENDED'),
      ]);
    });

    test('clock: a shift created running is announced STARTED; one created already over never', async () => {
      const workplaceId = await createWorkplace(t(), 'SH-NOW');
      const over = await createShift(t(), workplaceId, { startDate: inMs(-60_000), endDate: inMs(-30_000) });
      const running = await createShift(t(), workplaceId, {
        startDate: inMs(-10_000),
        endDate: later(t(), HOUR),
      });
      await tick(t());
      assert.deepEqual(await shiftChanges(t(), running.id), [changed(running, 'STARTED')]);
      assert.deepEqual(await shiftChanges(t(), over.id), []);
    });

    test('clock after a PUT: a running shift cut short ENDS; an ended shift extended STARTS again', async () => {
      const workplaceId = await createWorkplace(t(), 'SH-MOVE');
      const running = await createShift(t(), workplaceId, {
        startDate: inMs(-10_000),
        endDate: later(t(), HOUR),
      });
      await tick(t());
      assert.deepEqual(await shiftChanges(t(), running.id), [changed(running, 'STARTED')]);
      const cut = { startDate: running.startDate, endDate: inMs(-1000) };
      const url = `${shiftsOf(workplaceId)}/${running.id}`;
      assert.equal((await t().request({ method: 'PUT', url, body: cut })).statusCode, 200);
      const shortened = { ...running, ...cut };
      await tick(t());
      assert.deepEqual(await shiftChanges(t(), running.id), [
        changed(running, 'STARTED'),
        changed(shortened, 'ENDED'),
      ]);
      const extend = { startDate: running.startDate, endDate: later(t(), HOUR) };
      assert.equal((await t().request({ method: 'PUT', url, body: extend })).statusCode, 200);
      const extended = { ...running, ...extend };
      await tick(t());
      const changes = await shiftChanges(t(), running.id);
      assert.equal(changes.length, 3);
      assert.deepEqual(changes.at(2), changed(extended, 'STARTED'));
    });

    test('several clocks on one database, stopped and restarted: each start and end announced exactly once', async () => {
      // Extra clocks beside the app's own: on PostgreSQL over their own connections, like other instances.
      const databases: Database[] = [];
      const url = t().database.url;
      for (let i = 0; i < 2; i++) {
        databases.push(
          url === undefined ? t().app.db : await openPostgres({ url, timeoutMs: 10_000, poolSize: 2 }),
        );
      }
      const log = t().app.server.log;
      const clock = clockOf(t());
      const clocks = databases.map((db) => new ShiftClock(db, 10, log, clock));
      for (const shiftClock of clocks) shiftClock.start();
      // Every clock (the app's too) wakes on the same move of the time and claims at once.
      const moveTo = async (time: string) => {
        clock.set(new Date(time));
        await Promise.all([t().app.shiftClock, ...clocks].map((shiftClock) => shiftClock.nextCycle()));
      };
      try {
        const base = later(t(), HOUR);
        const shifts: Shift[] = [];
        for (let i = 0; i < 6; i++) {
          const workplaceId = await createWorkplace(t(), `SH-MANY-${i}`);
          shifts.push(
            await createShift(t(), workplaceId, {
              startDate: shifted(base, i * 50),
              endDate: shifted(base, 500),
            }),
          );
        }
        await moveTo(shifted(base, 100));
        // A restart: one clock stops while shifts are due, a fresh one takes its place.
        await clocks[0]?.stop();
        const restarted = new ShiftClock(databases[0] as Database, 10, log, clock);
        clocks.push(restarted);
        restarted.start();
        await moveTo(shifted(base, 300));
        await moveTo(shifted(base, 500));
        for (const shift of shifts) {
          assert.deepEqual(await shiftChanges(t(), shift.id), [
            changed(shift, 'STARTED'),
            changed(shift, 'ENDED'),
          ]);
        }
      } finally {
        for (const shiftClock of clocks) await shiftClock.stop();
        for (const db of databases) if (db !== t().app.db) await db.close();
      }
    });
  },
  {},
  () => ({ clock: new ManualClock() }),
);
