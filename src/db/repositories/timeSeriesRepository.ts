import type { Sample } from '../../domain/devices.ts';
import { Conditions } from '../conditions.ts';
import type { Queryable } from '../database.ts';
import type { KeysetPage, KeysetRequest } from '../paging.ts';
import { BY_TIMESTAMP, ownedFind, type Table, timestampPageOf } from '../table.ts';

interface Row {
  id: string;
  device_id: string;
  tag: string;
  timestamp: Date;
  value: number;
}

const toSample = (row: Row): Sample => ({
  id: row.id,
  deviceId: row.device_id,
  tag: row.tag,
  timestamp: row.timestamp,
  value: row.value,
});

/**
 * Inserts a batch with one statement whatever its size: the columns travel as four arrays and
 * are unnested server-side, so the SQL text (and the prepared statement) is always the same and
 * the parameter count stays at four, far from PostgreSQL's 65,535 limit.
 */
export async function insertSamples(db: Queryable, samples: readonly Sample[]): Promise<void> {
  if (samples.length === 0) return;
  await db.query(
    `INSERT INTO recorded_time_series (id, device_id, tag, "timestamp", value)
     SELECT id, $1::uuid, tag, ts, value
     FROM unnest($2::uuid[], $3::text[], $4::timestamptz[], $5::float8[]) AS s (id, tag, ts, value)`,
    [
      samples[0]?.deviceId,
      samples.map((sample) => sample.id),
      samples.map((sample) => sample.tag),
      samples.map((sample) => sample.timestamp.toISOString()),
      samples.map((sample) => sample.value),
    ],
  );
}

export interface SampleFilter {
  tag?: string | undefined;
  /** Inclusive. */
  startDate?: Date | undefined;
  /** Exclusive: adjacent windows never share a sample. */
  endDate?: Date | undefined;
}

const SAMPLES: Table<Row, Sample> = {
  from: 'recorded_time_series',
  select: 'id, device_id, tag, "timestamp", value',
  toItem: toSample,
};

/** A timestamp-mode page of one device's samples, newest first by (timestamp, id). */
export async function listSamples(
  db: Queryable,
  deviceId: string,
  filter: SampleFilter,
  request: KeysetRequest,
): Promise<KeysetPage<Sample>> {
  // Equality on device (and tag) then a range on the timestamp: the prefix of one index.
  const conditions = new Conditions(['device_id = $1'], [deviceId]).equals('tag', filter.tag);
  if (filter.startDate !== undefined) conditions.add((at) => `"timestamp" >= ${at}`, filter.startDate);
  if (filter.endDate !== undefined) conditions.add((at) => `"timestamp" < ${at}`, filter.endDate);
  return timestampPageOf(db, SAMPLES, conditions, BY_TIMESTAMP, request);
}

export const findSample = ownedFind(SAMPLES, 'device_id');

/**
 * Retention: deletes up to `limit` samples of any device whose own time is before `before`,
 * oldest first (index recorded_time_series_by_time; ARRAY(...) keeps the delete on the primary
 * key). Rows another instance is deleting are skipped. Returns how many were deleted.
 */
export async function pruneSamples(db: Queryable, before: Date, limit: number): Promise<number> {
  const [row] = await db.query<{ deleted: number }>(
    `WITH deleted AS (
       DELETE FROM recorded_time_series WHERE id = ANY (ARRAY(
         SELECT id FROM recorded_time_series WHERE "timestamp" < $1
         ORDER BY "timestamp" LIMIT $2
         FOR UPDATE SKIP LOCKED))
       RETURNING 1)
     SELECT count(*)::int AS deleted FROM deleted`,
    [before, limit],
  );
  return row?.deleted ?? 0;
}
