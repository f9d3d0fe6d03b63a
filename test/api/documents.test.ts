// Documents end to end (docs/resources/documents.md, docs/api.md "Resources"): metadata and raw file content, a new version on
// every change with every earlier version (metadata and bytes) still readable, the file size
// limit, refusals with the error body, action links and scopes, and the events of each change.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { LightMyRequestResponse } from 'fastify';
import { describeEachBackend, json, type TestApp } from '../support/app.ts';
import { eventsOf, withoutTime } from '../support/events.ts';
import { absolute, get } from '../support/hal.ts';

const BASE = '/api/v2/documents';
// A small limit, so the 413 needs no big body.
const LIMIT = 1024;
const ENV = { BRIDGE_DOCUMENT_MAX_BYTES: String(LIMIT), BRIDGE_DELIVERY_ENABLED: 'false' };

// Every byte value, so nothing passes that only survives as UTF-8 or text.
const BINARY = Buffer.from(Array.from({ length: 256 }, (_, index) => (index * 7 + 3) % 256));
const OTHER_BINARY = Buffer.from([0xff, 0xfe, 0x00, 0x00, 0xc3, 0x28, 0xa0, 0xa1, 0x80, 0x0d, 0x0a]);

interface Document {
  id: string;
  name: string;
  folder: string;
  description: string | null;
  contentType: string;
  size: number;
  version: number;
  createdAt: string;
  updatedAt: string;
}

function documentBody(document: Document, write = true) {
  const self = `${BASE}/${document.id}`;
  return {
    properties: { ...document },
    _links: {
      self: get(self),
      file: get(`${self}/file`),
      versions: get(`${self}/versions`),
      currentVersion: get(`${self}/versions/${document.version}`),
      ...(write ? { uploadFile: { href: absolute(`${self}/file`), method: 'PUT', embeddable: false } } : {}),
    },
  };
}

async function createDocument(
  t: TestApp,
  body: { name: string; folder: string; description?: string | null },
): Promise<Document> {
  const response = await t.request({ method: 'POST', url: BASE, body });
  assert.equal(response.statusCode, 201, response.body);
  return json(response).properties;
}

/** PUT /documents/{id}/file with raw bytes (the harness only sends JSON bodies). */
async function upload(
  t: TestApp,
  id: string,
  bytes: Buffer | string,
  contentType: string | undefined,
  scopes: string[] = ['read', 'write'],
): Promise<LightMyRequestResponse> {
  return t.app.server.inject({
    method: 'PUT',
    url: `${BASE}/${id}/file`,
    headers: {
      authorization: `Bearer ${await t.token(scopes)}`,
      ...(contentType === undefined ? {} : { 'content-type': contentType }),
    },
    payload: bytes,
  });
}

const error = (status: number, code: string, message: string) => ({ status, code, message });

describeEachBackend(
  'documents',
  (t) => {
    test('POST: 201, Location = self, version 1 as an empty file; GET answers the same', async () => {
      const response = await t().request({
        method: 'POST',
        url: BASE,
        body: { name: 'drawing.pdf', folder: '/Production/Line 1' },
      });
      assert.equal(response.statusCode, 201, response.body);
      const created = json(response).properties as Document;
      assert.equal(created.createdAt, created.updatedAt);
      assert.match(created.createdAt, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
      const expected = documentBody({
        id: created.id,
        name: 'drawing.pdf',
        folder: '/Production/Line 1',
        description: null,
        contentType: 'application/octet-stream',
        size: 0,
        version: 1,
        createdAt: created.createdAt,
        updatedAt: created.createdAt,
      });
      assert.deepEqual(json(response), expected);
      assert.equal(response.headers.location, absolute(`${BASE}/${created.id}`));
      const fetched = await t().request({ url: `${BASE}/${created.id}` });
      assert.deepEqual([fetched.statusCode, json(fetched)], [200, expected]);

      const file = await t().request({ url: `${BASE}/${created.id}/file` });
      assert.equal(file.statusCode, 200);
      assert.equal(file.rawPayload.length, 0);
      assert.equal(file.headers['content-type'], 'application/octet-stream');
    });

    test('binary content round trip: the exact bytes, type, length and version as ETag', async () => {
      const document = await createDocument(t(), { name: 'logo.png', folder: '/Binary' });
      const uploaded = await upload(t(), document.id, BINARY, 'image/png');
      assert.equal(uploaded.statusCode, 200, uploaded.body);
      const after = json(uploaded).properties as Document;
      assert.deepEqual(
        json(uploaded),
        documentBody({
          ...document,
          contentType: 'image/png',
          size: 256,
          version: 2,
          updatedAt: after.updatedAt,
        }),
      );
      assert.ok(after.updatedAt >= document.updatedAt);

      const file = await t().request({ url: `${BASE}/${document.id}/file` });
      assert.equal(file.statusCode, 200);
      assert.deepEqual(file.rawPayload, BINARY);
      assert.equal(file.headers['content-type'], 'image/png');
      assert.equal(file.headers['content-length'], '256');
      assert.equal(file.headers.etag, '"2"');
      assert.equal(file.headers['content-disposition'], "attachment; filename*=UTF-8''logo.png");
      assert.equal(file.headers['x-content-type-options'], 'nosniff');

      // HEAD: the same headers, no body.
      const head = await t().request({ method: 'HEAD', url: `${BASE}/${document.id}/file` });
      assert.deepEqual(
        [head.statusCode, head.headers['content-type'], head.rawPayload.length],
        [200, 'image/png', 0],
      );
    });

    test('any content type is taken as bytes: JSON is not parsed, none means octet-stream, empty is an empty file', async () => {
      const document = await createDocument(t(), { name: 'raw.bin', folder: '/Types' });
      const broken = await upload(t(), document.id, '{"not": json', 'application/json');
      assert.equal(broken.statusCode, 200, broken.body);
      assert.equal(json(broken).properties.contentType, 'application/json');
      const file = await t().request({ url: `${BASE}/${document.id}/file` });
      assert.equal(file.body, '{"not": json');

      const typeless = await upload(t(), document.id, OTHER_BINARY, undefined);
      assert.equal(typeless.statusCode, 200, typeless.body);
      assert.deepEqual(
        [json(typeless).properties.contentType, json(typeless).properties.size],
        ['application/octet-stream', OTHER_BINARY.length],
      );

      const withParameters = await upload(t(), document.id, 'Grüße', 'text/plain; charset=utf-8');
      assert.equal(json(withParameters).properties.contentType, 'text/plain; charset=utf-8');
      assert.equal(json(withParameters).properties.size, Buffer.byteLength('Grüße'));

      const empty = await upload(t(), document.id, '', 'text/plain');
      assert.equal(empty.statusCode, 200, empty.body);
      assert.deepEqual(
        [json(empty).properties.size, json(empty).properties.version],
        [0, json(withParameters).properties.version + 1],
      );
      assert.equal((await t().request({ url: `${BASE}/${document.id}/file` })).rawPayload.length, 0);
    });

    test('a file over BRIDGE_DOCUMENT_MAX_BYTES is 413 with the error body and changes nothing', async () => {
      const document = await createDocument(t(), { name: 'big.bin', folder: '/Limits' });
      const tooLarge = await upload(
        t(),
        document.id,
        Buffer.alloc(LIMIT + 1, 0xab),
        'application/octet-stream',
      );
      assert.deepEqual(
        [tooLarge.statusCode, json(tooLarge)],
        [413, error(413, 'PAYLOAD_TOO_LARGE', `The request body is larger than ${LIMIT} bytes.`)],
      );
      const unchanged = await t().request({ url: `${BASE}/${document.id}` });
      assert.deepEqual(json(unchanged), documentBody(document));

      const exactly = await upload(t(), document.id, Buffer.alloc(LIMIT, 0xab), 'application/octet-stream');
      assert.equal(exactly.statusCode, 200, exactly.body);
      assert.equal(json(exactly).properties.size, LIMIT);
    });

    test('every change is a new version; every earlier version stays readable with its bytes', async () => {
      const document = await createDocument(t(), {
        name: 'plan.txt',
        folder: '/Versions',
        description: 'v1',
      });
      const v2 = json(await upload(t(), document.id, BINARY, 'application/x-plan')).properties;
      const renamed = await t().request({
        method: 'PUT',
        url: `${BASE}/${document.id}`,
        body: { id: document.id, name: 'plan-renamed.txt', folder: '/Versions/Archive', description: 'v3' },
      });
      assert.equal(renamed.statusCode, 200, renamed.body);
      const v3 = json(renamed).properties;
      assert.deepEqual([v3.version, v3.contentType, v3.size], [3, 'application/x-plan', 256]);
      const v4 = json(await upload(t(), document.id, OTHER_BINARY, 'application/x-plan')).properties;
      assert.equal(v4.version, 4);

      const versions = await t().request({ url: `${BASE}/${document.id}/versions?limit=3` });
      assert.equal(versions.statusCode, 200);
      const page = json(versions);
      assert.deepEqual(page.pagination, {
        limit: 3,
        count: 3,
        offset: 0,
        total: 4,
        firstIdentifier: null,
        lastIdentifier: null,
      });
      assert.deepEqual(
        page._embedded.versions.map((item: { properties: { version: number } }) => item.properties.version),
        [4, 3, 2],
      );
      assert.deepEqual(page._links.next, get(`${BASE}/${document.id}/versions?limit=3&offset=3`));

      const self = `${BASE}/${document.id}/versions/2`;
      const second = await t().request({ url: self });
      assert.deepEqual(json(second), {
        properties: {
          documentId: document.id,
          version: 2,
          name: 'plan.txt',
          folder: '/Versions',
          description: 'v1',
          contentType: 'application/x-plan',
          size: 256,
          createdAt: v2.updatedAt,
        },
        _links: { self: get(self), document: get(`${BASE}/${document.id}`), file: get(`${self}/file`) },
      });

      const bytesOf = async (version: number) => {
        const file = await t().request({ url: `${BASE}/${document.id}/versions/${version}/file` });
        assert.equal(file.statusCode, 200, file.body);
        assert.equal(file.headers.etag, `"${version}"`);
        return file.rawPayload;
      };
      assert.equal((await bytesOf(1)).length, 0);
      assert.deepEqual(await bytesOf(2), BINARY);
      // A metadata change keeps the content of the version before.
      assert.deepEqual(await bytesOf(3), BINARY);
      assert.deepEqual(await bytesOf(4), OTHER_BINARY);
      const third = json(await t().request({ url: `${BASE}/${document.id}/versions/3` })).properties;
      assert.deepEqual(
        [third.name, third.folder, third.description],
        ['plan-renamed.txt', '/Versions/Archive', 'v3'],
      );
      const current = await t().request({ url: `${BASE}/${document.id}/file` });
      assert.deepEqual([current.rawPayload, current.headers.etag], [OTHER_BINARY, '"4"']);
      const currentVersion = json(await t().request({ url: `${BASE}/${document.id}` }))._links.currentVersion
        .href;
      assert.equal(json(await t().request({ url: currentVersion })).properties.version, 4);
    });

    test('a PUT or an upload that changes nothing makes no version and no event', async () => {
      const document = await createDocument(t(), { name: 'same.txt', folder: '/Same', description: 'd' });
      await upload(t(), document.id, BINARY, 'text/plain');
      const before = await eventsOf(t(), document.id);
      const again = await t().request({
        method: 'PUT',
        url: `${BASE}/${document.id}`,
        body: { name: 'same.txt', folder: '/Same', description: 'd' },
      });
      assert.deepEqual([again.statusCode, json(again).properties.version], [200, 2]);
      const sameBytes = await upload(t(), document.id, BINARY, 'text/plain');
      assert.deepEqual([sameBytes.statusCode, json(sameBytes).properties.version], [200, 2]);
      assert.deepEqual(await eventsOf(t(), document.id), before);

      // The same bytes as another type is a change.
      const retyped = await upload(t(), document.id, BINARY, 'application/octet-stream');
      assert.equal(json(retyped).properties.version, 3);
      // PUT is a full replacement: a missing description becomes null, and that is a change.
      const cleared = await t().request({
        method: 'PUT',
        url: `${BASE}/${document.id}`,
        body: { name: 'same.txt', folder: '/Same' },
      });
      assert.deepEqual([json(cleared).properties.description, json(cleared).properties.version], [null, 4]);
    });

    test('events: DOCUMENT_CREATED/_UPDATED/_DELETED with RESOURCES_UPDATED, metadata and version only', async () => {
      const document = await createDocument(t(), { name: 'events.txt', folder: '/Events' });
      await upload(t(), document.id, OTHER_BINARY, 'text/csv');
      await t().request({
        method: 'PUT',
        url: `${BASE}/${document.id}`,
        body: { name: 'events.txt', folder: '/Events/Moved', description: 'moved' },
      });
      const deleted = await t().request({ method: 'DELETE', url: `${BASE}/${document.id}` });
      assert.deepEqual([deleted.statusCode, deleted.body], [204, '']);

      const data = (fields: Record<string, unknown>) => ({
        documentId: document.id,
        name: 'events.txt',
        folder: '/Events',
        description: null,
        contentType: 'application/octet-stream',
        size: 0,
        version: 1,
        ...fields,
      });
      const resources = (changeType: string) => ({
        eventType: 'RESOURCES_UPDATED',
        objectType: 'DOCUMENT',
        objectId: document.id,
        data: { changeType },
      });
      const uploaded = { contentType: 'text/csv', size: OTHER_BINARY.length, version: 2 };
      const moved = { ...uploaded, folder: '/Events/Moved', description: 'moved', version: 3 };
      assert.deepEqual(withoutTime(await eventsOf(t(), document.id)), [
        { eventType: 'DOCUMENT_CREATED', objectType: 'DOCUMENT', objectId: document.id, data: data({}) },
        resources('CREATED'),
        {
          eventType: 'DOCUMENT_UPDATED',
          objectType: 'DOCUMENT',
          objectId: document.id,
          data: data({ ...uploaded, changedProperties: ['contentType', 'size', 'content'] }),
        },
        resources('UPDATED'),
        {
          eventType: 'DOCUMENT_UPDATED',
          objectType: 'DOCUMENT',
          objectId: document.id,
          data: data({ ...moved, changedProperties: ['folder', 'description'] }),
        },
        resources('UPDATED'),
        { eventType: 'DOCUMENT_DELETED', objectType: 'DOCUMENT', objectId: document.id, data: data(moved) },
        resources('DELETED'),
      ]);

      // Deleted with every version.
      for (const url of [
        `${BASE}/${document.id}`,
        `${BASE}/${document.id}/versions`,
        `${BASE}/${document.id}/versions/1/file`,
      ]) {
        const gone = await t().request({ url });
        assert.deepEqual(
          [gone.statusCode, json(gone)],
          [404, error(404, 'NOT_FOUND', `There is no document with id '${document.id}'.`)],
          url,
        );
      }
      const rows = await t().app.db.query('SELECT 1 FROM document_versions WHERE document_id = $1', [
        document.id,
      ]);
      assert.equal(rows.length, 0);
    });

    test('collection: ordered by folder and name, filters folder and name, paging links keep them', async () => {
      for (const [folder, name] of [
        ['/List/B', 'a.txt'],
        ['/List/A', 'z.txt'],
        ['/List/A', 'b.txt'],
        ['/List/C', 'b.txt'],
      ] as const) {
        await createDocument(t(), { name, folder });
      }
      const pathsOf = (body: ReturnType<typeof json>) =>
        body._embedded.documents.map(
          (item: { properties: Document }) => `${item.properties.folder}/${item.properties.name}`,
        );
      const all = json(await t().request({ url: BASE }));
      const listed = pathsOf(all).filter((path: string) => path.startsWith('/List/'));
      assert.deepEqual(listed, ['/List/A/b.txt', '/List/A/z.txt', '/List/B/a.txt', '/List/C/b.txt']);
      assert.deepEqual(all._links.createDocument, {
        href: absolute(BASE),
        method: 'POST',
        embeddable: false,
      });

      const folder = json(
        await t().request({ url: `${BASE}?folder=${encodeURIComponent('/List/A')}&limit=1` }),
      );
      assert.deepEqual(pathsOf(folder), ['/List/A/b.txt']);
      assert.deepEqual(folder.pagination, {
        limit: 1,
        count: 1,
        offset: 0,
        total: 2,
        firstIdentifier: null,
        lastIdentifier: null,
      });
      assert.deepEqual(folder._links.next, get(`${BASE}?folder=%2FList%2FA&limit=1&offset=1`));

      const byName = json(
        await t().request({ url: `${BASE}?name=b.txt&folder=${encodeURIComponent('/List/C')}` }),
      );
      assert.deepEqual(pathsOf(byName), ['/List/C/b.txt']);
      const none = json(await t().request({ url: `${BASE}?name=nothing` }));
      assert.deepEqual([none.pagination.total, none._embedded.documents], [0, []]);
    });

    test('refusals: 400 with the rule, ALREADY_EXISTS per folder, ID_MISMATCH, 404 for unknown ids and versions', async () => {
      const document = await createDocument(t(), { name: 'taken.txt', folder: '/Errors' });
      const other = await createDocument(t(), { name: 'other.txt', folder: '/Errors' });
      const post = (body: unknown) => t().request({ method: 'POST', url: BASE, body });
      const cases: [unknown, ReturnType<typeof error>][] = [
        [{ name: 'x.txt' }, error(400, 'VALIDATION_FAILED', "Field 'folder' is required.")],
        [
          { name: 'x.txt', folder: 'relative/path' },
          error(400, 'VALIDATION_FAILED', "Field 'folder' has an invalid format."),
        ],
        [
          { name: 'x.txt', folder: '/trailing/' },
          error(400, 'VALIDATION_FAILED', "Field 'folder' has an invalid format."),
        ],
        [
          { name: 'x.txt', folder: '/a//b' },
          error(400, 'VALIDATION_FAILED', "Field 'folder' has an invalid format."),
        ],
        [
          { name: 'a/b.txt', folder: '/' },
          error(400, 'VALIDATION_FAILED', "Field 'name' has an invalid format."),
        ],
        [{ name: '..', folder: '/' }, error(400, 'VALIDATION_FAILED', "Field 'name' has an invalid format.")],
        [
          { name: '', folder: '/' },
          error(400, 'VALIDATION_FAILED', "Field 'name' must have at least 1 characters."),
        ],
        [
          { name: 'x.txt', folder: '/', size: 3 },
          error(400, 'UNKNOWN_FIELD', "Field 'size' is not allowed here."),
        ],
        [
          { name: 'taken.txt', folder: '/Errors' },
          error(400, 'ALREADY_EXISTS', "Another resource already has name '/Errors/taken.txt'."),
        ],
      ];
      for (const [body, expected] of cases) {
        const response = await post(body);
        assert.deepEqual(
          [response.statusCode, json(response)],
          [expected.status, expected],
          JSON.stringify(body),
        );
      }
      // The same name in another folder (and in the root) is fine.
      assert.equal((await post({ name: 'taken.txt', folder: '/Errors/Other' })).statusCode, 201);
      assert.equal((await post({ name: 'taken.txt', folder: '/' })).statusCode, 201);

      const renameOnto = await t().request({
        method: 'PUT',
        url: `${BASE}/${other.id}`,
        body: { name: 'taken.txt', folder: '/Errors' },
      });
      assert.deepEqual(
        json(renameOnto),
        error(400, 'ALREADY_EXISTS', "Another resource already has name '/Errors/taken.txt'."),
      );
      const mismatch = await t().request({
        method: 'PUT',
        url: `${BASE}/${document.id}`,
        body: { id: other.id, name: 'taken.txt', folder: '/Errors' },
      });
      assert.deepEqual(
        json(mismatch),
        error(
          400,
          'ID_MISMATCH',
          `The id in the body ('${other.id}') differs from the id in the path ('${document.id}').`,
        ),
      );

      const unknown = '0190a000-0000-7000-8000-00000000abcd';
      for (const [method, url] of [
        ['GET', `${BASE}/${unknown}`],
        ['GET', `${BASE}/not-a-uuid`],
        ['GET', `${BASE}/${unknown}/file`],
        ['DELETE', `${BASE}/${unknown}`],
      ] as const) {
        const response = await t().request({ method, url });
        assert.equal(response.statusCode, 404, url);
        assert.equal(json(response).code, 'NOT_FOUND', url);
      }
      assert.equal((await upload(t(), unknown, 'x', 'text/plain')).statusCode, 404);
      for (const version of ['0', '2', 'abc', '01', '-1', '1.0', '99999999999']) {
        for (const suffix of ['', '/file']) {
          const response = await t().request({ url: `${BASE}/${document.id}/versions/${version}${suffix}` });
          assert.deepEqual(
            [response.statusCode, json(response)],
            [404, error(404, 'NOT_FOUND', `There is no documentVersion with id '${version}'.`)],
            version + suffix,
          );
        }
      }

      const badType = await upload(t(), document.id, 'x', 'not a media type');
      assert.deepEqual([badType.statusCode, json(badType).code], [415, 'UNSUPPORTED_MEDIA_TYPE']);
      const longType = await upload(t(), document.id, 'x', `text/${'x'.repeat(300)}`);
      assert.deepEqual(
        [longType.statusCode, json(longType)],
        [400, error(400, 'VALIDATION_FAILED', "Field 'Content-Type' must have at most 255 characters.")],
      );
      // Metadata is JSON only.
      const xml = await t().request({
        method: 'POST',
        url: BASE,
        body: '<name/>',
        headers: { 'content-type': 'application/xml' },
      });
      assert.deepEqual([xml.statusCode, json(xml).code], [415, 'UNSUPPORTED_MEDIA_TYPE']);
      const unknownQuery = await t().request({ url: `${BASE}/${document.id}/file?version=1` });
      assert.deepEqual([unknownQuery.statusCode, json(unknownQuery).code], [400, 'UNKNOWN_QUERY_PARAMETER']);
      // Nothing of the above changed the document.
      assert.deepEqual(json(await t().request({ url: `${BASE}/${document.id}` })), documentBody(document));
    });

    test('read-only token: reads everything, no uploadFile or createDocument link, 403 on every write', async () => {
      const document = await createDocument(t(), { name: 'ro.txt', folder: '/ReadOnly' });
      const read = ['read'];
      const one = await t().request({ url: `${BASE}/${document.id}`, scopes: read });
      assert.deepEqual([one.statusCode, json(one)], [200, documentBody(document, false)]);
      const list = json(await t().request({ url: `${BASE}?folder=%2FReadOnly`, scopes: read }));
      assert.equal(list._links.createDocument, undefined);
      assert.deepEqual(list._embedded.documents, [documentBody(document, false)]);
      assert.equal((await t().request({ url: `${BASE}/${document.id}/file`, scopes: read })).statusCode, 200);
      assert.equal(
        (await t().request({ url: `${BASE}/${document.id}/versions`, scopes: read })).statusCode,
        200,
      );

      const refused = error(
        403,
        'INSUFFICIENT_SCOPE',
        "This request needs the scope 'write', which the access token does not grant.",
      );
      const writes = [
        t().request({ method: 'POST', url: BASE, body: { name: 'x', folder: '/' }, scopes: read }),
        t().request({
          method: 'PUT',
          url: `${BASE}/${document.id}`,
          body: { name: 'x', folder: '/' },
          scopes: read,
        }),
        t().request({ method: 'DELETE', url: `${BASE}/${document.id}`, scopes: read }),
        upload(t(), document.id, BINARY, 'image/png', read),
      ];
      for (const response of await Promise.all(writes)) {
        assert.deepEqual([response.statusCode, json(response)], [403, refused]);
      }
      assert.deepEqual(json(await t().request({ url: `${BASE}/${document.id}` })), documentBody(document));
    });
  },
  ENV,
);
