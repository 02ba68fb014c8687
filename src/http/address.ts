import { isIPv4, isIPv6 } from 'node:net';

/** A client's address in one spelling: IPv4 dotted, or IPv6 as its eight groups (lower-case, no leading zeros). */
export type ClientAddress = { family: 4; dotted: string } | { family: 6; groups: string[] };

/**
 * The address a socket reported, whatever way it was written: uWS writes IPv6 uncompressed
 * (0000:…:0001), and an IPv4 client of a dual-stack socket arrives IPv4-mapped (::ffff:127.0.0.1), which
 * is read as the IPv4 address it is. Undefined for anything that is not an IP address.
 */
export function parseClientAddress(address: string): ClientAddress | undefined {
  if (isIPv4(address)) return { family: 4, dotted: address };
  if (!isIPv6(address)) return undefined;
  // The URL parser writes IPv6 in its shortest form: ::ffff:127.0.0.1 becomes ::ffff:7f00:1.
  const shortest = new URL(`http://[${address}]/`).hostname.slice(1, -1);
  const mapped = /^::ffff:([0-9a-f]{1,4}):([0-9a-f]{1,4})$/.exec(shortest);
  if (mapped !== null) {
    const [hi, lo] = [Number.parseInt(mapped[1]!, 16), Number.parseInt(mapped[2]!, 16)];
    return { family: 4, dotted: [hi >> 8, hi & 255, lo >> 8, lo & 255].join('.') };
  }
  const [head = '', tail = ''] = shortest.split('::');
  const left = head === '' ? [] : head.split(':');
  const right = shortest.includes('::') ? (tail === '' ? [] : tail.split(':')) : [];
  return { family: 6, groups: [...left, ...Array<string>(8 - left.length - right.length).fill('0'), ...right] };
}

/** A client address is loopback: 127.0.0.0/8 or ::1, also in IPv4-mapped or uncompressed IPv6 form. */
export function isLoopbackAddress(address: string): boolean {
  const parsed = parseClientAddress(address);
  if (parsed === undefined) return false;
  return parsed.family === 4 ? parsed.dotted.startsWith('127.') : parsed.groups.join(':') === '0:0:0:0:0:0:0:1';
}
