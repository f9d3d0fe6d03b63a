import { type Document, type DocumentVersion, metadataAndFile } from '../../domain/documents.ts';
import { link, type Resource, resource } from '../hal.ts';
import type { Hrefs } from '../hrefs.ts';
import { DOCUMENTS_PATH, documentVersionsPath } from '../paths.ts';

export function presentDocument(document: Document, hrefs: Hrefs, canWrite: boolean): Resource {
  const self = `${DOCUMENTS_PATH}/${document.id}`;
  const versions = documentVersionsPath(document.id);
  return resource(
    {
      id: document.id,
      ...metadataAndFile(document),
      version: document.version,
      createdAt: document.createdAt.toISOString(),
      updatedAt: document.updatedAt.toISOString(),
    },
    {
      self: link(hrefs.api(self)),
      file: link(hrefs.api(`${self}/file`)),
      versions: link(hrefs.api(versions)),
      currentVersion: link(hrefs.api(`${versions}/${document.version}`)),
      uploadFile: canWrite ? link(hrefs.api(`${self}/file`), { method: 'PUT' }) : undefined,
    },
  );
}

export function presentDocumentVersion(version: DocumentVersion, hrefs: Hrefs): Resource {
  const document = `${DOCUMENTS_PATH}/${version.documentId}`;
  const self = `${documentVersionsPath(version.documentId)}/${version.version}`;
  return resource(
    {
      documentId: version.documentId,
      version: version.version,
      ...metadataAndFile(version),
      createdAt: version.createdAt.toISOString(),
    },
    {
      self: link(hrefs.api(self)),
      document: link(hrefs.api(document)),
      file: link(hrefs.api(`${self}/file`)),
    },
  );
}
