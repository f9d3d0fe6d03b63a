import { isUuid } from '../../domain/ids.ts';
import type { Absence, EndActivity, RecordedActivity, StaffMember } from '../../domain/staffMembers.ts';
import { Conditions } from '../conditions.ts';
import type { Queryable } from '../database.ts';
import { history } from '../history.ts';
import {
  batchFind,
  findById,
  fromJsonb,
  offsetList,
  ofOwners,
  ownedBy,
  type RowWrites,
  rowWrites,
  type Table,
  typed,
} from '../table.ts';

interface StoredAbsence {
  startDate: string;
  endDate: string;
  reason: string | null;
}

interface Row {
  id: string;
  staff_number: string;
  first_name: string;
  last_name: string;
  email: string | null;
  erp_context_id: string | null;
  identification_number: string | null;
  qualifications: string[];
  assigned_workplace_ids: string[];
  shift_id: string | null;
  absences: StoredAbsence[] | string;
  created_at: Date;
  updated_at: Date;
}

// The assignments come along as an ordered array, so one query reads a whole staff member.
const COLUMNS = `s.*, ARRAY(SELECT a.workplace_id::text FROM staff_member_workplaces a
    WHERE a.staff_member_id = s.id ORDER BY a.position) AS assigned_workplace_ids`;
const SELECT = `SELECT ${COLUMNS} FROM staff_members s`;

const toStaffMember = (row: Row): StaffMember => ({
  id: row.id,
  staffNumber: row.staff_number,
  firstName: row.first_name,
  lastName: row.last_name,
  email: row.email,
  erpContextId: row.erp_context_id,
  identificationNumber: row.identification_number,
  qualifications: row.qualifications,
  assignedWorkplaceIds: row.assigned_workplace_ids,
  shiftId: row.shift_id,
  absences: fromJsonb(row.absences).map((absence) => ({
    startDate: new Date(absence.startDate),
    endDate: new Date(absence.endDate),
    reason: absence.reason,
  })),
  createdAt: row.created_at,
  updatedAt: row.updated_at,
});

const absencesJson = (absences: readonly Absence[]) =>
  JSON.stringify(
    absences.map((absence) => ({
      startDate: absence.startDate.toISOString(),
      endDate: absence.endDate.toISOString(),
      reason: absence.reason,
    })),
  );

const STAFF_MEMBERS: Table<Row, StaffMember> = {
  from: 'staff_members s',
  select: COLUMNS,
  id: 's.id',
  toItem: toStaffMember,
};

export interface StaffMemberFilter {
  staffNumber?: string;
  workplaceId?: string;
  qualification?: string;
}

export const listStaffMembers = offsetList(
  STAFF_MEMBERS,
  's.staff_number, s.id',
  (filter: StaffMemberFilter) => {
    const conditions = new Conditions().equals('s.staff_number', filter.staffNumber);
    if (filter.workplaceId !== undefined) {
      conditions.add(
        (at) => `EXISTS (SELECT 1 FROM staff_member_workplaces a
      WHERE a.staff_member_id = s.id AND a.workplace_id = ${at}::uuid)`,
        filter.workplaceId,
      );
    }
    if (filter.qualification !== undefined) {
      // `@>` so the GIN index on qualifications serves the filter.
      conditions.add((at) => `s.qualifications @> ${at}::text[]`, [filter.qualification]);
    }
    return conditions;
  },
);

/**
 * The staff members with an open activity at each of these workplaces (a workplace's
 * currentStaffMembers), in one query, by staff number.
 */
export async function findCurrentStaffMembers(
  db: Queryable,
  workplaceIds: readonly string[],
): Promise<{ workplaceId: string; member: StaffMember }[]> {
  if (workplaceIds.length === 0) return [];
  const rows = await db.query<Row & { current_workplace_id: string }>(
    `SELECT * FROM (${SELECT}) m JOIN (SELECT DISTINCT r.workplace_id AS current_workplace_id, r.staff_member_id
       FROM recorded_staff_activities r
       WHERE r.end_date IS NULL AND r.workplace_id = ANY($1::uuid[])) c ON c.staff_member_id = m.id
     ORDER BY m.staff_number, m.id`,
    [workplaceIds],
  );
  return rows.map((row) => ({ workplaceId: row.current_workplace_id, member: toStaffMember(row) }));
}

export async function findStaffMember(
  db: Queryable,
  id: string,
  lock = false,
): Promise<StaffMember | undefined> {
  return findById(db, STAFF_MEMBERS, id, { lock: lock ? ' FOR UPDATE OF s' : '' });
}

/** The staff members with these ids, in no particular order (the embeds of a page). */
export const findStaffMembers = batchFind(STAFF_MEMBERS);

const rows = rowWrites<StaffMember>()(
  'staff_members',
  'id staffNumber firstName lastName email shiftId createdAt updatedAt erpContextId identificationNumber',
  {
    other: (member) => ({
      qualifications: typed(member.qualifications, 'text[]'),
      absences: typed(absencesJson(member.absences), 'jsonb'),
    }),
  },
);

/**
 * A staff member's row with its assigned workplaces; a delete takes its assignments and recorded
 * activities with it (cascade).
 */
export const staffMemberWrites: RowWrites<StaffMember> = {
  insert: async (db, member) => {
    await rows.insert(db, member);
    await assignWorkplaces(db, member.id, member.assignedWorkplaceIds);
  },
  update: async (db, member) => {
    await rows.update(db, member);
    await db.query('DELETE FROM staff_member_workplaces WHERE staff_member_id = $1', [member.id]);
    await assignWorkplaces(db, member.id, member.assignedWorkplaceIds);
  },
  delete: rows.delete,
};

async function assignWorkplaces(db: Queryable, staffMemberId: string, workplaceIds: readonly string[]) {
  if (workplaceIds.length === 0) return;
  await db.query(
    `INSERT INTO staff_member_workplaces (staff_member_id, workplace_id, position)
     SELECT $1, w.id, w.position FROM unnest($2::uuid[]) WITH ORDINALITY AS w (id, position)`,
    [staffMemberId, workplaceIds],
  );
}

interface ActivityRow {
  id: string;
  staff_member_id: string;
  operation_id: string | null;
  workplace_id: string | null;
  start_date: Date;
  end_date: Date | null;
  end_activity: EndActivity | null;
}

const toActivity = (row: ActivityRow): RecordedActivity => ({
  id: row.id,
  staffMemberId: row.staff_member_id,
  operationId: row.operation_id,
  workplaceId: row.workplace_id,
  startDate: row.start_date,
  endDate: row.end_date,
  endActivity: row.end_activity,
});

/** The latest record of the staff member on the operation (the open one, if any, is the latest). */
export async function findLatestActivity(
  db: Queryable,
  staffMemberId: string,
  operationId: string,
): Promise<RecordedActivity | undefined> {
  if (!isUuid(operationId)) return undefined;
  const rows = await db.query<ActivityRow>(
    `SELECT * FROM recorded_staff_activities WHERE staff_member_id = $1 AND operation_id = $2
     ORDER BY start_date DESC, id DESC LIMIT 1`,
    [staffMemberId, operationId],
  );
  return rows[0] === undefined ? undefined : toActivity(rows[0]);
}

export async function insertActivity(db: Queryable, record: RecordedActivity): Promise<void> {
  await db.query(
    `INSERT INTO recorded_staff_activities
       (id, staff_member_id, operation_id, workplace_id, start_date, end_date, end_activity)
     VALUES ($1, $2, $3, $4, $5, $6, $7)`,
    [
      record.id,
      record.staffMemberId,
      record.operationId,
      record.workplaceId,
      record.startDate,
      record.endDate,
      record.endActivity,
    ],
  );
}

export async function closeActivity(db: Queryable, record: RecordedActivity): Promise<void> {
  await db.query('UPDATE recorded_staff_activities SET end_date = $2, end_activity = $3 WHERE id = $1', [
    record.id,
    record.endDate,
    record.endActivity,
  ]);
}

/** The open activity records of these staff members, newest start first: what each works on now. */
export const findOpenActivities = ofOwners(
  { from: 'recorded_staff_activities', toItem: toActivity } satisfies Table<ActivityRow, RecordedActivity>,
  'staff_member_id = ANY($1::uuid[]) AND end_date IS NULL',
  'start_date DESC, id DESC',
);

const activities = history('recorded_staff_activities', 'staff_member_id', toActivity);
export const listActivities = activities.list;
export const findActivity = activities.find;
/** The staff member's activity records overlapping a period, newest first. */
export const listActivitiesOverlapping = activities.overlapping;

const ASSIGNMENTS: Table<{ workplace_id: string }, string> = {
  from: 'staff_member_workplaces',
  select: 'workplace_id',
  toItem: (row) => row.workplace_id,
};

/** The assigned workplaces of a staff member, a page in assignment order. */
export const listAssignedWorkplaceIds = offsetList(ASSIGNMENTS, 'position', ownedBy('staff_member_id'));
