// Master data kept in the database (docs/resources/masterData.md): every kind's list and item
// through the one generic registration, their shapes against the recorded v3 responses, texts in
// the request's language from the literals, the /masterData entry, literals, ERP contexts, and
// materials derived from the stored production orders and operations.
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { test } from 'node:test';
import { compareShapes, loadRecorded, type RecordedResponse } from '../../bench/v3Contract.ts';
import { MASTER_DATA_KINDS } from '../../src/http/masterDataKinds.ts';
import { materialLiteralId } from '../../src/http/presenters/masterDataPresenter.ts';
import { describeEachBackend, json, type TestApp } from '../support/app.ts';
import { absolute, get } from '../support/hal.ts';

const API = '/api/v3';
const RECORDED = new Map(loadRecorded().map((recorded) => [recorded.recording, recorded]));

function recorded(name: string): RecordedResponse {
  const found = RECORDED.get(`${name}.json`);
  assert.ok(found, name);
  return found;
}

/** The answer to a recorded request (its embeds; one item a page where it shows a next page). */
async function answerTo(t: TestApp, name: string, path: string) {
  const { query, shape } = recorded(name);
  const params = new URLSearchParams();
  if (query?.embed?.length) params.set('embed', query.embed.join(','));
  if (shape && typeof shape === 'object' && !Array.isArray(shape) && 'pagination' in shape) {
    const links = shape._links as Record<string, unknown>;
    if ('next' in links) params.set('limit', '1');
  }
  const response = await t.request({ url: `${API}${path}${params.size > 0 ? `?${params}` : ''}` });
  assert.equal(response.statusCode, 200, response.body);
  return json(response);
}

/**
 * Every property, link and embed the recording shows is there, and nothing else; of a collection
 * its items (the paging envelope is every collection's, not this family's).
 */
function assertShape(name: string, answer: unknown): void {
  const diff = compareShapes(recorded(name).shape, answer);
  const isList = typeof answer === 'object' && answer !== null && 'pagination' in answer;
  const ours = (paths: string[]) => (isList ? paths.filter((path) => path.startsWith('_embedded.')) : paths);
  assert.deepEqual(
    { missing: ours(diff.missing), extra: ours(diff.extra) },
    { missing: [], extra: [] },
    name,
  );
}

const FIRST_SHIFT = 'B2000D67169941CCAD650A552EB1317C';
const FREE_CAPACITIES = '29ADD1E980304CD2AE2E381B929AAFF7';
const materialId = (number: string) =>
  createHash('md5')
    .update(number)
    .digest('hex')
    .replace(/^(.{8})(.{4})(.{4})(.{4})(.{12})$/, '$1-$2-$3-$4-$5');

describeEachBackend('master data in the database', (t) => {
  test('each seeded kind answers its list and item in the recorded shapes', async () => {
    const pairs: [list: string, item: string | null, path: string, id: string][] = [
      [
        'getOperatingStateClasses',
        'getOperatingStateClass',
        '/masterData/operatingStateClasses',
        FREE_CAPACITIES,
      ],
      ['getOperationProductionStates', null, '/masterData/operationProductionStates', 'DOWNTIME'],
      ['getShiftTypes', 'getShiftType', '/masterData/shiftTypes', FIRST_SHIFT],
      ['getPersonnelStates', null, '/masterData/staffMemberStates', 'SIGNED_ON'],
      [
        'getCustomerSpecificSettings',
        'getCustomerSpecificSetting',
        '/masterData/customerSpecificSettings',
        'b',
      ],
      ['getErpContexts', 'getErpContext', '/erpContexts', 'BF0268C3CAFD4430B85485FB35FEE00D'],
      ['getLiterals', 'getLiteral', '/literals', 'CFE58B7E9A754947AE66E37A9A8F2D51'],
    ];
    for (const [list, item, path, id] of pairs) {
      assertShape(list, await answerTo(t(), list, path));
      if (item) assertShape(item, await answerTo(t(), item, `${path}/${id}`));
    }
  });

  test('personnel states are served under the staff member path with their seeded values', async () => {
    const list = json(await t().request({ url: `${API}/masterData/staffMemberStates` }));
    assert.deepEqual(
      list._embedded.personnelStates.map((entry: { properties: unknown }) => entry.properties),
      [
        {
          id: 'SIGNED_ON',
          description: 'Assigned',
          shortDescription: 'Assigned',
          code: '1',
          color: '#00CC84',
        },
        {
          id: 'SIGNED_OFF',
          description: 'Unassigned',
          shortDescription: 'Unassigned',
          code: '2',
          color: '#C60A44',
        },
      ],
    );
    const item = json(await t().request({ url: `${API}/masterData/staffMemberStates/SIGNED_OFF` }));
    assert.deepEqual(item._links.description, get(`${API}/literals/1DD77C0AC28D462C934678A6EB65DDF2`, true));
    const missing = await t().request({ url: `${API}/masterData/staffMemberStates/ABSENT` });
    assert.equal(missing.statusCode, 404);
    assert.match(json(missing).message ?? JSON.stringify(json(missing)), /personnelState/);
  });

  test('entries show the seeded values, texts in the request language, literals linked and embedded', async () => {
    const url = `${API}/masterData/shiftTypes/${FIRST_SHIFT}?embed=description`;
    const english = json(await t().request({ url }));
    assert.deepEqual(english.properties, {
      id: FIRST_SHIFT,
      description: 'First shift',
      shortDescription: 'F',
      isWorkingShift: true,
    });
    assert.deepEqual(english._links, {
      self: get(`${API}/masterData/shiftTypes/${FIRST_SHIFT}`),
      description: get(`${API}/literals/CFE58B7E9A754947AE66E37A9A8F2D51`, true),
      shortDescription: get(`${API}/literals/38342549F1B64BB2A39D56A2B7EB30AC`, true),
    });
    assert.deepEqual(Object.keys(english._embedded), ['description']);
    const literal = english._embedded.description;
    assert.equal(literal.properties.id, 'CFE58B7E9A754947AE66E37A9A8F2D51');
    assert.ok(
      literal.properties.translations.some(
        (entry: { language: string; translation: string }) =>
          entry.language === 'de-DE' && entry.translation === 'Frühschicht',
      ),
    );

    const german = await t().request({ url, headers: { 'accept-language': 'de-DE' } });
    assert.equal(json(german).properties.description, 'Frühschicht');
    const chinese = await t().request({ url, headers: { 'accept-language': 'zh-CN' } });
    assert.equal(json(chinese).properties.description, '早班');

    const state = json(await t().request({ url: `${API}/masterData/operationProductionStates/PRODUCTION` }));
    assert.deepEqual(state.properties, {
      id: 'PRODUCTION',
      description: 'Production',
      shortDescription: 'Production',
      code: '2',
      color: '#00CC84',
    });
    const setting = json(await t().request({ url: `${API}/masterData/customerSpecificSettings/id` }));
    assert.deepEqual(setting.properties, { id: 'id', topic: 'top', value: 'va', description: 'desc' });
  });

  test('a literal is served with every translation; the list pages by offset', async () => {
    const one = json(await t().request({ url: `${API}/literals/D2ED458DD3C242B8A07C26DD0B04B412` }));
    assert.deepEqual(one, {
      properties: {
        id: 'D2ED458DD3C242B8A07C26DD0B04B412',
        translations: [
          { language: 'de-DE', translation: 'Freie Kapazitäten' },
          { language: 'en-US', translation: 'Free Capcities' },
          { language: 'en-GB', translation: 'Free Capcities' },
        ],
      },
      _links: { self: get(`${API}/literals/D2ED458DD3C242B8A07C26DD0B04B412`) },
    });
    const [stored] = await t().app.db.query<{ total: number }>('SELECT count(*)::int AS total FROM literals');
    const page = json(await t().request({ url: `${API}/literals?limit=2&offset=1` }));
    assert.deepEqual(page.pagination, {
      limit: 2,
      count: 2,
      offset: 1,
      total: stored?.total,
      firstIdentifier: null,
      lastIdentifier: null,
    });
  });

  test('unknown ids answer 404 on every kind, seeded or not', async () => {
    for (const kind of MASTER_DATA_KINDS) {
      const response = await t().request({ url: `${API}${kind.path}/NO-SUCH-ID` });
      assert.equal(response.statusCode, 404, kind.kind);
      assert.equal(json(response).code, 'NOT_FOUND');
      assert.match(json(response).message, new RegExp(kind.singular));
    }
    for (const path of [
      '/literals/NO-SUCH-ID',
      `/materials/${materialId('no such material')}`,
      '/materials/x',
    ]) {
      assert.equal((await t().request({ url: `${API}${path}` })).statusCode, 404, path);
    }
  });

  test('a kind another family seeds is served once its rows exist, with its reference embedded', async () => {
    // As a plant's own migration would add them.
    const db = t().app.db;
    await db.query(`INSERT INTO literals (id, translations) VALUES
      ('TEST-QT-D', '[{"language": "en-GB", "translation": "Scrap"}, {"language": "de-DE", "translation": "Ausschuss"}]'),
      ('TEST-QD-D', '[{"language": "en-GB", "translation": "Crack"}, {"language": "de-DE", "translation": "Riss"}]')`);
    await db.query(`INSERT INTO master_data_entries
      (kind, id, code, color, description_literal_id, short_description_literal_id, attributes) VALUES
      ('qualityTypes', 'TEST-QT', 'SCRAP', '#C60A44', 'TEST-QT-D', 'TEST-QT-D', '{}'),
      ('qualityDetails', 'TEST-QD', '17', '#111111', 'TEST-QD-D', 'TEST-QD-D', '{"qualityTypeId": "TEST-QT"}')`);
    const detail = await answerTo(t(), 'getQualityDetail', '/masterData/qualityDetails/TEST-QD');
    assertShape('getQualityDetail', detail);
    assert.deepEqual(detail.properties, {
      id: 'TEST-QD',
      description: 'Crack',
      shortDescription: 'Crack',
      code: '17',
      color: '#111111',
      qualityTypeId: 'TEST-QT',
    });
    assert.equal(detail._embedded.qualityType.properties.description, 'Scrap');
    assert.deepEqual(detail._links.qualityType, get(`${API}/masterData/qualityTypes/TEST-QT`, true));
    const german = await t().request({
      url: `${API}/masterData/qualityDetails?embed=qualityType`,
      headers: { 'accept-language': 'de' },
    });
    const item = json(german)._embedded.qualityDetails.find(
      (entry: { properties: { id: string } }) => entry.properties.id === 'TEST-QD',
    );
    assert.equal(item.properties.description, 'Riss');
    assert.equal(item._embedded.qualityType.properties.description, 'Ausschuss');
    assertShape('getQualityType', await answerTo(t(), 'getQualityType', '/masterData/qualityTypes/TEST-QT'));
  });

  test("the other families' kinds show their recorded shapes from their rows", async () => {
    const db = t().app.db;
    await db.query(
      `INSERT INTO literals (id, translations) VALUES ('TEST-OF-D', '[{"language": "en-GB", "translation": "Open"}]')`,
    );
    const flags = { customerCode: null, isRecodable: true, isSplittable: false, isAnnotatable: true };
    const rows: [kind: string, attributes: Record<string, unknown>][] = [
      ['machineStates', {}],
      ['machineStateDetails', flags],
      ['ticketStates', {}],
      ['ticketClasses', { sequence: 1 }],
      ['ticketActivityStates', {}],
      ['documentStates', {}],
    ];
    for (const [kind, attributes] of rows) {
      await db.query(
        `INSERT INTO master_data_entries
          (kind, id, code, color, description_literal_id, short_description_literal_id, attributes)
         VALUES ($1, 'TEST-1', 'C', '#000000', 'TEST-OF-D', 'TEST-OF-D', $2)`,
        [kind, JSON.stringify(attributes)],
      );
    }
    const checks: [recording: string, path: string][] = [
      ['getMachineStates', '/masterData/machineStates'],
      ['getMachineStateDetails', '/masterData/machineStateDetails'],
      ['getTicketStates', '/masterData/ticketStates'],
      ['getTicketState', '/masterData/ticketStates/TEST-1'],
      ['getTicketClass', '/masterData/ticketClasses/TEST-1'],
      ['getTicketActivityStates', '/masterData/ticketActivityStates'],
      ['getTicketActivityState', '/masterData/ticketActivityStates/TEST-1'],
      ['getDocumentState', '/masterData/documentStates/TEST-1'],
    ];
    for (const [name, path] of checks) assertShape(name, await answerTo(t(), name, path));
    const ticketState = json(await t().request({ url: `${API}/masterData/ticketStates/TEST-1` }));
    assert.deepEqual(ticketState.properties, { id: 'TEST-1', name: 'Open', color: '#000000' });
  });

  test('GET /masterData links every master data collection, the entry point links it', async () => {
    const entry = json(await t().request({ url: `${API}/masterData` }));
    for (const kind of MASTER_DATA_KINDS.filter((candidate) => candidate.path.startsWith('/masterData/')))
      assert.deepEqual(entry._links[kind.kind], get(`${API}${kind.path}`), kind.kind);
    assert.deepEqual(entry._links.operatingStates, get(`${API}/masterData/operatingStates`));
    assert.equal(entry._links.erpContexts, undefined);
    for (const rel of Object.keys(entry._links)) {
      if (rel === 'self') continue;
      const list = await t().request({ url: entry._links[rel].href.replace(absolute(''), '') });
      assert.equal(list.statusCode, 200, rel);
    }
    const root = json(await t().request({ url: `${API}` }));
    for (const rel of ['masterData', 'literals', 'erpContexts', 'materials'])
      assert.ok(root._links[rel], rel);
  });

  test('lists held in code link and embed their texts as literals that /literals serves', async () => {
    const lists = ['operatingStates', 'workplaceStates', 'operationPhases', 'toolAssemblyOrderStates'];
    for (const list of lists) {
      const url = `${API}/masterData/${list}?embed=description,shortDescription&limit=100`;
      const page = json(await t().request({ url, headers: { 'accept-language': 'de-DE' } }));
      assert.ok(page._embedded[list].length > 0, list);
      for (const entry of page._embedded[list]) {
        for (const text of ['description', 'shortDescription']) {
          const embedded = entry._embedded[text];
          assert.deepEqual(
            entry._links[text],
            get(embedded._links.self.href.replace(absolute(''), ''), true),
          );
          // The stored literal (migration 090) is the code's text in every language.
          const stored = json(
            await t().request({ url: embedded._links.self.href.replace(absolute(''), '') }),
          );
          assert.deepEqual(stored, embedded, `${list} ${entry.properties.id} ${text}`);
          const german = embedded.properties.translations.find(
            (translation: { language: string }) => translation.language === 'de-DE',
          );
          assert.equal(german.translation, entry.properties[text]);
        }
      }
    }
    const production = 'b6ec1cd6-d254-5106-99ea-43edce9543dd';
    assertShape(
      'getOperatingState',
      await answerTo(t(), 'getOperatingState', `/masterData/operatingStates/${production}`),
    );
    for (const [name, list] of [
      ['getOperationPhase', 'operationPhases/SETUP'],
      ['getWorkplaceState', 'workplaceStates/PRODUCTION'],
      ['getToolAssemblyOrderState', 'toolAssemblyOrderStates/REQUESTED'],
    ] as const) {
      const answer = await answerTo(t(), name, `/masterData/${list}`);
      assert.deepEqual(Object.keys(answer._embedded).sort(), ['description', 'shortDescription'], name);
    }
    const waiting = '3d2e0b34-7640-51ba-8d4a-179431e31693';
    const classed = json(
      await t().request({ url: `${API}/masterData/operatingStates/${waiting}?embed=operatingStateClass` }),
    );
    assert.equal(
      classed._embedded.operatingStateClass.properties.id,
      classed.properties.operatingStateClassId,
    );
    assert.equal(classed._embedded.operatingStateClass.properties.code, 'ORGANIZATIONAL_SC');
  });

  test('operating states name their seeded class', async () => {
    const states = json(await t().request({ url: `${API}/masterData/operatingStates` }));
    const classed = states._embedded.operatingStates.filter(
      (state: { properties: { operatingStateClassId: string | null } }) =>
        state.properties.operatingStateClassId !== null,
    );
    assert.ok(classed.length > 0);
    for (const state of classed) {
      const href = state._links.operatingStateClass.href.replace(absolute(''), '');
      const found = await t().request({ url: href });
      assert.equal(found.statusCode, 200, href);
      assert.equal(json(found).properties.id, state.properties.operatingStateClassId);
    }
  });

  test('materials are the ones stored orders and operations name, with stable ids', async () => {
    const before = json(await t().request({ url: `${API}/materials` }));
    const order = await t().request({
      method: 'POST',
      url: `${API}/productionOrders`,
      body: { number: 'MD-PO1', material: { number: 'MD-M1', description: 'Gear shaft' } },
    });
    assert.equal(order.statusCode, 201, order.body);
    const operation = await t().request({
      method: 'POST',
      url: `${API}/operations`,
      body: {
        productionOrderId: json(order).properties.id,
        number: 'MD-OP1',
        material: { number: 'MD-M2', description: 'Blank' },
      },
    });
    assert.equal(operation.statusCode, 201, operation.body);

    const after = json(await t().request({ url: `${API}/materials?limit=100` }));
    assert.equal(after.pagination.total, before.pagination.total + 2);
    const byNumber = new Map(
      after._embedded.materials.map((material: { properties: { number: string } }) => [
        material.properties.number,
        material,
      ]),
    );
    const gearLiteral = `${API}/literals/${materialLiteralId('MD-M1')}`;
    const gear = {
      properties: { id: materialId('MD-M1'), number: 'MD-M1', description: 'Gear shaft', type: null },
      _links: { self: get(`${API}/materials/${materialId('MD-M1')}`), description: get(gearLiteral, true) },
    };
    assert.deepEqual(byNumber.get('MD-M1'), gear);
    assert.equal(
      (byNumber.get('MD-M2') as { properties: { description: string } }).properties.description,
      'Blank',
    );
    const one = await t().request({ url: `${API}/materials/${materialId('MD-M1')}` });
    assert.deepEqual([one.statusCode, json(one)], [200, gear]);

    // A second order naming the same material adds no material; its id stays.
    const again = await t().request({
      method: 'POST',
      url: `${API}/productionOrders`,
      body: { number: 'MD-PO2', material: { number: 'MD-M1', description: 'Gear shaft' } },
    });
    assert.equal(again.statusCode, 201, again.body);
    const later = json(await t().request({ url: `${API}/materials?limit=100` }));
    assert.equal(later.pagination.total, after.pagination.total);
    assert.deepEqual(json(await t().request({ url: `${API}/materials/${materialId('MD-M1')}` })), gear);
  });

  test("a material's description is a literal, kept as orders and operations naming it change", async () => {
    const materialUrl = (number: string) => `${API}/materials/${materialId(number)}`;
    const literalUrl = (number: string) => `${API}/literals/${materialLiteralId(number)}`;
    const material = async (number: string) => json(await t().request({ url: materialUrl(number) }));
    const literal = async (number: string) => json(await t().request({ url: literalUrl(number) })).properties;
    const status = async (url: string) => (await t().request({ url })).statusCode;
    const text = (translation: string) => [{ language: 'en-GB', translation }];
    const order = async (number: string, materialNumber: string, description?: string) => {
      const response = await t().request({
        method: 'POST',
        url: `${API}/productionOrders`,
        body: { number, material: { number: materialNumber, ...(description ? { description } : {}) } },
      });
      assert.equal(response.statusCode, 201, response.body);
      return json(response).properties.id as string;
    };
    const first = await order('LIT-PO1', 'LIT-M1', 'Housing');
    assert.deepEqual(await literal('LIT-M1'), {
      id: materialLiteralId('LIT-M1'),
      translations: text('Housing'),
    });
    const shown = await material('LIT-M1');
    assert.deepEqual(json(await t().request({ url: shown._links.description.href })).properties, {
      id: materialLiteralId('LIT-M1'),
      translations: text('Housing'),
    });

    const embedded = json(await t().request({ url: `${materialUrl('LIT-M1')}?embed=description` }));
    assert.deepEqual(embedded._embedded, {
      description: json(await t().request({ url: shown._links.description.href })),
    });
    const page = json(await t().request({ url: `${API}/materials?embed=description&limit=100` }));
    const listed = page._embedded.materials.find(
      (item: { properties: { number: string } }) => item.properties.number === 'LIT-M1',
    );
    assert.deepEqual(listed, embedded);

    // An operation's text does not replace an order's; the most recently changed order's does.
    const operation = await t().request({
      method: 'POST',
      url: `${API}/operations`,
      body: {
        productionOrderId: first,
        number: 'LIT-OP1',
        material: { number: 'LIT-M1', description: 'Hsg.' },
      },
    });
    assert.equal(operation.statusCode, 201, operation.body);
    assert.deepEqual(await literal('LIT-M1'), {
      id: materialLiteralId('LIT-M1'),
      translations: text('Housing'),
    });
    const second = await order('LIT-PO2', 'LIT-M1', 'Housing, cast');
    assert.equal((await material('LIT-M1')).properties.description, 'Housing, cast');
    assert.deepEqual((await literal('LIT-M1')).translations, text('Housing, cast'));
    const replaced = await t().request({
      method: 'PUT',
      url: `${API}/productionOrders/${second}`,
      body: { number: 'LIT-PO2', material: { number: 'LIT-M2', description: 'Cover' } },
    });
    assert.equal(replaced.statusCode, 200, replaced.body);
    assert.deepEqual((await literal('LIT-M1')).translations, text('Housing'));
    assert.deepEqual((await literal('LIT-M2')).translations, text('Cover'));

    // No text, no literal and no link; nothing naming the number any longer, no literal either.
    await order('LIT-PO3', 'LIT-M3');
    const untexted = await material('LIT-M3');
    assert.equal(untexted.properties.description, null);
    assert.equal(untexted._links.description, undefined);
    assert.equal(await status(literalUrl('LIT-M3')), 404);
    for (const id of [first, second]) {
      const deleted = await t().request({ method: 'DELETE', url: `${API}/productionOrders/${id}` });
      assert.equal(deleted.statusCode, 204, deleted.body);
    }
    for (const number of ['LIT-M1', 'LIT-M2']) {
      assert.deepEqual([await status(materialUrl(number)), await status(literalUrl(number))], [404, 404]);
    }
  });
});
