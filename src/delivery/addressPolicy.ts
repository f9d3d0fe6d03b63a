// SSRF guard: callbacks may only reach addresses in the allowed ranges and outside the denied
// ones. By default everything is allowed but link-local and cloud metadata addresses.
import { lookup } from 'node:dns/promises';
import { BlockList, isIP } from 'node:net';

export const DEFAULT_DENIED_NETWORKS = '169.254.0.0/16 fe80::/10 100.100.100.200/32 fd00:ec2::254/128';

export class AddressPolicy {
  readonly #allowed: BlockList;
  readonly #denied: BlockList;

  constructor(allowed: string[], denied: string[]) {
    this.#allowed = toBlockList(allowed);
    this.#denied = toBlockList(denied);
  }

  permits(address: string): boolean {
    const type = isIP(address) === 6 ? 'ipv6' : 'ipv4';
    return this.#allowed.check(address, type) && !this.#denied.check(address, type);
  }

  /** Resolves the host and throws unless every address it resolves to is permitted. */
  async check(host: string): Promise<void> {
    const bare = host.replace(/^\[|\]$/g, '');
    const addresses = isIP(bare) ? [bare] : (await lookup(bare, { all: true })).map((entry) => entry.address);
    const refused = addresses.filter((address) => !this.permits(address));
    if (refused.length > 0)
      throw new Error(`address ${refused.join(', ')} of ${host} is not allowed for callbacks`);
  }
}

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
