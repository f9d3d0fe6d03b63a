// The connector resource (GET|POST /connectors, GET|PUT|DELETE /connectors/{id}): defaults, the
// write-only password, the status, and bad input (a mapping naming a missing device, tag,
// workplace or state; a source of another type; a URL of the wrong scheme, with credentials, or
// to a denied address) answered 400 naming the field with nothing stored. No instance runs
// connectors here (BRIDGE_CONNECTORS_ENABLED=false): the runtime has its own suites.
import assert from 'node:assert/strict';
import { before, test } from 'node:test';
import { describeEachBackend, json, type TestApp } from '../support/app.ts';
import { createPlant, type Plant } from '../support/connectors.ts';
import { eventsOf } from '../support/events.ts';

const API = '/api/v2';
const MISSING = '0190a4c2-0000-7000-8000-000000000000';

describeEachBackend(
  'connectors: the resource',
  (t) => {
    let plant: Plant;
    const body = () => ({
      name: 'Press 1',
      type: 'MQTT',
      url: 'mqtt://127.0.0.1:1883',
      username: 'press',
      password: 'secret-password-1',
      mappings: [
        {
          source: { topic: 'press/1/temp', valuePath: '/value' },
          target: { kind: 'DEVICE_SAMPLE', deviceId: plant.deviceId, tag: 'temperature' },
        },
        {
          source: { topic: 'press/1/state' },
          target: {
            kind: 'OPERATING_STATE',
            workplaceId: plant.workplaceId,
            values: { RUN: '110', STOP: '410' },
            otherwise: '000',
          },
        },
        {
          source: { topic: 'press/1/count', valuePath: '/count' },
          target: { kind: 'OUTPUT_QUANTITY', workplaceId: plant.workplaceId, quantityType: 'YIELD' },
        },
      ],
    });
    const count = async (app: TestApp) =>
      Number((await app.app.db.query<{ n: number }>('SELECT count(*)::int AS n FROM connectors'))[0]?.n);

    before(async () => {
      plant = await createPlant(t(), 'CN-1');
    });

    test('create, read, list, replace and delete; the password is never shown', async () => {
      const created = await t().request({ method: 'POST', url: `${API}/connectors`, body: body() });
      assert.equal(created.statusCode, 201, created.body);
      const connector = json(created);
      assert.equal(created.headers.location, connector._links.self.href);
      assert.equal(connector.properties.enabled, true);
      assert.equal(connector.properties.securityMode, 'None');
      assert.equal(connector.properties.username, 'press');
      assert.equal('password' in connector.properties, false);
      assert.doesNotMatch(created.body, /secret-password-1/);
      assert.equal(connector.properties.status.state, 'CONNECTING');
      assert.equal(connector.properties.status.valuesApplied, 0);
      assert.equal(connector.properties.mappings.length, 3);

      const list = json(await t().request({ url: `${API}/connectors` }));
      assert.equal(list.pagination.total, 1);
      assert.doesNotMatch(JSON.stringify(list), /secret-password-1/);
      const entry = json(await t().request({ url: `${API}/` }));
      assert.match(entry._links.connectors.href, /\/api\/v2\/connectors$/);

      const id = connector.properties.id;
      const disabled = await t().request({
        method: 'PUT',
        url: `${API}/connectors/${id}`,
        body: { ...body(), password: undefined, enabled: false },
      });
      assert.equal(disabled.statusCode, 200, disabled.body);
      assert.equal(json(disabled).properties.status.state, 'DISABLED');
      const stored = await t().app.db.query<{ password: string }>(
        'SELECT password FROM connectors WHERE id = $1',
        [id],
      );
      assert.equal(stored[0]?.password, 'secret-password-1', 'an absent password keeps the stored one');
      const events = await eventsOf(t(), id, 'CONNECTOR_STATE_CHANGED');
      assert.equal(events.length, 1);
      assert.equal(events[0]?.objectType, 'CONNECTOR');
      assert.deepEqual(events[0]?.data, {
        connectorId: id,
        name: 'Press 1',
        type: 'MQTT',
        currentState: 'DISABLED',
        previousState: 'CONNECTING',
        lastError: null,
      });
      // In the event log the event links the connector it is about.
      const logged = json(
        await t().request({ url: `${API}/events?eventType=CONNECTOR_STATE_CHANGED&objectId=${id}` }),
      )._embedded.events;
      assert.equal(logged[0]?._links.object?.href, `http://localhost:80${API}/connectors/${id}`);

      const deleted = await t().request({ method: 'DELETE', url: `${API}/connectors/${id}` });
      assert.equal(deleted.statusCode, 204);
      assert.equal((await t().request({ url: `${API}/connectors/${id}` })).statusCode, 404);
    });

    test('bad input is 400 naming the field, and nothing is stored', async () => {
      const before = await count(t());
      const good = body();
      const mapping = (index: number, change: Record<string, unknown>) => {
        const mappings = structuredClone(good.mappings) as Record<string, unknown>[];
        mappings[index] = { ...(mappings[index] as object), ...change };
        return { ...good, mappings };
      };
      const cases: [string, unknown, RegExp][] = [
        [
          'missing device',
          mapping(0, { target: { kind: 'DEVICE_SAMPLE', deviceId: MISSING, tag: 'temperature' } }),
          /mappings\[0\]\.target\.deviceId/,
        ],
        [
          'missing tag',
          mapping(0, { target: { kind: 'DEVICE_SAMPLE', deviceId: plant.deviceId, tag: 'pressure' } }),
          /mappings\[0\]\.target\.tag/,
        ],
        [
          'missing workplace',
          mapping(2, { target: { kind: 'OUTPUT_QUANTITY', workplaceId: MISSING, quantityType: 'YIELD' } }),
          /mappings\[2\]\.target\.workplaceId/,
        ],
        [
          'unknown state',
          mapping(1, {
            target: { kind: 'OPERATING_STATE', workplaceId: plant.workplaceId, values: { RUN: '777' } },
          }),
          /mappings\[1\]\.target\.values\.RUN/,
        ],
        [
          'unknown otherwise state',
          mapping(1, {
            target: {
              kind: 'OPERATING_STATE',
              workplaceId: plant.workplaceId,
              values: {},
              otherwise: 'NOPE',
            },
          }),
          /mappings\[1\]\.target\.otherwise/,
        ],
        ['OPC UA source on MQTT', mapping(0, { source: { nodeId: 'ns=1;s=T' } }), /mappings\[0\]\.source/],
        ['bad topic filter', mapping(0, { source: { topic: 'a/#/b' } }), /mappings\[0\]\.source\.topic/],
        [
          'bad pointer',
          mapping(0, { source: { topic: 'a', valuePath: 'value' } }),
          /mappings\[0\]\.source\.valuePath/,
        ],
        ['wrong scheme', { ...good, url: 'http://127.0.0.1:1883' }, /url/],
        ['credentials in URL', { ...good, url: 'mqtt://user:pw@127.0.0.1:1883' }, /url/],
        ['denied address', { ...good, url: 'mqtt://169.254.169.254:1883' }, /url/],
        ['security mode on MQTT', { ...good, securityMode: 'Sign' }, /securityMode/],
        ['unknown type', { ...good, type: 'MODBUS' }, /type/],
        [
          'unknown target kind',
          mapping(0, { target: { kind: 'ALARM', deviceId: plant.deviceId } }),
          /mappings/,
        ],
        ['unknown field', { ...good, colour: 'red' }, /colour/],
        ['wrong type', { ...good, enabled: 'yes' }, /enabled/],
      ];
      for (const [name, input, field] of cases) {
        const response = await t().request({ method: 'POST', url: `${API}/connectors`, body: input });
        assert.equal(response.statusCode, 400, `${name}: ${response.body}`);
        assert.match(json(response).message, field, name);
      }
      assert.equal(await count(t()), before);
      const readOnly = await t().request({
        method: 'POST',
        url: `${API}/connectors`,
        body: good,
        scopes: ['read'],
      });
      assert.equal(readOnly.statusCode, 403);
    });
  },
  { BRIDGE_CONNECTORS_ENABLED: 'false' },
);
