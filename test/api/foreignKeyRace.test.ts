// A referenced row deleted while another request writes a reference to it: the write's
// foreign-key check fails inside the database. The answer is what the two requests get one after
// the other (400 INVALID_REFERENCE for the write, 400 RESOURCE_IN_USE for the delete), never a
// 500. The race needs real concurrency, so it runs on PostgreSQL, looping until it is hit.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { LightMyRequestResponse } from 'fastify';
import type { Database } from '../../src/db/database.ts';
import { FOREIGN_KEYS } from '../../src/services/constraintErrors.ts';
import { describeEachBackend, json } from '../support/app.ts';

const ENV = { BRIDGE_DELIVERY_ENABLED: 'false' };
const MAX_TRIES = 400;

/** Counts transactions that failed on a foreign key inside the database (the race, not the check). */
function countForeignKeyFailures(db: Database): { hits: number; restore(): void } {
  const original = db.transaction;
  const counter = {
    hits: 0,
    restore: () => {
      db.transaction = original;
    },
  };
  db.transaction = (work) =>
    original.call(db, work).catch((error: unknown) => {
      if ((error as { code?: string }).code === '23503') counter.hits += 1;
      throw error;
    }) as never;
  return counter;
}

const codeOf = (response: LightMyRequestResponse) =>
  response.statusCode >= 400 ? String(json(response).code) : String(response.statusCode);

describeEachBackend(
  'foreign keys',
  (t) => {
    test('every foreign key of the schema has its meaning for clients', async () => {
      const rows = await t().app.db.query<{ name: string }>(
        "SELECT conname AS name FROM pg_constraint WHERE contype = 'f' ORDER BY conname",
      );
      assert.ok(rows.length > 20);
      assert.deepEqual(
        rows.map((row) => row.name).filter((name) => !(name in FOREIGN_KEYS)),
        [],
      );
      assert.deepEqual(
        Object.keys(FOREIGN_KEYS).filter((name) => !rows.some((row) => row.name === name)),
        [],
      );
    });

    test('a group deleted while workplaces are created or moved into it: never a 500', async (ctx) => {
      if (t().backend !== 'postgres') return ctx.skip('needs concurrent connections');
      const request = t().request;
      const group = async (number: string, type = 'CAPACITY_GROUP') => {
        const response = await request({
          method: 'POST',
          url: '/api/v2/workplaceGroups',
          body: { number, type },
        });
        assert.equal(response.statusCode, 201, response.body);
        return String(json(response).properties.id);
      };
      const home = await group('RACE-HOME');
      const moved = await request({
        method: 'POST',
        url: '/api/v2/workplaces',
        body: { number: 'RACE-MOVED', capacityGroupId: home },
      });
      const movedId = String(json(moved).properties.id);
      const counter = countForeignKeyFailures(t().app.db);
      const outcomes = new Map<string, number>();
      let tries = 0;
      try {
        for (; tries < MAX_TRIES && counter.hits < 3; tries += 1) {
          const doomed = await group(`RACE-G${tries}`);
          const line = await group(`RACE-L${tries}`, 'PRODUCTION_LINE');
          // Three writes race two deletes: a new workplace, a moved one, one on a production line.
          const [created, put, onLine, deleted, deletedLine] = await Promise.all([
            request({
              method: 'POST',
              url: '/api/v2/workplaces',
              body: { number: `RACE-W${tries}`, capacityGroupId: doomed },
            }),
            request({
              method: 'PUT',
              url: `/api/v2/workplaces/${movedId}`,
              body: { number: 'RACE-MOVED', capacityGroupId: doomed },
            }),
            request({
              method: 'POST',
              url: '/api/v2/workplaces',
              body: { number: `RACE-P${tries}`, capacityGroupId: home, productionLineId: line },
            }),
            request({ method: 'DELETE', url: `/api/v2/workplaceGroups/${doomed}` }),
            request({ method: 'DELETE', url: `/api/v2/workplaceGroups/${line}` }),
          ]);
          for (const [name, response, allowed] of [
            ['create', created, ['201', 'INVALID_REFERENCE']],
            ['put', put, ['200', 'INVALID_REFERENCE']],
            ['line', onLine, ['201', 'INVALID_REFERENCE']],
            ['delete', deleted, ['204', 'RESOURCE_IN_USE']],
            ['deleteLine', deletedLine, ['204', 'RESOURCE_IN_USE']],
          ] as const) {
            const code = codeOf(response);
            assert.ok(
              (allowed as readonly string[]).includes(code),
              `${name}: ${response.statusCode} ${response.body}`,
            );
            outcomes.set(`${name} ${code}`, (outcomes.get(`${name} ${code}`) ?? 0) + 1);
          }
          // One after the other: either the delete came first or the writes did.
          const writesWon = codeOf(created) === '201' || codeOf(put) === '200';
          assert.equal(codeOf(deleted), writesWon ? 'RESOURCE_IN_USE' : '204');
          if (codeOf(created) === 'INVALID_REFERENCE') {
            assert.match(String(json(created).message), /capacityGroupId/);
          }
          if (codeOf(onLine) === 'INVALID_REFERENCE') {
            assert.match(String(json(onLine).message), /productionLineId/);
          }
          // Put the moved workplace back, so the next round can move it again.
          const back = await request({
            method: 'PUT',
            url: `/api/v2/workplaces/${movedId}`,
            body: { number: 'RACE-MOVED', capacityGroupId: home },
          });
          assert.equal(back.statusCode, 200, back.body);
        }
      } finally {
        counter.restore();
      }
      ctx.diagnostic(`${tries} rounds, ${counter.hits} writes failed on the foreign key itself`);
      ctx.diagnostic(JSON.stringify(Object.fromEntries(outcomes)));
      assert.ok(counter.hits > 0, `the race was not hit in ${tries} rounds`);
    });
  },
  ENV,
);
