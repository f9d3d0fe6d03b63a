// Files attached to a ticket or to one of its activities (docs/resources/tickets.md,
// "Attachments"): created with a description, their bytes uploaded and read apart from it.
import { v7 as uuidv7 } from 'uuid';
import type { Database, Queryable } from '../db/database.ts';
import type { AttachmentOwner } from '../db/repositories/ticketAttachmentRepository.ts';
import * as attachments from '../db/repositories/ticketAttachmentRepository.ts';
import { notFound } from '../domain/errors.ts';
import type { AttachmentUpload, TicketAttachment } from '../domain/tickets.ts';
import { changedProperties } from '../domain/workplaces.ts';
import { recordEvents } from './eventService.ts';
import {
  attachmentEvent,
  getActivity,
  getTicket,
  lockOpenActivity,
  lockOpenTicket,
} from './ticketService.ts';
import { found } from './writes.ts';

/** The owner as the path names it: 404 without the ticket, or without the activity of it. */
export async function getAttachmentOwner(db: Queryable, owner: AttachmentOwner): Promise<AttachmentOwner> {
  if (owner.activityId === null)
    return { ticketId: (await getTicket(db, owner.ticketId)).id, activityId: null };
  const activity = await getActivity(db, owner.ticketId, owner.activityId);
  return { ticketId: activity.ticketId, activityId: activity.id };
}

/** The owner locked for a change (its ticket open). */
async function lockOwner(tx: Queryable, owner: AttachmentOwner, change: string): Promise<void> {
  if (owner.activityId === null) await lockOpenTicket(tx, owner.ticketId, change);
  else await lockOpenActivity(tx, owner.ticketId, owner.activityId, change);
}

export async function getAttachment(
  db: Queryable,
  owner: AttachmentOwner,
  id: string,
): Promise<TicketAttachment> {
  const known = await getAttachmentOwner(db, owner);
  return found(attachments.findAttachment(db, known, id), 'ticketAttachment', id);
}

/** A new attachment: an empty file without a name until its bytes are uploaded. */
export async function createAttachment(
  db: Database,
  owner: AttachmentOwner,
  input: { description: string },
): Promise<TicketAttachment> {
  return db.transaction(async (tx) => {
    await lockOwner(tx, owner, 'new attachment');
    const now = new Date();
    const attachment: TicketAttachment = {
      id: uuidv7(),
      ticketId: owner.ticketId,
      activityId: owner.activityId,
      name: null,
      description: input.description,
      editor: null,
      mimeType: null,
      size: 0,
      createdAt: now,
      updatedAt: now,
    };
    await attachments.attachmentWrites.insert(tx, attachment);
    await recordEvents(tx, [attachmentEvent('CREATED', attachment)], now);
    return attachment;
  });
}

/** New bytes (with their name, type and editor) replace the old ones: *_ATTACHMENT_UPDATED. */
export async function uploadAttachment(
  db: Database,
  owner: AttachmentOwner,
  id: string,
  upload: AttachmentUpload,
): Promise<TicketAttachment> {
  return db.transaction(async (tx) => {
    await lockOwner(tx, owner, 'attachment upload');
    const before = await found(attachments.findAttachment(tx, owner, id, true), 'ticketAttachment', id);
    const after: TicketAttachment = {
      ...before,
      name: upload.name ?? before.name,
      mimeType: upload.mimeType,
      editor: upload.editor ?? before.editor,
      size: upload.bytes.length,
      updatedAt: new Date(),
    };
    const changed = changedProperties(before, after, ['name', 'mimeType', 'editor', 'size']);
    changed.push('content');
    await attachments.writeAttachmentContent(tx, after, upload.bytes);
    await recordEvents(tx, [attachmentEvent('UPDATED', after, changed)], after.updatedAt);
    return after;
  });
}

export async function deleteAttachment(db: Database, owner: AttachmentOwner, id: string): Promise<void> {
  await db.transaction(async (tx) => {
    await lockOwner(tx, owner, 'attachment delete');
    const attachment = await found(attachments.findAttachment(tx, owner, id, true), 'ticketAttachment', id);
    await attachments.attachmentWrites.delete(tx, id);
    await recordEvents(tx, [attachmentEvent('DELETED', attachment)], new Date());
  });
}

/** The bytes of an attachment with the name and type they were uploaded with. */
export async function readAttachmentData(db: Queryable, owner: AttachmentOwner, id: string) {
  const attachment = await getAttachment(db, owner, id);
  const bytes = await attachments.readAttachmentContent(db, attachment.id);
  if (bytes === undefined) throw notFound('ticketAttachment', id);
  return { attachment, bytes };
}
