import * as repository from '../../db/repositories/ticketRepository.ts';
import * as service from '../../services/ticketService.ts';
import type { Api } from '../api.ts';
import type { ServerDeps } from '../deps.ts';
import { positionBy } from '../hal.ts';
import { TICKETS_PATH, ticketActivitiesPath, ticketActivityRemarksPath } from '../paths.ts';
import { presentActivity, presentRemark, presentTicket } from '../presenters/ticketPresenter.ts';
import { resourceRoutes } from '../resourceRoutes.ts';
import {
  ActivityFilters,
  ActivitySchema,
  activityFilter,
  activityInput,
  CreateActivityBody,
  CreateRemarkBody,
  CreateTicketBody,
  creationFilter,
  RemarkFilters,
  RemarkSchema,
  ReplaceActivityBody,
  ReplaceTicketBody,
  TicketFilters,
  TicketSchema,
  ticketFilter,
  ticketInput,
} from '../schemas/ticketSchemas.ts';

const created = positionBy('createdAt');

export function registerTickets(api: Api, { db }: ServerDeps): void {
  const tickets = resourceRoutes(api, {
    path: TICKETS_PATH,
    schema: TicketSchema,
    present: presentTicket,
  });
  tickets.list({
    summary: 'Tickets, newest first (timestamp pagination)',
    description: 'creationDateFrom is inclusive, creationDateTo exclusive.',
    position: created,
    filters: TicketFilters,
    filter: ticketFilter,
    load: (filter, page) => repository.listTickets(db, filter, page),
  });
  tickets.items(db, {
    input: ticketInput,
    get: { run: service.getTicket },
    create: {
      summary: 'Raise a ticket (emits TICKET_CREATED)',
      body: CreateTicketBody,
      run: service.createTicket,
    },
    replace: {
      summary: 'Replace a ticket (emits TICKET_UPDATED, and TICKET_STATE_CHANGED for a new state)',
      body: ReplaceTicketBody,
      run: service.replaceTicket,
    },
    remove: {
      summary:
        'Delete a ticket with its activities, remarks and attachments (emits TICKET_DELETED and the DELETED event of each)',
      run: service.deleteTicket,
    },
  });
  tickets.command({
    path: ':ticketStateId',
    summary: 'Change the ticket state (emits TICKET_STATE_CHANGED)',
    description:
      'Allowed changes: docs/resources/tickets.md, "States". Others: 400 INVALID_TRANSITION; unknown state: 404.',
    run: (_body, at) => service.changeTicketState(db, at.id, at.params.ticketStateId ?? ''),
  });

  const activities = resourceRoutes(api, {
    path: ticketActivitiesPath(':id'),
    itemParam: 'activityId',
    schema: ActivitySchema,
    present: presentActivity,
  });
  activities.list({
    summary: 'Activities of a ticket, newest first (timestamp pagination)',
    position: created,
    filters: ActivityFilters,
    filter: activityFilter,
    owner: async (at) => (await service.getTicket(db, at.id)).id,
    load: (filter, page, at) => repository.listActivities(db, at.owner, filter, page),
  });
  activities.items(db, {
    input: activityInput,
    get: { summary: 'One activity of a ticket', run: service.getActivity },
    create: {
      summary: 'Add an activity to an open ticket (emits TICKET_ACTIVITY_CREATED)',
      body: CreateActivityBody,
      run: service.createActivity,
    },
    replace: {
      summary:
        'Replace an activity (emits TICKET_ACTIVITY_UPDATED, and TICKET_ACTIVITY_STATE_CHANGED for a new state)',
      body: ReplaceActivityBody,
      run: service.replaceActivity,
    },
    remove: {
      summary:
        'Delete an activity with its remarks and attachments (emits TICKET_ACTIVITY_DELETED and theirs)',
      run: service.deleteActivity,
    },
  });
  activities.command({
    path: ':ticketActivityStateId',
    summary: 'Change the activity state (emits TICKET_ACTIVITY_STATE_CHANGED)',
    description:
      'Allowed changes: docs/resources/tickets.md, "States". Others: 400 INVALID_TRANSITION; unknown state: 404.',
    run: (_body, at) =>
      service.changeActivityState(db, at.id, at.itemId, at.params.ticketActivityStateId ?? ''),
  });

  const remarks = resourceRoutes(api, {
    path: ticketActivityRemarksPath(':id', ':activityId'),
    itemParam: 'remarkId',
    schema: RemarkSchema,
    present: presentRemark,
  });
  const activityOf = (at: { id: string; params: Record<string, string> }) => at.params.activityId ?? '';
  remarks.list({
    summary: 'Remarks on an activity, newest first (timestamp pagination)',
    position: created,
    filters: RemarkFilters,
    filter: (query) => creationFilter(query),
    owner: async (at) => (await service.getActivity(db, at.id, activityOf(at))).ticketId,
    load: (filter, page, at) => repository.listRemarks(db, activityOf(at), filter, page),
  });
  remarks.get({
    summary: 'One remark on an activity',
    load: (at) => service.getRemark(db, at.id, activityOf(at), at.itemId),
  });
  remarks.create({
    summary: 'Add a remark to an activity of an open ticket (emits TICKET_ACTIVITY_REMARK_CREATED)',
    body: CreateRemarkBody,
    run: (body, at) =>
      service.createRemark(db, at.id, activityOf(at), { remark: body.remark, editor: body.editor ?? null }),
  });
  remarks.remove({
    summary: 'Delete a remark (emits TICKET_ACTIVITY_REMARK_DELETED)',
    run: (at) => service.deleteRemark(db, at.id, activityOf(at), at.itemId),
  });
}
