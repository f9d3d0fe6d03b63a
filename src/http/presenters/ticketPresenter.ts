import {
  TICKET_TRANSITIONS,
  type Ticket,
  type TicketActivity,
  type TicketActivityRemark,
  type TicketAttachment,
} from '../../domain/tickets.ts';
import { type Link, link, type Resource, resource } from '../hal.ts';
import type { Hrefs } from '../hrefs.ts';
import {
  OPERATIONS_PATH,
  shiftsPath,
  TICKETS_PATH,
  ticketActivitiesPath,
  ticketActivityRemarksPath,
  ticketAttachmentsPath,
  WORKPLACES_PATH,
} from '../paths.ts';
import { ActivitySchema } from '../schemas/ticketSchemas.ts';
import { iso, propertiesOf } from './properties.ts';

/** IN_PROGRESS -> InProgress, for link relations. */
const actionName = (state: string) =>
  state
    .toLowerCase()
    .split('_')
    .map((word) => word.charAt(0).toUpperCase() + word.slice(1))
    .join('');

/** A ticket with links to what it names (as the recorded response: only those it has). */
export function presentTicket(ticket: Ticket, hrefs: Hrefs): Resource {
  const self = `${TICKETS_PATH}/${ticket.id}`;
  const links: Record<string, Link> = { self: link(hrefs.api(self)) };
  if (ticket.operationId !== null)
    links.operation = link(hrefs.api(`${OPERATIONS_PATH}/${ticket.operationId}`));
  if (ticket.workplace !== null)
    links.workplace = link(hrefs.api(`${WORKPLACES_PATH}/${ticket.workplace.id}`));
  if (ticket.shiftId !== null && ticket.shiftWorkplaceId !== null) {
    links.shift = link(hrefs.api(`${shiftsPath(ticket.shiftWorkplaceId)}/${ticket.shiftId}`));
  }
  // The state changes allowed now (docs/resources/tickets.md, "States"), as actions.
  for (const next of TICKET_TRANSITIONS[ticket.ticketStateId] ?? []) {
    links[`setTicketState${actionName(next)}`] = link(hrefs.api(`${self}/${next}`), { method: 'POST' });
  }
  links.activities = link(hrefs.api(ticketActivitiesPath(ticket.id)));
  links.attachments = link(hrefs.api(ticketAttachmentsPath(ticket.id, null)));
  return resource(
    {
      id: ticket.id,
      number: ticket.number,
      title: ticket.title,
      description: ticket.description,
      rootCause: ticket.rootCause,
      priority: ticket.priority,
      creationDate: ticket.createdAt.toISOString(),
      editor: ticket.editor,
      ticketStateId: ticket.ticketStateId,
      ticketClassId: ticket.ticketClassId,
      operationId: ticket.operationId,
      // The names a write takes beside the objects a read shows, so a ticket read can be written back.
      materialNumber: ticket.material?.number ?? null,
      material:
        ticket.material === null
          ? null
          : { number: ticket.material.number, description: ticket.material.description, type: null },
      workplaceId: ticket.workplace?.id ?? null,
      workplace: ticket.workplace,
      shiftId: ticket.shiftId,
    },
    links,
  );
}

export function presentActivity(activity: TicketActivity, hrefs: Hrefs): Resource {
  const self = `${ticketActivitiesPath(activity.ticketId)}/${activity.id}`;
  return resource(propertiesOf(ActivitySchema, activity), {
    self: link(hrefs.api(self)),
    ticket: link(hrefs.api(`${TICKETS_PATH}/${activity.ticketId}`)),
    remarks: link(hrefs.api(ticketActivityRemarksPath(activity.ticketId, activity.id))),
    attachments: link(hrefs.api(ticketAttachmentsPath(activity.ticketId, activity.id))),
  });
}

export function presentRemark(remark: TicketActivityRemark, hrefs: Hrefs): Resource {
  return resource(
    { id: remark.id, remark: remark.remark, editor: remark.editor, creationDate: iso(remark.createdAt) },
    {
      self: link(hrefs.api(`${ticketActivityRemarksPath(remark.ticketId, remark.activityId)}/${remark.id}`)),
    },
  );
}

export function presentAttachment(attachment: TicketAttachment, hrefs: Hrefs): Resource {
  const self = `${ticketAttachmentsPath(attachment.ticketId, attachment.activityId)}/${attachment.id}`;
  return resource(
    {
      id: attachment.id,
      name: attachment.name,
      editor: attachment.editor,
      description: attachment.description,
      creationDate: attachment.createdAt.toISOString(),
      mimeType: attachment.mimeType,
      size: attachment.size,
    },
    { self: link(hrefs.api(self)), data: link(hrefs.api(`${self}/data`)) },
  );
}
