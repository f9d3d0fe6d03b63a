-- Documents: the current state (listed, filtered, unique per folder) ...
CREATE TABLE documents (
  id           uuid PRIMARY KEY,
  name         text NOT NULL,
  folder       text NOT NULL,
  description  text,
  content_type text NOT NULL,
  size         integer NOT NULL,
  sha256       text NOT NULL,
  version      integer NOT NULL,
  created_at   timestamptz NOT NULL,
  updated_at   timestamptz NOT NULL,
  -- Also the index of the collection order and of the folder filter.
  CONSTRAINT documents_folder_name UNIQUE (folder, name)
);
CREATE INDEX documents_name ON documents (name);

-- ... and every version with its metadata and content, the current one included.
CREATE TABLE document_versions (
  document_id  uuid NOT NULL REFERENCES documents (id) ON DELETE CASCADE,
  version      integer NOT NULL,
  name         text NOT NULL,
  folder       text NOT NULL,
  description  text,
  content_type text NOT NULL,
  size         integer NOT NULL,
  sha256       text NOT NULL,
  content      bytea NOT NULL,
  created_at   timestamptz NOT NULL,
  PRIMARY KEY (document_id, version)
);
