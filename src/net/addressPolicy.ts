// SSRF guard: callbacks may only reach addresses in the allowed ranges and outside the denied
// ones. Built in and always denied: unspecified addresses, link-local and cloud metadata
// addresses; the setting adds ranges, and loopback is denied on request. Every address is also
// checked as the IPv4 address it embeds (IPv4-mapped and -compatible, NAT64, 6to4, Teredo), and
// every connection (each HTTP connect, each MQTT reconnect) checks the address it connects to.
import type { LookupAddress } from 'node:dns';
import { lookup as dnsLookup } from 'node:dns/promises';
import { BlockList, connect, isIP, type LookupFunction, Socket } from 'node:net';

/** Denied whatever the settings say: the host itself ("this network") and nothing at all. */
const UNSPECIFIED_NETWORKS = ['0.0.0.0/8', '::/128'];
/** Link-local and cloud metadata addresses; BRIDGE_CALLBACK_DENIED_NETWORKS adds to these. */
const BUILT_IN_DENIED_NETWORKS = ['169.254.0.0/16', 'fe80::/10', '100.100.100.200/32', 'fd00:ec2::254/128'];
/** Denied when BRIDGE_CALLBACK_DENY_LOOPBACK=true. */
const LOOPBACK_NETWORKS = ['127.0.0.0/8', '::1/128'];

/** Resolves a host name to every address it has (dns.lookup with all: true by default). */
export type Resolve = (host: string) => Promise<LookupAddress[]>;

const systemResolve: Resolve = (host) => dnsLookup(host, { all: true, verbatim: true });

export class AddressPolicy {
  readonly #allowed: BlockList;
  readonly #denied: BlockList;
  readonly #resolve: Resolve;

  /** `denied` adds to the built-in denials; `resolve` replaces DNS (tests). */
  constructor(
    allowed: string[],
    denied: string[],
    options: { denyLoopback?: boolean; resolve?: Resolve } = {},
  ) {
    this.#allowed = toBlockList(allowed);
    this.#denied = toBlockList([
      ...UNSPECIFIED_NETWORKS,
      ...BUILT_IN_DENIED_NETWORKS,
      ...(options.denyLoopback ? LOOPBACK_NETWORKS : []),
      ...denied,
    ]);
    this.#resolve = options.resolve ?? systemResolve;
  }

  permits(address: string): boolean {
    const forms = [address.replace(/%.*$/, ''), ...embeddedIpv4(address)];
    return (
      forms.some((form) => this.#allowed.check(form, family(form))) &&
      !forms.some((form) => this.#denied.check(form, family(form)))
    );
  }

  /**
   * Why a URL host that is an address literal (in any form URLs accept: `127.1`, `2130706433`,
   * `0x7f.0.0.1`, `[::ffff:7f00:1]`) is refused; null for permitted literals and for host names,
   * which are checked when they are resolved.
   */
  literalRefusal(host: string): string | null {
    const address = literalAddress(host);
    if (address === null || this.permits(address)) return null;
    return `address ${address} is not allowed for callbacks`;
  }

  /** Resolves the host and throws unless every address it resolves to is permitted. */
  async check(host: string): Promise<void> {
    const refused = this.literalRefusal(host);
    if (refused !== null) throw new Error(refused);
    const address = literalAddress(host);
    if (address !== null) return;
    const denied = (await this.#resolve(host)).filter((entry) => !this.permits(entry.address));
    if (denied.length > 0)
      throw new Error(
        `address ${denied.map((e) => e.address).join(', ')} of ${host} is not allowed for callbacks`,
      );
  }

  /**
   * A `lookup` for net/tls connect (and undici's connect options): resolves like dns.lookup and
   * fails the connection unless every address is permitted, so the address actually connected to
   * is the one checked and DNS rebinding cannot get around the check.
   */
  readonly lookup: LookupFunction = (hostname, options, callback) => {
    this.#resolve(hostname).then(
      (resolved) => {
        const wanted = options.family === 4 || options.family === 6 ? options.family : 0;
        const list = wanted === 0 ? resolved : resolved.filter((entry) => entry.family === wanted);
        const refused = list.find((entry) => !this.permits(entry.address));
        if (refused) {
          const error = new Error(`address ${refused.address} of ${hostname} is not allowed for callbacks`);
          return callback(Object.assign(error, { code: 'EADDRNOTALLOWED' }), '', 0);
        }
        const first = list[0];
        if (!first)
          return callback(
            Object.assign(new Error(`no address for ${hostname}`), { code: 'ENOTFOUND' }),
            '',
            0,
          );
        if (options.all) return (callback as unknown as (e: null, a: LookupAddress[]) => void)(null, list);
        return callback(null, first.address, first.family);
      },
      (error: NodeJS.ErrnoException) => callback(error, '', 0),
    );
  };

  /**
   * A TCP connection to host:port that only reaches permitted addresses: a refused literal gives
   * a socket that fails at once, a host name goes through `lookup`. For transports that connect
   * again on their own (MQTT reconnects), so that every connection is checked.
   */
  connect(host: string, port: number): Socket {
    const refused = this.literalRefusal(host);
    if (refused !== null) {
      const socket = new Socket();
      process.nextTick(() => socket.destroy(Object.assign(new Error(refused), { code: 'EADDRNOTALLOWED' })));
      return socket;
    }
    return connect({ host: literalAddress(host) ?? host, port, lookup: this.lookup });
  }
}

/** The settings the policy follows (a part of Config; declared here so config.ts can parse networks with this module). */
interface PolicySettings {
  callbackAllowedNetworks: string[];
  callbackDeniedNetworks: string[];
  callbackDenyLoopback: boolean;
}
const policies = new WeakMap<PolicySettings, AddressPolicy>();

/** The policy of these settings (one per settings object: registration and delivery share it). */
export function callbackPolicy(config: PolicySettings): AddressPolicy {
  let policy = policies.get(config);
  if (!policy) {
    policy = new AddressPolicy(config.callbackAllowedNetworks, config.callbackDeniedNetworks, {
      denyLoopback: config.callbackDenyLoopback,
    });
    policies.set(config, policy);
  }
  return policy;
}

/**
 * The address a URL host stands for when it is a literal, normalized the way WHATWG URLs parse
 * http hosts (also for mqtt: URLs, whose hosts URL leaves as written); null for host names.
 */
export function literalAddress(host: string): string | null {
  let hostname = host;
  if (isIP(host.replace(/^\[|\]$/g, '')) === 0) {
    try {
      hostname = new URL(`http://${host.includes(':') && !host.startsWith('[') ? `[${host}]` : host}/`)
        .hostname;
    } catch {
      return null;
    }
  }
  const bare = hostname.replace(/^\[|\]$/g, '');
  return isIP(bare) === 0 ? null : bare;
}

/** The IPv4 addresses an IPv6 address carries: mapped, compatible, NAT64, 6to4 and Teredo forms. */
function embeddedIpv4(address: string): string[] {
  const words = ipv6Words(address.replace(/%.*$/, ''));
  if (words === null) return [];
  const bytes = words.flatMap((word) => [word >> 8, word & 0xff]);
  const v4 = (...indexes: number[]) => indexes.map((index) => bytes[index]).join('.');
  const zero = (from: number, to: number) => words.slice(from, to).every((word) => word === 0);
  // ::ffff:a.b.c.d (mapped) and ::a.b.c.d (compatible; :: and ::1 are IPv6's own)
  if (zero(0, 5) && (words[5] === 0xffff || (words[5] === 0 && (words[6] !== 0 || (words[7] ?? 0) > 1))))
    return [v4(12, 13, 14, 15)];
  // ::ffff:0:a.b.c.d (IPv4-translated, SIIT)
  if (zero(0, 4) && words[4] === 0xffff && words[5] === 0) return [v4(12, 13, 14, 15)];
  // NAT64, 6to4, Teredo (these carry no 0.x.x.x address: such candidates are left out)
  return translated(words, bytes, v4).filter((candidate) => !candidate.startsWith('0.'));
}

function translated(words: number[], bytes: number[], v4: (...indexes: number[]) => string): string[] {
  // NAT64: 64:ff9b::/96 (well-known) and 64:ff9b:1::/48 (local use, prefix /48 to /96)
  if (words[0] === 0x64 && words[1] === 0xff9b) {
    if (words.slice(2, 6).every((word) => word === 0)) return [v4(12, 13, 14, 15)];
    // the IPv4 address sits where the prefix length puts it, around the reserved byte 8
    if (words[2] === 1) return [v4(6, 7, 9, 10), v4(7, 9, 10, 11), v4(9, 10, 11, 12), v4(12, 13, 14, 15)];
  }
  if (words[0] === 0x2002) return [v4(2, 3, 4, 5)]; // 6to4
  if (words[0] === 0x2001 && words[1] === 0) {
    // Teredo: the server, and the client (bits inverted)
    const client = bytes.slice(12).map((byte) => (byte ?? 0) ^ 0xff);
    return [v4(4, 5, 6, 7), client.join('.')];
  }
  return [];
}

/** The eight 16-bit words of an IPv6 address; null for anything else. */
function ipv6Words(address: string): number[] | null {
  if (isIP(address) !== 6) return null;
  // URL writes the address canonically: hex words only, the longest zero run as '::'.
  const canonical = new URL(`http://[${address}]/`).hostname.replace(/^\[|\]$/g, '');
  const [head = '', tail] = canonical.split('::');
  const words = (part: string) =>
    part === '' ? [] : part.split(':').map((word) => Number.parseInt(word, 16));
  const left = words(head);
  if (tail === undefined) return left;
  const right = words(tail);
  return [...left, ...new Array<number>(8 - left.length - right.length).fill(0), ...right];
}

const family = (address: string) => (isIP(address) === 6 ? 'ipv6' : 'ipv4');

/** Parses a space- or comma-separated CIDR list; throws on a bad entry (settings validation). */
export function parseNetworks(text: string): string[] {
  const networks = text.split(/[\s,]+/).filter((entry) => entry !== '');
  for (const network of networks) toBlockList([network]);
  return networks;
}

function toBlockList(networks: string[]): BlockList {
  const list = new BlockList();
  for (const network of networks) {
    const [address = '', prefixText] = network.split('/');
    const type = isIP(address) === 6 ? 'ipv6' : isIP(address) === 4 ? 'ipv4' : undefined;
    const prefix = Number(prefixText ?? (type === 'ipv6' ? 128 : 32));
    if (!type || !Number.isInteger(prefix) || prefix < 0 || prefix > (type === 'ipv6' ? 128 : 32)) {
      throw new Error(`"${network}" is not an address range like 10.0.0.0/8 or fd00::/8`);
    }
    list.addSubnet(address, prefix, type);
  }
  return list;
}
