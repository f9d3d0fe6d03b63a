// Tickets (docs/resources/tickets.md): an issue raised at the plant, its activities, the remarks
// on an activity and the files attached to either; the state rules between them.
import { AppError } from './errors.ts';
import type { Stored } from './stored.ts';
import type { Transitions } from './transitions.ts';

export const TICKET_PRIORITIES = ['LOW', 'MEDIUM', 'HIGH', 'VERY_HIGH'] as const;
export type TicketPriority = (typeof TICKET_PRIORITIES)[number];

/** Master data kinds (master_data_entries.kind) a ticket refers to. */
export const TICKET_STATES_KIND = 'ticketStates';
export const TICKET_CLASSES_KIND = 'ticketClasses';
export const TICKET_ACTIVITY_STATES_KIND = 'ticketActivityStates';

/**
 * Ticket states and where each may go (the SDK's TicketState): work starts, ends (DONE), is
 * confirmed or reopened; CONFIRMED is final.
 */
export const TICKET_TRANSITIONS: Transitions = {
  NEW: ['IN_PROGRESS', 'DONE'],
  IN_PROGRESS: ['DONE'],
  DONE: ['CONFIRMED', 'REOPENED'],
  REOPENED: ['IN_PROGRESS', 'DONE'],
  CONFIRMED: [],
};

/** A closed ticket (DONE, CONFIRMED) takes no changes below it until it is reopened. */
const CLOSED_TICKET_STATES: readonly string[] = ['DONE', 'CONFIRMED'];

/** Activity states (the SDK's TicketActivityState): an activity may go back while its ticket is open. */
export const TICKET_ACTIVITY_TRANSITIONS: Transitions = {
  NEW: ['IN_PROGRESS', 'DONE'],
  IN_PROGRESS: ['NEW', 'DONE'],
  DONE: ['IN_PROGRESS'],
};

/** Refuses a change below a closed ticket (an activity, remark or attachment). */
export function checkTicketOpen(ticket: Ticket, change: string): void {
  if (!CLOSED_TICKET_STATES.includes(ticket.ticketStateId)) return;
  throw new AppError('INVALID_TRANSITION', {
    rule: 'closed',
    id: ticket.id,
    current: ticket.ticketStateId,
    requested: change,
  });
}

export interface Material {
  number: string;
  description: string | null;
}

/** What POST and PUT /tickets set. */
export interface TicketInput {
  title: string;
  description: string | null;
  rootCause: string | null;
  priority: TicketPriority;
  editor: string | null;
  /** Null: NEW for a new ticket, unchanged for a replaced one. */
  ticketStateId: string | null;
  ticketClassId: string | null;
  operationId: string | null;
  materialNumber: string | null;
  workplaceId: string | null;
  shiftId: string | null;
}

/** The workplace a ticket names, as the ticket shows it. */
interface TicketWorkplace {
  id: string;
  number: string;
  description: string | null;
  erpContextId: string | null;
}

export interface Ticket extends Stored {
  number: string;
  title: string;
  description: string | null;
  rootCause: string | null;
  priority: TicketPriority;
  editor: string | null;
  ticketStateId: string;
  ticketClassId: string | null;
  operationId: string | null;
  material: Material | null;
  workplace: TicketWorkplace | null;
  shiftId: string | null;
  /** The workplace of the shift, for its link. */
  shiftWorkplaceId: string | null;
}

/** Properties whose change is a TICKET_UPDATED (the state has TICKET_STATE_CHANGED). */
export const TICKET_CHARACTERISTICS = [
  'title',
  'description',
  'rootCause',
  'priority',
  'editor',
  'ticketClassId',
  'operationId',
  'materialNumber',
  'workplaceId',
  'shiftId',
] as const;

export interface TicketActivityInput {
  title: string;
  description: string | null;
  editor: string | null;
  /** Null: NEW for a new activity, unchanged for a replaced one. */
  ticketActivityStateId: string | null;
  dueDate: Date | null;
}

export interface TicketActivity extends Stored {
  ticketId: string;
  title: string;
  description: string | null;
  editor: string | null;
  ticketActivityStateId: string;
  dueDate: Date | null;
}

/** The state a new ticket or activity starts in when its body names none. */
export const INITIAL_STATE = 'NEW';

export const ACTIVITY_CHARACTERISTICS = ['title', 'description', 'editor', 'dueDate'] as const;

export interface TicketActivityRemark {
  id: string;
  ticketId: string;
  activityId: string;
  remark: string;
  editor: string | null;
  createdAt: Date;
}

/** A file attached to a ticket (activityId null) or to one of its activities. */
export interface TicketAttachment extends Stored {
  ticketId: string;
  activityId: string | null;
  /** The uploaded file's name and type, null until the first upload. */
  name: string | null;
  description: string;
  editor: string | null;
  mimeType: string | null;
  size: number;
}

/** An upload of an attachment's bytes. */
export interface AttachmentUpload {
  name: string | null;
  mimeType: string;
  editor: string | null;
  bytes: Buffer;
}
