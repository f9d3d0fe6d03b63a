// What the API says about a failed connection (a callback's delivery, a connector's peer): what
// failed - refused, timeout, name resolution, TLS, reset - in words a client can act on, without
// the addresses and ports the service resolved or connected to. Those belong to the operator's log;
// shown to a client they would map the plant's internal network (docs/api.md, "Errors of peers").

const KINDS: [RegExp, string][] = [
  [/\bECONNREFUSED\b/, 'connection refused'],
  [/\b(ENOTFOUND|EAI_AGAIN|EAI_NONAME)\b|getaddrinfo/, 'the host name could not be resolved'],
  [
    /\b(ETIMEDOUT|ESOCKETTIMEDOUT|UND_ERR_CONNECT_TIMEOUT|UND_ERR_HEADERS_TIMEOUT|UND_ERR_BODY_TIMEOUT)\b|timed? ?out|timeout|no answer within/i,
    'no answer in time',
  ],
  [/\b(EHOSTUNREACH|ENETUNREACH|EHOSTDOWN|ENETDOWN)\b/, 'host unreachable'],
  [
    /\b(ECONNRESET|EPIPE|ECONNABORTED|UND_ERR_SOCKET)\b|socket hang up|other side closed/i,
    'connection closed by the peer',
  ],
  [
    /\b(ERR_TLS_\w+|ERR_SSL_\w+|CERT_\w+|DEPTH_ZERO_SELF_SIGNED_CERT|SELF_SIGNED_CERT_IN_CHAIN|UNABLE_TO_\w+)\b|certificate|\bTLS\b|\bSSL\b/i,
    'TLS failed',
  ],
];

/** An IPv4 or IPv6 address, with its port when one follows. */
const ADDRESS =
  /\[?\b(?:\d{1,3}(?:\.\d{1,3}){3}|(?:[0-9a-f]{0,4}:){2,7}[0-9a-f]{0,4}(?:%\w+)?)\b\]?(?::\d{1,5})?/gi;

/**
 * `text` (an error's message as recorded) as the API shows it: the kind of failure when one is
 * recognised, with the TLS reason where there is one; any other text without addresses and ports.
 */
export function describeNetworkFailure(text: string | null): string | null {
  if (text === null) return null;
  for (const [pattern, kind] of KINDS) {
    if (!pattern.test(text)) continue;
    if (kind !== 'TLS failed') return kind;
    const reason = withoutAddresses(text);
    return reason === '' ? kind : `${kind}: ${reason}`;
  }
  return withoutAddresses(text);
}

function withoutAddresses(text: string): string {
  return text
    .replace(ADDRESS, '')
    .replace(/\s+/g, ' ')
    .replace(/\s([,.:;)])/g, '$1')
    .replace(/\(\s*\)/g, '')
    .trim();
}
