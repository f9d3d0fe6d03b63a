// The unit that per-address limits count by (connections, token failures): an IPv4 address, or the
// /64 network of an IPv6 address. One IPv6 host is usually given a whole /64, so counting single
// IPv6 addresses would let one host appear as endless different clients.
import { isIPv6 } from 'node:net';

/** `::ffff:127.0.0.2` -> `127.0.0.2`; `2001:db8:1:2:3:4:5:6` -> `2001:db8:1:2::/64`. */
export function addressGroup(address: string | undefined): string {
  if (address === undefined || address === '') return 'unknown';
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  if (mapped?.[1]) return mapped[1];
  if (!isIPv6(address)) return address;
  return `${expandIPv6(address).slice(0, 4).join(':')}::/64`;
}

/** The eight groups of an IPv6 address, without leading zeros (a zone id is dropped). */
function expandIPv6(address: string): string[] {
  const [withoutZone = ''] = address.split('%');
  const [head = '', tail] = withoutZone.split('::');
  const parse = (part: string) => (part === '' ? [] : part.split(':'));
  let groups: string[];
  if (tail === undefined) groups = parse(head);
  else {
    const left = parse(head);
    const right = parse(tail);
    groups = [...left, ...Array.from({ length: 8 - left.length - right.length }, () => '0'), ...right];
  }
  return groups.map((group) => (group.includes('.') ? group : Number.parseInt(group, 16).toString(16)));
}
