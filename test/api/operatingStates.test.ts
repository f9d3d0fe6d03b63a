// Operating states (docs/api.md "Resources", docs/api.md "States and transitions", docs/api.md "Collections"): the master data lists, the operating-state command and
// the history of a workplace in timestamp mode, including paging over equal timestamps and the
// change sync that asks PREVIOUS from a kept firstIdentifier.
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { test } from 'node:test';
import {
  type CodeHeldList,
  entryLiteral,
  OPERATING_STATES as OPERATING_STATES_HELD,
  type TextProperty,
  WORKPLACE_STATES as WORKPLACE_STATES_HELD,
} from '../../src/domain/masterData.ts';
import { createWorkplace, describeEachBackend, json, type TestApp } from '../support/app.ts';
import { absolute, get, normalized, normalizeHref } from '../support/hal.ts';

const API = '/api/v2';
const OPERATING_STATES = `${API}/masterData/operatingStates`;
const WORKPLACE_STATES = `${API}/masterData/workplaceStates`;

type Body = ReturnType<typeof json>;

// The seeded operating state classes (docs/resources/masterData.md): organizational and maintenance stops.
const CLASSES: Record<string, string> = {
  '010': '05004E227AE642709B27BEF620E2FED0',
  '410': '9478019210E0423AAC7C4ABC147CD24E',
};

// The master data as docs/api.md "States and transitions" names it (en-GB texts).
const STATES = [
  ['b6ec1cd6-d254-5106-99ea-43edce9543dd', '000', 'Production', 'Prod.', '#2E7D32', 'PRODUCTION'],
  ['3d2e0b34-7640-51ba-8d4a-179431e31693', '010', 'Waiting for material', 'Material', '#F9A825', 'DOWNTIME'],
  ['4e497aff-ed65-5dc0-8004-3c0a8fa518e1', '020', 'Setup', 'Setup', '#1565C0', 'DOWNTIME'],
  ['70bc3dba-1d9d-5a3c-a0f5-fb4cfafe11fa', '110', 'Malfunction', 'Fault', '#C62828', 'DOWNTIME'],
  ['62540d52-ec93-52fc-8c1e-cbca9610b7c3', '410', 'Planned maintenance', 'Maint.', '#6A1B9A', 'DOWNTIME'],
  ['fdf23d49-794d-5de0-8422-86df0d65641a', '993', 'Break', 'Break', '#757575', 'DOWNTIME'],
  ['d1b69a53-e94a-5b2f-bdff-09bf88c9593e', '998', 'No connection', 'No conn.', '#9E9E9E', 'DOWNTIME'],
  ['6b5e3e20-94f4-55ee-9a6e-eb7a3eb4f379', '999', 'Undefined stoppage', 'Undefined', '#424242', 'DOWNTIME'],
].map(([id, code, description, shortDescription, color, workplaceStateId]) => ({
  id: id as string,
  code: code as string,
  description: description as string,
  shortDescription: shortDescription as string,
  color: color as string,
  workplaceStateId: workplaceStateId as string,
  operatingStateClassId: CLASSES[code as string] ?? null,
}));

/** The links of an entry held in code to the literals of its two texts (migration 090). */
const textLinks = (list: CodeHeldList, id: string) => {
  const entry = [...OPERATING_STATES_HELD, ...WORKPLACE_STATES_HELD].find((candidate) => candidate.id === id);
  assert.ok(entry, id);
  const literal = (property: TextProperty) =>
    get(`${API}/literals/${entryLiteral(list, entry, property).id}`, true);
  return { description: literal('description'), shortDescription: literal('shortDescription') };
};

const stateEntry = (state: (typeof STATES)[number]) => ({
  properties: state,
  _links: {
    self: get(`${OPERATING_STATES}/${state.id}`),
    ...textLinks('operatingStates', state.id),
    workplaceState: get(`${WORKPLACE_STATES}/${state.workplaceStateId}`, true),
    ...(state.operatingStateClassId === null
      ? {}
      : {
          operatingStateClass: get(
            `${API}/masterData/operatingStateClasses/${state.operatingStateClassId}`,
            true,
          ),
        }),
  },
});

/** The operating state as a workplace and a history record show it. */
const asProperty = (code: string) => {
  const state = STATES.find((candidate) => candidate.code === code);
  assert.ok(state, code);
  return {
    id: state.id,
    code: state.code,
    description: state.description,
    workplaceStateId: state.workplaceStateId,
  };
};

const historyOf = (t: TestApp, workplaceId: string) =>
  t.app.db.query<{ id: string; operating_state_id: string; start_date: Date; end_date: Date | null }>(
    'SELECT * FROM recorded_operating_states WHERE workplace_id = $1 ORDER BY start_date DESC, id DESC',
    [workplaceId],
  );

const eventCount = async (t: TestApp, objectId: string) =>
  (await t.app.db.query('SELECT 1 FROM events WHERE object_id = $1', [objectId])).length;

/** Follows one link relation page after page; returns every page body in visiting order. */
async function walk(t: TestApp, start: string, rel: 'next' | 'previous'): Promise<Body[]> {
  const pages: Body[] = [];
  let href: string | undefined = start;
  while (href !== undefined) {
    const response = await t.request({ url: href });
    assert.equal(response.statusCode, 200, response.body);
    const body = json(response);
    pages.push(body);
    href = body._links[rel]?.href;
    assert.ok(pages.length <= 50, 'paging does not end');
  }
  return pages;
}

const idsOf = (page: Body): string[] =>
  page._embedded.recordedOperatingStates.map((record: Body) => record.properties.id);

describeEachBackend('operating states', (t) => {
  test('master data: every operating state with code, texts, color and workplaceStateId', async () => {
    const response = await t().request({ url: OPERATING_STATES });
    assert.equal(response.statusCode, 200);
    const at0 = get(`${OPERATING_STATES}?limit=100&offset=0`);
    // Read-only: no create link even for a token that may write.
    assert.deepEqual(
      normalized(json(response)),
      normalized({
        pagination: {
          limit: 100,
          count: 8,
          offset: 0,
          total: 8,
          firstIdentifier: null,
          lastIdentifier: null,
        },
        _embedded: { operatingStates: STATES.map(stateEntry) },
        _links: { self: at0, current: at0, first: at0, last: at0 },
      }),
    );
    for (const state of STATES) assert.match(state.color, /^#[0-9A-F]{6}$/);
  });

  test('master data: workplace states; one entry by id; 404 for unknown ids', async () => {
    const response = await t().request({ url: WORKPLACE_STATES, scopes: ['read'] });
    const entry = (id: string, description: string, shortDescription: string, color: string) => ({
      properties: { id, code: id, description, shortDescription, color },
      _links: { self: get(`${WORKPLACE_STATES}/${id}`), ...textLinks('workplaceStates', id) },
    });
    const production = entry('PRODUCTION', 'Production', 'Prod.', '#2E7D32');
    const downtime = entry('DOWNTIME', 'Downtime', 'Down', '#C62828');
    const at0 = get(`${WORKPLACE_STATES}?limit=100&offset=0`);
    assert.deepEqual(
      normalized(json(response)),
      normalized({
        pagination: {
          limit: 100,
          count: 2,
          offset: 0,
          total: 2,
          firstIdentifier: null,
          lastIdentifier: null,
        },
        _embedded: { workplaceStates: [production, downtime] },
        _links: { self: at0, current: at0, first: at0, last: at0 },
      }),
    );

    const one = await t().request({ url: `${WORKPLACE_STATES}/DOWNTIME` });
    assert.deepEqual([one.statusCode, json(one)], [200, downtime]);
    const malfunction = STATES[3];
    assert.ok(malfunction);
    const state = await t().request({ url: `${OPERATING_STATES}/${malfunction.id}` });
    assert.deepEqual([state.statusCode, json(state)], [200, stateEntry(malfunction)]);

    for (const [url, resource, id] of [
      [`${OPERATING_STATES}/nope`, 'operatingState', 'nope'],
      [`${OPERATING_STATES}/110`, 'operatingState', '110'],
      [`${WORKPLACE_STATES}/IDLE`, 'workplaceState', 'IDLE'],
    ] as const) {
      const missing = await t().request({ url });
      assert.deepEqual(
        [missing.statusCode, json(missing)],
        [404, { status: 404, code: 'NOT_FOUND', message: `There is no ${resource} with id '${id}'.` }],
      );
    }
  });

  test('master data texts follow Accept-Language; paging works as on any offset collection', async () => {
    const german = await t().request({
      url: `${OPERATING_STATES}?limit=3&offset=3`,
      headers: { 'accept-language': 'de-DE' },
    });
    assert.equal(german.headers['content-language'], 'de-DE');
    const body = json(german);
    assert.deepEqual(body.pagination, {
      limit: 3,
      count: 3,
      offset: 3,
      total: 8,
      firstIdentifier: null,
      lastIdentifier: null,
    });
    assert.deepEqual(
      body._embedded.operatingStates.map((entry: Body) => [
        entry.properties.code,
        entry.properties.description,
      ]),
      [
        ['110', 'Störung'],
        ['410', 'Geplante Wartung'],
        ['993', 'Pause'],
      ],
    );
    assert.equal(normalizeHref(body._links.next.href), normalizeHref(`${OPERATING_STATES}?limit=3&offset=6`));
    assert.equal(
      normalizeHref(body._links.previous.href),
      normalizeHref(`${OPERATING_STATES}?limit=3&offset=0`),
    );

    const unknown = await t().request({ url: `${OPERATING_STATES}?code=110` });
    assert.deepEqual(
      [unknown.statusCode, json(unknown)],
      [
        400,
        {
          status: 400,
          code: 'UNKNOWN_QUERY_PARAMETER',
          message: "Query parameter 'code' is not supported here.",
        },
      ],
    );
  });

  test('command by id and by code answers the changed workplace', async () => {
    const id = await createWorkplace(t(), 'CMD-1');
    const byId = await t().request({
      method: 'POST',
      url: `${API}/workplaces/${id}/operatingState/${asProperty('110').id}`,
    });
    assert.equal(byId.statusCode, 200);
    assert.deepEqual(json(byId).properties.operatingState, asProperty('110'));
    // The answer is the workplace as GET shows it now, its operatingState link included.
    const fetched = json(await t().request({ url: `${API}/workplaces/${id}` }));
    assert.deepEqual(json(byId), fetched);
    assert.equal(fetched._links.operatingState.href, absolute(`${OPERATING_STATES}/${asProperty('110').id}`));

    const byCode = await t().request({ method: 'POST', url: `${API}/workplaces/${id}/operatingState/000` });
    assert.equal(byCode.statusCode, 200);
    assert.deepEqual(json(byCode).properties.operatingState, asProperty('000'));
    assert.deepEqual(
      (await historyOf(t(), id)).map((record) => record.operating_state_id),
      [asProperty('000').id, asProperty('110').id, asProperty('999').id],
    );
  });

  test('command: unknown state or workplace is 404 and changes nothing', async () => {
    const id = await createWorkplace(t(), 'CMD-2');
    const before = await historyOf(t(), id);
    const unknownState = await t().request({
      method: 'POST',
      url: `${API}/workplaces/${id}/operatingState/nope`,
    });
    assert.deepEqual(
      [unknownState.statusCode, json(unknownState)],
      [404, { status: 404, code: 'NOT_FOUND', message: "There is no operatingState with id 'nope'." }],
    );
    const missing = '0190a000-0000-7000-8000-0000000000aa';
    const unknownWorkplace = await t().request({
      method: 'POST',
      url: `${API}/workplaces/${missing}/operatingState/000`,
    });
    assert.deepEqual(
      [unknownWorkplace.statusCode, json(unknownWorkplace)],
      [404, { status: 404, code: 'NOT_FOUND', message: `There is no workplace with id '${missing}'.` }],
    );
    assert.deepEqual(await historyOf(t(), id), before);
    assert.deepEqual(
      json(await t().request({ url: `${API}/workplaces/${id}` })).properties.operatingState,
      asProperty('999'),
    );
  });

  test('command to the current state is a no-op: 200, no event, no new history record', async () => {
    const id = await createWorkplace(t(), 'CMD-3');
    assert.equal(
      (await t().request({ method: 'POST', url: `${API}/workplaces/${id}/operatingState/020` })).statusCode,
      200,
    );
    const history = await historyOf(t(), id);
    const events = await eventCount(t(), id);
    const workplace = json(await t().request({ url: `${API}/workplaces/${id}` }));

    // Once by code, once by id: both name the state it is already in.
    for (const target of ['020', asProperty('020').id]) {
      const again = await t().request({
        method: 'POST',
        url: `${API}/workplaces/${id}/operatingState/${target}`,
      });
      assert.deepEqual([again.statusCode, json(again)], [200, workplace]);
    }
    assert.deepEqual(await historyOf(t(), id), history);
    assert.equal(await eventCount(t(), id), events);
  });

  test('concurrent commands on one workplace: each change sees the one before it', async () => {
    const id = await createWorkplace(t(), 'CMD-4');
    const targets = Array.from({ length: 12 }, (_, index) =>
      index % 3 === 0 ? '000' : index % 3 === 1 ? '110' : '020',
    );
    const answers = await Promise.all(
      targets.map((target) =>
        t().request({ method: 'POST', url: `${API}/workplaces/${id}/operatingState/${target}` }),
      ),
    );
    assert.deepEqual(
      answers.map((answer) => answer.statusCode),
      targets.map(() => 200),
    );
    const changes = await t().app.db.query<{
      data: { previousOperatingState: { id: string }; currentOperatingState: { id: string } };
    }>(
      `SELECT data FROM events WHERE object_id = $1 AND event_type = 'WORKPLACE_OPERATING_STATE_CHANGED' ORDER BY sequence`,
      [id],
    );
    // A chain: every change leaves the state the change before it entered.
    let state = asProperty('999').id;
    for (const { data } of changes) {
      assert.equal(data.previousOperatingState.id, state);
      assert.notEqual(data.currentOperatingState.id, state);
      state = data.currentOperatingState.id;
    }
    const history = await historyOf(t(), id);
    assert.equal(history.length, changes.length + 1);
    assert.deepEqual(
      history.filter((record) => record.end_date === null).map((record) => record.operating_state_id),
      [state],
    );
  });

  test('history: newest first, previous record closed at the next start, timestamp-mode metadata', async () => {
    const id = await createWorkplace(t(), 'HIST-1');
    for (const code of ['110', '000']) {
      assert.equal(
        (await t().request({ method: 'POST', url: `${API}/workplaces/${id}/operatingState/${code}` }))
          .statusCode,
        200,
      );
    }
    const base = `${API}/workplaces/${id}/recordedOperatingStates`;
    const response = await t().request({ url: base });
    assert.equal(response.statusCode, 200);
    const body = json(response);
    const [newest, middle, oldest] = body._embedded.recordedOperatingStates.map(
      (record: Body) => record.properties,
    );

    // Each record ends where the next one starts; the current one is open.
    assert.equal(newest.endDate, null);
    assert.equal(middle.endDate, newest.startDate);
    assert.equal(oldest.endDate, middle.startDate);
    const [created] = await t().app.db.query<{ created_at: Date }>(
      'SELECT created_at FROM workplaces WHERE id = $1',
      [id],
    );
    assert.equal(oldest.startDate, created?.created_at.toISOString());

    const rows = await historyOf(t(), id);
    const record = (row: (typeof rows)[number], code: string) => ({
      properties: {
        id: row.id,
        workplaceId: id,
        operatingState: asProperty(code),
        startDate: row.start_date.toISOString(),
        endDate: row.end_date?.toISOString() ?? null,
      },
      _links: {
        self: get(`${base}/${row.id}`),
        workplace: get(`${API}/workplaces/${id}`),
        operatingState: get(`${API}/masterData/operatingStates/${asProperty(code).id}`, true),
      },
    });
    const [r0, r1, r2] = rows;
    assert.ok(r0 && r1 && r2 && rows.length === 3);
    const position = (row: typeof r0) => ({
      timestamp: row.start_date.toISOString(),
      identifier: row.id,
      paginationTimestamp: row.start_date.toISOString(),
      paginationIdentifier: row.id,
    });
    assert.deepEqual(
      normalized(body),
      normalized({
        pagination: {
          limit: 100,
          count: 3,
          offset: null,
          total: 3,
          firstIdentifier: position(r0),
          lastIdentifier: position(r2),
        },
        // The SDK's form of the same page (docs/api.md, history collections).
        properties: {
          elements: [
            [r0, '000'],
            [r1, '110'],
            [r2, '999'],
          ].map(([row, code]) => {
            const { start_date: start, end_date: end } = row as typeof r0;
            return {
              operatingState: asProperty(code as string),
              timePeriod: {
                startDate: start.toISOString(),
                endDate: end?.toISOString() ?? null,
                duration: end ? end.getTime() - start.getTime() : null,
              },
            };
          }),
        },
        _embedded: { recordedOperatingStates: [record(r0, '000'), record(r1, '110'), record(r2, '999')] },
        _links: {
          self: get(`${base}?paginationDirection=NEXT&limit=100`),
          current: get(`${base}?paginationDirection=NEXT&limit=100`),
          first: get(`${base}?paginationDirection=NEXT&limit=100`),
          last: get(`${base}?paginationDirection=PREVIOUS&limit=100`),
        },
      }),
    );

    // One record by its self link; an unknown record is 404.
    const one = await t().request({ url: `${base}/${r1.id}` });
    assert.deepEqual([one.statusCode, json(one)], [200, record(r1, '110')]);
    const missing = await t().request({ url: `${base}/0190a000-0000-7000-8000-0000000000bb` });
    assert.deepEqual(
      [missing.statusCode, json(missing)],
      [
        404,
        {
          status: 404,
          code: 'NOT_FOUND',
          message: "There is no recordedOperatingState with id '0190a000-0000-7000-8000-0000000000bb'.",
        },
      ],
    );
  });

  test('history: startDate/endDate keep the records overlapping the period; embed=operatingState', async () => {
    const id = await createWorkplace(t(), 'HIST-3');
    for (const code of ['110', '000']) {
      const changed = await t().request({
        method: 'POST',
        url: `${API}/workplaces/${id}/operatingState/${code}`,
      });
      assert.equal(changed.statusCode, 200);
    }
    const rows = await historyOf(t(), id);
    const [open, middle, oldest] = rows;
    assert.ok(open && middle && oldest && rows.length === 3);
    const base = `${API}/workplaces/${id}/recordedOperatingStates`;
    const idsIn = async (query: string) => {
      const response = await t().request({ url: `${base}?${query}` });
      assert.equal(response.statusCode, 200, response.body);
      return json(response)._embedded.recordedOperatingStates.map((record: Body) => record.properties.id);
    };
    const iso = (date: Date) => encodeURIComponent(date.toISOString());
    // A window after every start keeps only the open record, which lasts on.
    const later = new Date(open.start_date.getTime() + 3_600_000);
    assert.deepEqual(await idsIn(`startDate=${iso(later)}`), [open.id]);
    // A window ending at the open record's start leaves it out (the end is exclusive).
    assert.deepEqual(await idsIn(`endDate=${iso(open.start_date)}`), [middle.id, oldest.id]);
    assert.deepEqual(await idsIn(`startDate=${iso(middle.start_date)}&endDate=${iso(later)}`), [
      open.id,
      middle.id,
    ]);
    const paged = json(await t().request({ url: `${base}?startDate=${iso(oldest.start_date)}&limit=1` }));
    assert.ok(paged._links.next.href.includes('startDate='), 'paging keeps the period');

    const embedded = json(await t().request({ url: `${base}?embed=operatingState&limit=1` }));
    const [first] = embedded._embedded.recordedOperatingStates;
    assert.equal(first.properties.id, open.id);
    assert.equal(first._embedded.operatingState.properties.id, asProperty('000').id);
    assert.equal(first._embedded.operatingState.properties.code, '000');
    const bad = await t().request({ url: `${base}?embed=workplace` });
    assert.equal(bad.statusCode, 400);
    assert.equal(json(bad).code, 'UNKNOWN_EMBED');
    const badDate = await t().request({ url: `${base}?startDate=yesterday` });
    assert.equal(badDate.statusCode, 400);
  });

  test('history rejects offset and malformed positions with 400', async () => {
    const id = await createWorkplace(t(), 'HIST-2');
    const base = `${API}/workplaces/${id}/recordedOperatingStates`;
    const cases: [string, string, string][] = [
      ['offset=0', 'UNKNOWN_QUERY_PARAMETER', "Query parameter 'offset' is not supported here."],
      ['offset=10&limit=5', 'UNKNOWN_QUERY_PARAMETER', "Query parameter 'offset' is not supported here."],
      [
        'paginationDirection=UP',
        'VALIDATION_FAILED',
        "Field 'paginationDirection' must be one of: NEXT, PREVIOUS.",
      ],
      [
        'paginationTimestamp=yesterday',
        'VALIDATION_FAILED',
        "Field 'paginationTimestamp' must be a valid date-time.",
      ],
      ['limit=101', 'VALIDATION_FAILED', "Field 'limit' must be at most 100."],
    ];
    for (const [query, code, message] of cases) {
      const response = await t().request({ url: `${base}?${query}` });
      assert.deepEqual([response.statusCode, json(response)], [400, { status: 400, code, message }], query);
    }
  });
});

describeEachBackend('operating state history: paging over equal timestamps', (t) => {
  // Many records share one start_date: only the id orders them, and every page boundary falls
  // inside the tie. Inserted directly, as an import or a burst of machine signals would.
  const EQUAL = new Date('2020-01-01T00:00:00.000Z');
  let workplaceId = '';
  let base = '';
  let all: string[] = [];

  const insertRecords = async (count: number, startDate: Date) => {
    const ids = Array.from({ length: count }, () => randomUUID());
    for (const id of ids) {
      await t().app.db.query(
        `INSERT INTO recorded_operating_states (id, workplace_id, operating_state_id, start_date, end_date)
         VALUES ($1, $2, $3, $4, $4)`,
        [id, workplaceId, asProperty('993').id, startDate],
      );
    }
    return ids;
  };

  test('walking NEXT from first to last visits every record exactly once, in order', async () => {
    workplaceId = await createWorkplace(t(), 'TIE-1');
    base = `${API}/workplaces/${workplaceId}/recordedOperatingStates`;
    await insertRecords(23, EQUAL);
    all = (await historyOf(t(), workplaceId)).map((row) => row.id);
    assert.equal(all.length, 24);

    const pages = await walk(t(), `${base}?limit=5`, 'next');
    assert.deepEqual(
      pages.map((page) => page.pagination.count),
      [5, 5, 5, 5, 4],
    );
    for (const page of pages) assert.equal(page.pagination.total, 24);
    assert.deepEqual(pages.flatMap(idsOf), all);
    // The first page has nothing newer, the last nothing older.
    assert.equal(pages[0]?._links.previous, undefined);
    assert.ok(pages[1]?._links.previous);
  });

  test('walking PREVIOUS from the last page back to the first visits every record exactly once', async () => {
    const first = json(await t().request({ url: `${base}?limit=5` }));
    const pages = await walk(t(), first._links.last.href, 'previous');
    assert.deepEqual(
      pages.map((page) => page.pagination.count),
      [5, 5, 5, 5, 4],
    );
    // Each page lists newest first; read from the newest page down, they give the whole order.
    assert.deepEqual(pages.reverse().flatMap(idsOf), all);
  });

  test('a timestamp without identifier starts at that timestamp, ties included', async () => {
    const page = json(
      await t().request({ url: `${base}?paginationTimestamp=${EQUAL.toISOString()}&limit=100` }),
    );
    assert.deepEqual(idsOf(page), all.slice(1));
  });

  test('PREVIOUS from a kept firstIdentifier returns exactly the records added since', async () => {
    const kept = json(await t().request({ url: `${base}?limit=5` })).pagination.firstIdentifier;
    assert.equal(kept.paginationIdentifier, all[0]);
    const since = (limit: number) =>
      `${base}?paginationDirection=PREVIOUS&limit=${limit}&paginationTimestamp=${encodeURIComponent(
        kept.paginationTimestamp,
      )}&paginationIdentifier=${kept.paginationIdentifier}`;
    assert.equal(json(await t().request({ url: since(10) })).pagination.count, 0);

    // Added since: two commands, then a burst of records sharing one later start date.
    for (const code of ['110', '000']) {
      assert.equal(
        (
          await t().request({
            method: 'POST',
            url: `${API}/workplaces/${workplaceId}/operatingState/${code}`,
          })
        ).statusCode,
        200,
      );
    }
    await insertRecords(6, new Date(Date.parse(kept.paginationTimestamp) + 3_600_000));
    const added = (await historyOf(t(), workplaceId)).map((row) => row.id).filter((id) => !all.includes(id));
    assert.equal(added.length, 8);

    // In pages of 3 (the ties straddle the page boundaries), newest page last.
    const pages = await walk(t(), since(3), 'previous');
    assert.deepEqual(
      pages.map((page) => page.pagination.count),
      [3, 3, 2],
    );
    assert.deepEqual(pages.reverse().flatMap(idsOf), added);

    // From the newest identifier seen, nothing is newer yet.
    const newest = pages[0]?.pagination.firstIdentifier;
    const after = json(
      await t().request({
        url: `${base}?paginationDirection=PREVIOUS&paginationTimestamp=${encodeURIComponent(
          newest.paginationTimestamp,
        )}&paginationIdentifier=${newest.paginationIdentifier}`,
      }),
    );
    assert.deepEqual([after.pagination.count, after._links.previous], [0, undefined]);
  });
});
