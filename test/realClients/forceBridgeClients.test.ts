// Replays of public FORCE Bridge API clients (docs/force-bridge-clients.md): request by request what
// each one sends (method, path, query string, headers, body) to a service started with
// BRIDGE_BASE_PATH=/ffwebservices and listening on a real port, with a plain HTTP client (fetch)
// that follows hrefs only as the clients do: absolute URLs, as given. Each test asserts the JSON
// paths its client reads; a client that would crash on a missing field fails here.
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { after, before, describe, test } from 'node:test';
import mqtt, { type MqttClient } from 'mqtt';
import { startTestApp, TEST_CLIENT, type TestApp } from '../support/app.ts';
import { BACKENDS } from '../support/databases.ts';
import { type JsonObject, waitFor } from '../support/faults.ts';
import { needs, portOpen } from '../support/suite.ts';

// The Node-RED flow's broker: skipped with a reason where there is none, required when CI=true.
const MOSQUITTO_1883 = needs(
  'a Mosquitto at 127.0.0.1:1883',
  await portOpen(1883),
  'apt-get install mosquitto; it listens there by default',
);

const BASE_PATH = '/ffwebservices';
const TOKEN_PATH = '/ffauth/oauth2.0/accessToken';

interface Answer {
  status: number;
  headers: Headers;
  body: JsonObject;
}

/** One HTTP exchange as a client library makes it; the body parsed as JSON when there is one. */
async function call(url: string, init: RequestInit = {}): Promise<Answer> {
  const response = await fetch(url, init);
  const text = await response.text();
  return { status: response.status, headers: response.headers, body: text === '' ? {} : JSON.parse(text) };
}

/** What every client reads from the token answer, checked as the clients use it. */
function readToken(answer: Answer): { accessToken: string; refreshToken: string; expiresIn: number } {
  assert.equal(answer.status, 200, JSON.stringify(answer.body));
  const { access_token: accessToken, refresh_token: refreshToken, expires_in: expiresIn } = answer.body;
  assert.equal(typeof accessToken, 'string');
  assert.equal(typeof refreshToken, 'string');
  assert.ok(Number.isInteger(expiresIn) && expiresIn > 0, String(expiresIn));
  return { accessToken, refreshToken, expiresIn };
}

/** An href as a client receives it: an absolute http URL it can request as it is. */
function absoluteHref(href: unknown, origin: string): string {
  assert.equal(typeof href, 'string');
  assert.ok((href as string).startsWith(`${origin}${BASE_PATH}/api/v3`), String(href));
  return href as string;
}

for (const backend of BACKENDS) {
  describe(`real FORCE Bridge clients, replayed [${backend}]`, () => {
    let t: TestApp | undefined;
    let origin = '';
    /** Plant data the clients read: set up through the API like an operator would. */
    const plant = { workplaceId: '', workplaceNumber: `RC-${randomUUID().slice(0, 8)}`, staffNumber: '' };

    const app = () => t as TestApp;
    const bearer = (token: string) => ({ authorization: `Bearer ${token}`, accept: 'application/json' });

    before(async () => {
      t = await startTestApp(backend, { BRIDGE_BASE_PATH: BASE_PATH, BRIDGE_DELIVERY_POLL_MS: '100' });
      await t.app.server.listen({ port: 0, host: '127.0.0.1' });
      origin = `http://127.0.0.1:${(t.app.server.server.address() as AddressInfo).port}`;
      const headers = { authorization: `Bearer ${await t.token()}`, 'content-type': 'application/json' };
      const post = async (path: string, body: unknown) => {
        const answer = await call(`${origin}${BASE_PATH}/api/v2${path}`, {
          method: 'POST',
          headers,
          body: JSON.stringify(body),
        });
        assert.equal(answer.status, 201, JSON.stringify(answer.body));
        return answer.body.properties.id as string;
      };
      const groupId = await post('/workplaceGroups', {
        number: `${plant.workplaceNumber}-CG`,
        type: 'CAPACITY_GROUP',
      });
      plant.workplaceId = await post('/workplaces', {
        number: plant.workplaceNumber,
        description: 'Replay press',
        capacityGroupId: groupId,
      });
      plant.staffNumber = `S-${plant.workplaceNumber}`;
      await post('/staffMembers', { staffNumber: plant.staffNumber, firstName: 'Ada', lastName: 'Replay' });
    });
    after(async () => {
      await t?.close();
    });

    test('FORCAM Python sample: GET token with query parameters, entry point, workplaces, refresh', async () => {
      // token = requests.get(TOKEN_URL, params={client_id, client_secret, grant_type, scope}).json()
      const query = `client_id=${encodeURIComponent(TEST_CLIENT.id)}&client_secret=${encodeURIComponent(TEST_CLIENT.secret)}&grant_type=client_credentials&scope=read%20write`;
      const token = readToken(await call(`${origin}${TOKEN_PATH}?${query}`));

      // requests.get(BASE_URL + '/ffwebservices/api/v3/', headers=...)
      const entry = await call(`${origin}${BASE_PATH}/api/v3/`, { headers: bearer(token.accessToken) });
      assert.equal(entry.status, 200, JSON.stringify(entry.body));
      assert.equal(entry.body.properties.version, 3);
      const workplacesHref = absoluteHref(entry.body._links.workplaces.href, origin);

      // requests.get(workplaces_href, params={'limit': 100, 'offset': 0})
      const list = await call(`${workplacesHref}?limit=100&offset=0`, { headers: bearer(token.accessToken) });
      assert.equal(list.status, 200, JSON.stringify(list.body));
      const rows = list.body._embedded.workplaces.map((workplace: JsonObject) => {
        const { id, number, description, operatingState } = workplace.properties;
        return {
          id,
          number,
          description,
          state: [operatingState.id, operatingState.code, operatingState.description],
        };
      });
      const mine = rows.find((row: JsonObject) => row.number === plant.workplaceNumber);
      assert.deepEqual(mine, {
        id: plant.workplaceId,
        number: plant.workplaceNumber,
        description: 'Replay press',
        state: [mine.state[0], '999', mine.state[2]],
      });
      assert.equal(typeof mine.state[2], 'string');

      // requests.get(workplace['_links']['self']['href'])
      const self = absoluteHref(list.body._embedded.workplaces[0]._links.self.href, origin);
      const one = await call(self, { headers: bearer(token.accessToken) });
      assert.equal(one.status, 200);
      assert.equal(typeof one.body.properties.id, 'string');

      // oauth.refresh_token(TOKEN_URL, refresh_token=token['refresh_token'], client_id, client_secret)
      const refreshed = readToken(
        await call(`${origin}${TOKEN_PATH}`, {
          method: 'POST',
          headers: { 'content-type': 'application/x-www-form-urlencoded' },
          body: new URLSearchParams({
            grant_type: 'refresh_token',
            refresh_token: token.refreshToken,
            client_id: TEST_CLIENT.id,
            client_secret: TEST_CLIENT.secret,
          }).toString(),
        }),
      );
      assert.notEqual(refreshed.refreshToken, token.refreshToken);
      const again = await call(`${origin}${BASE_PATH}/api/v3/workplaces/${plant.workplaceId}`, {
        headers: bearer(refreshed.accessToken),
      });
      assert.equal(again.status, 200);
    });

    test('Postman collection: POST token form under the base path, then workplaces/{id}', async () => {
      const token = readToken(
        await call(`${origin}${BASE_PATH}${TOKEN_PATH}`, {
          method: 'POST',
          headers: { 'content-type': 'application/x-www-form-urlencoded' },
          body: `grant_type=client_credentials&client_id=${encodeURIComponent(TEST_CLIENT.id)}&client_secret=${encodeURIComponent(TEST_CLIENT.secret)}&scope=read`,
        }),
      );
      const workplace = await call(`${origin}${BASE_PATH}/api/v3/workplaces/${plant.workplaceId}`, {
        headers: bearer(token.accessToken),
      });
      assert.equal(workplace.status, 200, JSON.stringify(workplace.body));
      const { id, number, operatingState } = workplace.body.properties;
      assert.deepEqual([id, number, operatingState.code], [plant.workplaceId, plant.workplaceNumber, '999']);
      absoluteHref(workplace.body._links.self.href, origin);
    });

    test('Java sample (HttpURLConnection): Basic + grant_type in the query, operating states', async () => {
      const basic = Buffer.from(`${TEST_CLIENT.id}:${TEST_CLIENT.secret}`).toString('base64');
      const token = readToken(
        await call(`${origin}${TOKEN_PATH}?grant_type=client_credentials&scope=read`, {
          method: 'POST',
          headers: { authorization: `Basic ${basic}` },
        }),
      );
      const entry = await call(`${origin}${BASE_PATH}/api/v3`, { headers: bearer(token.accessToken) });
      const statesHref = absoluteHref(entry.body._links.operatingStates.href, origin);
      const states = await call(statesHref, { headers: bearer(token.accessToken) });
      assert.equal(states.status, 200, JSON.stringify(states.body));
      const rows = states.body._embedded.operatingStates.map((state: JsonObject) => {
        const { code, shortDescription, description, color } = state.properties;
        return { code, shortDescription, description, color };
      });
      const production = rows.find((row: JsonObject) => row.code === '110');
      assert.ok(production, 'operating state 110');
      for (const field of ['shortDescription', 'description', 'color']) {
        assert.equal(typeof production[field], 'string', field);
      }
    });

    test('.NET sample: staff members id, firstName, lastName', async () => {
      const query = `grant_type=client_credentials&client_id=${encodeURIComponent(TEST_CLIENT.id)}&client_secret=${encodeURIComponent(TEST_CLIENT.secret)}`;
      const token = readToken(await call(`${origin}${BASE_PATH}${TOKEN_PATH}?${query}`));
      const staff = await call(`${origin}${BASE_PATH}/api/v3/staffMembers?limit=100&offset=0`, {
        headers: bearer(token.accessToken),
      });
      assert.equal(staff.status, 200, JSON.stringify(staff.body));
      const people = staff.body._embedded.staffMembers.map((member: JsonObject) => {
        const { id, firstName, lastName } = member.properties;
        return { id, firstName, lastName };
      });
      const ada = people.find((person: JsonObject) => person.lastName === 'Replay');
      assert.deepEqual(ada, { id: ada.id, firstName: 'Ada', lastName: 'Replay' });
      assert.equal(typeof ada.id, 'string');
    });

    test('Node-RED flow: MQTT callback on external/statechange with objectFilter id and maxRedeliveryAttempts', {
      skip: MOSQUITTO_1883,
    }, async () => {
      const topic = 'external/statechange';
      const subscriber: MqttClient = await mqtt.connectAsync({ host: '127.0.0.1', port: 1883 });
      try {
        const received: JsonObject[] = [];
        subscriber.on('message', (_topic, payload) => received.push(JSON.parse(payload.toString('utf8'))));
        await subscriber.subscribeAsync(topic, { qos: 1 });
        const token = readToken(
          await call(
            `${origin}${TOKEN_PATH}?client_id=${encodeURIComponent(TEST_CLIENT.id)}&client_secret=${encodeURIComponent(TEST_CLIENT.secret)}&grant_type=client_credentials&scope=read%20write`,
          ),
        );
        const headers = { ...bearer(token.accessToken), 'content-type': 'application/json' };
        const registered = await call(`${origin}${BASE_PATH}/api/v3/callbacks`, {
          method: 'POST',
          headers,
          body: JSON.stringify({
            eventType: 'WORKPLACE_OPERATING_STATE_CHANGED',
            url: `mqtt://127.0.0.1:1883/${topic}`,
            objectFilter: [{ name: 'id', value: plant.workplaceId }],
            maxRedeliveryAttempts: 3,
          }),
        });
        assert.equal(registered.status, 201, JSON.stringify(registered.body));
        const callbackId = registered.body.properties.id;
        try {
          const changed = await call(
            `${origin}${BASE_PATH}/api/v3/workplaces/${plant.workplaceId}/operatingState/110`,
            { method: 'POST', headers: bearer(token.accessToken) },
          );
          assert.equal(changed.status, 200, JSON.stringify(changed.body));
          // The broker is shared: only this callback's messages count.
          const message = await waitFor('the state change over MQTT', () =>
            received.find((body) => body.properties?.callbackId === callbackId),
          );
          const { currentOperatingState: current, previousOperatingState: previous } =
            message.properties.data;
          assert.deepEqual([current.code, previous.code], ['110', '999']);
          assert.equal(typeof current.description, 'string');
          assert.equal(typeof previous.description, 'string');
          // The delivered callback link is absolute too: this instance's own address.
          assert.equal(message._links.callback.href, `${origin}${BASE_PATH}/api/v2/callbacks/${callbackId}`);
        } finally {
          await call(`${origin}${BASE_PATH}/api/v3/callbacks/${callbackId}`, {
            method: 'DELETE',
            headers: bearer(token.accessToken),
          });
        }
      } finally {
        await subscriber.endAsync(true);
      }
    });

    test('unsupported FORCE Bridge resources stay 404', async () => {
      const token = await app().token();
      for (const path of ['/customized/reports/any', '/customized/anything']) {
        const answer = await call(`${origin}${BASE_PATH}/api/v3${path}`, { headers: bearer(token) });
        assert.equal(answer.status, 404, path);
      }
      const customized = await call(`${origin}${BASE_PATH}/api/v3/callbacks`, {
        method: 'POST',
        headers: { ...bearer(token), 'content-type': 'application/json' },
        body: JSON.stringify({ eventType: 'CUSTOMIZED_ACTION_TRIGGERED', url: 'http://127.0.0.1:9/hook' }),
      });
      assert.equal(customized.status, 400, JSON.stringify(customized.body));
    });

    // The other requests of these clients (operations?isInProgress&workplaceId, workplace embeds
    // currentOperations/currentStaffMembers, quantity and operating-state summaries, the OEE
    // report) are asserted where those parts live: test/api/workplaces.test.ts and
    // test/api/summaries.test.ts.
  });
}
