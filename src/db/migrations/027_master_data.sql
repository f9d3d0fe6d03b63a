-- Reference data a plant configures rather than records (docs/resources/masterData.md): texts in
-- every locale as literals, and the entries of each master data kind (machine states, quality
-- details, ticket states, ...) in one table keyed by kind. Each kind's entries are seeded by the
-- migration that introduces the kind; a plant adds its own rows the same way.
CREATE TABLE literals (
  id text PRIMARY KEY,
  -- [{"language": "en-GB", "translation": "..."}, ...], the SDK's form of a localized text.
  translations jsonb NOT NULL DEFAULT '[]'
);

CREATE TABLE master_data_entries (
  kind text NOT NULL,
  id text NOT NULL,
  -- The order lists give; entries with the same position go by id.
  position integer NOT NULL DEFAULT 0,
  code text,
  color text,
  description_literal_id text REFERENCES literals (id),
  short_description_literal_id text REFERENCES literals (id),
  -- The properties special to the kind (qualityTypeId, isWorkingShift, sequence, ...).
  attributes jsonb NOT NULL DEFAULT '{}',
  PRIMARY KEY (kind, id)
);
