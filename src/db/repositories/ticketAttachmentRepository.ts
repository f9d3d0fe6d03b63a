// Files attached to a ticket or to one of its activities (docs/resources/tickets.md, "Attachments"):
// one table, an attachment of the ticket itself having no activity.
import type { TicketAttachment } from '../../domain/tickets.ts';
import { Conditions } from '../conditions.ts';
import type { Queryable } from '../database.ts';
import type { KeysetPage, KeysetRequest } from '../paging.ts';
import { findById, forUpdate, rowWrites, type Table, timestampPageOf } from '../table.ts';

interface Row {
  id: string;
  ticket_id: string;
  activity_id: string | null;
  name: string | null;
  description: string;
  editor: string | null;
  mime_type: string | null;
  size: number;
  created_at: Date;
  updated_at: Date;
}

// Never the content: it is read only for the data route.
const ATTACHMENTS: Table<Row, TicketAttachment> = {
  from: 'ticket_attachments',
  select: 'id, ticket_id, activity_id, name, description, editor, mime_type, size, created_at, updated_at',
  toItem: (row) => ({
    id: row.id,
    ticketId: row.ticket_id,
    activityId: row.activity_id,
    name: row.name,
    description: row.description,
    editor: row.editor,
    mimeType: row.mime_type,
    size: row.size,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  }),
};

/** Where an attachment hangs: a ticket's own (activityId null) or an activity's. */
export interface AttachmentOwner {
  ticketId: string;
  activityId: string | null;
}

const ownedBy = (owner: AttachmentOwner) =>
  owner.activityId === null
    ? new Conditions(['ticket_id = $1', 'activity_id IS NULL'], [owner.ticketId])
    : new Conditions(['ticket_id = $1', 'activity_id = $2'], [owner.ticketId, owner.activityId]);

export interface AttachmentFilter {
  attachmentName?: string | undefined;
  creationDateFrom?: Date | undefined;
  creationDateTo?: Date | undefined;
}

export function listAttachments(
  db: Queryable,
  owner: AttachmentOwner,
  filter: AttachmentFilter,
  request: KeysetRequest,
): Promise<KeysetPage<TicketAttachment>> {
  const conditions = ownedBy(owner).equals('name', filter.attachmentName);
  if (filter.creationDateFrom !== undefined) {
    conditions.add((at) => `created_at >= ${at}`, filter.creationDateFrom);
  }
  if (filter.creationDateTo !== undefined)
    conditions.add((at) => `created_at < ${at}`, filter.creationDateTo);
  return timestampPageOf(
    db,
    ATTACHMENTS,
    conditions,
    {
      timestampColumn: 'created_at',
      timestampOf: (row) => row.created_at,
    },
    request,
  );
}

/** The attachment of this owner with this id (another owner's is not found), locked for a write. */
export async function findAttachment(
  db: Queryable,
  owner: AttachmentOwner,
  id: string,
  lock = false,
): Promise<TicketAttachment | undefined> {
  const attachment = await findById(db, ATTACHMENTS, id, {
    owner: ['ticket_id', owner.ticketId],
    lock: forUpdate(lock),
  });
  return attachment?.activityId === owner.activityId ? attachment : undefined;
}

/** Every attachment of a ticket, or of one activity of it, for the events of a delete. */
export async function listAllAttachments(db: Queryable, ticketId: string, activityId?: string) {
  const conditions = new Conditions(['ticket_id = $1'], [ticketId]).equals('activity_id', activityId);
  const rows = await db.query<Row>(
    `SELECT ${ATTACHMENTS.select} FROM ticket_attachments WHERE ${conditions.where.join(' AND ')}
     ORDER BY created_at, id`,
    conditions.params,
  );
  return rows.map(ATTACHMENTS.toItem);
}

/** The stored bytes of an attachment. */
export async function readAttachmentContent(db: Queryable, id: string): Promise<Buffer | undefined> {
  const rows = await db.query<{ content: Uint8Array }>(
    'SELECT content FROM ticket_attachments WHERE id = $1',
    [id],
  );
  const content = rows[0]?.content;
  return content === undefined
    ? undefined
    : Buffer.from(content.buffer, content.byteOffset, content.byteLength);
}

/** Stores new bytes with the attachment's new file properties. */
export async function writeAttachmentContent(
  db: Queryable,
  attachment: TicketAttachment,
  content: Buffer,
): Promise<void> {
  await db.query(
    `UPDATE ticket_attachments SET name = $2, editor = $3, mime_type = $4, size = $5, content = $6, updated_at = $7
     WHERE id = $1`,
    [
      attachment.id,
      attachment.name,
      attachment.editor,
      attachment.mimeType,
      attachment.size,
      content,
      attachment.updatedAt,
    ],
  );
}

export const attachmentWrites = rowWrites<TicketAttachment>()(
  'ticket_attachments',
  'id ticketId activityId name description editor mimeType size createdAt updatedAt',
);
