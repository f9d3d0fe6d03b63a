import type { RecordedOperatingState, Workplace, WorkplaceType } from '../../domain/workplaces.ts';
import { Conditions, type PeriodFilter } from '../conditions.ts';
import type { Queryable } from '../database.ts';
import { history } from '../history.ts';
import {
  asJsonb,
  batchFind,
  byStartDate,
  fromJsonb,
  insertRow,
  lockableFind,
  offsetList,
  ofOwners,
  rowWrites,
  type Table,
  timestampList,
} from '../table.ts';
import { groupFromJson } from './workplaceGroupRepository.ts';

interface Row {
  id: string;
  number: string;
  description: string | null;
  is_manual_workplace: boolean;
  workplace_type: WorkplaceType;
  erp_context_id: string | null;
  operating_state_id: string;
  latitude: number | null;
  longitude: number | null;
  capacity_group_id: string;
  production_line_id: string | null;
  created_at: Date;
  updated_at: Date;
  /** Its capacity group and production line (`GROUPS_OF_WORKPLACE`); PGlite hands jsonb back parsed. */
  capacity_group: GroupJson | string | null;
  production_line: GroupJson | string | null;
}

const toWorkplace = (row: Row): Workplace => ({
  id: row.id,
  number: row.number,
  description: row.description,
  isManualWorkplace: row.is_manual_workplace,
  workplaceType: row.workplace_type,
  erpContextId: row.erp_context_id,
  operatingStateId: row.operating_state_id,
  geoCoordinates:
    row.latitude === null || row.longitude === null
      ? null
      : { latitude: row.latitude, longitude: row.longitude },
  capacityGroupId: row.capacity_group_id,
  productionLineId: row.production_line_id,
  createdAt: row.created_at,
  updatedAt: row.updated_at,
  readGroups: [row.capacity_group, row.production_line].flatMap((group) =>
    group === null ? [] : [groupFromJson(fromJsonb(group))],
  ),
});

type GroupJson = Parameters<typeof groupFromJson>[0];

/**
 * A workplace is read with its groups in the same statement: showing it needs them, and a second
 * query for them was a second round trip on every read of a workplace and every command's answer.
 * Scalar subqueries, not joins: a lock (`FOR UPDATE`) stays on the workplace row alone.
 */
export const GROUPS_OF_WORKPLACE = `(SELECT to_jsonb(g) FROM workplace_groups g WHERE g.id = w.capacity_group_id) AS capacity_group,
  (SELECT to_jsonb(g) FROM workplace_groups g WHERE g.id = w.production_line_id) AS production_line`;

export interface WorkplaceFilter {
  workplaceGroupNumber?: string;
  workplaceNumber?: string;
  workplaceType?: WorkplaceType;
  erpContextId?: string;
  /** Its capacity group or its production line. */
  workplaceGroupId?: string;
  /** Only workplaces with a machine (both machine types; domain/machines.ts). */
  withMachine?: boolean;
}

const WORKPLACES: Table<Row, Workplace> = {
  from: 'workplaces w',
  select: `w.*, ${GROUPS_OF_WORKPLACE}`,
  toItem: toWorkplace,
};

export const listWorkplaces = offsetList(WORKPLACES, 'w.number, w.id', (filter: WorkplaceFilter) => {
  const conditions = new Conditions()
    .equals('w.number', filter.workplaceNumber)
    .equals('w.workplace_type', filter.workplaceType)
    .equals('w.erp_context_id', filter.erpContextId);
  if (filter.withMachine) conditions.add((at) => `w.workplace_type <> ${at}`, 'MANUAL_WORKPLACE');
  if (filter.workplaceGroupId !== undefined) {
    conditions.add(
      (at) => `(w.capacity_group_id = ${at} OR w.production_line_id = ${at})`,
      filter.workplaceGroupId,
    );
  }
  if (filter.workplaceGroupNumber !== undefined) {
    // A workplace belongs to a group as its capacity group or as its production line.
    conditions.add(
      (at) => `EXISTS (SELECT 1 FROM workplace_groups g WHERE g.number = ${at}
      AND (g.id = w.capacity_group_id OR g.id = w.production_line_id))`,
      filter.workplaceGroupNumber,
    );
  }
  return conditions;
});

/** The workplaces with these ids, in no particular order; unknown ids are left out. */
export const findWorkplaces = batchFind(WORKPLACES);

/**
 * The workplaces of these groups (as capacity group or production line), by number: what a page
 * of groups embeds, in one statement.
 */
export const workplacesOfGroups = ofOwners(
  WORKPLACES,
  'w.capacity_group_id = ANY($1::uuid[]) OR w.production_line_id = ANY($1::uuid[])',
  'w.number, w.id',
);

export const findWorkplace = lockableFind(WORKPLACES);

export const workplaceWrites = rowWrites<Workplace>()(
  'workplaces',
  'id number description isManualWorkplace operatingStateId capacityGroupId productionLineId createdAt updatedAt workplaceType erpContextId',
  {
    other: (workplace) => ({
      latitude: workplace.geoCoordinates?.latitude ?? null,
      longitude: workplace.geoCoordinates?.longitude ?? null,
    }),
  },
);

interface RecordRow {
  id: string;
  workplace_id: string;
  operating_state_id: string;
  start_date: Date;
  end_date: Date | null;
  /** PGlite hands jsonb back parsed, node-postgres too; a string only from older drivers. */
  machine_state_detail_ids: string[] | string | null;
  remark: string | null;
}

const toRecord = (row: RecordRow): RecordedOperatingState => ({
  id: row.id,
  workplaceId: row.workplace_id,
  operatingStateId: row.operating_state_id,
  startDate: row.start_date,
  endDate: row.end_date,
  machineStateDetailIds: fromJsonb(row.machine_state_detail_ids) ?? [],
  remark: row.remark ?? null,
});

/** What a record keeps besides its owner and dates. */
const recordColumns = (record: RecordedOperatingState) => ({
  id: record.id,
  operating_state_id: record.operatingStateId,
  machine_state_detail_ids: asJsonb(record.machineStateDetailIds),
  remark: record.remark,
});

const operatingStates = history('recorded_operating_states', 'workplace_id', toRecord);
export const listRecordedOperatingStates = operatingStates.list;
export const findRecordedOperatingState = operatingStates.find;
/**
 * A timestamp page of the workplace's records that overlap a period, newest start first: those
 * ending after `startDate` (the open one lasts on) and starting before `endDate`.
 */
export const listRecordedOperatingStatesIn = timestampList(
  { from: 'recorded_operating_states', toItem: toRecord } satisfies Table<RecordRow, RecordedOperatingState>,
  byStartDate<RecordRow>(),
  ({ workplaceId, startDate, endDate }: PeriodFilter & { workplaceId: string }) => {
    const conditions = new Conditions(['workplace_id = $1'], [workplaceId]);
    if (startDate !== undefined) conditions.add((at) => `(end_date IS NULL OR end_date > ${at})`, startDate);
    if (endDate !== undefined) conditions.add((at) => `start_date < ${at}`, endDate);
    return conditions;
  },
);
/** The workplace's records overlapping a period, newest first. */
export const listOperatingStatesOverlapping = operatingStates.overlapping;
/** The workplace's records that end after a date, locked (a correction's reach). */
export const lockOperatingStatesFrom = operatingStates.lockFrom;
/** A correction's removals and trimmed records. */
export const reshapeOperatingStates = operatingStates.reshape;

/** Closes the open record of the workplace (if any) and opens the new one. */
export async function recordOperatingState(db: Queryable, record: RecordedOperatingState): Promise<void> {
  await operatingStates.open(db, record.workplaceId, record.startDate, recordColumns(record));
}

/** A record with its own dates, inserted by a correction (the history has room for it). */
export async function insertRecordedOperatingState(
  db: Queryable,
  record: RecordedOperatingState,
): Promise<void> {
  await insertRow(db, 'recorded_operating_states', {
    ...recordColumns(record),
    workplace_id: record.workplaceId,
    start_date: record.startDate,
    end_date: record.endDate,
  });
}
