// Documents and their versions as the API shows and takes them (docs/resources/documents.md).
import { Type } from 'typebox';
import { FOLDER_PATTERN, NAME_PATTERN } from '../../domain/documentFolders.ts';
import type { DocumentMetadata } from '../../domain/documents.ts';
import { Nullable, optionalText, ReplaceBody, Resource } from './common.ts';

const NAME_RULE = 'a file name: not ".", without "..", "/", "\\" or control characters';
const FOLDER_RULE = 'a production folder path: "/" or "/segment/segment" of such names';
/** A file or folder name (docs/resources/fileRepository.md, "Names"). */
export const Name = Type.String({
  minLength: 1,
  maxLength: 255,
  pattern: NAME_PATTERN,
  description: NAME_RULE,
});
const Folder = Type.String({ maxLength: 1000, pattern: FOLDER_PATTERN, description: FOLDER_RULE });

export const DocumentSchema = Resource(
  Type.Object({
    id: Type.String({ format: 'uuid' }),
    name: Type.String(),
    folder: Type.String(),
    description: Nullable(Type.String()),
    contentType: Type.String(),
    size: Type.Integer({ description: 'Bytes' }),
    version: Type.Integer({ description: 'Current version; every change adds one' }),
    createdAt: Type.String({ format: 'date-time' }),
    updatedAt: Type.String({ format: 'date-time' }),
  }),
  'Document of a production folder',
);

export const VersionSchema = Resource(
  Type.Object({
    documentId: Type.String({ format: 'uuid' }),
    version: Type.Integer(),
    name: Type.String(),
    folder: Type.String(),
    description: Nullable(Type.String()),
    contentType: Type.String(),
    size: Type.Integer(),
    createdAt: Type.String({ format: 'date-time', description: 'When this version was made' }),
  }),
  'A document as it was at one version',
);

const writable = {
  name: Name,
  folder: Folder,
  description: optionalText(2000),
};
export const CreateDocumentBody = Type.Object(writable, { additionalProperties: false });
export const ReplaceDocumentBody = ReplaceBody(writable);
// The bytes of a file, documented for OpenAPI; they are never JSON-validated (see the plugin below).
export const Bytes = { schema: Type.String({ format: 'binary' }) };
export const FileResponse = {
  200: { description: 'The bytes, with the Content-Type they were uploaded as', content: { '*/*': Bytes } },
};
export const DocumentFilters = {
  folder: Type.Optional(Type.String({ maxLength: 1000, description: 'Documents of exactly this folder' })),
  name: Type.Optional(Type.String({ maxLength: 255 })),
};

export const metadataOf = (body: {
  name: string;
  folder: string;
  description?: string | null;
}): DocumentMetadata => ({
  name: body.name,
  folder: body.folder,
  description: body.description ?? null,
});
