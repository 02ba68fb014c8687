import { BlockList, isIP } from 'node:net';
import { parseClientAddress } from './address.js';

/*
 * Who a request came from, behind a load balancer. The socket's peer is the client unless it is one of
 * QR_TRUSTED_PROXIES; then X-Forwarded-For is read from the right, each trusted proxy having appended the
 * address it was reached from, and the first address that is not a trusted proxy is the client. What lies
 * to the left of it was written by the client and is never read: a spoofed header from an untrusted peer,
 * or the spoofed start of one that a proxy appended to, changes nothing.
 */

/** An address in the form BlockList is asked in: IPv4 dotted (an IPv4-mapped IPv6 one too), IPv6 whole. */
function normalised(address: string): { address: string; family: 'ipv4' | 'ipv6' } | undefined {
  const parsed = parseClientAddress(address);
  if (parsed === undefined) return undefined;
  return parsed.family === 4
    ? { address: parsed.dotted, family: 'ipv4' }
    : { address: parsed.groups.join(':'), family: 'ipv6' };
}

/** The proxies whose X-Forwarded-For is believed. */
export class TrustedProxies {
  private readonly list = new BlockList();
  readonly empty: boolean;

  constructor(entries: readonly string[]) {
    this.empty = entries.length === 0;
    for (const entry of entries) {
      const [address = '', bits] = entry.split('/');
      const n = normalised(address);
      if (n === undefined) continue;
      if (bits === undefined) this.list.addAddress(n.address, n.family);
      // An IPv4-mapped block (::ffff:10.0.0.0/104) is the IPv4 block it maps.
      else if (n.family === 'ipv4' && isIP(address) === 6)
        this.list.addSubnet(n.address, Math.max(0, Number(bits) - 96), 'ipv4');
      else this.list.addSubnet(n.address, Number(bits), n.family);
    }
  }

  has(address: string): boolean {
    const n = normalised(address);
    return n !== undefined && this.list.check(n.address, n.family);
  }

  /**
   * The client's address: `peer` itself unless it is trusted; then the right-most address of
   * `forwardedFor` that is not trusted. When every hop is trusted, the left-most; when the hop to read is
   * not an address (a proxy that wrote something else), the nearest trusted hop's, which is known.
   */
  clientOf(peer: string, forwardedFor: string | undefined): string {
    if (this.empty || forwardedFor === undefined || !this.has(peer)) return peer;
    const hops = forwardedFor.split(',');
    let nearest = peer;
    for (let i = hops.length - 1; i >= 0; i--) {
      const hop = withoutPort(hops[i]!.trim());
      if (normalised(hop) === undefined) return nearest;
      if (!this.has(hop)) return hop;
      nearest = hop;
    }
    return nearest;
  }
}

/** An X-Forwarded-For hop without the port some proxies add: 192.0.2.1:4711, [2001:db8::1]:4711. */
function withoutPort(hop: string): string {
  const bracketed = /^\[([^\]]+)\](?::\d+)?$/.exec(hop);
  if (bracketed !== null) return bracketed[1]!;
  const v4 = /^(\d{1,3}(?:\.\d{1,3}){3}):\d+$/.exec(hop);
  return v4 === null ? hop : v4[1]!;
}
