import { BlockList, isIP } from 'node:net';

/**
 * IPv4 ranges never fetched from: this network (0/8), private (10/8, 172.16/12, 192.168/16), CGNAT
 * (100.64/10), loopback (127/8), link-local and cloud metadata (169.254/16), IETF protocol assignments,
 * documentation and benchmarking nets, the 6to4 relay, multicast and reserved (224/3, broadcast included).
 */
const FORBIDDEN_V4: [string, number][] = [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.0.2.0', 24],
  ['192.88.99.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['198.51.100.0', 24],
  ['203.0.113.0', 24],
  ['224.0.0.0', 3],
];
/**
 * Special-purpose blocks inside IPv6 global unicast (2000::/3; everything outside it — loopback, unique
 * local fc00::/7 with the EC2 metadata address fd00:ec2::254, link-local, multicast — is refused anyway):
 * IETF protocol assignments with Teredo, documentation, and 6to4, which tunnels to any IPv4 address.
 */
const FORBIDDEN_V6: [string, number][] = [
  ['2001::', 23],
  ['2001:db8::', 32],
  ['2002::', 16],
  ['3fff::', 20],
];

const forbidden = new BlockList();
for (const [net, prefix] of FORBIDDEN_V4) forbidden.addSubnet(net, prefix, 'ipv4');
for (const [net, prefix] of FORBIDDEN_V6) forbidden.addSubnet(net, prefix, 'ipv6');

/** The 16 bytes of a valid IPv6 address, `::` and a trailing dotted quad included. */
function ipv6Bytes(address: string): Uint8Array {
  const bytes = new Uint8Array(16);
  let text = address;
  const quad = text.includes('.') ? text.slice(text.lastIndexOf(':') + 1) : undefined;
  if (quad) text = `${text.slice(0, text.lastIndexOf(':') + 1)}0:0`;
  const [head, tail] = text.split('::') as [string, string | undefined];
  const words = (s: string) => (s ? s.split(':') : []);
  const groups =
    tail === undefined
      ? words(head)
      : [...words(head), ...Array<string>(8 - words(head).length - words(tail).length).fill('0'), ...words(tail)];
  groups.forEach((g, i) => {
    const n = parseInt(g, 16);
    bytes[2 * i] = n >> 8;
    bytes[2 * i + 1] = n & 0xff;
  });
  if (quad) bytes.set(quad.split('.').map(Number), 12);
  return bytes;
}

const startsWith = (b: Uint8Array, prefix: number[]) => prefix.every((v, i) => b[i] === v);
/** ::ffff:a.b.c.d (IPv4-mapped) and 64:ff9b::a.b.c.d (NAT64) reach the IPv4 address they carry. */
const MAPPED = [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff];
const NAT64 = [0, 0x64, 0xff, 0x9b, 0, 0, 0, 0, 0, 0, 0, 0];

/**
 * Whether a remote image may be fetched from this IP address: public unicast only. Addresses that embed
 * an IPv4 address are judged by it, so ::ffff:127.0.0.1 is loopback. `allowLoopback` (a test setting)
 * admits 127/8 and ::1 and nothing else. Anything that is not an IP address is refused.
 */
export function isAllowedAddress(address: string, allowLoopback: boolean): boolean {
  const ip = address.replace(/^\[(.*)\]$/, '$1');
  const family = isIP(ip);
  if (family === 4) {
    if (allowLoopback && ip.startsWith('127.')) return true;
    return !forbidden.check(ip, 'ipv4');
  }
  if (family !== 6) return false;
  const b = ipv6Bytes(ip);
  if (startsWith(b, MAPPED) || startsWith(b, NAT64)) return isAllowedAddress(b.subarray(12).join('.'), allowLoopback);
  if (allowLoopback && b.every((v, i) => v === (i === 15 ? 1 : 0))) return true;
  return (b[0]! & 0xe0) === 0x20 && !forbidden.check(ip, 'ipv6');
}
