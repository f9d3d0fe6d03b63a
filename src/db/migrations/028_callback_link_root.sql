-- Where the client that registered a callback reached the service (scheme, host, prefix, base
-- path): its deliveries' `_links.callback` point there when BRIDGE_PUBLIC_URL is not set, not at
-- this machine's own host name (docs/api.md, "Addresses and versions").
ALTER TABLE callbacks ADD COLUMN IF NOT EXISTS link_root text;
