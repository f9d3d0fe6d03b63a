// Error answers as docs/api.md "Errors" defines them, asserted as whole bodies: validation names the field
// and the rule, ids are opaque (a malformed one is 404), unknown paths and versions are 404,
// 405 carries Allow, 413/415 for bodies, a 500 hides its cause behind the request id, and a
// database that does not answer in time is a 504 that leaves no lasting damage.
import assert from 'node:assert/strict';
import { before, test } from 'node:test';
import pg from 'pg';
import { describeEachBackend, json, type TestApp } from '../support/app.ts';

const WORKPLACES = '/api/v2/workplaces';
const GROUPS = '/api/v2/workplaceGroups';
const MISSING_ID = '0190a4c2-0000-7000-8000-000000000000';

interface Setup {
  groupId: string;
  workplaceId: string;
}

async function createWorkplace(testApp: TestApp, suffix = ''): Promise<Setup> {
  const group = await testApp.request({
    method: 'POST',
    url: GROUPS,
    body: { number: `E-G${suffix}`, type: 'CAPACITY_GROUP' },
  });
  assert.equal(group.statusCode, 201, group.body);
  const groupId = json(group).properties.id as string;
  const workplace = await testApp.request({
    method: 'POST',
    url: WORKPLACES,
    body: { number: `E-W${suffix}`, capacityGroupId: groupId },
  });
  assert.equal(workplace.statusCode, 201, workplace.body);
  return { groupId, workplaceId: json(workplace).properties.id as string };
}

/** The whole error body, plus the headers every error carries. */
function assertError(
  response: { statusCode: number; headers: Record<string, unknown>; body: string },
  status: number,
  code: string,
  message: string,
) {
  assert.deepEqual(JSON.parse(response.body), { status, code, message });
  assert.equal(response.statusCode, status);
  assert.match(String(response.headers['content-type']), /^application\/json/);
  assert.equal(response.headers['content-language'], 'en-GB');
}

describeEachBackend('errors: 400, 404, 405, 415', (t) => {
  let setup: Setup;

  // Read by every test below and changed by none.
  before(async () => {
    setup = await createWorkplace(t());
  });

  test('400 VALIDATION_FAILED names the query parameter and the rule', async () => {
    const cases: [string, string][] = [
      [`${WORKPLACES}?limit=101`, "Field 'limit' must be at most 100."],
      [`${WORKPLACES}?limit=0`, "Field 'limit' must be at least 1."],
      [`${WORKPLACES}?limit=abc`, "Field 'limit' must be of type integer."],
      [`${WORKPLACES}?offset=-1`, "Field 'offset' must be at least 0."],
      [`${WORKPLACES}?offset=99999999999999999999`, "Field 'offset' must be at most 9007199254740991."],
      [`${GROUPS}?type=MACHINE`, "Field 'type' must be one of: CAPACITY_GROUP, PRODUCTION_LINE."],
      [
        `${WORKPLACES}?workplaceNumber=a%00b`,
        "Field 'workplaceNumber' must not contain the character U+0000.",
      ],
      [
        `${WORKPLACES}/${setup.workplaceId}/recordedOperatingStates?paginationTimestamp=yesterday`,
        "Field 'paginationTimestamp' must be a valid date-time.",
      ],
      [
        // PostgreSQL has no year 0: refused here, not failed in the database.
        `${WORKPLACES}/${setup.workplaceId}/recordedOperatingStates?paginationTimestamp=0000-06-01T00:00:00Z`,
        "Field 'paginationTimestamp' must be a valid date-time.",
      ],
      [
        `${WORKPLACES}/${setup.workplaceId}/recordedOperatingStates?paginationDirection=UP`,
        "Field 'paginationDirection' must be one of: NEXT, PREVIOUS.",
      ],
    ];
    for (const [url, message] of cases) {
      assertError(await t().request({ url }), 400, 'VALIDATION_FAILED', message);
    }
  });

  test('400 VALIDATION_FAILED names the body field and the rule', async () => {
    const { groupId } = setup;
    const cases: [unknown, string][] = [
      [{ capacityGroupId: groupId }, "Field 'number' is required."],
      [{ number: 5, capacityGroupId: groupId }, "Field 'number' must be of type string."],
      [
        { number: 'x'.repeat(101), capacityGroupId: groupId },
        "Field 'number' must have at most 100 characters.",
      ],
      [{ number: 'E-X', capacityGroupId: 'group-1' }, "Field 'capacityGroupId' must be a valid uuid."],
      [
        { number: 'E-X', capacityGroupId: groupId, isManualWorkplace: 'yes' },
        "Field 'isManualWorkplace' must be of type boolean.",
      ],
      [
        { number: 'E\u0000X', capacityGroupId: groupId },
        "Field 'number' must not contain the character U+0000.",
      ],
      [[], 'The request body must be a JSON object.'],
      ['"a string"', 'The request body must be a JSON object.'],
    ];
    for (const [body, message] of cases) {
      assertError(
        await t().request({ method: 'POST', url: WORKPLACES, body }),
        400,
        'VALIDATION_FAILED',
        message,
      );
    }
  });

  test('400 UNKNOWN_QUERY_PARAMETER names the parameter', async () => {
    assertError(
      await t().request({ url: `${WORKPLACES}?colour=red` }),
      400,
      'UNKNOWN_QUERY_PARAMETER',
      "Query parameter 'colour' is not supported here.",
    );
    // Timestamp collections take no offset (docs/api.md "Collections").
    assertError(
      await t().request({ url: `${WORKPLACES}/${setup.workplaceId}/recordedOperatingStates?offset=0` }),
      400,
      'UNKNOWN_QUERY_PARAMETER',
      "Query parameter 'offset' is not supported here.",
    );
  });

  test('400 UNKNOWN_FIELD names the field, nested ones by their path', async () => {
    assertError(
      await t().request({
        method: 'POST',
        url: GROUPS,
        body: { number: 'E-G2', type: 'CAPACITY_GROUP', colour: 'red' },
      }),
      400,
      'UNKNOWN_FIELD',
      "Field 'colour' is not allowed here.",
    );
    assertError(
      await t().request({
        method: 'POST',
        url: '/api/v2/callbacks',
        body: {
          eventType: 'WORKPLACE_CREATED',
          url: 'http://192.0.2.1/hook',
          objectFilter: [{ name: 'id', value: setup.workplaceId, operator: 'EQ' }],
        },
      }),
      400,
      'UNKNOWN_FIELD',
      "Field 'objectFilter.0.operator' is not allowed here.",
    );
  });

  test('400 MALFORMED_JSON for broken JSON', async () => {
    for (const body of ['{"number": "E-', '{"number": "E-1",}']) {
      assertError(
        await t().request({
          method: 'POST',
          url: GROUPS,
          body,
          headers: { 'content-type': 'application/json' },
        }),
        400,
        'MALFORMED_JSON',
        'The request body is not valid JSON.',
      );
    }
  });

  test('an empty body under a JSON content type is no body: 400 where the route needs one', async () => {
    assertError(
      await t().request({
        method: 'POST',
        url: GROUPS,
        body: '',
        headers: { 'content-type': 'application/json' },
      }),
      400,
      'VALIDATION_FAILED',
      'The request body must be a JSON object.',
    );
  });

  test('400 UNKNOWN_EMBED names the unknown names and the allowed ones', async () => {
    assertError(
      await t().request({ url: `${WORKPLACES}?embed=operations,capacityGroup,devices` }),
      400,
      'UNKNOWN_EMBED',
      'Cannot embed operations, devices; embeddable here: capacityGroup, productionLine, currentOperations, currentStaffMembers, location, machine, description, erpContext.',
    );
    assertError(
      await t().request({ url: `${WORKPLACES}/${setup.workplaceId}?embed=capacityGroup&embed=shifts` }),
      400,
      'UNKNOWN_EMBED',
      'Cannot embed shifts; embeddable here: capacityGroup, productionLine, currentOperations, currentStaffMembers, location, machine, description, erpContext.',
    );
    assertError(
      await t().request({ url: `${GROUPS}?embed=shifts` }),
      400,
      'UNKNOWN_EMBED',
      'Cannot embed shifts; embeddable here: description, erpContext, workplaces.',
    );
  });

  test('404 NOT_FOUND for a missing workplace, on every method', async () => {
    const message = `There is no workplace with id '${MISSING_ID}'.`;
    const body = { number: 'E-W', capacityGroupId: setup.groupId };
    for (const request of [
      { url: `${WORKPLACES}/${MISSING_ID}` },
      { method: 'PUT' as const, url: `${WORKPLACES}/${MISSING_ID}`, body },
      { method: 'DELETE' as const, url: `${WORKPLACES}/${MISSING_ID}` },
      { method: 'POST' as const, url: `${WORKPLACES}/${MISSING_ID}/operatingState/110` },
      { url: `${WORKPLACES}/${MISSING_ID}/recordedOperatingStates` },
    ]) {
      assertError(await t().request(request), 404, 'NOT_FOUND', message);
    }
  });

  test('404 NOT_FOUND, not 400, for malformed ids: ids are opaque', async () => {
    const cases: [string, string][] = [
      [`${WORKPLACES}/not-a-uuid`, "There is no workplace with id 'not-a-uuid'."],
      [
        `${WORKPLACES}/${setup.workplaceId.toUpperCase()}`,
        `There is no workplace with id '${setup.workplaceId.toUpperCase()}'.`,
      ],
      [`${WORKPLACES}/${'x'.repeat(150)}`, `There is no workplace with id '${'x'.repeat(150)}'.`],
      [`${WORKPLACES}/a%00b`, "There is no workplace with id 'a\u0000b'."],
      [`${GROUPS}/42`, "There is no workplaceGroup with id '42'."],
      ['/api/v2/masterData/operatingStates/110', "There is no operatingState with id '110'."],
      [
        `${WORKPLACES}/${setup.workplaceId}/recordedOperatingStates/nope`,
        "There is no recordedOperatingState with id 'nope'.",
      ],
    ];
    for (const [url, message] of cases) {
      assertError(await t().request({ url }), 404, 'NOT_FOUND', message);
    }
    assertError(
      await t().request({ method: 'DELETE', url: `${GROUPS}/${'y'.repeat(101)}` }),
      404,
      'NOT_FOUND',
      `There is no workplaceGroup with id '${'y'.repeat(101)}'.`,
    );
  });

  test('404 ROUTE_NOT_FOUND for unknown paths and versions, with or without a token', async () => {
    const cases: [string, string][] = [
      ['/api/v2/nothingHere', 'There is no resource at GET /api/v2/nothingHere.'],
      ['/api/v2/workplaces/x/y/z', 'There is no resource at GET /api/v2/workplaces/x/y/z.'],
      ['/api/v4/workplaces?limit=1', 'There is no resource at GET /api/v4/workplaces.'],
      ['/api/v4', 'There is no resource at GET /api/v4.'],
      // An unknown sub-resource under an id, though POST /operations/{id}/{phase} is a command.
      ['/api/v2/operations/x/anything', 'There is no resource at GET /api/v2/operations/x/anything.'],
      ['/api/v0/workplaces', 'There is no resource at GET /api/v0/workplaces.'],
    ];
    for (const [url, message] of cases) {
      assertError(await t().request({ url }), 404, 'ROUTE_NOT_FOUND', message);
      assertError(await t().request({ url, anonymous: true }), 404, 'ROUTE_NOT_FOUND', message);
    }
  });

  test('405 METHOD_NOT_ALLOWED lists the allowed methods in Allow and in the message', async () => {
    const cases: [RequestMethod, string, string[]][] = [
      ['PATCH', `${WORKPLACES}/${setup.workplaceId}`, ['DELETE', 'GET', 'HEAD', 'PUT']],
      ['DELETE', WORKPLACES, ['GET', 'HEAD', 'POST']],
      ['PUT', '/api/v1/workplaceGroups', ['GET', 'HEAD', 'POST']],
      ['POST', '/api/v2', ['GET', 'HEAD']],
      ['GET', `${WORKPLACES}/${setup.workplaceId}/operatingState/110`, ['POST']],
      // Static paths beside an `/{id}` route are their own resource, not an id that is not found.
      ['GET', '/api/v2/operations/search', ['POST']],
      ['DELETE', '/api/v2/tools/assemblyOrders', ['GET', 'HEAD', 'POST']],
      ['PUT', '/api/v1/workplaces/predictedMalfunctionScenarios/', ['GET', 'HEAD', 'POST']],
    ];
    for (const [method, url, allowed] of cases) {
      const response = await t().request({ method, url });
      const allow = String(response.headers.allow);
      assert.deepEqual(allow.split(', ').sort(), allowed, `${method} ${url}`);
      assertError(
        response,
        405,
        'METHOD_NOT_ALLOWED',
        `Method ${method} is not allowed here; allowed: ${allow}.`,
      );
    }
  });

  test('415 UNSUPPORTED_MEDIA_TYPE for bodies that are not JSON', async () => {
    const body = JSON.stringify({ number: 'E-G3', type: 'CAPACITY_GROUP' });
    for (const type of ['text/plain', 'application/xml', 'application/x-www-form-urlencoded', 'text/json']) {
      assertError(
        await t().request({ method: 'POST', url: GROUPS, body, headers: { 'content-type': type } }),
        415,
        'UNSUPPORTED_MEDIA_TYPE',
        `Content-Type '${type}' is not supported; send application/json.`,
      );
    }
    assertError(
      await t().request({
        method: 'PUT',
        url: `${GROUPS}/${setup.groupId}`,
        body,
        headers: { 'content-type': 'multipart/form-data; boundary=b' },
      }),
      415,
      'UNSUPPORTED_MEDIA_TYPE',
      "Content-Type 'multipart/form-data; boundary=b' is not supported; send application/json.",
    );
    // None of them created anything.
    assert.equal(json(await t().request({ url: GROUPS })).pagination.total, 1);
  });

  test('/api/v1 gives the same error bodies as /api/v2', async () => {
    for (const path of ['/workplaces?limit=101', `/workplaces/${MISSING_ID}`, '/workplaces?embed=x']) {
      const v1 = await t().request({ url: `/api/v1${path}` });
      const v2 = await t().request({ url: `/api/v2${path}` });
      assert.equal(v1.statusCode, v2.statusCode);
      assert.equal(v1.body, v2.body);
    }
  });
});

type RequestMethod = 'GET' | 'POST' | 'PUT' | 'DELETE' | 'PATCH';

describeEachBackend(
  'errors: 413 with a small body limit',
  (t) => {
    test('413 PAYLOAD_TOO_LARGE above BRIDGE_BODY_LIMIT_BYTES, nothing stored; below it works', async () => {
      const big = { number: 'E-BIG', type: 'CAPACITY_GROUP', description: 'x'.repeat(1100) };
      assertError(
        await t().request({ method: 'POST', url: GROUPS, body: big }),
        413,
        'PAYLOAD_TOO_LARGE',
        'The request body is larger than 1024 bytes.',
      );
      assert.equal(json(await t().request({ url: GROUPS })).pagination.total, 0);
      const small = await t().request({
        method: 'POST',
        url: GROUPS,
        body: { ...big, description: 'x'.repeat(900) },
      });
      assert.equal(small.statusCode, 201, small.body);
    });
  },
  { BRIDGE_BODY_LIMIT_BYTES: '1024' },
);

describeEachBackend('errors: 500 never leaks internals', (t) => {
  test('a real fault (a dropped table) is a 500 with only the request id', async () => {
    const { workplaceId } = await createWorkplace(t());
    const url = `${WORKPLACES}/${workplaceId}/recordedOperatingStates`;
    assert.equal((await t().request({ url })).statusCode, 200);
    // Break this test's own database underneath the service.
    await t().app.db.query('DROP TABLE recorded_operating_states');

    const response = await t().request({ url });
    const requestId = String(response.headers['x-request-id']);
    assert.ok(requestId.length > 0);
    assertError(response, 500, 'INTERNAL_ERROR', `An internal error occurred (request id ${requestId}).`);
    assert.doesNotMatch(
      response.body,
      /recorded_operating_states|relation|does not exist|SELECT|FROM|\.ts\b|\bat /i,
    );

    // In German too, and with the id the client sent (it finds the log entry by it).
    const german = await t().request({
      url,
      headers: { 'accept-language': 'de-DE', 'x-request-id': 'client-chosen-id-17' },
    });
    assert.equal(german.headers['x-request-id'], 'client-chosen-id-17');
    assert.deepEqual(json(german), {
      status: 500,
      code: 'INTERNAL_ERROR',
      message: 'Ein interner Fehler ist aufgetreten (Request-ID client-chosen-id-17).',
    });

    // The rest of the service still answers.
    assert.equal((await t().request({ url: `${WORKPLACES}/${workplaceId}` })).statusCode, 200);
  });
});

// Long enough for a normal query on a busy machine, short enough for a test.
const DB_TIMEOUT_MS = 1000;

describeEachBackend(
  'errors: 504 when the database does not answer in time',
  (t) => {
    test('a held lock on workplaces is a 504; released, the service answers 200 again', async () => {
      await createWorkplace(t());
      // Warm up: token and everything else this request needs outside the workplaces table.
      assert.equal((await t().request({ url: WORKPLACES })).statusCode, 200);

      const release = await holdWorkplaces(t());
      try {
        const response = await t().request({ url: WORKPLACES });
        const requestId = String(response.headers['x-request-id']);
        assertError(
          response,
          504,
          'DATABASE_TIMEOUT',
          `The database did not answer in time; try again (request id ${requestId}).`,
        );
      } finally {
        await release();
      }

      const after = await t().request({ url: WORKPLACES });
      assert.equal(after.statusCode, 200, after.body);
      assert.equal(json(after).pagination.total, 1);
    });
  },
  { BRIDGE_DB_TIMEOUT_MS: String(DB_TIMEOUT_MS) },
);

/**
 * Makes the workplaces table unavailable until the returned function is called: on PostgreSQL a
 * second connection holds an exclusive lock in an open transaction; PGlite has one connection,
 * so an open transaction holds all of it.
 */
async function holdWorkplaces(testApp: TestApp): Promise<() => Promise<void>> {
  if (testApp.database.url !== undefined) {
    const client = new pg.Client({ connectionString: testApp.database.url });
    await client.connect();
    try {
      await client.query('BEGIN');
      await client.query('LOCK TABLE workplaces IN ACCESS EXCLUSIVE MODE');
    } catch (error) {
      await client.end();
      throw error;
    }
    return async () => {
      await client.query('ROLLBACK');
      await client.end();
    };
  }
  let open!: () => void;
  const gate = new Promise<void>((resolve) => {
    open = resolve;
  });
  let started!: () => void;
  const inside = new Promise<void>((resolve) => {
    started = resolve;
  });
  const held = testApp.app.db.transaction(async () => {
    started();
    await gate;
  });
  // The service's own timeout also ends the wait for this transaction; that is expected here.
  const finished = held.catch(() => {});
  await inside;
  return async () => {
    open();
    await finished;
  };
}
