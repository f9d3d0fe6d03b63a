// The outbox (docs/events.md): every change writes its events into the `events` table in
// the same transaction as the change. Checked by reading the table directly after each action,
// and by making the event insert fail (a trigger) to show the change rolls back with it.
import assert from 'node:assert/strict';
import { before, test } from 'node:test';
import { describeEachBackend, json, type RequestOptions, type TestApp } from '../support/app.ts';
import { eventsOf, totalEvents, withoutTime } from '../support/events.ts';

const API = '/api/v2';

const UNDEFINED_STOPPAGE = {
  id: '6b5e3e20-94f4-55ee-9a6e-eb7a3eb4f379',
  code: '999',
  description: 'Undefined stoppage',
  workplaceStateId: 'DOWNTIME',
};
const MALFUNCTION = {
  id: '70bc3dba-1d9d-5a3c-a0f5-fb4cfafe11fa',
  code: '110',
  description: 'Malfunction',
  workplaceStateId: 'DOWNTIME',
};

async function createGroup(t: TestApp, number: string, type = 'CAPACITY_GROUP'): Promise<string> {
  const response = await t.request({ method: 'POST', url: `${API}/workplaceGroups`, body: { number, type } });
  assert.equal(response.statusCode, 201, response.body);
  return json(response).properties.id;
}

async function createWorkplace(t: TestApp, body: Record<string, unknown>): Promise<string> {
  const response = await t.request({ method: 'POST', url: `${API}/workplaces`, body });
  assert.equal(response.statusCode, 201, response.body);
  return json(response).properties.id;
}

describeEachBackend('events', (t) => {
  test('POST /workplaces writes WORKPLACE_CREATED and RESOURCES_UPDATED at the change time', async () => {
    const capacity = await createGroup(t(), 'EV-CG1');
    const line = await createGroup(t(), 'EV-PL1', 'PRODUCTION_LINE');
    const id = await createWorkplace(t(), {
      number: 'EV-1',
      description: 'Lathe',
      isManualWorkplace: true,
      capacityGroupId: capacity,
      productionLineId: line,
    });
    const events = await eventsOf(t(), id);
    assert.deepEqual(withoutTime(events), [
      {
        eventType: 'WORKPLACE_CREATED',
        objectType: 'WORKPLACE',
        objectId: id,
        data: {
          workplaceId: id,
          number: 'EV-1',
          description: 'Lathe',
          isManualWorkplace: true,
          capacityGroupId: capacity,
          productionLineId: line,
        },
      },
      {
        eventType: 'RESOURCES_UPDATED',
        objectType: 'WORKPLACE',
        objectId: id,
        data: { changeType: 'CREATED' },
      },
    ]);
    // Both carry the time of the change itself, as stored with the workplace.
    const [row] = await t().app.db.query<{ created_at: Date }>(
      'SELECT created_at FROM workplaces WHERE id = $1',
      [id],
    );
    for (const event of events) assert.equal(event.timestamp.toISOString(), row?.created_at.toISOString());
  });

  test('PUT that changes a characteristic writes WORKPLACE_UPDATED with the changed names', async () => {
    const capacity = await createGroup(t(), 'EV-CG2');
    const id = await createWorkplace(t(), { number: 'EV-2', capacityGroupId: capacity });
    const before = (await eventsOf(t(), id)).length;
    const response = await t().request({
      method: 'PUT',
      url: `${API}/workplaces/${id}`,
      body: { number: 'EV-2b', description: 'renamed', capacityGroupId: capacity },
    });
    assert.equal(response.statusCode, 200);
    const events = (await eventsOf(t(), id)).slice(before);
    assert.deepEqual(withoutTime(events), [
      {
        eventType: 'WORKPLACE_UPDATED',
        objectType: 'WORKPLACE',
        objectId: id,
        data: {
          workplaceId: id,
          number: 'EV-2b',
          description: 'renamed',
          isManualWorkplace: false,
          capacityGroupId: capacity,
          productionLineId: null,
          changedProperties: ['number', 'description'],
        },
      },
      {
        eventType: 'RESOURCES_UPDATED',
        objectType: 'WORKPLACE',
        objectId: id,
        data: { changeType: 'UPDATED' },
      },
    ]);
    const [row] = await t().app.db.query<{ updated_at: Date }>(
      'SELECT updated_at FROM workplaces WHERE id = $1',
      [id],
    );
    for (const event of events) assert.equal(event.timestamp.toISOString(), row?.updated_at.toISOString());
  });

  test('a PUT that changes nothing writes nothing (workplace and group)', async () => {
    const capacity = await createGroup(t(), 'EV-CG3');
    const id = await createWorkplace(t(), { number: 'EV-3', description: 'same', capacityGroupId: capacity });
    const total = await totalEvents(t());
    const same = await t().request({
      method: 'PUT',
      url: `${API}/workplaces/${id}`,
      body: { id, number: 'EV-3', description: 'same', isManualWorkplace: false, capacityGroupId: capacity },
    });
    assert.equal(same.statusCode, 200);
    const sameGroup = await t().request({
      method: 'PUT',
      url: `${API}/workplaceGroups/${capacity}`,
      body: { number: 'EV-CG3', type: 'CAPACITY_GROUP' },
    });
    assert.equal(sameGroup.statusCode, 200);
    assert.equal(await totalEvents(t()), total);
  });

  test('DELETE writes WORKPLACE_DELETED with the last state and RESOURCES_UPDATED', async () => {
    const capacity = await createGroup(t(), 'EV-CG4');
    const id = await createWorkplace(t(), { number: 'EV-4', capacityGroupId: capacity });
    const before = (await eventsOf(t(), id)).length;
    assert.equal((await t().request({ method: 'DELETE', url: `${API}/workplaces/${id}` })).statusCode, 204);
    assert.deepEqual(withoutTime((await eventsOf(t(), id)).slice(before)), [
      {
        eventType: 'WORKPLACE_DELETED',
        objectType: 'WORKPLACE',
        objectId: id,
        data: {
          workplaceId: id,
          number: 'EV-4',
          description: null,
          isManualWorkplace: false,
          capacityGroupId: capacity,
          productionLineId: null,
        },
      },
      {
        eventType: 'RESOURCES_UPDATED',
        objectType: 'WORKPLACE',
        objectId: id,
        data: { changeType: 'DELETED' },
      },
    ]);
  });

  test('operating state change: one WORKPLACE_OPERATING_STATE_CHANGED, no RESOURCES_UPDATED', async () => {
    const capacity = await createGroup(t(), 'EV-CG5');
    const id = await createWorkplace(t(), { number: 'EV-5', capacityGroupId: capacity });
    const before = (await eventsOf(t(), id)).length;
    // Asked in German: the answer is localized, the event data stays in the default language.
    const response = await t().request({
      method: 'POST',
      url: `${API}/workplaces/${id}/operatingState/110`,
      headers: { 'accept-language': 'de-DE' },
    });
    assert.equal(response.statusCode, 200);
    assert.equal(json(response).properties.operatingState.description, 'Störung');

    const events = (await eventsOf(t(), id)).slice(before);
    assert.deepEqual(withoutTime(events), [
      {
        eventType: 'WORKPLACE_OPERATING_STATE_CHANGED',
        objectType: 'WORKPLACE',
        objectId: id,
        data: {
          workplaceId: id,
          currentOperatingState: MALFUNCTION,
          previousOperatingState: UNDEFINED_STOPPAGE,
        },
      },
    ]);
    // The event has the time the new state started.
    const [record] = await t().app.db.query<{ start_date: Date }>(
      'SELECT start_date FROM recorded_operating_states WHERE workplace_id = $1 AND end_date IS NULL',
      [id],
    );
    assert.equal(events[0]?.timestamp.toISOString(), record?.start_date.toISOString());

    // The same state again: nothing.
    const total = await totalEvents(t());
    assert.equal(
      (await t().request({ method: 'POST', url: `${API}/workplaces/${id}/operatingState/110` })).statusCode,
      200,
    );
    assert.equal(await totalEvents(t()), total);
  });

  test('workplace groups: RESOURCES_UPDATED with objectType WORKPLACE_GROUP on create, update, delete', async () => {
    const id = await createGroup(t(), 'EV-CG6');
    assert.equal(
      (
        await t().request({
          method: 'PUT',
          url: `${API}/workplaceGroups/${id}`,
          body: { number: 'EV-CG6', description: 'now described', type: 'CAPACITY_GROUP' },
        })
      ).statusCode,
      200,
    );
    assert.equal(
      (await t().request({ method: 'DELETE', url: `${API}/workplaceGroups/${id}` })).statusCode,
      204,
    );
    assert.deepEqual(
      withoutTime(await eventsOf(t(), id)),
      ['CREATED', 'UPDATED', 'DELETED'].map((changeType) => ({
        eventType: 'RESOURCES_UPDATED',
        objectType: 'WORKPLACE_GROUP',
        objectId: id,
        data: { changeType },
      })),
    );
  });

  test('failed changes write no event', async () => {
    const capacity = await createGroup(t(), 'EV-CG7');
    const line = await createGroup(t(), 'EV-PL7', 'PRODUCTION_LINE');
    const id = await createWorkplace(t(), {
      number: 'EV-7',
      capacityGroupId: capacity,
      productionLineId: line,
    });
    await createWorkplace(t(), { number: 'EV-7b', capacityGroupId: capacity });
    const total = await totalEvents(t());

    const failures: RequestOptions[] = [
      // duplicate number on create and on replace
      { method: 'POST', url: `${API}/workplaces`, body: { number: 'EV-7b', capacityGroupId: capacity } },
      { method: 'PUT', url: `${API}/workplaces/${id}`, body: { number: 'EV-7b', capacityGroupId: capacity } },
      { method: 'POST', url: `${API}/workplaceGroups`, body: { number: 'EV-CG7', type: 'PRODUCTION_LINE' } },
      // group in use: delete and type change
      { method: 'DELETE', url: `${API}/workplaceGroups/${capacity}` },
      { method: 'DELETE', url: `${API}/workplaceGroups/${line}` },
      {
        method: 'PUT',
        url: `${API}/workplaceGroups/${line}`,
        body: { number: 'EV-PL7', type: 'CAPACITY_GROUP' },
      },
      // a reference to a group of the wrong type
      { method: 'PUT', url: `${API}/workplaces/${id}`, body: { number: 'EV-7', capacityGroupId: line } },
      // unknown target state, read-only token
      { method: 'POST', url: `${API}/workplaces/${id}/operatingState/nope` },
      { method: 'POST', url: `${API}/workplaces/${id}/operatingState/000`, scopes: ['read'] },
    ];
    for (const failure of failures) {
      const response = await t().request(failure);
      assert.ok(
        response.statusCode >= 400 && response.statusCode < 500,
        `${failure.method} ${failure.url}: ${response.body}`,
      );
    }
    assert.equal(await totalEvents(t()), total);
  });
});

describeEachBackend('events: atomicity', (t) => {
  // A trigger makes the event insert fail for chosen event types and objects. The change that
  // wrote it must then be gone as well: change and events are one transaction.
  before(async () => {
    const db = t().app.db;
    await db.query('CREATE TABLE test_poisoned_events (event_type text NOT NULL, marker text NOT NULL)');
    await db.exec(`
      CREATE FUNCTION test_poison_event() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        IF EXISTS (SELECT 1 FROM test_poisoned_events p WHERE p.event_type = NEW.event_type
                   AND (p.marker = NEW.object_id OR p.marker = NEW.data->>'number')) THEN
          RAISE EXCEPTION 'poisoned event % for %', NEW.event_type, NEW.object_id;
        END IF;
        RETURN NEW;
      END $$;
      CREATE TRIGGER test_poison_event BEFORE INSERT ON events
        FOR EACH ROW EXECUTE FUNCTION test_poison_event();`);
  });
  const poison = (eventType: string, marker: string) =>
    t().app.db.query('INSERT INTO test_poisoned_events VALUES ($1, $2)', [eventType, marker]);

  const internalError = (response: { statusCode: number; body: string }) => {
    assert.equal(response.statusCode, 500, response.body);
    const body = json(response as Parameters<typeof json>[0]);
    assert.deepEqual(Object.keys(body).sort(), ['code', 'message', 'status']);
    assert.equal(body.code, 'INTERNAL_ERROR');
    // The database's message never reaches the client.
    assert.doesNotMatch(body.message, /poison|trigger|events/i);
  };

  test('a create whose event cannot be written leaves no workplace, no history and no events', async () => {
    const capacity = await createGroup(t(), 'AT-CG');
    await poison('WORKPLACE_CREATED', 'AT-NEW');
    const total = await totalEvents(t());
    const history = (await t().app.db.query('SELECT 1 FROM recorded_operating_states')).length;

    internalError(
      await t().request({
        method: 'POST',
        url: `${API}/workplaces`,
        body: { number: 'AT-NEW', capacityGroupId: capacity },
      }),
    );
    assert.equal((await t().app.db.query("SELECT 1 FROM workplaces WHERE number = 'AT-NEW'")).length, 0);
    assert.equal((await t().app.db.query('SELECT 1 FROM recorded_operating_states')).length, history);
    assert.equal(await totalEvents(t()), total);
  });

  test('a replace whose second event fails keeps the workplace and drops the first event too', async () => {
    const capacity = await createGroup(t(), 'AT-CG2');
    const id = await createWorkplace(t(), { number: 'AT-2', capacityGroupId: capacity });
    const before = json(await t().request({ url: `${API}/workplaces/${id}` }));
    const events = await eventsOf(t(), id);
    // WORKPLACE_UPDATED is written first, then RESOURCES_UPDATED fails.
    await poison('RESOURCES_UPDATED', id);

    internalError(
      await t().request({
        method: 'PUT',
        url: `${API}/workplaces/${id}`,
        body: { number: 'AT-2b', capacityGroupId: capacity },
      }),
    );
    assert.deepEqual(json(await t().request({ url: `${API}/workplaces/${id}` })), before);
    assert.deepEqual(await eventsOf(t(), id), events);

    internalError(await t().request({ method: 'DELETE', url: `${API}/workplaces/${id}` }));
    assert.equal((await t().request({ url: `${API}/workplaces/${id}` })).statusCode, 200);
    assert.deepEqual(await eventsOf(t(), id), events);
  });

  test('an operating state change whose event fails keeps the old state and history', async () => {
    const capacity = await createGroup(t(), 'AT-CG3');
    const id = await createWorkplace(t(), { number: 'AT-3', capacityGroupId: capacity });
    const history = await t().app.db.query(
      'SELECT * FROM recorded_operating_states WHERE workplace_id = $1',
      [id],
    );
    await poison('WORKPLACE_OPERATING_STATE_CHANGED', id);

    internalError(await t().request({ method: 'POST', url: `${API}/workplaces/${id}/operatingState/110` }));
    const workplace = json(await t().request({ url: `${API}/workplaces/${id}` }));
    assert.deepEqual(workplace.properties.operatingState, UNDEFINED_STOPPAGE);
    assert.deepEqual(
      await t().app.db.query('SELECT * FROM recorded_operating_states WHERE workplace_id = $1', [id]),
      history,
    );
    assert.deepEqual(
      (await eventsOf(t(), id)).map((event) => event.eventType),
      ['WORKPLACE_CREATED', 'RESOURCES_UPDATED'],
    );
  });

  test('a group delete whose event fails keeps the group', async () => {
    const id = await createGroup(t(), 'AT-CG4');
    await poison('RESOURCES_UPDATED', id);
    internalError(await t().request({ method: 'DELETE', url: `${API}/workplaceGroups/${id}` }));
    assert.equal((await t().request({ url: `${API}/workplaceGroups/${id}` })).statusCode, 200);
    assert.deepEqual(
      (await eventsOf(t(), id)).map((event) => event.data),
      [{ changeType: 'CREATED' }],
    );
  });
});
