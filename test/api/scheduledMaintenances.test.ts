// Scheduled maintenance of a workplace end to end: POST/GET/PUT/DELETE, the offset collection by
// start date with its period filter, SCHEDULED_MAINTENANCE_CREATED/_UPDATED/_DELETED about the
// workplace, refusals, read-only callers, and deletion with the workplace.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { createWorkplace, describeEachBackend, json, type TestApp } from '../support/app.ts';
import { eventsOf, withoutTime } from '../support/events.ts';
import { absolute, get } from '../support/hal.ts';

const WORKPLACES = '/api/v2/workplaces';
const tasksOf = (workplaceId: string) => `${WORKPLACES}/${workplaceId}/scheduledMaintenances`;

interface Task {
  id: string;
  workplaceId: string;
  description: string;
  maintenanceType: string | null;
  startDate: string;
  endDate: string;
}

const taskBody = (task: Task) => ({
  properties: task,
  _links: {
    self: get(`${tasksOf(task.workplaceId)}/${task.id}`),
    workplace: get(`${WORKPLACES}/${task.workplaceId}`),
  },
});

const day = (n: number, hour = 0) => new Date(Date.UTC(2030, 5, n, hour)).toISOString();

async function createTask(t: TestApp, workplaceId: string, body: Record<string, unknown>): Promise<Task> {
  const response = await t.request({ method: 'POST', url: tasksOf(workplaceId), body });
  assert.equal(response.statusCode, 201, response.body);
  return json(response).properties;
}

/** The workplace's events other than its own lifecycle, in the order they were written. */
const maintenanceEvents = async (t: TestApp, workplaceId: string) =>
  withoutTime(await eventsOf(t, workplaceId)).filter((event) =>
    event.eventType.startsWith('SCHEDULED_MAINTENANCE_'),
  );

describeEachBackend('scheduled maintenance', (t) => {
  test('POST: 201, Location = self, the whole body; GET answers the same; optional type defaults to null', async () => {
    const workplaceId = await createWorkplace(t(), 'SM-1');
    const response = await t().request({
      method: 'POST',
      url: tasksOf(workplaceId),
      body: {
        description: 'Change spindle oil',
        maintenanceType: 'LUBRICATION',
        startDate: day(1, 6),
        endDate: day(1, 8),
      },
    });
    assert.equal(response.statusCode, 201, response.body);
    const id = json(response).properties.id;
    const expected = taskBody({
      id,
      workplaceId,
      description: 'Change spindle oil',
      maintenanceType: 'LUBRICATION',
      startDate: '2030-06-01T06:00:00.000Z',
      endDate: '2030-06-01T08:00:00.000Z',
    });
    assert.deepEqual(json(response), expected);
    assert.equal(response.headers.location, absolute(`${tasksOf(workplaceId)}/${id}`));
    const fetched = await t().request({ url: String(response.headers.location) });
    assert.deepEqual([fetched.statusCode, json(fetched)], [200, expected]);

    const minimal = await createTask(t(), workplaceId, {
      description: 'Inspect',
      startDate: day(2),
      endDate: day(3),
    });
    assert.equal(minimal.maintenanceType, null);
  });

  test('events: CREATED, UPDATED with changedProperties, none for an unchanged PUT, DELETED', async () => {
    const workplaceId = await createWorkplace(t(), 'SM-EV');
    const task = await createTask(t(), workplaceId, {
      description: 'Calibrate',
      maintenanceType: 'CALIBRATION',
      startDate: day(4, 6),
      endDate: day(4, 7),
    });
    const url = `${tasksOf(workplaceId)}/${task.id}`;
    // Full replacement: the missing maintenanceType becomes null.
    const body = { description: 'Calibrate axes', startDate: day(4, 6), endDate: day(4, 7) };
    const replaced = await t().request({ method: 'PUT', url, body });
    const after = { ...task, description: 'Calibrate axes', maintenanceType: null };
    assert.deepEqual([replaced.statusCode, json(replaced)], [200, taskBody(after)]);
    const unchanged = await t().request({ method: 'PUT', url, body: { ...body, id: task.id } });
    assert.deepEqual([unchanged.statusCode, json(unchanged)], [200, taskBody(after)]);
    assert.equal((await t().request({ method: 'DELETE', url })).statusCode, 204);
    assert.equal((await t().request({ url })).statusCode, 404);

    const data = ({ id, ...rest }: Task) => ({ scheduledMaintenanceId: id, ...rest });
    const event = (type: string, extra: Record<string, unknown>) => ({
      eventType: `SCHEDULED_MAINTENANCE_${type}`,
      objectType: 'WORKPLACE',
      objectId: workplaceId,
      data: extra,
    });
    assert.deepEqual(await maintenanceEvents(t(), workplaceId), [
      event('CREATED', data(task)),
      event('UPDATED', { ...data(after), changedProperties: ['description', 'maintenanceType'] }),
      event('DELETED', data(after)),
    ]);
  });

  test('refused: end not after start, bad fields, id mismatch (400); nothing stored or emitted', async () => {
    const workplaceId = await createWorkplace(t(), 'SM-BAD');
    const task = await createTask(t(), workplaceId, {
      description: 'Keep',
      startDate: day(5),
      endDate: day(6),
    });
    const one = `${tasksOf(workplaceId)}/${task.id}`;
    const valid = { description: 'x', startDate: day(7), endDate: day(8) };
    const cases: [string, 'POST' | 'PUT', string, Record<string, unknown>, string][] = [
      ['end before start', 'POST', tasksOf(workplaceId), { ...valid, endDate: day(6) }, 'VALIDATION_FAILED'],
      ['end = start', 'PUT', one, { ...valid, endDate: day(7) }, 'VALIDATION_FAILED'],
      [
        'missing description',
        'POST',
        tasksOf(workplaceId),
        { startDate: day(7), endDate: day(8) },
        'VALIDATION_FAILED',
      ],
      ['empty description', 'POST', tasksOf(workplaceId), { ...valid, description: '' }, 'VALIDATION_FAILED'],
      [
        'long type',
        'POST',
        tasksOf(workplaceId),
        { ...valid, maintenanceType: 'x'.repeat(101) },
        'VALIDATION_FAILED',
      ],
      ['unknown field', 'POST', tasksOf(workplaceId), { ...valid, priority: 1 }, 'UNKNOWN_FIELD'],
      ['id mismatch', 'PUT', one, { ...valid, id: workplaceId }, 'ID_MISMATCH'],
    ];
    for (const [label, method, url, body, code] of cases) {
      const response = await t().request({ method, url, body });
      assert.deepEqual([response.statusCode, json(response).code], [400, code], label);
    }
    const backwards = await t().request({
      method: 'POST',
      url: tasksOf(workplaceId),
      body: { ...valid, endDate: day(6) },
    });
    assert.deepEqual(json(backwards), {
      status: 400,
      code: 'VALIDATION_FAILED',
      message: "Field 'endDate' is invalid: must be after startDate.",
    });
    assert.deepEqual(json(await t().request({ url: one })), taskBody(task));
    assert.equal((await maintenanceEvents(t(), workplaceId)).length, 1);
  });

  test('404: unknown or malformed workplace or task, and a task under another workplace', async () => {
    const workplaceId = await createWorkplace(t(), 'SM-404');
    const other = await createWorkplace(t(), 'SM-404B');
    const task = await createTask(t(), workplaceId, {
      description: 'a',
      startDate: day(9),
      endDate: day(10),
    });
    const body = { description: 'a', startDate: day(9), endDate: day(10) };
    const unknown = '0190a4c2-0000-7000-8000-000000000000';
    const requests: [string, 'GET' | 'POST' | 'PUT' | 'DELETE', string, unknown?][] = [
      ['list, unknown workplace', 'GET', tasksOf(unknown)],
      ['list, malformed workplace', 'GET', tasksOf('nope')],
      ['create, unknown workplace', 'POST', tasksOf(unknown), body],
      ['one, unknown task', 'GET', `${tasksOf(workplaceId)}/${unknown}`],
      ['one, malformed task', 'GET', `${tasksOf(workplaceId)}/1`],
      ['one, other workplace', 'GET', `${tasksOf(other)}/${task.id}`],
      ['put, other workplace', 'PUT', `${tasksOf(other)}/${task.id}`, body],
      ['delete, other workplace', 'DELETE', `${tasksOf(other)}/${task.id}`],
    ];
    for (const [label, method, url, requestBody] of requests) {
      const response = await t().request({ method, url, body: requestBody });
      assert.deepEqual([response.statusCode, json(response).code], [404, 'NOT_FOUND'], label);
    }
  });

  test('collection: offset mode ordered by start date, period filter kept in the paging links', async () => {
    const workplaceId = await createWorkplace(t(), 'SM-LIST');
    const tasks: Task[] = [];
    for (const n of [14, 11, 13, 12]) {
      tasks.push(
        await createTask(t(), workplaceId, { description: `T${n}`, startDate: day(n), endDate: day(n, 12) }),
      );
    }
    const byStart = [...tasks].sort((a, b) => a.startDate.localeCompare(b.startDate));
    const first = json(await t().request({ url: `${tasksOf(workplaceId)}?limit=3` }));
    assert.deepEqual(first.pagination, {
      limit: 3,
      count: 3,
      offset: 0,
      total: 4,
      firstIdentifier: null,
      lastIdentifier: null,
    });
    assert.deepEqual(first._embedded.scheduledMaintenances, byStart.slice(0, 3).map(taskBody));
    assert.deepEqual(first._links.createScheduledMaintenance, {
      href: absolute(tasksOf(workplaceId)),
      method: 'POST',
      embeddable: false,
    });
    const next = json(await t().request({ url: first._links.next.href }));
    assert.deepEqual(next._embedded.scheduledMaintenances, byStart.slice(3).map(taskBody));

    // Tasks ending before startDate or starting after endDate are left out.
    const filter = `startDate=${encodeURIComponent(day(12, 6))}&endDate=${encodeURIComponent(day(13, 6))}`;
    const filtered = json(await t().request({ url: `${tasksOf(workplaceId)}?${filter}&limit=1` }));
    assert.deepEqual(filtered.pagination, {
      limit: 1,
      count: 1,
      offset: 0,
      total: 2,
      firstIdentifier: null,
      lastIdentifier: null,
    });
    assert.deepEqual(filtered._embedded.scheduledMaintenances, [taskBody(byStart[1] as Task)]);
    assert.ok(filtered._links.next.href.includes(filter), filtered._links.next.href);
    const rest = json(await t().request({ url: filtered._links.next.href }));
    assert.deepEqual(rest._embedded.scheduledMaintenances, [taskBody(byStart[2] as Task)]);
  });

  test('read-only token: reads, no create link, 403 on every write', async () => {
    const workplaceId = await createWorkplace(t(), 'SM-RO');
    const task = await createTask(t(), workplaceId, {
      description: 'r',
      startDate: day(20),
      endDate: day(21),
    });
    const read = { scopes: ['read'] };
    const list = json(await t().request({ url: tasksOf(workplaceId), ...read }));
    assert.equal(list._links.createScheduledMaintenance, undefined);
    assert.deepEqual(list._embedded.scheduledMaintenances, [taskBody(task)]);
    const url = `${tasksOf(workplaceId)}/${task.id}`;
    assert.deepEqual(json(await t().request({ url, ...read })), taskBody(task));
    const body = { description: 'w', startDate: day(22), endDate: day(23) };
    for (const [method, target] of [
      ['POST', tasksOf(workplaceId)],
      ['PUT', url],
      ['DELETE', url],
    ] as const) {
      const response = await t().request({
        method,
        url: target,
        body: method === 'DELETE' ? undefined : body,
        ...read,
      });
      assert.deepEqual([response.statusCode, json(response).code], [403, 'INSUFFICIENT_SCOPE'], method);
      assert.equal((await t().request({ method, url: target, anonymous: true })).statusCode, 401, method);
    }
    assert.equal((await maintenanceEvents(t(), workplaceId)).length, 1);
  });

  test('deleting the workplace deletes its scheduled maintenance, without events of its own', async () => {
    const workplaceId = await createWorkplace(t(), 'SM-DEL');
    await createTask(t(), workplaceId, { description: 'gone', startDate: day(24), endDate: day(25) });
    assert.equal(
      (await t().request({ method: 'DELETE', url: `${WORKPLACES}/${workplaceId}` })).statusCode,
      204,
    );
    const rows = await t().app.db.query('SELECT 1 FROM scheduled_maintenances WHERE workplace_id = $1', [
      workplaceId,
    ]);
    assert.equal(rows.length, 0);
    assert.deepEqual(
      (await maintenanceEvents(t(), workplaceId)).map((event) => event.eventType),
      ['SCHEDULED_MAINTENANCE_CREATED'],
    );
  });
});
