// Documents of the production folders (docs/resources/documents.md): every change of metadata or content makes a
// new version, and every version (metadata and content) stays readable.
import type { Stored } from './stored.ts';

/** What a client sets through POST and PUT /documents. */
export interface DocumentMetadata {
  name: string;
  /** Production folder path: `/` or `/segment/segment`. */
  folder: string;
  description: string | null;
}

/** The state of a document at one version, without the content bytes. */
export interface DocumentVersion extends DocumentMetadata {
  documentId: string;
  version: number;
  contentType: string;
  size: number;
  /** SHA-256 of the content (hex): tells whether an upload changes anything. */
  sha256: string;
  /** When this version was made. */
  createdAt: Date;
}

/** The file repository's properties of a document (docs/resources/fileRepository.md). */
interface RepositoryProperties {
  /** The folder whose path `folder` is. */
  folderId: string;
  /** Who created and who last changed it, as clients name them; null when none was named. */
  creator: string | null;
  editor: string | null;
  origin: DocumentOrigin;
  /** The document type a client gives (`txt`, `nc`, ...); null when none was given. */
  type: string | null;
  /** An entry of the master data kind `documentStates`. */
  documentStateId: string;
}

/** The current state of a document. */
export interface Document extends DocumentMetadata, RepositoryProperties, Stored {
  version: number;
  contentType: string;
  size: number;
  sha256: string;
}

/** Where a document comes from: the values of the SDK's PDMSource. */
export const DOCUMENT_ORIGINS = [
  'CREATED_INTERNALLY',
  'CREATED_EXTERNALLY',
  'OPTIMIZED_AT_THE_MACHINE',
  'CREATED_AT_THE_MACHINE',
] as const;
export type DocumentOrigin = (typeof DOCUMENT_ORIGINS)[number];

/** The master data kind of document states, and the state a new document is in. */
export const DOCUMENT_STATES = 'documentStates';
export const NEW_DOCUMENT_STATE = 'NEW';

/** A file's extension: what follows the last dot of its name, '' without one. */
export function extensionOf(name: string): string {
  const dot = name.lastIndexOf('.');
  return dot <= 0 ? '' : name.slice(dot + 1);
}

/**
 * The metadata of a document (or of one of its versions) with its file's type and size: what
 * representations and events show of it besides ids and times, never the content or its hash.
 */
export const metadataAndFile = (document: DocumentVersion | Document) => ({
  name: document.name,
  folder: document.folder,
  description: document.description,
  contentType: document.contentType,
  size: document.size,
});

/** A file's bytes with the type they were uploaded as. */
export interface DocumentContent {
  contentType: string;
  bytes: Buffer;
}

/** A document starts as an empty file of this type until content is uploaded. */
export const EMPTY_CONTENT_TYPE = 'application/octet-stream';
