// The shifts staff members work (GET /staffMembers/shifts): derived, never stored. A staff
// member works the shifts of their shift model (`shift_id`) at their assigned workplaces; the
// same period at several of those workplaces is one shift of theirs, the one of the lowest shift
// id. Its id is derived from the staff member's and that shift's, so it is the same on every read.
import type { Span } from '../../domain/planning.ts';
import type { StaffMemberShift } from '../../domain/staffMembers.ts';
import { Conditions, type PeriodFilter } from '../conditions.ts';
import type { Queryable } from '../database.ts';
import { anyOwnerPeriodList, byStartDate, findById, type Table, timestampList } from '../table.ts';

interface Row {
  id: string;
  staff_member_id: string;
  shift_id: string;
  workplace_id: string;
  shift_type_id: string | null;
  start_date: Date;
  end_date: Date;
}

const toStaffMemberShift = (row: Row): StaffMemberShift => ({
  id: row.id,
  staffMemberId: row.staff_member_id,
  shiftId: row.shift_id,
  workplaceId: row.workplace_id,
  shiftTypeId: row.shift_type_id,
  startDate: row.start_date,
  endDate: row.end_date,
});

// Conditions on the period columns reach inside the DISTINCT ON, which groups by them.
const STAFF_MEMBER_SHIFTS: Table<Row, StaffMemberShift> = {
  from: `(SELECT DISTINCT ON (m.id, s.start_date, s.end_date)
       md5(m.id::text || '/' || s.id::text)::uuid AS id, m.id AS staff_member_id, s.id AS shift_id,
       s.workplace_id, s.shift_type_id, s.start_date, s.end_date
     FROM staff_members m
     JOIN staff_member_workplaces a ON a.staff_member_id = m.id
     JOIN shifts s ON s.workplace_id = a.workplace_id AND s.shift_model_id = m.shift_id
     ORDER BY m.id, s.start_date, s.end_date, s.id) staff_member_shifts`,
  toItem: toStaffMemberShift,
};

/** The shifts of every staff member, or of one, overlapping a period; latest start first. */
export const listStaffMemberShifts = anyOwnerPeriodList(STAFF_MEMBER_SHIFTS, 'staff_member_id');

/**
 * The shifts of one staff member overlapping a period that share time with a span (touching it
 * is not enough), as a dispatching's; latest start first.
 */
export const listStaffMemberShiftsDuring = timestampList(
  STAFF_MEMBER_SHIFTS,
  byStartDate<Row>(),
  (filter: PeriodFilter & { ownerId: string; during: Span }) =>
    new Conditions()
      .equals('staff_member_id', filter.ownerId)
      .overlapping(filter)
      .add((at) => `end_date > ${at}`, filter.during.startDate)
      .add((at) => `start_date < ${at}`, filter.during.endDate),
);

/** One staff member's shift by its derived id. */
export const findStaffMemberShift = (db: Queryable, id: string) => findById(db, STAFF_MEMBER_SHIFTS, id);
