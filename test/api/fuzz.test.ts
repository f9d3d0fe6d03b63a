// The fuzzer (test/support/fuzz.ts) in the normal suite: a fixed seed, then a random one that is
// printed, so a failure can be replayed with `FUZZ_SEED=<seed> npm run fuzz`. Long runs: npm run fuzz.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { startTestApp, type TestApp } from '../support/app.ts';
import { fuzz } from '../support/fuzz.ts';

const ENV = { BRIDGE_DELIVERY_ENABLED: 'false' };
// At least one round over every operation of the document (3 requests each).
const RUNS = 1000;

describe('fuzz over the OpenAPI document [pglite]', () => {
  let t: TestApp;
  before(async () => {
    t = await startTestApp('pglite', ENV);
  });
  after(async () => {
    await t.close();
  });

  for (const [name, seed] of [
    ['fixed seed', 20_261_123],
    ['random seed', Math.floor(Math.random() * 2 ** 31)],
  ] as const) {
    test(`${name} ${seed}: no 5xx, error bodies, refused writes change nothing`, async (ctx) => {
      const figures = await fuzz(t, { seed, runs: RUNS, maxProblems: 5 });
      ctx.diagnostic(
        `seed ${seed}: ${figures.requests} requests over ${figures.operations}/${figures.operationsTotal} operations ` +
          `in ${figures.seconds} s, statuses ${JSON.stringify(figures.byStatus)}`,
      );
      assert.deepEqual(figures.problems, [], `replay: FUZZ_SEED=${seed} FUZZ_RUNS=${RUNS} npm run fuzz`);
      assert.equal(
        figures.operations,
        figures.operationsTotal,
        `not covered: ${figures.uncovered.join(', ')}`,
      );
    });
  }
});
