-- The file repository (docs/resources/fileRepository.md): documents live in a tree of folders,
-- each document in exactly one. The documents' `folder` text stays as the path of that folder,
-- so /documents and /fileRepository show the same rows.
CREATE TABLE document_folders (
  id              uuid PRIMARY KEY,
  -- NULL only for the root folder; no cascade: a folder with subfolders is not deleted.
  parent_id       uuid REFERENCES document_folders (id),
  name            text NOT NULL,
  -- '/' for the root, '/a/b' below it: written by the service from checked names, and unique, so
  -- no two sibling folders share a name. Folders are never moved or renamed.
  path            text NOT NULL,
  creator         text,
  editor          text,
  workplace_id    uuid REFERENCES workplaces (id),
  material_number text,
  created_at      timestamptz NOT NULL,
  updated_at      timestamptz NOT NULL,
  CONSTRAINT document_folders_path UNIQUE (path)
);
CREATE INDEX document_folders_parent ON document_folders (parent_id);
CREATE INDEX document_folders_workplace ON document_folders (workplace_id);
CREATE INDEX document_folders_updated ON document_folders (updated_at, id);

-- The root folder holds the documents of the path '/'.
INSERT INTO document_folders (id, parent_id, name, path, created_at, updated_at)
VALUES ('00000000-0000-4000-8000-000000000000', NULL, '/', '/', now(), now());

-- Every folder path existing documents name, with every path above it.
INSERT INTO document_folders (id, parent_id, name, path, created_at, updated_at)
SELECT gen_random_uuid(), NULL, prefix.segments[prefix.depth], prefix.path, now(), now()
FROM (
  SELECT DISTINCT
    '/' || array_to_string(parts.segments[1:depth.n], '/') AS path,
    parts.segments,
    depth.n AS depth
  FROM (SELECT DISTINCT string_to_array(substr(folder, 2), '/') AS segments FROM documents WHERE folder <> '/') parts,
    generate_series(1, cardinality(parts.segments)) AS depth (n)
) prefix
ON CONFLICT (path) DO NOTHING;

UPDATE document_folders child
SET parent_id = parent.id
FROM document_folders parent
WHERE child.path <> '/'
  AND parent.path = CASE
    WHEN position('/' IN substr(child.path, 2)) = 0 THEN '/'
    ELSE left(child.path, length(child.path) - length(child.name) - 1)
  END;

-- The file repository's properties of a document (the SDK's fileRepositoryDocumentProperties).
ALTER TABLE documents
  ADD COLUMN folder_id uuid REFERENCES document_folders (id),
  ADD COLUMN creator text,
  ADD COLUMN editor text,
  ADD COLUMN origin text NOT NULL DEFAULT 'CREATED_INTERNALLY',
  ADD COLUMN type text,
  -- An entry of the master data kind documentStates.
  ADD COLUMN document_state_id text NOT NULL DEFAULT 'NEW';

UPDATE documents d SET folder_id = f.id FROM document_folders f WHERE f.path = d.folder;
ALTER TABLE documents ALTER COLUMN folder_id SET NOT NULL;
CREATE INDEX documents_folder_id ON documents (folder_id);
-- The file repository's lists go newest change first.
CREATE INDEX documents_updated ON documents (updated_at, id);

-- A document made in a folder has no file name until its file is uploaded: unnamed documents do
-- not collide; named ones stay unique per folder.
ALTER TABLE documents DROP CONSTRAINT documents_folder_name;
CREATE INDEX documents_folder_name_order ON documents (folder, name, id);
CREATE UNIQUE INDEX documents_folder_name ON documents (folder_id, name) WHERE name <> '';

-- The document states of the recorded responses, with their texts.
INSERT INTO literals (id, translations) VALUES
  ('093473FADDE14708B68AFA0A0338D018', '[
    {"language": "pl-PL", "translation": "zablokowany"},
    {"language": "de-DE", "translation": "Gesperrt"},
    {"language": "hu-HU", "translation": "zárt"},
    {"language": "en-US", "translation": "Locked"},
    {"language": "es-ES", "translation": "bloqueado"},
    {"language": "fr-FR", "translation": "verrouillé"},
    {"language": "zh-CN", "translation": "已锁定"},
    {"language": "ja-JP", "translation": "ロックされた"},
    {"language": "en-GB", "translation": "Locked"}
  ]'),
  ('1CF4CBA40CF5460883A562711EC05048', '[
    {"language": "en-US", "translation": "LOCKED"},
    {"language": "en-GB", "translation": "LOCKED"}
  ]')
ON CONFLICT (id) DO NOTHING;

INSERT INTO master_data_entries
  (kind, id, position, code, color, description_literal_id, short_description_literal_id)
VALUES
  ('documentStates', 'NEW', 0, '50', 'RED', NULL, NULL),
  ('documentStates', 'LOCKED', 1, '45', '#FF0000', '093473FADDE14708B68AFA0A0338D018', '1CF4CBA40CF5460883A562711EC05048')
ON CONFLICT (kind, id) DO NOTHING;
