// The file repository end to end (docs/resources/fileRepository.md): the folder tree, documents
// made in folders and at /documents as the same rows, versions and events, uploads as multipart
// (the SDK's) or raw bytes, the document states, and the refusals: hostile names, non-empty
// folders, oversize files, wrong media types.
import assert from 'node:assert/strict';
import { cpSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { pathToFileURL } from 'node:url';
import type { LightMyRequestResponse } from 'fastify';
import { migrate } from '../../src/db/migrate.ts';
import { createWorkplace, describeEachBackend, json, type TestApp } from '../support/app.ts';
import { BACKENDS } from '../support/databases.ts';
import { eventsOf, withoutTime } from '../support/events.ts';
import { absolute, get } from '../support/hal.ts';
import { emptyDatabase } from '../support/legacyDatabases.ts';

const V = '/api/v3';
const REPOSITORY = `${V}/fileRepository`;
const FOLDERS = `${REPOSITORY}/folders`;
const DOCUMENTS = `${REPOSITORY}/documents`;
const ROOT = '00000000-0000-4000-8000-000000000000';
const LIMIT = 1024;
const ENV = { BRIDGE_DOCUMENT_MAX_BYTES: String(LIMIT), BRIDGE_DELIVERY_ENABLED: 'false' };

// Every byte value, so nothing passes that only survives as text.
const BINARY = Buffer.from(Array.from({ length: 256 }, (_, index) => (index * 7 + 3) % 256));
const OTHER = Buffer.from([0xff, 0xfe, 0x00, 0x00, 0xc3, 0x28, 0x0d, 0x0a]);

async function created(t: TestApp, url: string, body: unknown) {
  const response = await t.request({ method: 'POST', url, body });
  assert.equal(response.statusCode, 201, response.body);
  assert.equal(response.headers.location, json(response)._links.self.href);
  return json(response).properties;
}

const folder = (t: TestApp, body: Record<string, unknown>) => created(t, FOLDERS, body);
const documentIn = (t: TestApp, folderId: string, body: Record<string, unknown> = {}) =>
  created(t, `${FOLDERS}/${folderId}/documents`, { origin: 'CREATED_INTERNALLY', type: 'nc', ...body });

/** A multipart/form-data body as the SDK sends it: the file in the part `file`. */
async function multipart(bytes: Buffer, type: string, filename: string) {
  const form = new FormData();
  form.append('file', new Blob([new Uint8Array(bytes)], { type }), filename);
  const encoded = new Response(form);
  return {
    payload: Buffer.from(await encoded.arrayBuffer()),
    contentType: encoded.headers.get('content-type') ?? '',
  };
}

async function put(
  t: TestApp,
  url: string,
  payload: Buffer | string,
  contentType?: string,
  scopes = ['read', 'write'],
): Promise<LightMyRequestResponse> {
  return t.app.server.inject({
    method: 'PUT',
    url,
    headers: {
      authorization: `Bearer ${await t.token(scopes)}`,
      ...(contentType === undefined ? {} : { 'content-type': contentType }),
    },
    payload,
  });
}

/** A 400 naming `field` (in the message) with this code. */
function assertRefused(response: LightMyRequestResponse, status: number, code: string, field?: string) {
  assert.equal(response.statusCode, status, response.body);
  assert.equal(json(response).code, code, response.body);
  if (field !== undefined) assert.match(json(response).message, new RegExp(`'${field}'`), response.body);
}

const count = async (t: TestApp, table: string) =>
  Number((await t.app.db.query<{ n: string }>(`SELECT count(*) AS n FROM ${table}`))[0]?.n);

describeEachBackend(
  'fileRepository',
  (t) => {
    test('GET /fileRepository: the root folder and what the repository holds, read from storage', async () => {
      const before = json(await t().request({ url: REPOSITORY }));
      assert.equal(before.properties.rootFolderId, ROOT);
      assert.deepEqual(before._links.rootFolder, get(`${FOLDERS}/${ROOT}`));
      assert.deepEqual(before._links.createFolder, {
        href: absolute(FOLDERS),
        method: 'POST',
        embeddable: false,
      });
      await folder(t(), { name: 'Counted' });
      await t().request({
        method: 'POST',
        url: `${V}/documents`,
        body: { name: 'c.txt', folder: '/Counted' },
      });
      const after = json(await t().request({ url: REPOSITORY })).properties;
      assert.equal(after.numberOfFolders, before.properties.numberOfFolders + 1);
      assert.equal(after.numberOfDocuments, before.properties.numberOfDocuments + 1);
      const readOnly = json(await t().request({ url: REPOSITORY, scopes: ['read'] }));
      assert.equal(readOnly._links.createFolder, undefined);
    });

    test('folders: a tree below the root, listed by parent, filtered, with RESOURCES_UPDATED', async () => {
      const workplaceId = await createWorkplace(t(), 'WP-FOLDERS');
      const top = await folder(t(), { name: 'Machines', creator: 'SYSTEM' });
      assert.equal(top.parentFolderId, ROOT);
      assert.deepEqual(top.path, ['Machines']);
      const below = await folder(t(), {
        name: 'Mill 1',
        parentFolderId: top.id,
        creator: 'alice',
        workplaceId,
        materialNumber: 'M-100',
      });
      const response = await t().request({ url: `${FOLDERS}/${below.id}` });
      assert.equal(response.statusCode, 200);
      const body = json(response);
      assert.deepEqual(body.properties, {
        id: below.id,
        name: 'Mill 1',
        creationDate: below.creationDate,
        editor: 'alice',
        lastChangeDate: below.creationDate,
        workplace: { id: workplaceId, number: 'WP-FOLDERS', description: null, erpContextId: null },
        material: { id: null, number: 'M-100', description: null, type: null },
        creator: 'alice',
        parentFolderId: top.id,
        path: ['Machines', 'Mill 1'],
      });
      assert.deepEqual(body._links.parentFolder, get(`${FOLDERS}/${top.id}`));
      assert.deepEqual(body._links.documents, get(`${FOLDERS}/${below.id}/documents`));

      const children = json(await t().request({ url: `${FOLDERS}?parentFolderId=${top.id}` }));
      assert.deepEqual(
        children._embedded.folders.map((f: { properties: { id: string } }) => f.properties.id),
        [below.id],
      );
      assert.equal(children.pagination.total, 1);
      const byWorkplace = json(await t().request({ url: `${FOLDERS}?workplaceNumber=WP-FOLDERS` }));
      assert.deepEqual(
        byWorkplace._embedded.folders.map((f: { properties: { id: string } }) => f.properties.id),
        [below.id],
      );
      const byMaterial = json(await t().request({ url: `${FOLDERS}?materialNumber=M-100&embed=ncState` }));
      assert.equal(byMaterial._embedded.folders.length, 1);

      // Sibling names are unique; the same name elsewhere is fine.
      assertRefused(
        await t().request({ method: 'POST', url: FOLDERS, body: { name: 'Mill 1', parentFolderId: top.id } }),
        400,
        'ALREADY_EXISTS',
      );
      await folder(t(), { name: 'Mill 1' });
      assertRefused(
        await t().request({
          method: 'POST',
          url: FOLDERS,
          body: { name: 'x', parentFolderId: '01900000-0000-7000-8000-000000000000' },
        }),
        400,
        'INVALID_REFERENCE',
        'parentFolderId',
      );
      assertRefused(
        await t().request({ method: 'POST', url: FOLDERS, body: { name: 'x', workplaceId: 'nope' } }),
        400,
        'INVALID_REFERENCE',
        'workplaceId',
      );

      assert.deepEqual(withoutTime(await eventsOf(t(), below.id)), [
        {
          eventType: 'RESOURCES_UPDATED',
          objectType: 'DOCUMENT_FOLDER',
          objectId: below.id,
          data: { changeType: 'CREATED' },
        },
      ]);
    });

    test('deleting a folder: refused while it holds a folder or a document, and for the root', async () => {
      const parent = await folder(t(), { name: 'Full' });
      const child = await folder(t(), { name: 'Child', parentFolderId: parent.id });
      const document = await documentIn(t(), child.id);

      for (const id of [parent.id, child.id, ROOT]) {
        assertRefused(
          await t().request({ method: 'DELETE', url: `${FOLDERS}/${id}` }),
          400,
          'RESOURCE_IN_USE',
        );
        assert.equal((await t().request({ url: `${FOLDERS}/${id}` })).statusCode, 200);
      }
      assert.equal(
        (await t().request({ method: 'DELETE', url: `${DOCUMENTS}/${document.id}` })).statusCode,
        204,
      );
      assert.equal((await t().request({ method: 'DELETE', url: `${FOLDERS}/${child.id}` })).statusCode, 204);
      assert.equal((await t().request({ method: 'DELETE', url: `${FOLDERS}/${parent.id}` })).statusCode, 204);
      assert.equal((await t().request({ url: `${FOLDERS}/${child.id}` })).statusCode, 404);
      assert.equal((await t().request({ method: 'DELETE', url: `${FOLDERS}/${child.id}` })).statusCode, 404);
      assert.deepEqual(
        withoutTime(await eventsOf(t(), child.id)).map((event) => [event.objectType, event.data.changeType]),
        [
          ['DOCUMENT_FOLDER', 'CREATED'],
          ['DOCUMENT_FOLDER', 'DELETED'],
        ],
      );
    });

    test('a document made in a folder and uploaded as multipart is the same document at /documents', async () => {
      const nc = await folder(t(), { name: 'NC programs' });
      const document = await documentIn(t(), nc.id, { creator: 'SYSTEM' });
      assert.deepEqual(document, {
        id: document.id,
        name: '',
        extension: '',
        size: 0,
        creator: 'SYSTEM',
        editor: 'SYSTEM',
        lastTransferToMachine: null,
        lastTransferedFromWorkplaceId: null,
        lastTransferedToWorkplaceId: null,
        numberOfMachineTransfers: 0,
        version: 1,
        origin: 'CREATED_INTERNALLY',
        type: 'nc',
        creationDate: document.creationDate,
        documentStateId: 'NEW',
        lastChangedDate: document.creationDate,
      });
      // Two unnamed documents in one folder do not collide.
      await documentIn(t(), nc.id);

      const { payload, contentType } = await multipart(BINARY, 'application/x-nc', 'local.nc');
      const uploaded = await put(
        t(),
        `${DOCUMENTS}/${document.id}/file?fileName=part.nc&editor=bob`,
        payload,
        contentType,
      );
      assert.equal(uploaded.statusCode, 200, uploaded.body);
      const after = json(uploaded).properties;
      assert.deepEqual(
        [after.name, after.extension, after.size, after.version, after.editor, after.creator],
        ['part.nc', 'nc', BINARY.length, 2, 'bob', 'SYSTEM'],
      );

      const alias = json(await t().request({ url: `${V}/documents/${document.id}` })).properties;
      assert.deepEqual(
        [alias.name, alias.folder, alias.contentType, alias.size, alias.version],
        ['part.nc', '/NC programs', 'application/x-nc', BINARY.length, 2],
      );
      for (const url of [`${V}/documents/${document.id}/file`, `${DOCUMENTS}/${document.id}/file`]) {
        const file = await t().request({ url });
        assert.equal(file.statusCode, 200);
        assert.deepEqual(file.rawPayload, BINARY, url);
        assert.equal(file.headers['content-type'], 'application/x-nc');
        assert.equal(file.headers['content-disposition'], "attachment; filename*=UTF-8''part.nc");
        assert.equal(file.headers['x-content-type-options'], 'nosniff');
      }
      const listed = json(await t().request({ url: `${FOLDERS}/${nc.id}/documents` }));
      assert.equal(listed.pagination.total, 2);
      assert.equal(listed._embedded.documents[0].properties.id, document.id, 'newest change first');

      assert.deepEqual(
        withoutTime(await eventsOf(t(), document.id, 'DOCUMENT_UPDATED')).map((event) => event.data),
        [
          {
            documentId: document.id,
            name: 'part.nc',
            folder: '/NC programs',
            description: null,
            contentType: 'application/x-nc',
            size: BINARY.length,
            version: 2,
            changedProperties: ['name', 'contentType', 'size', 'content'],
          },
        ],
      );
    });

    test('a document made at /documents is in the file repository, its folders made on the way', async () => {
      const response = await t().request({
        method: 'POST',
        url: `${V}/documents`,
        body: { name: 'plan.pdf', folder: '/Plant/Line 1' },
      });
      assert.equal(response.statusCode, 201, response.body);
      const id = json(response).properties.id;
      const found = json(await t().request({ url: `${DOCUMENTS}/${id}?embed=ncState,documentFolders` }));
      assert.deepEqual(
        [found.properties.name, found.properties.extension, found.properties.documentStateId],
        ['plan.pdf', 'pdf', 'NEW'],
      );
      assert.deepEqual(found._embedded.ncState.properties, {
        id: 'NEW',
        description: null,
        shortDescription: null,
        code: '50',
        color: 'RED',
      });
      const [line] = found._embedded.documentFolders;
      assert.deepEqual([line.properties.name, line.properties.path], ['Line 1', ['Plant', 'Line 1']]);
      assert.deepEqual(found._links.documentFolders, [get(`${FOLDERS}/${line.properties.id}`)]);
      const plant = json(
        await t().request({ url: `${FOLDERS}/${line.properties.parentFolderId}` }),
      ).properties;
      assert.deepEqual([plant.name, plant.parentFolderId], ['Plant', ROOT]);
      const inLine = json(await t().request({ url: `${FOLDERS}/${line.properties.id}/documents` }));
      assert.deepEqual(
        inLine._embedded.documents.map((d: { properties: { id: string } }) => d.properties.id),
        [id],
      );

      // A document of the path '/' is in the root folder.
      const atRoot = json(
        await t().request({ method: 'POST', url: `${V}/documents`, body: { name: 'root.txt', folder: '/' } }),
      ).properties;
      const rootDocument = json(await t().request({ url: `${DOCUMENTS}/${atRoot.id}` }));
      assert.deepEqual(rootDocument._links.documentFolders, [get(`${FOLDERS}/${ROOT}`)]);

      // Moving it at /documents moves it between folders.
      const moved = await t().request({
        method: 'PUT',
        url: `${V}/documents/${id}`,
        body: { name: 'plan.pdf', folder: '/Plant' },
      });
      assert.equal(moved.statusCode, 200, moved.body);
      const movedFolders = json(await t().request({ url: `${DOCUMENTS}/${id}` }))._links.documentFolders;
      assert.deepEqual(movedFolders, [get(`${FOLDERS}/${plant.id}`)]);

      // Deleted through the repository: gone at /documents too, with its event.
      assert.equal((await t().request({ method: 'DELETE', url: `${DOCUMENTS}/${id}` })).statusCode, 204);
      assert.equal((await t().request({ url: `${V}/documents/${id}` })).statusCode, 404);
      assert.equal((await eventsOf(t(), id, 'DOCUMENT_DELETED')).length, 1);
    });

    test('PUT .../file makes a new version: byte-identical round trip, every version listed', async () => {
      const versions = await folder(t(), { name: 'Versions' });
      const document = await documentIn(t(), versions.id, { name: 'setup.txt' });
      const first = await put(t(), `${DOCUMENTS}/${document.id}/file`, BINARY, 'application/octet-stream');
      assert.equal(first.statusCode, 200, first.body);
      const second = await put(t(), `${DOCUMENTS}/${document.id}/file`, OTHER, 'image/png');
      assert.equal(json(second).properties.version, 3);
      const same = await put(t(), `${DOCUMENTS}/${document.id}/file`, OTHER, 'image/png');
      assert.equal(json(same).properties.version, 3, 'the same bytes make no version');

      const current = await t().request({ url: `${DOCUMENTS}/${document.id}/file` });
      assert.deepEqual(current.rawPayload, OTHER);
      const listed = json(await t().request({ url: `${V}/documents/${document.id}/versions` }));
      assert.deepEqual(
        listed._embedded.versions.map((v: { properties: { version: number; size: number } }) => [
          v.properties.version,
          v.properties.size,
        ]),
        [
          [3, OTHER.length],
          [2, BINARY.length],
          [1, 0],
        ],
      );
      const old = await t().request({ url: `${V}/documents/${document.id}/versions/2/file` });
      assert.deepEqual(old.rawPayload, BINARY);
    });

    test('hostile names are refused with the field named, nothing stored', async () => {
      const folders = await count(t(), 'document_folders');
      for (const name of ['..', '.', 'a..b', 'a/b', 'a\\b', 'bell\u0007', 'tab\there', '']) {
        assertRefused(
          await t().request({ method: 'POST', url: FOLDERS, body: { name } }),
          400,
          'VALIDATION_FAILED',
          'name',
        );
      }
      for (const path of ['/a/../b', '/..', '/a\\b', '/x\u0001']) {
        assertRefused(
          await t().request({ method: 'POST', url: `${V}/documents`, body: { name: 'n.txt', folder: path } }),
          400,
          'VALIDATION_FAILED',
          'folder',
        );
      }
      assert.equal(await count(t(), 'document_folders'), folders);

      const target = await folder(t(), { name: 'Hostile' });
      const document = await documentIn(t(), target.id, { name: 'safe.txt' });
      assertRefused(
        await t().request({
          method: 'POST',
          url: `${FOLDERS}/${target.id}/documents`,
          body: { origin: 'CREATED_INTERNALLY', type: 'nc', name: '../escape' },
        }),
        400,
        'VALIDATION_FAILED',
        'name',
      );
      const query = encodeURIComponent('../../etc/passwd');
      assertRefused(
        await put(t(), `${DOCUMENTS}/${document.id}/file?fileName=${query}`, BINARY, 'text/plain'),
        400,
        'VALIDATION_FAILED',
        'fileName',
      );
      const { payload, contentType } = await multipart(BINARY, 'text/plain', '..\\..\\boot.ini');
      assertRefused(
        await put(t(), `${DOCUMENTS}/${document.id}/file`, payload, contentType),
        400,
        'VALIDATION_FAILED',
        'fileName',
      );
      const unchanged = json(await t().request({ url: `${DOCUMENTS}/${document.id}` })).properties;
      assert.deepEqual([unchanged.name, unchanged.version, unchanged.size], ['safe.txt', 1, 0]);
    });

    test('oversize files are 413, wrong media types 415, a multipart body without a file 400', async () => {
      const limits = await folder(t(), { name: 'Limits' });
      const document = await documentIn(t(), limits.id);
      const big = Buffer.alloc(LIMIT + 1, 7);
      assertRefused(
        await put(t(), `${DOCUMENTS}/${document.id}/file`, big, 'text/plain'),
        413,
        'PAYLOAD_TOO_LARGE',
      );
      const { payload, contentType } = await multipart(big, 'text/plain', 'big.txt');
      assertRefused(
        await put(t(), `${DOCUMENTS}/${document.id}/file`, payload, contentType),
        413,
        'PAYLOAD_TOO_LARGE',
      );
      assert.equal((await put(t(), `${DOCUMENTS}/${document.id}/file`, 'x', 'text')).statusCode, 415);
      assertRefused(
        await t().request({
          method: 'POST',
          url: FOLDERS,
          body: 'name=x',
          headers: { 'content-type': 'application/x-www-form-urlencoded' },
        }),
        415,
        'UNSUPPORTED_MEDIA_TYPE',
      );
      assertRefused(
        await put(
          t(),
          `${DOCUMENTS}/${document.id}/file`,
          'not multipart',
          'multipart/form-data; boundary=zzz',
        ),
        400,
        'VALIDATION_FAILED',
        'file',
      );
      const unchanged = json(await t().request({ url: `${DOCUMENTS}/${document.id}` })).properties;
      assert.deepEqual([unchanged.version, unchanged.size], [1, 0]);
    });

    test('document states: master data seeded by the migration, references checked', async () => {
      const states = await folder(t(), { name: 'States' });
      const locked = await documentIn(t(), states.id, { documentStateId: 'LOCKED' });
      const found = json(await t().request({ url: `${DOCUMENTS}/${locked.id}?embed=ncState` }));
      assert.deepEqual(found._embedded.ncState.properties, {
        id: 'LOCKED',
        description: 'Locked',
        shortDescription: 'LOCKED',
        code: '45',
        color: '#FF0000',
      });
      assert.deepEqual(found._links.ncState, get(`${V}/masterData/documentStates/LOCKED`));
      const german = await t().request({
        url: `${DOCUMENTS}/${locked.id}?embed=ncState`,
        headers: { 'accept-language': 'de-DE' },
      });
      assert.equal(json(german)._embedded.ncState.properties.description, 'Gesperrt');
      const documents = await count(t(), 'documents');
      assertRefused(
        await t().request({
          method: 'POST',
          url: `${FOLDERS}/${states.id}/documents`,
          body: { origin: 'CREATED_INTERNALLY', type: 'nc', documentStateId: 'NOPE' },
        }),
        400,
        'INVALID_REFERENCE',
        'documentStateId',
      );
      assert.equal(await count(t(), 'documents'), documents);
      assert.equal(
        (
          await t().request({
            method: 'POST',
            url: `${FOLDERS}/01900000-0000-7000-8000-000000000000/documents`,
            body: { origin: 'CREATED_INTERNALLY', type: 'nc' },
          })
        ).statusCode,
        404,
      );
    });

    test('read-only token: reads, no write links, 403 on every write', async () => {
      const readable = await folder(t(), { name: 'ReadOnly' });
      const document = await documentIn(t(), readable.id);
      const read = ['read'];
      const one = json(await t().request({ url: `${DOCUMENTS}/${document.id}`, scopes: read }));
      assert.equal(one._links.uploadFile, undefined);
      const list = json(await t().request({ url: FOLDERS, scopes: read }));
      assert.equal(list._links.createFolder, undefined);
      for (const response of [
        await t().request({ method: 'POST', url: FOLDERS, body: { name: 'x' }, scopes: read }),
        await t().request({ method: 'DELETE', url: `${FOLDERS}/${readable.id}`, scopes: read }),
        await t().request({ method: 'DELETE', url: `${DOCUMENTS}/${document.id}`, scopes: read }),
        await put(t(), `${DOCUMENTS}/${document.id}/file`, 'x', 'text/plain', read),
      ]) {
        assertRefused(response, 403, 'INSUFFICIENT_SCOPE');
      }
    });
  },
  ENV,
);

// Migration 045 on a database that already holds documents: each folder path they name becomes
// a folder of the tree, with every folder above it, and each document is in its path's folder.
const MIGRATIONS = new URL('../../src/db/migrations/', import.meta.url);
for (const backend of BACKENDS) {
  describe(`fileRepository migration [${backend}]`, () => {
    test('existing documents get their folders, the tree made from their paths', async () => {
      const before = mkdtempSync(join(tmpdir(), 'bridge-before-045-'));
      for (const file of readdirSync(MIGRATIONS).filter((name) => name < '045')) {
        cpSync(new URL(file, MIGRATIONS), join(before, file));
      }
      const database = await emptyDatabase(backend, { inMemory: true });
      const db = await database.open();
      try {
        await migrate(db, pathToFileURL(`${before}/`));
        const paths = ['/', '/A', '/A/B', '/A/B', '/C/D'];
        for (const [index, folder] of paths.entries()) {
          await db.query(
            `INSERT INTO documents (id, name, folder, content_type, size, sha256, version, created_at, updated_at)
             VALUES (gen_random_uuid(), $1, $2, 'text/plain', 0, '', 1, now(), now())`,
            [`d${index}.txt`, folder],
          );
        }
        await migrate(db, MIGRATIONS);
        const folders = await db.query<{ path: string; name: string; parent: string | null }>(
          `SELECT f.path, f.name, p.path AS parent FROM document_folders f
           LEFT JOIN document_folders p ON p.id = f.parent_id ORDER BY f.path`,
        );
        assert.deepEqual(folders, [
          { path: '/', name: '/', parent: null },
          { path: '/A', name: 'A', parent: '/' },
          { path: '/A/B', name: 'B', parent: '/A' },
          { path: '/C', name: 'C', parent: '/' },
          { path: '/C/D', name: 'D', parent: '/C' },
        ]);
        const documents = await db.query<{ folder: string; path: string; state: string }>(
          `SELECT d.folder, f.path, d.document_state_id AS state FROM documents d
           JOIN document_folders f ON f.id = d.folder_id ORDER BY d.name`,
        );
        assert.deepEqual(
          documents,
          paths.map((folder) => ({ folder, path: folder, state: 'NEW' })),
        );
      } finally {
        await db.close();
        await database.drop();
        rmSync(before, { recursive: true, force: true });
      }
    });
  });
}
