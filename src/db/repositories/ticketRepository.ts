// Tickets, their activities and the remarks on an activity (docs/resources/tickets.md).

import { isUuid } from '../../domain/ids.ts';
import type { Ticket, TicketActivity, TicketActivityRemark, TicketPriority } from '../../domain/tickets.ts';
import { Conditions } from '../conditions.ts';
import type { Queryable } from '../database.ts';
import type { KeysetPage, KeysetRequest } from '../paging.ts';
import {
  findById,
  firstItem,
  ownedAll,
  ownedFind,
  rowWrites,
  type Table,
  type TimestampOrder,
  timestampPageOf,
} from '../table.ts';

interface TicketRow {
  id: string;
  number: string;
  title: string;
  description: string | null;
  root_cause: string | null;
  priority: TicketPriority;
  editor: string | null;
  ticket_state_id: string;
  ticket_class_id: string | null;
  workplace_id: string | null;
  operation_id: string | null;
  shift_id: string | null;
  material_number: string | null;
  material_description: string | null;
  created_at: Date;
  updated_at: Date;
  workplace_number: string | null;
  workplace_description: string | null;
  workplace_erp_context_id: string | null;
  shift_workplace_id: string | null;
}

const toTicket = (row: TicketRow): Ticket => ({
  id: row.id,
  number: String(row.number),
  title: row.title,
  description: row.description,
  rootCause: row.root_cause,
  priority: row.priority,
  editor: row.editor,
  ticketStateId: row.ticket_state_id,
  ticketClassId: row.ticket_class_id,
  operationId: row.operation_id,
  material:
    row.material_number === null
      ? null
      : { number: row.material_number, description: row.material_description },
  workplace:
    row.workplace_id === null
      ? null
      : {
          id: row.workplace_id,
          number: row.workplace_number ?? '',
          description: row.workplace_description,
          erpContextId: row.workplace_erp_context_id,
        },
  shiftId: row.shift_id,
  shiftWorkplaceId: row.shift_workplace_id,
  createdAt: row.created_at,
  updatedAt: row.updated_at,
});

// The ticket with what it shows of its workplace and where its shift's link goes, in one read.
const TICKETS: Table<TicketRow, Ticket> = {
  from: `tickets t
    LEFT JOIN workplaces w ON w.id = t.workplace_id
    LEFT JOIN shifts s ON s.id = t.shift_id`,
  select: `t.*, w.number AS workplace_number,
    w.description AS workplace_description, w.erp_context_id AS workplace_erp_context_id,
    s.workplace_id AS shift_workplace_id`,
  id: 't.id',
  toItem: toTicket,
};

/** Lists below tickets go newest first by creation, as the recorded collections do. */
const byCreation = (column: string): TimestampOrder<{ created_at: Date }> => ({
  timestampColumn: column,
  timestampOf: (row) => row.created_at,
});

export interface TicketFilter {
  workplaceId?: string | undefined;
  workplaceNumber?: string | undefined;
  ticketTitle?: string | undefined;
  ticketNumber?: string | undefined;
  creationDateFrom?: Date | undefined;
  creationDateTo?: Date | undefined;
  operationId?: string | undefined;
  materialNumber?: string | undefined;
  ticketPriority?: string | undefined;
  ticketStateId?: string | undefined;
  ticketClassId?: string | undefined;
}

/** An id filter with a value no uuid column can hold matches nothing (instead of a cast error). */
const uuidOrNone = (value: string) => (isUuid(value) ? value : '00000000-0000-0000-0000-000000000000');

export function listTickets(
  db: Queryable,
  filter: TicketFilter,
  request: KeysetRequest,
): Promise<KeysetPage<Ticket>> {
  const conditions = new Conditions();
  if (filter.workplaceId !== undefined) conditions.equals('t.workplace_id', uuidOrNone(filter.workplaceId));
  if (filter.operationId !== undefined) conditions.equals('t.operation_id', uuidOrNone(filter.operationId));
  conditions
    .equals('w.number', filter.workplaceNumber)
    .equals('t.title', filter.ticketTitle)
    .equals('t.number::text', filter.ticketNumber)
    .equals('t.material_number', filter.materialNumber)
    .equals('t.priority', filter.ticketPriority)
    .equals('t.ticket_class_id', filter.ticketClassId);
  // One state, or several separated by commas (the dashboard's open tickets in one read).
  if (filter.ticketStateId !== undefined) {
    conditions.add((at) => `t.ticket_state_id = ANY(${at}::text[])`, filter.ticketStateId.split(','));
  }
  if (filter.creationDateFrom !== undefined) {
    conditions.add((at) => `t.created_at >= ${at}`, filter.creationDateFrom);
  }
  if (filter.creationDateTo !== undefined)
    conditions.add((at) => `t.created_at < ${at}`, filter.creationDateTo);
  return timestampPageOf(db, TICKETS, conditions, byCreation('t.created_at'), request);
}

/** The ticket; for a write its row is locked first (the outer joins cannot be locked with it). */
export async function findTicket(db: Queryable, id: string, lock = false): Promise<Ticket | undefined> {
  if (lock && isUuid(id)) await db.query('SELECT 1 FROM tickets WHERE id = $1 FOR UPDATE', [id]);
  return findById(db, TICKETS, id);
}

/** The description of a material as an order or operation knows it; undefined when none knows it. */
export async function findMaterialDescription(
  db: Queryable,
  materialNumber: string,
): Promise<{ description: string | null } | undefined> {
  return firstItem(
    db,
    `SELECT material_description FROM production_orders WHERE material_number = $1
     UNION ALL
     SELECT material_description FROM operations WHERE material_number = $1
     LIMIT 1`,
    [materialNumber],
    (row: { material_description: string | null }) => ({ description: row.material_description }),
  );
}

export const ticketWrites = rowWrites<Ticket>()(
  'tickets',
  'id title description rootCause priority editor ticketStateId ticketClassId operationId shiftId createdAt updatedAt',
  {
    other: (ticket) => ({
      workplace_id: ticket.workplace?.id ?? null,
      material_number: ticket.material?.number ?? null,
      material_description: ticket.material?.description ?? null,
    }),
  },
);

interface ActivityRow {
  id: string;
  ticket_id: string;
  title: string;
  description: string | null;
  editor: string | null;
  ticket_activity_state_id: string;
  due_date: Date | null;
  created_at: Date;
  updated_at: Date;
}

const ACTIVITIES: Table<ActivityRow, TicketActivity> = {
  from: 'ticket_activities',
  toItem: (row) => ({
    id: row.id,
    ticketId: row.ticket_id,
    title: row.title,
    description: row.description,
    editor: row.editor,
    ticketActivityStateId: row.ticket_activity_state_id,
    dueDate: row.due_date,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  }),
};

export interface ActivityFilter {
  activityTitle?: string | undefined;
  activityEditor?: string | undefined;
  dueDateFrom?: Date | undefined;
  dueDateTo?: Date | undefined;
  ticketActivityStateId?: string | undefined;
}

export function listActivities(
  db: Queryable,
  ticketId: string,
  filter: ActivityFilter,
  request: KeysetRequest,
): Promise<KeysetPage<TicketActivity>> {
  const conditions = new Conditions(['ticket_id = $1'], [ticketId])
    .equals('title', filter.activityTitle)
    .equals('editor', filter.activityEditor)
    .equals('ticket_activity_state_id', filter.ticketActivityStateId);
  if (filter.dueDateFrom !== undefined) conditions.add((at) => `due_date >= ${at}`, filter.dueDateFrom);
  if (filter.dueDateTo !== undefined) conditions.add((at) => `due_date < ${at}`, filter.dueDateTo);
  return timestampPageOf(db, ACTIVITIES, conditions, byCreation('created_at'), request);
}

export const findActivity = ownedFind(ACTIVITIES, 'ticket_id');

/** Every activity of a ticket, for the events of its delete. */
export const listAllActivities = ownedAll(ACTIVITIES, 'ticket_id', 'created_at, id');

export const activityWrites = rowWrites<TicketActivity>()(
  'ticket_activities',
  'id ticketId title description editor ticketActivityStateId dueDate createdAt updatedAt',
  { fixed: ['ticket_id', 'created_at'] },
);

interface RemarkRow {
  id: string;
  activity_id: string;
  ticket_id: string;
  remark: string;
  editor: string | null;
  created_at: Date;
}

const REMARKS: Table<RemarkRow, TicketActivityRemark> = {
  from: 'ticket_activity_remarks r JOIN ticket_activities a ON a.id = r.activity_id',
  select: 'r.*, a.ticket_id',
  id: 'r.id',
  toItem: (row) => ({
    id: row.id,
    ticketId: row.ticket_id,
    activityId: row.activity_id,
    remark: row.remark,
    editor: row.editor,
    createdAt: row.created_at,
  }),
};

export interface RemarkFilter {
  activityEditor?: string | undefined;
  creationDateFrom?: Date | undefined;
  creationDateTo?: Date | undefined;
}

export function listRemarks(
  db: Queryable,
  activityId: string,
  filter: RemarkFilter,
  request: KeysetRequest,
): Promise<KeysetPage<TicketActivityRemark>> {
  const conditions = new Conditions(['r.activity_id = $1'], [activityId]).equals(
    'r.editor',
    filter.activityEditor,
  );
  if (filter.creationDateFrom !== undefined) {
    conditions.add((at) => `r.created_at >= ${at}`, filter.creationDateFrom);
  }
  if (filter.creationDateTo !== undefined) {
    conditions.add((at) => `r.created_at < ${at}`, filter.creationDateTo);
  }
  return timestampPageOf(db, REMARKS, conditions, byCreation('r.created_at'), request);
}

export const findRemark = ownedFind(REMARKS, 'r.activity_id');

/** Every remark of the activities of a ticket (or of one activity), for the events of a delete. */
export async function listAllRemarks(
  db: Queryable,
  ticketId: string,
  activityId?: string,
): Promise<TicketActivityRemark[]> {
  const conditions = new Conditions(['a.ticket_id = $1'], [ticketId]).equals('r.activity_id', activityId);
  const rows = await db.query<RemarkRow>(
    `SELECT ${REMARKS.select} FROM ${REMARKS.from} WHERE ${conditions.where.join(' AND ')}
     ORDER BY r.created_at, r.id`,
    conditions.params,
  );
  return rows.map(REMARKS.toItem);
}

export const remarkWrites = rowWrites<TicketActivityRemark>()(
  'ticket_activity_remarks',
  'id activityId remark editor createdAt',
);
