// Attachments of a ticket and of its activities: metadata through resourceRoutes, the bytes
// through the file rules of fileTransfer.ts (size limit, downloads never rendered or sniffed).
import type { FastifyRequest } from 'fastify';
import type { AttachmentOwner } from '../../db/repositories/ticketAttachmentRepository.ts';
import * as repository from '../../db/repositories/ticketAttachmentRepository.ts';
import { AppError } from '../../domain/errors.ts';
import type { AttachmentUpload } from '../../domain/tickets.ts';
import * as service from '../../services/ticketAttachmentService.ts';
import type { Api } from '../api.ts';
import type { ServerDeps } from '../deps.ts';
import {
  checkContentTypeLength,
  fileDownloadRoute,
  registerUploads,
  uploadedBytes,
} from '../fileTransfer.ts';
import { positionBy } from '../hal.ts';
import { ticketAttachmentsPath } from '../paths.ts';
import { presentAttachment } from '../presenters/ticketPresenter.ts';
import { resourceRoutes } from '../resourceRoutes.ts';
import { registerRoute } from '../route.ts';
import { Bytes } from '../schemas/documentSchemas.ts';
import {
  AttachmentFilters,
  AttachmentSchema,
  CreateAttachmentBody,
  creationFilter,
  UploadQuery,
} from '../schemas/ticketSchemas.ts';

const tags = ['tickets'];
const EMPTY_TYPE = 'application/octet-stream';
/** type/subtype with optional parameters (RFC 9110 tokens). */
const MEDIA_TYPE = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+\/[!#$%&'*+.^_`|~0-9A-Za-z-]+(\s*;.*)?$/;
const MULTIPART = /^multipart\/form-data\s*(;|$)/i;

/** A file name that cannot climb out of a folder or break a header: no separators, no controls. */
function checkName(name: string, field: string): string {
  const problem =
    name.length === 0 || name.length > 255
      ? 'must have 1 to 255 characters'
      : name === '.' || name === '..'
        ? 'must not be "." or ".."'
        : /[/\\]/.test(name)
          ? 'must not contain "/" or "\\"'
          : // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what it refuses
            /[\u0000-\u001f\u007f]/.test(name)
            ? 'must not contain control characters'
            : undefined;
  if (problem !== undefined)
    throw new AppError('VALIDATION_FAILED', { rule: 'value', field, detail: problem });
  return name;
}

function checkMediaType(type: string, field: string): string {
  checkContentTypeLength(type, field);
  if (!MEDIA_TYPE.test(type)) throw new AppError('UNSUPPORTED_MEDIA_TYPE', { contentType: type });
  return type;
}

/**
 * The upload as the SDK sends it (multipart/form-data, the file in the part `data`, its media type
 * in `mimeType`) or as raw bytes of their own Content-Type (the name in `name`).
 */
async function uploadOf(request: FastifyRequest): Promise<AttachmentUpload> {
  const query = request.query as { mimeType?: string; editor?: string; name?: string };
  const contentType = request.headers['content-type']?.trim() || EMPTY_TYPE;
  const bytes = uploadedBytes(request.body);
  const editor = query.editor ?? null;
  if (!MULTIPART.test(contentType)) {
    return {
      name: query.name === undefined ? null : checkName(query.name, 'name'),
      mimeType: checkMediaType(
        query.mimeType ?? contentType,
        query.mimeType === undefined ? 'Content-Type' : 'mimeType',
      ),
      editor,
      bytes,
    };
  }
  let form: FormData;
  try {
    form = await new Response(new Uint8Array(bytes), { headers: { 'content-type': contentType } }).formData();
  } catch {
    throw new AppError('VALIDATION_FAILED', {
      rule: 'value',
      field: 'data',
      detail: 'is no multipart/form-data body',
    });
  }
  const file = form.get('data');
  if (!(file instanceof File)) throw new AppError('VALIDATION_FAILED', { rule: 'required', field: 'data' });
  return {
    name: checkName(query.name ?? file.name, query.name === undefined ? 'data.filename' : 'name'),
    mimeType: checkMediaType(query.mimeType ?? (file.type || EMPTY_TYPE), 'mimeType'),
    editor,
    bytes: Buffer.from(await file.arrayBuffer()),
  };
}

export function registerTicketAttachments(api: Api, { db, config }: ServerDeps): void {
  const owners: {
    path: string;
    ownerOf: (params: Record<string, string>) => AttachmentOwner;
    what: string;
  }[] = [
    {
      path: ticketAttachmentsPath(':id', null),
      ownerOf: (params) => ({ ticketId: params.id ?? '', activityId: null }),
      what: 'TICKET_ATTACHMENT',
    },
    {
      path: ticketAttachmentsPath(':id', ':activityId'),
      ownerOf: (params) => ({ ticketId: params.id ?? '', activityId: params.activityId ?? '' }),
      what: 'TICKET_ACTIVITY_ATTACHMENT',
    },
  ];
  for (const { path, ownerOf, what } of owners) {
    const routes = resourceRoutes(api, {
      path,
      itemParam: 'attachmentId',
      schema: AttachmentSchema,
      present: presentAttachment,
    });
    routes.list({
      summary: 'Attachments, newest first (timestamp pagination)',
      position: positionBy('createdAt'),
      filters: AttachmentFilters,
      filter: (query) => creationFilter(query),
      owner: async (at) => (await service.getAttachmentOwner(db, ownerOf(at.params))).ticketId,
      load: (filter, page, at) => repository.listAttachments(db, ownerOf(at.params), filter, page),
    });
    routes.get({
      summary: 'One attachment (its metadata; the bytes are at .../data)',
      load: (at) => service.getAttachment(db, ownerOf(at.params), at.itemId),
    });
    routes.create({
      summary: `Attach a file: an empty one until its data is uploaded (emits ${what}_CREATED)`,
      body: CreateAttachmentBody,
      run: (body, at) => service.createAttachment(db, ownerOf(at.params), { description: body.description }),
    });
    routes.remove({
      summary: `Delete an attachment (emits ${what}_DELETED)`,
      run: (at) => service.deleteAttachment(db, ownerOf(at.params), at.itemId),
    });

    const dataPath = `${path}/:attachmentId/data`;
    fileDownloadRoute(api, {
      tags,
      path: dataPath,
      summary: 'The bytes of an attachment, as a download',
      load: async (params) => {
        const { attachment, bytes } = await service.readAttachmentData(
          db,
          ownerOf(params),
          params.attachmentId ?? '',
        );
        return {
          name: attachment.name ?? attachment.id,
          contentType: attachment.mimeType ?? EMPTY_TYPE,
          bytes,
          etag: String(attachment.updatedAt.getTime()),
        };
      },
    });
    registerUploads(api, (files) => {
      registerRoute(files, {
        method: 'PUT',
        path: dataPath,
        bodyLimit: config.documentMaxBytes,
        tags,
        summary: `Upload the bytes of an attachment (emits ${what}_UPDATED)`,
        description:
          'multipart/form-data with the file in the part `data` (its file name becomes the name), or the raw ' +
          'bytes in any Content-Type with the name in `name`. `mimeType` overrides the media type; a media ' +
          `type that is none: 415. At most ${config.documentMaxBytes} bytes, else 413 PAYLOAD_TOO_LARGE.`,
        querystring: UploadQuery,
        body: { content: { '*/*': Bytes } },
        response: { 200: AttachmentSchema },
        errors: [404, 413, 415],
        handler: async (request) => {
          const at = request.params as Record<string, string>;
          const attachment = await service.uploadAttachment(
            db,
            ownerOf(at),
            at.attachmentId ?? '',
            await uploadOf(request),
          );
          return presentAttachment(attachment, request.hrefs);
        },
      });
    });
  }
}
