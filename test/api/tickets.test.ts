// Tickets end to end (docs/resources/tickets.md): CRUD with what is stored and the events of each
// change, the state rules, activities, remarks, attachments (bytes through the document file
// rules), the cascade of a delete, filters and paging.
import assert from 'node:assert/strict';
import { before, test } from 'node:test';
import type { LightMyRequestResponse } from 'fastify';
import { createOperation, createWorkplace, describeEachBackend, json, type TestApp } from '../support/app.ts';
import { eventsSince, withoutTime } from '../support/events.ts';
import { absolute, get } from '../support/hal.ts';

const BASE = '/api/v3/tickets';
const LIMIT = 1024;
const ENV = { BRIDGE_DOCUMENT_MAX_BYTES: String(LIMIT), BRIDGE_DELIVERY_ENABLED: 'false' };
// Every byte value, so nothing passes that only survives as UTF-8 or text.
const BINARY = Buffer.from(Array.from({ length: 512 }, (_, index) => (index * 7 + 3) % 256));

const lastSequence = async (t: TestApp) =>
  (await t.app.db.query<{ n: number }>('SELECT coalesce(max(sequence), 0)::int AS n FROM events'))[0]?.n ?? 0;

async function ok(t: TestApp, method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, body?: unknown) {
  const response = await t.request({ method, url, ...(body === undefined ? {} : { body }) });
  assert.ok(response.statusCode < 300, `${method} ${url}: ${response.statusCode} ${response.body}`);
  return response.statusCode === 204 ? {} : json(response);
}

async function upload(
  t: TestApp,
  url: string,
  payload: Buffer | string,
  headers: Record<string, string>,
): Promise<LightMyRequestResponse> {
  return t.app.server.inject({
    method: 'PUT',
    url,
    headers: { authorization: `Bearer ${await t.token()}`, ...headers },
    payload,
  });
}

/** A multipart/form-data body with the file in the part `data`, as the SDK sends it. */
function multipart(filename: string, type: string, bytes: Buffer) {
  const boundary = 'ticketBoundary7MA4YWxk';
  const head = Buffer.from(
    `--${boundary}\r\nContent-Disposition: form-data; name="data"; filename="${filename}"\r\n` +
      `Content-Type: ${type}\r\n\r\n`,
  );
  const tail = Buffer.from(`\r\n--${boundary}--\r\n`);
  return {
    payload: Buffer.concat([head, bytes, tail]),
    contentType: `multipart/form-data; boundary=${boundary}`,
  };
}

const error = (response: LightMyRequestResponse) => [response.statusCode, json(response).code];

describeEachBackend(
  'tickets',
  (t) => {
    let workplaceId: string;
    let operationId: string;
    // Every test below reads these; a hook, so that each test also runs alone.
    before(async () => {
      workplaceId = await createWorkplace(t(), 'T-90270');
      operationId = await createOperation(t(), 'T-OP1', {
        material: { number: 'M-15223675', description: 'Vertical chain conveyor' },
      });
    });

    test('POST, GET, PUT, DELETE: stored, shown as recorded, with events', async () => {
      const since = await lastSequence(t());
      const response = await t().request({
        method: 'POST',
        url: BASE,
        body: {
          title: 'Conveyor jams',
          description: 'Belt stops every hour',
          rootCause: 'worn belt',
          priority: 'HIGH',
          editor: 'Test editor',
          ticketStateId: 'NEW',
          ticketClassId: '29EC6B9804B744ABAAAF3E13D86E1E63',
          operationId,
          materialNumber: 'M-15223675',
          workplaceId,
        },
      });
      assert.equal(response.statusCode, 201, response.body);
      const created = json(response);
      const id = created.properties.id;
      assert.equal(response.headers.location, absolute(`${BASE}/${id}`));
      const expected = {
        properties: {
          id,
          number: created.properties.number,
          title: 'Conveyor jams',
          description: 'Belt stops every hour',
          rootCause: 'worn belt',
          priority: 'HIGH',
          creationDate: created.properties.creationDate,
          editor: 'Test editor',
          ticketStateId: 'NEW',
          ticketClassId: '29EC6B9804B744ABAAAF3E13D86E1E63',
          operationId,
          materialNumber: 'M-15223675',
          material: { number: 'M-15223675', description: 'Vertical chain conveyor', type: null },
          workplaceId,
          workplace: { id: workplaceId, number: 'T-90270', description: null, erpContextId: null },
          shiftId: null,
        },
        _links: {
          self: get(`${BASE}/${id}`),
          operation: get(`/api/v3/operations/${operationId}`),
          workplace: get(`/api/v3/workplaces/${workplaceId}`),
          setTicketStateInProgress: {
            href: absolute(`${BASE}/${id}/IN_PROGRESS`),
            method: 'POST',
            embeddable: false,
          },
          setTicketStateDone: { href: absolute(`${BASE}/${id}/DONE`), method: 'POST', embeddable: false },
          activities: get(`${BASE}/${id}/activities`),
          attachments: get(`${BASE}/${id}/attachments`),
        },
      };
      assert.deepEqual(created, expected);
      assert.match(created.properties.number, /^\d+$/);
      assert.deepEqual(json(await t().request({ url: `${BASE}/${id}` })), expected);

      const replaced = await ok(t(), 'PUT', `${BASE}/${id}`, {
        title: 'Conveyor jams',
        priority: 'VERY_HIGH',
        workplaceId,
      });
      assert.equal(replaced.properties.priority, 'VERY_HIGH');
      assert.equal(replaced.properties.operationId, null);
      assert.equal(replaced.properties.material, null);
      assert.equal(replaced.properties.materialNumber, null, 'the write name follows the stored material');
      assert.equal(replaced.properties.workplaceId, workplaceId);
      assert.equal(replaced.properties.ticketStateId, 'NEW', 'a PUT without a state keeps it');
      // The same body again changes nothing.
      await ok(t(), 'PUT', `${BASE}/${id}`, { title: 'Conveyor jams', priority: 'VERY_HIGH', workplaceId });

      await ok(t(), 'DELETE', `${BASE}/${id}`);
      assert.equal((await t().request({ url: `${BASE}/${id}` })).statusCode, 404);
      const data = {
        ticketId: id,
        number: created.properties.number,
        title: 'Conveyor jams',
        priority: 'HIGH',
        ticketStateId: 'NEW',
        ticketClassId: '29EC6B9804B744ABAAAF3E13D86E1E63',
        workplaceId,
        operationId,
        materialNumber: 'M-15223675',
        shiftId: null,
      };
      const after = {
        ...data,
        priority: 'VERY_HIGH',
        ticketClassId: null,
        operationId: null,
        materialNumber: null,
      };
      assert.deepEqual(withoutTime(await eventsSince(t(), since)), [
        { eventType: 'TICKET_CREATED', objectType: 'TICKET', objectId: id, data },
        {
          eventType: 'TICKET_UPDATED',
          objectType: 'TICKET',
          objectId: id,
          data: {
            ...after,
            changedProperties: [
              'description',
              'rootCause',
              'priority',
              'editor',
              'ticketClassId',
              'operationId',
              'materialNumber',
            ],
          },
        },
        { eventType: 'TICKET_DELETED', objectType: 'TICKET', objectId: id, data: after },
      ]);
    });

    test('bad references: 400 INVALID_REFERENCE naming the field, nothing stored', async () => {
      const before = await lastSequence(t());
      const cases: [Record<string, unknown>, string][] = [
        [{ workplaceId: '0190c0de-0000-7000-8000-000000000000' }, 'workplaceId'],
        [{ operationId: 'not-a-uuid' }, 'operationId'],
        [{ shiftId: '0190c0de-0000-7000-8000-000000000000' }, 'shiftId'],
        [{ materialNumber: 'M-UNKNOWN' }, 'materialNumber'],
        [{ ticketStateId: 'OPEN' }, 'ticketStateId'],
        [{ ticketClassId: 'test class id' }, 'ticketClassId'],
      ];
      for (const [fields, field] of cases) {
        const response = await t().request({
          method: 'POST',
          url: BASE,
          body: { title: 'x', priority: 'LOW', ...fields },
        });
        assert.deepEqual(error(response), [400, 'INVALID_REFERENCE'], field);
        assert.match(json(response).message, new RegExp(`'${field}'`));
      }
      const badPriority = await t().request({
        method: 'POST',
        url: BASE,
        body: { title: 'x', priority: 'URGENT' },
      });
      assert.deepEqual(error(badPriority), [400, 'VALIDATION_FAILED']);
      assert.equal(await lastSequence(t()), before);
    });

    test('states: allowed changes emit TICKET_STATE_CHANGED, refused ones INVALID_TRANSITION', async () => {
      const ticket = await ok(t(), 'POST', BASE, { title: 'States', priority: 'LOW', workplaceId });
      const id = ticket.properties.id;
      const since = await lastSequence(t());
      for (const state of ['IN_PROGRESS', 'DONE', 'REOPENED', 'DONE']) {
        const changed = await ok(t(), 'POST', `${BASE}/${id}/${state}`);
        assert.equal(changed.properties.ticketStateId, state);
      }
      const events = await eventsSince(t(), since);
      assert.deepEqual(
        events.map((event) => [event.eventType, event.data.previousTicketStateId, event.data.ticketStateId]),
        [
          ['TICKET_STATE_CHANGED', 'NEW', 'IN_PROGRESS'],
          ['TICKET_STATE_CHANGED', 'IN_PROGRESS', 'DONE'],
          ['TICKET_STATE_CHANGED', 'DONE', 'REOPENED'],
          ['TICKET_STATE_CHANGED', 'REOPENED', 'DONE'],
        ],
      );
      assert.equal(events[0]?.data.workplaceId, workplaceId);

      const refused = await t().request({ method: 'POST', url: `${BASE}/${id}/NEW` });
      assert.deepEqual(error(refused), [400, 'INVALID_TRANSITION']);
      assert.equal(
        json(refused).message,
        `The ticket '${id}' cannot change from DONE to NEW; allowed: CONFIRMED, REOPENED.`,
      );
      const unknown = await t().request({ method: 'POST', url: `${BASE}/${id}/OPEN` });
      assert.deepEqual(error(unknown), [404, 'NOT_FOUND']);
      // A closed ticket takes no new activity.
      const activity = await t().request({
        method: 'POST',
        url: `${BASE}/${id}/activities`,
        body: { title: 'late' },
      });
      assert.deepEqual(error(activity), [400, 'INVALID_TRANSITION']);
      await ok(t(), 'POST', `${BASE}/${id}/CONFIRMED`);
      const final = await t().request({ method: 'POST', url: `${BASE}/${id}/REOPENED` });
      assert.equal(
        json(final).message,
        `The ticket '${id}' cannot change from CONFIRMED to REOPENED; allowed: none.`,
      );
      // A PUT with a refused state changes nothing.
      const put = await t().request({
        method: 'PUT',
        url: `${BASE}/${id}`,
        body: { title: 'States', priority: 'HIGH', ticketStateId: 'NEW' },
      });
      assert.deepEqual(error(put), [400, 'INVALID_TRANSITION']);
      assert.equal(json(await t().request({ url: `${BASE}/${id}` })).properties.priority, 'LOW');
      assert.equal((await eventsSince(t(), since)).length, 5);
    });

    test('activities and remarks: CRUD, states, events; closed ticket refuses changes', async () => {
      const ticket = await ok(t(), 'POST', BASE, { title: 'Activities', priority: 'MEDIUM' });
      const ticketId = ticket.properties.id;
      const since = await lastSequence(t());
      const activities = `${BASE}/${ticketId}/activities`;
      const created = await t().request({
        method: 'POST',
        url: activities,
        body: {
          title: 'Replace belt',
          description: 'order part',
          editor: 'e3',
          dueDate: '2026-01-05T10:00:00.000Z',
        },
      });
      assert.equal(created.statusCode, 201, created.body);
      const activity = json(created);
      const activityId = activity.properties.id;
      assert.equal(created.headers.location, absolute(`${activities}/${activityId}`));
      assert.deepEqual(activity.properties, {
        id: activityId,
        title: 'Replace belt',
        description: 'order part',
        editor: 'e3',
        dueDate: '2026-01-05T10:00:00.000Z',
        ticketActivityStateId: 'NEW',
      });
      assert.deepEqual(json(await t().request({ url: `${activities}/${activityId}` })), activity);

      const replaced = await ok(t(), 'PUT', `${activities}/${activityId}`, {
        title: 'Replace belt',
        description: 'part ordered',
        editor: 'e3',
        dueDate: '2026-01-05T10:00:00.000Z',
        ticketActivityStateId: 'IN_PROGRESS',
      });
      assert.equal(replaced.properties.ticketActivityStateId, 'IN_PROGRESS');
      const done = await ok(t(), 'POST', `${activities}/${activityId}/DONE`);
      assert.equal(done.properties.ticketActivityStateId, 'DONE');
      const refused = await t().request({ method: 'POST', url: `${activities}/${activityId}/NEW` });
      assert.deepEqual(error(refused), [400, 'INVALID_TRANSITION']);

      const remarks = `${activities}/${activityId}/remarks`;
      const remarkResponse = await t().request({
        method: 'POST',
        url: remarks,
        body: { remark: 'called supplier', editor: 'e4' },
      });
      assert.equal(remarkResponse.statusCode, 201, remarkResponse.body);
      const remark = json(remarkResponse);
      const remarkId = remark.properties.id;
      assert.deepEqual(remark, {
        properties: {
          id: remarkId,
          remark: 'called supplier',
          editor: 'e4',
          creationDate: remark.properties.creationDate,
        },
        _links: { self: get(`${remarks}/${remarkId}`) },
      });
      assert.deepEqual(json(await t().request({ url: `${remarks}/${remarkId}` })), remark);
      const list = json(await t().request({ url: remarks }));
      assert.deepEqual(list._embedded.remarks, [remark]);
      assert.equal(list.pagination.total, 1);
      assert.ok(list._links.self.href.startsWith(absolute(remarks)), list._links.self.href);
      // Another ticket's path does not reach the activity.
      const other = await ok(t(), 'POST', BASE, { title: 'Other', priority: 'LOW' });
      assert.equal(
        (await t().request({ url: `${BASE}/${other.properties.id}/activities/${activityId}` })).statusCode,
        404,
      );
      assert.equal(
        (await t().request({ url: `${BASE}/${other.properties.id}/activities/${activityId}/remarks` }))
          .statusCode,
        404,
      );

      // Closed: remarks and activity changes refused until reopened.
      await ok(t(), 'POST', `${BASE}/${ticketId}/DONE`);
      const closedRemark = await t().request({ method: 'POST', url: remarks, body: { remark: 'late' } });
      assert.deepEqual(error(closedRemark), [400, 'INVALID_TRANSITION']);
      assert.match(json(closedRemark).message, /is DONE: reopen it/);
      assert.deepEqual(error(await t().request({ method: 'DELETE', url: `${activities}/${activityId}` })), [
        400,
        'INVALID_TRANSITION',
      ]);
      await ok(t(), 'POST', `${BASE}/${ticketId}/REOPENED`);
      await ok(t(), 'DELETE', `${remarks}/${remarkId}`);
      assert.equal((await t().request({ url: `${remarks}/${remarkId}` })).statusCode, 404);
      await ok(t(), 'DELETE', `${activities}/${activityId}`);
      assert.equal((await t().request({ url: `${activities}/${activityId}` })).statusCode, 404);

      const events = (await eventsSince(t(), since)).filter((event) =>
        event.eventType.startsWith('TICKET_ACTIVITY'),
      );
      assert.deepEqual(
        events.map((event) => [event.eventType, event.objectType, event.objectId]),
        [
          ['TICKET_ACTIVITY_CREATED', 'TICKET_ACTIVITY', activityId],
          ['TICKET_ACTIVITY_UPDATED', 'TICKET_ACTIVITY', activityId],
          ['TICKET_ACTIVITY_STATE_CHANGED', 'TICKET_ACTIVITY', activityId],
          ['TICKET_ACTIVITY_STATE_CHANGED', 'TICKET_ACTIVITY', activityId],
          ['TICKET_ACTIVITY_REMARK_CREATED', 'TICKET_ACTIVITY_REMARK', remarkId],
          ['TICKET_ACTIVITY_REMARK_DELETED', 'TICKET_ACTIVITY_REMARK', remarkId],
          ['TICKET_ACTIVITY_DELETED', 'TICKET_ACTIVITY', activityId],
        ],
      );
      assert.deepEqual(events[1]?.data.changedProperties, ['description']);
      assert.deepEqual(events[4]?.data, { ticketId, activityId, remarkId, editor: 'e4' });
    });

    for (const owner of ['ticket', 'activity'] as const) {
      test(`${owner} attachments: byte-identical round trip, file rules, hostile names, 413, 415`, async () => {
        const ticket = await ok(t(), 'POST', BASE, { title: `Files ${owner}`, priority: 'LOW' });
        let base = `${BASE}/${ticket.properties.id}`;
        if (owner === 'activity') {
          base = `${base}/activities/${(await ok(t(), 'POST', `${base}/activities`, { title: 'a' })).properties.id}`;
        }
        const prefix = owner === 'ticket' ? 'TICKET_ATTACHMENT' : 'TICKET_ACTIVITY_ATTACHMENT';
        const since = await lastSequence(t());
        const created = await t().request({
          method: 'POST',
          url: `${base}/attachments`,
          body: { description: 'photo' },
        });
        assert.equal(created.statusCode, 201, created.body);
        const id = json(created).properties.id;
        const self = `${base}/attachments/${id}`;
        assert.equal(created.headers.location, absolute(self));
        assert.deepEqual(json(created).properties, {
          id,
          name: null,
          editor: null,
          description: 'photo',
          creationDate: json(created).properties.creationDate,
          mimeType: null,
          size: 0,
        });

        // Multipart as the SDK sends it: the part's file name and the mimeType query.
        const form = multipart('scan.bin', 'application/octet-stream', BINARY);
        const put = await upload(t(), `${self}/data?mimeType=image/png&editor=Tester`, form.payload, {
          'content-type': form.contentType,
        });
        assert.equal(put.statusCode, 200, put.body);
        assert.deepEqual(
          [
            json(put).properties.name,
            json(put).properties.mimeType,
            json(put).properties.size,
            json(put).properties.editor,
          ],
          ['scan.bin', 'image/png', BINARY.length, 'Tester'],
        );
        const data = await t().request({ url: `${self}/data` });
        assert.equal(data.statusCode, 200);
        assert.ok(data.rawPayload.equals(BINARY), 'the bytes come back unchanged');
        assert.equal(data.headers['content-type'], 'image/png');
        assert.equal(data.headers['content-disposition'], "attachment; filename*=UTF-8''scan.bin");
        assert.equal(data.headers['x-content-type-options'], 'nosniff');

        // Raw bytes of their own type.
        const raw = await upload(t(), `${self}/data?name=${encodeURIComponent('report (1).txt')}`, BINARY, {
          'content-type': 'text/plain',
        });
        assert.equal(raw.statusCode, 200, raw.body);
        const rawData = await t().request({ url: `${self}/data` });
        assert.ok(rawData.rawPayload.equals(BINARY));
        assert.equal(rawData.headers['content-type'], 'text/plain');
        assert.equal(
          rawData.headers['content-disposition'],
          "attachment; filename*=UTF-8''report%20%281%29.txt",
        );

        const stored = json(await t().request({ url: self }));
        const refusedBefore = await lastSequence(t());
        for (const name of ['..', '.', 'a/b', '..\\..\\win.ini', '../etc/passwd', 'a\u0000b']) {
          const hostile = multipart(name, 'text/plain', Buffer.from('x'));
          const response = await upload(t(), `${self}/data`, hostile.payload, {
            'content-type': hostile.contentType,
          });
          assert.deepEqual(error(response), [400, 'VALIDATION_FAILED'], JSON.stringify(name));
          const query = await upload(t(), `${self}/data?name=${encodeURIComponent(name)}`, 'x', {
            'content-type': 'text/plain',
          });
          assert.deepEqual(error(query), [400, 'VALIDATION_FAILED'], JSON.stringify(name));
        }
        const big = await upload(t(), `${self}/data`, Buffer.alloc(LIMIT + 1, 1), {
          'content-type': 'text/plain',
        });
        assert.deepEqual(error(big), [413, 'PAYLOAD_TOO_LARGE']);
        const badType = await upload(t(), `${self}/data`, 'x', { 'content-type': 'not a media type' });
        assert.deepEqual(error(badType), [415, 'UNSUPPORTED_MEDIA_TYPE']);
        const badMime = await upload(t(), `${self}/data?mimeType=TEXT_HTML`, 'x', {
          'content-type': 'text/plain',
        });
        assert.deepEqual(error(badMime), [415, 'UNSUPPORTED_MEDIA_TYPE']);
        const noPart = await upload(t(), `${self}/data`, '--b\r\n\r\n--b--\r\n', {
          'content-type': 'multipart/form-data; boundary=b',
        });
        assert.deepEqual(error(noPart), [400, 'VALIDATION_FAILED']);
        const xml = await t().request({
          method: 'POST',
          url: `${base}/attachments`,
          body: '<description/>',
          headers: { 'content-type': 'application/xml' },
        });
        assert.deepEqual(error(xml), [415, 'UNSUPPORTED_MEDIA_TYPE']);
        assert.equal(await lastSequence(t()), refusedBefore, 'nothing refused was stored');
        assert.deepEqual(json(await t().request({ url: self })), stored);

        const list = json(await t().request({ url: `${base}/attachments` }));
        assert.deepEqual(list._embedded.attachments, [stored]);
        await ok(t(), 'DELETE', self);
        assert.equal((await t().request({ url: `${self}/data` })).statusCode, 404);
        assert.deepEqual(
          (await eventsSince(t(), since))
            .filter((event) => event.eventType.startsWith(prefix))
            .map((event) => [event.eventType, event.objectType, event.objectId]),
          [
            [`${prefix}_CREATED`, prefix, id],
            [`${prefix}_UPDATED`, prefix, id],
            [`${prefix}_UPDATED`, prefix, id],
            [`${prefix}_DELETED`, prefix, id],
          ],
        );
      });
    }

    test('DELETE cascades: activities, remarks and attachments go with their events', async () => {
      const ticket = await ok(t(), 'POST', BASE, { title: 'Cascade', priority: 'LOW' });
      const id = ticket.properties.id;
      const activity = (await ok(t(), 'POST', `${BASE}/${id}/activities`, { title: 'a' })).properties.id;
      const remark = (await ok(t(), 'POST', `${BASE}/${id}/activities/${activity}/remarks`, { remark: 'r' }))
        .properties.id;
      const own = (await ok(t(), 'POST', `${BASE}/${id}/attachments`, { description: 'd' })).properties.id;
      const below = (
        await ok(t(), 'POST', `${BASE}/${id}/activities/${activity}/attachments`, { description: 'd' })
      ).properties.id;
      const since = await lastSequence(t());
      await ok(t(), 'DELETE', `${BASE}/${id}`);
      const counts = await t().app.db.query<{ n: number }>(
        `SELECT (SELECT count(*) FROM ticket_activities WHERE ticket_id = $1)::int
           + (SELECT count(*) FROM ticket_attachments WHERE ticket_id = $1)::int
           + (SELECT count(*) FROM ticket_activity_remarks WHERE id = $2)::int AS n`,
        [id, remark],
      );
      assert.equal(counts[0]?.n, 0);
      assert.deepEqual(
        (await eventsSince(t(), since)).map((event) => [event.eventType, event.objectId]),
        [
          ['TICKET_ATTACHMENT_DELETED', own],
          ['TICKET_ACTIVITY_ATTACHMENT_DELETED', below],
          ['TICKET_ACTIVITY_REMARK_DELETED', remark],
          ['TICKET_ACTIVITY_DELETED', activity],
          ['TICKET_DELETED', id],
        ],
      );
    });

    test('filters and timestamp paging', async () => {
      const other = await createWorkplace(t(), 'T-FILTER');
      const made: string[] = [];
      for (const [index, priority] of (['LOW', 'HIGH', 'LOW'] as const).entries()) {
        const ticket = await ok(t(), 'POST', BASE, {
          title: `Filter ${index}`,
          priority,
          workplaceId: other,
        });
        made.push(ticket.properties.id);
      }
      const ids = async (query: string) =>
        json(await t().request({ url: `${BASE}?${query}` }))._embedded.tickets.map(
          (ticket: { properties: { id: string } }) => ticket.properties.id,
        );
      assert.deepEqual(await ids(`workplaceId=${other}`), [...made].reverse());
      assert.deepEqual(await ids('workplaceNumber=T-FILTER&ticketPriority=LOW'), [made[2], made[0]]);
      assert.deepEqual(await ids(`workplaceId=${other}&ticketTitle=Filter%201`), [made[1]]);
      assert.deepEqual(await ids('workplaceId=not-a-uuid'), []);
      assert.deepEqual(await ids(`workplaceId=${other}&ticketStateId=DONE`), []);
      await ok(t(), 'POST', `${BASE}/${made[1]}/DONE`);
      assert.deepEqual(await ids(`workplaceId=${other}&ticketStateId=NEW,IN_PROGRESS,REOPENED`), [
        made[2],
        made[0],
      ]);
      assert.deepEqual(await ids(`workplaceId=${other}&ticketStateId=DONE`), [made[1]]);
      const first = json(await t().request({ url: `${BASE}?workplaceId=${other}&limit=2` }));
      assert.equal(first.pagination.total, 3);
      assert.equal(first.pagination.count, 2);
      assert.equal(first.pagination.offset, null);
      const next = json(
        await t().request({ url: first._links.next.href.replace('http://localhost:80', '') }),
      );
      assert.deepEqual(
        next._embedded.tickets.map((ticket: { properties: { id: string } }) => ticket.properties.id),
        [made[0]],
      );
      const bad = await t().request({ url: `${BASE}?offset=1` });
      assert.deepEqual(error(bad), [400, 'UNKNOWN_QUERY_PARAMETER']);
      const badDate = await t().request({ url: `${BASE}?creationDateFrom=yesterday` });
      assert.deepEqual(error(badDate), [400, 'VALIDATION_FAILED']);
    });

    test('read-only token: reads, 403 on writes', async () => {
      const ticket = await ok(t(), 'POST', BASE, { title: 'RO', priority: 'LOW' });
      const read = ['read'];
      assert.equal(
        (await t().request({ url: `${BASE}/${ticket.properties.id}`, scopes: read })).statusCode,
        200,
      );
      const write = await t().request({
        method: 'POST',
        url: `${BASE}/${ticket.properties.id}/DONE`,
        scopes: read,
      });
      assert.equal(write.statusCode, 403);
    });
  },
  ENV,
);
