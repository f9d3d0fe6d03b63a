// Tickets, their activities and remarks (docs/resources/tickets.md): every write in one
// transaction with its TICKET_* events; the state rules are in src/domain/tickets.ts.
import { v7 as uuidv7 } from 'uuid';
import type { Database, Queryable } from '../db/database.ts';
import * as attachments from '../db/repositories/ticketAttachmentRepository.ts';
import * as tickets from '../db/repositories/ticketRepository.ts';
import { AppError } from '../domain/errors.ts';
import { catalogueEvent, type NewEvent } from '../domain/events.ts';
import {
  ACTIVITY_CHARACTERISTICS,
  checkTicketOpen,
  INITIAL_STATE,
  type Material,
  TICKET_ACTIVITY_STATES_KIND,
  TICKET_ACTIVITY_TRANSITIONS,
  TICKET_CHARACTERISTICS,
  TICKET_CLASSES_KIND,
  TICKET_STATES_KIND,
  TICKET_TRANSITIONS,
  type Ticket,
  type TicketActivity,
  type TicketActivityInput,
  type TicketActivityRemark,
  type TicketAttachment,
  type TicketInput,
} from '../domain/tickets.ts';
import { checkTransition } from '../domain/transitions.ts';
import { changedProperties } from '../domain/workplaces.ts';
import { recordEvents } from './eventService.ts';
import { newItem } from './lifecycle.ts';
import { checkMasterDataReference, getMasterDataEntry } from './masterDataService.ts';
import { checkReference } from './referenceService.ts';
import { found, gettingBelow, locking, writeOnFound } from './writes.ts';

/** What TICKET_* events tell of a ticket: enough for a board to place it without a read. */
function ticketData(ticket: Ticket) {
  return {
    ticketId: ticket.id,
    number: ticket.number,
    title: ticket.title,
    priority: ticket.priority,
    ticketStateId: ticket.ticketStateId,
    ticketClassId: ticket.ticketClassId,
    workplaceId: ticket.workplace?.id ?? null,
    operationId: ticket.operationId,
    materialNumber: ticket.material?.number ?? null,
    shiftId: ticket.shiftId,
  };
}

const activityData = (activity: TicketActivity) => ({
  ticketId: activity.ticketId,
  activityId: activity.id,
  title: activity.title,
  editor: activity.editor,
  ticketActivityStateId: activity.ticketActivityStateId,
  dueDate: activity.dueDate?.toISOString() ?? null,
});

const remarkData = (remark: TicketActivityRemark) => ({
  ticketId: remark.ticketId,
  activityId: remark.activityId,
  remarkId: remark.id,
  editor: remark.editor,
});

/** What TICKET_ATTACHMENT_* and TICKET_ACTIVITY_ATTACHMENT_* events tell of an attachment. */
export function attachmentEvent(
  type: 'CREATED' | 'UPDATED' | 'DELETED',
  attachment: TicketAttachment,
  changed?: string[],
) {
  const prefix = attachment.activityId === null ? 'TICKET_ATTACHMENT' : 'TICKET_ACTIVITY_ATTACHMENT';
  return catalogueEvent(`${prefix}_${type}`, attachment.id, {
    ticketId: attachment.ticketId,
    ...(attachment.activityId === null ? {} : { activityId: attachment.activityId }),
    attachmentId: attachment.id,
    name: attachment.name,
    description: attachment.description,
    mimeType: attachment.mimeType,
    size: attachment.size,
    ...(changed ? { changedProperties: changed } : {}),
  });
}

export async function getTicket(db: Queryable, id: string): Promise<Ticket> {
  return found(tickets.findTicket(db, id), 'ticket', id);
}

const lockTicket = locking('ticket', tickets.findTicket);

export const getActivity = gettingBelow('ticketActivity', getTicket, tickets.findActivity);

/** A remark of an activity of the ticket: 404 without the ticket, the activity or the remark. */
export async function getRemark(db: Queryable, ticketId: string, activityId: string, id: string) {
  const activity = await getActivity(db, ticketId, activityId);
  return found(tickets.findRemark(db, activity.id, id), 'ticketActivityRemark', id);
}

/** The references of the body checked (400 INVALID_REFERENCE naming the field), and the material found. */
async function checkTicketReferences(tx: Queryable, input: TicketInput): Promise<Material | null> {
  await checkMasterDataReference(tx, 'ticketStateId', input.ticketStateId, TICKET_STATES_KIND, 'ticketState');
  await checkMasterDataReference(
    tx,
    'ticketClassId',
    input.ticketClassId,
    TICKET_CLASSES_KIND,
    'ticketClass',
  );
  await checkReference(tx, 'workplaceId', input.workplaceId, 'workplaces');
  await checkReference(tx, 'operationId', input.operationId, 'operations');
  await checkReference(tx, 'shiftId', input.shiftId, 'shifts');
  if (input.materialNumber === null) return null;
  const material = await tickets.findMaterialDescription(tx, input.materialNumber);
  if (!material) {
    throw new AppError('INVALID_REFERENCE', {
      field: 'materialNumber',
      id: input.materialNumber,
      expected: 'material',
    });
  }
  return { number: input.materialNumber, description: material.description };
}

/** The ticket as the input makes it (the workplace's other properties are read back after the write). */
function withInput(before: Ticket, input: TicketInput, material: Material | null): Ticket {
  return {
    ...before,
    ticketStateId: input.ticketStateId ?? before.ticketStateId,
    title: input.title,
    description: input.description,
    rootCause: input.rootCause,
    priority: input.priority,
    editor: input.editor,
    ticketClassId: input.ticketClassId,
    operationId: input.operationId,
    material,
    workplace:
      input.workplaceId === null
        ? null
        : input.workplaceId === before.workplace?.id
          ? before.workplace
          : { id: input.workplaceId, number: '', description: null, erpContextId: null },
    shiftId: input.shiftId,
  };
}

const comparable = (ticket: Ticket) => ({
  ...ticket,
  materialNumber: ticket.material?.number ?? null,
  workplaceId: ticket.workplace?.id ?? null,
});

/** A new ticket in the state its body names (an imported ticket may be already DONE). */
export async function createTicket(db: Database, input: TicketInput): Promise<Ticket> {
  return db.transaction(async (tx) => {
    const material = await checkTicketReferences(tx, input);
    const now = new Date();
    const blank: Ticket = {
      id: uuidv7(),
      number: '',
      title: '',
      description: null,
      rootCause: null,
      priority: input.priority,
      editor: null,
      ticketStateId: input.ticketStateId ?? INITIAL_STATE,
      ticketClassId: null,
      operationId: null,
      material: null,
      workplace: null,
      shiftId: null,
      shiftWorkplaceId: null,
      createdAt: now,
      updatedAt: now,
    };
    await tickets.ticketWrites.insert(tx, withInput(blank, input, material));
    const ticket = await getTicket(tx, blank.id);
    await recordEvents(tx, [catalogueEvent('TICKET_CREATED', ticket.id, ticketData(ticket))], now);
    return ticket;
  });
}

/**
 * Replaces the ticket's properties. A different ticketStateId is a state change under the same
 * rules as POST /tickets/{id}/{ticketStateId} (TICKET_STATE_CHANGED); the other properties'
 * changes are a TICKET_UPDATED. The same body again changes nothing.
 */
export async function replaceTicket(db: Database, id: string, input: TicketInput): Promise<Ticket> {
  return writeOnFound(db, lockTicket(id), async (tx, before) => {
    const material = await checkTicketReferences(tx, input);
    const wanted = withInput(before, input, material);
    checkTransition(TICKET_TRANSITIONS, 'ticket', id, before.ticketStateId, wanted.ticketStateId);
    const changed = changedProperties(comparable(before), comparable(wanted), TICKET_CHARACTERISTICS);
    const stateChanged = before.ticketStateId !== wanted.ticketStateId;
    if (changed.length === 0 && !stateChanged) return before;
    const now = new Date();
    await tickets.ticketWrites.update(tx, { ...wanted, updatedAt: now });
    const after = await getTicket(tx, id);
    const events: NewEvent[] = [];
    if (changed.length > 0) {
      events.push(catalogueEvent('TICKET_UPDATED', id, { ...ticketData(after), changedProperties: changed }));
    }
    if (stateChanged) events.push(stateChangedEvent(before, after));
    await recordEvents(tx, events, now);
    return after;
  });
}

const stateChangedEvent = (before: Ticket, after: Ticket) =>
  catalogueEvent('TICKET_STATE_CHANGED', after.id, {
    ...ticketData(after),
    previousTicketStateId: before.ticketStateId,
  });

/** POST /tickets/{id}/{ticketStateId}: 404 for an unknown state, INVALID_TRANSITION for a refused one. */
export async function changeTicketState(db: Database, id: string, requested: string): Promise<Ticket> {
  return writeOnFound(db, lockTicket(id), async (tx, before) => {
    await getMasterDataEntry(tx, TICKET_STATES_KIND, 'ticketState', requested);
    checkTransition(TICKET_TRANSITIONS, 'ticket', id, before.ticketStateId, requested);
    if (before.ticketStateId === requested) return before;
    const after: Ticket = { ...before, ticketStateId: requested, updatedAt: new Date() };
    await tickets.ticketWrites.update(tx, after);
    await recordEvents(tx, [stateChangedEvent(before, after)], after.updatedAt);
    return after;
  });
}

/**
 * Deletes the ticket with its activities, their remarks and every attachment (the foreign keys
 * cascade); each of them gets its DELETED event in the same transaction, the ticket's last.
 */
export async function deleteTicket(db: Database, id: string): Promise<void> {
  await writeOnFound(db, lockTicket(id), async (tx, ticket) => {
    const events = await eventsOfDeletedBelow(tx, ticket.id);
    await tickets.ticketWrites.delete(tx, ticket.id);
    events.push(catalogueEvent('TICKET_DELETED', ticket.id, ticketData(ticket)));
    await recordEvents(tx, events, new Date());
  });
}

/** The DELETED events of what goes with a ticket (or with one activity of it). */
async function eventsOfDeletedBelow(tx: Queryable, ticketId: string, activity?: TicketActivity) {
  const events: NewEvent[] = [];
  for (const attachment of await attachments.listAllAttachments(tx, ticketId, activity?.id)) {
    events.push(attachmentEvent('DELETED', attachment));
  }
  for (const remark of await tickets.listAllRemarks(tx, ticketId, activity?.id)) {
    events.push(catalogueEvent('TICKET_ACTIVITY_REMARK_DELETED', remark.id, remarkData(remark)));
  }
  const activities = activity === undefined ? await tickets.listAllActivities(tx, ticketId) : [activity];
  for (const each of activities) {
    events.push(catalogueEvent('TICKET_ACTIVITY_DELETED', each.id, activityData(each)));
  }
  return events;
}

/** The ticket locked for a change below it, which its state must allow. */
export async function lockOpenTicket(tx: Queryable, ticketId: string, change: string): Promise<Ticket> {
  const ticket = await lockTicket(ticketId)(tx);
  checkTicketOpen(ticket, change);
  return ticket;
}

/** The activity of the ticket, locked, its ticket locked and open. */
export async function lockOpenActivity(tx: Queryable, ticketId: string, activityId: string, change: string) {
  const ticket = await lockOpenTicket(tx, ticketId, change);
  return found(tickets.findActivity(tx, ticket.id, activityId, true), 'ticketActivity', activityId);
}

async function checkActivityState(tx: Queryable, stateId: string | null) {
  await checkMasterDataReference(
    tx,
    'ticketActivityStateId',
    stateId,
    TICKET_ACTIVITY_STATES_KIND,
    'ticketActivityState',
  );
}

export async function createActivity(
  db: Database,
  ticketId: string,
  input: TicketActivityInput,
): Promise<TicketActivity> {
  return db.transaction(async (tx) => {
    await lockOpenTicket(tx, ticketId, 'new activity');
    await checkActivityState(tx, input.ticketActivityStateId);
    const now = new Date();
    const activity: TicketActivity = newItem(
      { ...input, ticketActivityStateId: input.ticketActivityStateId ?? INITIAL_STATE, ticketId },
      now,
    );
    await tickets.activityWrites.insert(tx, activity);
    await recordEvents(
      tx,
      [catalogueEvent('TICKET_ACTIVITY_CREATED', activity.id, activityData(activity))],
      now,
    );
    return activity;
  });
}

const checkActivityTransition = (before: TicketActivity, requested: string) =>
  checkTransition(
    TICKET_ACTIVITY_TRANSITIONS,
    'ticketActivity',
    before.id,
    before.ticketActivityStateId,
    requested,
  );

const sameTime = (a: Date | null, b: Date | null) => (a?.getTime() ?? null) === (b?.getTime() ?? null);

export async function replaceActivity(
  db: Database,
  ticketId: string,
  id: string,
  input: TicketActivityInput,
): Promise<TicketActivity> {
  return db.transaction(async (tx) => {
    const before = await lockOpenActivity(tx, ticketId, id, 'activity change');
    await checkActivityState(tx, input.ticketActivityStateId);
    const wanted: TicketActivity = {
      ...before,
      ...input,
      ticketActivityStateId: input.ticketActivityStateId ?? before.ticketActivityStateId,
    };
    checkActivityTransition(before, wanted.ticketActivityStateId);
    const changed = changedProperties(
      { ...before, dueDate: null },
      { ...wanted, dueDate: null },
      ACTIVITY_CHARACTERISTICS,
    );
    if (!sameTime(before.dueDate, wanted.dueDate)) changed.push('dueDate');
    const stateChanged = before.ticketActivityStateId !== wanted.ticketActivityStateId;
    if (changed.length === 0 && !stateChanged) return before;
    const after = { ...wanted, updatedAt: new Date() };
    await tickets.activityWrites.update(tx, after);
    const events: NewEvent[] = [];
    if (changed.length > 0) {
      events.push(
        catalogueEvent('TICKET_ACTIVITY_UPDATED', id, { ...activityData(after), changedProperties: changed }),
      );
    }
    if (stateChanged) events.push(activityStateChanged(before, after));
    await recordEvents(tx, events, after.updatedAt);
    return after;
  });
}

const activityStateChanged = (before: TicketActivity, after: TicketActivity) =>
  catalogueEvent('TICKET_ACTIVITY_STATE_CHANGED', after.id, {
    ...activityData(after),
    previousTicketActivityStateId: before.ticketActivityStateId,
  });

export async function changeActivityState(
  db: Database,
  ticketId: string,
  id: string,
  requested: string,
): Promise<TicketActivity> {
  return db.transaction(async (tx) => {
    const before = await lockOpenActivity(tx, ticketId, id, 'activity state');
    await getMasterDataEntry(tx, TICKET_ACTIVITY_STATES_KIND, 'ticketActivityState', requested);
    checkActivityTransition(before, requested);
    if (before.ticketActivityStateId === requested) return before;
    const after = { ...before, ticketActivityStateId: requested, updatedAt: new Date() };
    await tickets.activityWrites.update(tx, after);
    await recordEvents(tx, [activityStateChanged(before, after)], after.updatedAt);
    return after;
  });
}

/** Deletes the activity with its remarks and attachments, each with its event. */
export async function deleteActivity(db: Database, ticketId: string, id: string): Promise<void> {
  await db.transaction(async (tx) => {
    const activity = await lockOpenActivity(tx, ticketId, id, 'activity delete');
    const events = await eventsOfDeletedBelow(tx, ticketId, activity);
    await tickets.activityWrites.delete(tx, id);
    await recordEvents(tx, events, new Date());
  });
}

export async function createRemark(
  db: Database,
  ticketId: string,
  activityId: string,
  input: { remark: string; editor: string | null },
): Promise<TicketActivityRemark> {
  return db.transaction(async (tx) => {
    await lockOpenActivity(tx, ticketId, activityId, 'new remark');
    const remark: TicketActivityRemark = {
      ...input,
      id: uuidv7(),
      ticketId,
      activityId,
      createdAt: new Date(),
    };
    await tickets.remarkWrites.insert(tx, remark);
    await recordEvents(
      tx,
      [catalogueEvent('TICKET_ACTIVITY_REMARK_CREATED', remark.id, remarkData(remark))],
      remark.createdAt,
    );
    return remark;
  });
}

export async function deleteRemark(db: Database, ticketId: string, activityId: string, id: string) {
  await db.transaction(async (tx) => {
    await lockOpenActivity(tx, ticketId, activityId, 'remark delete');
    const remark = await found(tickets.findRemark(tx, activityId, id, true), 'ticketActivityRemark', id);
    await tickets.remarkWrites.delete(tx, id);
    await recordEvents(
      tx,
      [catalogueEvent('TICKET_ACTIVITY_REMARK_DELETED', id, remarkData(remark))],
      new Date(),
    );
  });
}
