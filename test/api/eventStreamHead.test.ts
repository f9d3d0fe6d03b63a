// HEAD on the event stream (docs/api.md, "Event stream") answers at once with the stream's headers
// and takes no stream slot: after more HEADs than a client may have streams, its GET is 200.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { describeEachBackend } from '../support/app.ts';

describeEachBackend(
  'HEAD on the event stream',
  (t) => {
    test('five HEADs answer at once with headers only; then a GET stream is 200', async () => {
      const { app } = t();
      await app.server.listen({ host: '127.0.0.1', port: 0 });
      const url = `http://127.0.0.1:${(app.server.server.address() as { port: number }).port}/api/v2/events/stream`;
      const headers = { authorization: `Bearer ${await t().token(['read'])}` };
      for (let i = 0; i < 5; i += 1) {
        const response = await fetch(url, { method: 'HEAD', headers, signal: AbortSignal.timeout(30_000) });
        assert.equal(response.status, 200);
        assert.match(response.headers.get('content-type') ?? '', /^text\/event-stream/);
        assert.equal(await response.text(), '');
      }
      assert.equal(t().app.eventStream.size, 0);
      const abort = new AbortController();
      const stream = await fetch(url, { headers, signal: abort.signal });
      assert.equal(stream.status, 200);
      assert.equal(t().app.eventStream.size, 1);
      abort.abort();
    });
  },
  { BRIDGE_EVENT_STREAM_MAX_PER_CLIENT: '5' },
);
