-- Refresh tokens (docs/api.md, "Authentication"): only a hash of each token is stored. A token is
-- single use; the tokens issued one from another form a chain, revoked as a whole when a spent
-- token comes back. Removing a client removes its tokens.
CREATE TABLE refresh_tokens (
  token_hash  text PRIMARY KEY,
  chain_id    text NOT NULL,
  client_id   text NOT NULL REFERENCES oauth_clients (client_id) ON DELETE CASCADE,
  scopes      text[] NOT NULL,
  created_at  timestamptz NOT NULL,
  expires_at  timestamptz NOT NULL,
  used_at     timestamptz
);

CREATE INDEX refresh_tokens_chain ON refresh_tokens (chain_id);
CREATE INDEX refresh_tokens_client ON refresh_tokens (client_id);
CREATE INDEX refresh_tokens_expiry ON refresh_tokens (expires_at);
