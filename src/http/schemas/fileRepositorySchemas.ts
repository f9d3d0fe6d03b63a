// The file repository as the API shows and takes it (docs/resources/fileRepository.md): the
// SDK's fileRepositoryFolderProperties and fileRepositoryDocumentProperties.
import { Type } from 'typebox';
import { DOCUMENT_ORIGINS } from '../../domain/documents.ts';
import { LinkSchema, Nullable, optional, optionalText, Resource } from './common.ts';
import { Name } from './documentSchemas.ts';

const DateTime = Type.String({ format: 'date-time' });
const Text = Type.String({ maxLength: 255 });
const Id = Type.String({ maxLength: 100 });

export const FolderSchema = Resource(
  Type.Object({
    id: Type.String({ format: 'uuid' }),
    name: Type.String(),
    creationDate: DateTime,
    editor: Nullable(Type.String()),
    lastChangeDate: DateTime,
    workplace: Nullable(
      Type.Object({
        id: Type.String(),
        number: Type.String(),
        description: Nullable(Type.String()),
        erpContextId: Type.Null(),
      }),
    ),
    material: Nullable(
      Type.Object({
        id: Type.Null(),
        number: Type.String(),
        description: Type.Null(),
        type: Type.Null(),
      }),
    ),
    creator: Nullable(Type.String()),
    parentFolderId: Nullable(Type.String({ description: 'null for the root folder' })),
    path: Type.Array(Type.String(), { description: 'The names from the root down; [] for the root' }),
  }),
  'Folder of the file repository',
);

export const RepositoryDocumentSchema = Type.Object(
  {
    properties: Type.Object({
      id: Type.String({ format: 'uuid' }),
      name: Type.String({ description: "The file name; '' until one is uploaded" }),
      extension: Type.String({ description: "What follows the file name's last dot" }),
      size: Type.Integer(),
      creator: Nullable(Type.String()),
      editor: Nullable(Type.String()),
      lastTransferToMachine: Type.Null(),
      lastTransferedFromWorkplaceId: Type.Null(),
      lastTransferedToWorkplaceId: Type.Null(),
      numberOfMachineTransfers: Type.Integer({ description: 'The service transfers nothing to machines' }),
      version: Type.Integer(),
      origin: Type.String(),
      type: Nullable(Type.String()),
      creationDate: DateTime,
      documentStateId: Type.String(),
      lastChangedDate: DateTime,
    }),
    // documentFolders is a list of links, as the SDK reads it.
    _links: Type.Record(Type.String(), Type.Union([LinkSchema, Type.Array(LinkSchema)])),
    _embedded: Type.Optional(Type.Record(Type.String(), Type.Unknown())),
  },
  { description: 'Document of the file repository' },
);

export const RepositorySchema = Resource(
  Type.Object({
    rootFolderId: Type.String({ format: 'uuid' }),
    numberOfFolders: Type.Integer(),
    numberOfDocuments: Type.Integer(),
  }),
  'The file repository',
);

export const CreateFolderBody = Type.Object(
  {
    name: Name,
    parentFolderId: Type.Optional(
      Nullable(Type.String({ format: 'uuid', description: 'Default: the root' })),
    ),
    creator: optional(Text),
    workplaceId: optional(Id),
    materialNumber: optional(Text),
  },
  { additionalProperties: false },
);

export const CreateRepositoryDocumentBody = Type.Object(
  {
    origin: Type.Enum([...DOCUMENT_ORIGINS]),
    type: Type.String({ minLength: 1, maxLength: 50 }),
    creator: optional(Text),
    name: Type.Optional(Name),
    description: optionalText(2000),
    documentStateId: Type.Optional(Type.String({ maxLength: 100, description: 'Default NEW' })),
  },
  { additionalProperties: false },
);

export const FolderFilters = {
  name: Type.Optional(Text),
  materialNumber: Type.Optional(Text),
  workplaceNumber: Type.Optional(Text),
  parentFolderId: Type.Optional(Type.String({ format: 'uuid', description: 'The folders of this folder' })),
};

export const UploadQuery = Type.Object(
  {
    fileName: Type.Optional(Name),
    editor: Type.Optional(Text),
  },
  { additionalProperties: false },
);

export const DOCUMENT_EMBEDS = ['ncState', 'documentFolders'] as const;
// Folders have no state; the SDK asks for the embed all the same.
export const FOLDER_EMBEDS = ['ncState'] as const;
