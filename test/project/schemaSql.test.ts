// src/db/schema.sql, the schema in one file, is what a freshly migrated database has, on each
// backend: the file `npm run schema:generate` (src/db/generateSchema.ts) writes from the same
// catalog reads, so a migration without a regenerated file fails here.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, test } from 'node:test';
import { SCHEMA_SQL_FILE, schemaSql } from '../../src/db/generateSchema.ts';
import { BACKENDS, freshDatabase } from '../support/databases.ts';

const committed = readFileSync(SCHEMA_SQL_FILE, 'utf8');

/** The first line where `read` departs from the committed file: what is out of date. */
function firstDifference(read: string): string {
  const want = read.split('\n');
  const have = committed.split('\n');
  const line = want.findIndex((text, index) => text !== have[index]);
  const at = line === -1 ? want.length : line;
  return `line ${at + 1}: committed ${JSON.stringify(have[at])}, migrated ${JSON.stringify(want[at])}`;
}

describe('src/db/schema.sql', () => {
  for (const backend of BACKENDS) {
    test(`is what a freshly migrated ${backend} database has (else: npm run schema:generate)`, async () => {
      const { db, drop } = await freshDatabase(backend);
      try {
        const read = await schemaSql(db);
        assert.ok(read === committed, `src/db/schema.sql is out of date: ${firstDifference(read)}`);
      } finally {
        await drop();
      }
    });
  }

  test('holds each delivery function once, as the last migration that defines it left it', () => {
    const defined = [...committed.matchAll(/^CREATE OR REPLACE FUNCTION (delivery_\w+)\(/gm)].map(
      (m) => m[1],
    );
    assert.deepEqual(defined, [
      'delivery_advance',
      'delivery_lease',
      'delivery_poll',
      'delivery_read',
      'delivery_record_attempts',
      'delivery_skip',
      'delivery_trim',
    ]);
    // Defined in 018, replaced in 021: only 021's text is here, with both files named above it.
    assert.match(committed, /^-- delivery_record_attempts: 018_\w+\.sql; replaced by 021_\w+\.sql$/m);
    // 021's own line: a first attempt's discard has no notification row to remove.
    assert.match(
      committed,
      /i\.outcome = 'DISCARDED' AND \(i\.notification_id IS NULL OR r\.id IS NOT NULL\)/,
    );
  });
});
