// Errors of peers in the API (docs/api.md, "Errors of peers"): a failed delivery says what failed
// (here: refused) without the address and port the service connected to.
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { test } from 'node:test';
import { ManualClock } from '../../src/background/clock.ts';
import { createWorkplace, describeEachBackend, json } from '../support/app.ts';
import { waitFor } from '../support/wait.ts';

const API = '/api/v2';

describeEachBackend(
  'errors of peers',
  (t) => {
    test('a refused delivery reads "connection refused", with no address or port', async () => {
      // A port nothing listens on: connections are refused.
      const closed = createServer();
      await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
      const port = (closed.address() as AddressInfo).port;
      await new Promise((resolve) => closed.close(resolve));

      const workplaceId = await createWorkplace(t(), 'PEER-1');
      const created = await t().request({
        method: 'POST',
        url: `${API}/callbacks`,
        body: {
          eventType: 'WORKPLACE_OPERATING_STATE_CHANGED',
          url: `http://localhost:${port}/hook`,
          objectFilter: [{ name: 'id', value: workplaceId }],
        },
      });
      assert.equal(created.statusCode, 201, created.body);
      const callbackId = json(created).properties.id;
      const changed = await t().request({
        method: 'POST',
        url: `${API}/workplaces/${workplaceId}/operatingState/110`,
      });
      assert.equal(changed.statusCode, 200, changed.body);
      await t().app.delivery?.drain();
      const deliveries = await waitFor('a failed attempt', async () => {
        const response = await t().request({ url: `${API}/callbacks/${callbackId}/deliveries` });
        const list = json(response)._embedded?.deliveries ?? [];
        return list.length > 0 ? { list, body: response.body } : undefined;
      });
      assert.equal(deliveries.list[0].outcome, 'FAILED');
      assert.equal(deliveries.list[0].error, 'connection refused');
      assert.doesNotMatch(deliveries.body, /127\.0\.0\.1|::1|ECONNREFUSED/);
    });
  },
  {},
  () => ({ clock: new ManualClock() }),
);
