import type { Sample } from '../../domain/devices.ts';
import { isUuid } from '../../domain/ids.ts';
import type { Queryable } from '../database.ts';
import { type KeysetPage, type KeysetRequest, keysetPage } from '../paging.ts';

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

/** A timestamp-mode page of one device's samples, newest first by (timestamp, id). */
export async function listSamples(
  db: Queryable,
  deviceId: string,
  filter: SampleFilter,
  request: KeysetRequest,
): Promise<KeysetPage<Sample>> {
  // Equality on device (and tag) then a range on the timestamp: the prefix of one index.
  const where = ['device_id = $1'];
  const params: unknown[] = [deviceId];
  if (filter.tag !== undefined) {
    params.push(filter.tag);
    where.push(`tag = $${params.length}`);
  }
  if (filter.startDate !== undefined) {
    params.push(filter.startDate);
    where.push(`"timestamp" >= $${params.length}`);
  }
  if (filter.endDate !== undefined) {
    params.push(filter.endDate);
    where.push(`"timestamp" < $${params.length}`);
  }
  const page = await keysetPage<Row>(
    db,
    {
      from: 'recorded_time_series',
      where,
      params,
      timestampColumn: '"timestamp"',
      idColumn: 'id',
      select: 'id, device_id, tag, "timestamp", value',
      timestampOf: (row) => row.timestamp,
      idOf: (row) => row.id,
    },
    request,
  );
  return { ...page, items: page.items.map(toSample) };
}

export async function findSample(db: Queryable, deviceId: string, id: string): Promise<Sample | undefined> {
  if (!isUuid(id)) return undefined;
  const rows = await db.query<Row>(
    'SELECT id, device_id, tag, "timestamp", value FROM recorded_time_series WHERE id = $1 AND device_id = $2',
    [id, deviceId],
  );
  return rows[0] === undefined ? undefined : toSample(rows[0]);
}
