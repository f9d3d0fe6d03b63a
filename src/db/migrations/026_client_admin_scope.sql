-- The admin scope (managing clients through /clients) goes to the client a first start created,
-- as it does for new installations; every other client keeps exactly its scopes.
UPDATE oauth_clients
SET scopes = array_append(scopes, 'admin')
WHERE name = 'bootstrap (first start)' AND NOT ('admin' = ANY (scopes));
