-- Idempotency-Key on POST (docs/api.md, "Retried writes"): the first answer to a client's key,
-- stored in the same transaction as the write it answers, so a retry after a lost answer gets
-- it again and writes nothing twice. Kept for a day; retention deletes older rows.
CREATE TABLE idempotency_keys (
  client_id   text NOT NULL REFERENCES oauth_clients (client_id) ON DELETE CASCADE,
  key         text NOT NULL,
  -- What the key was used for: method, path and a hash of the body; another use is refused.
  fingerprint text NOT NULL,
  status      integer NOT NULL,
  headers     jsonb NOT NULL,
  body        text,
  created_at  timestamptz NOT NULL,
  PRIMARY KEY (client_id, key)
);

CREATE INDEX idempotency_keys_by_age ON idempotency_keys (created_at);
