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
 * recognised, with the TLS reason where there is one; any other text without addresses and ports,
 * but for an address the client named itself (`named`: the host of its own URL).
 */
export function describeNetworkFailure(text: string | null, named = ''): string | null {
  if (text === null) return null;
  for (const [pattern, kind] of KINDS) {
    if (!pattern.test(text)) continue;
    if (kind !== 'TLS failed') return kind;
    const reason = withoutAddresses(text, named);
    return reason === '' ? kind : `${kind}: ${reason}`;
  }
  return withoutAddresses(text, named);
}

/** The host of a URL as a client wrote it (brackets of IPv6 removed); '' when it is no URL. */
export function hostOf(url: string): string {
  try {
    return new URL(url).hostname.replace(/^\[|\]$/g, '');
  } catch {
    return '';
  }
}

/** An address without its brackets and port: `[::1]:80` -> `::1`, `10.0.0.1:80` -> `10.0.0.1`. */
function bareAddress(address: string): string {
  if (address.startsWith('[')) return address.slice(1, address.indexOf(']'));
  return address.includes('.') ? address.replace(/:\d+$/, '') : address;
}

function withoutAddresses(text: string, named: string): string {
  return text
    .replace(ADDRESS, (address) => (named !== '' && bareAddress(address) === named ? address : ''))
    .replace(/\s+/g, ' ')
    .replace(/\s([,.:;)])/g, '$1')
    .replace(/\(\s*\)/g, '')
    .trim();
}
