import { describe, expect, it } from 'vitest';
import { TrustedProxies } from '../../src/http/client-address.js';
import { parseTrustedProxies } from '../../src/trusted-proxies.js';

describe('parseTrustedProxies', () => {
  it('reads addresses and CIDR blocks, IPv4 and IPv6, separated by commas or spaces', () => {
    expect(parseTrustedProxies(' 10.0.0.0/8, 192.0.2.7  2001:db8::/32,::1 ')).toEqual([
      '10.0.0.0/8',
      '192.0.2.7',
      '2001:db8::/32',
      '::1',
    ]);
    expect(parseTrustedProxies(undefined)).toEqual([]);
    expect(parseTrustedProxies('')).toEqual([]);
  });

  it('refuses what is not an address or a block, naming it', () => {
    for (const bad of ['lb.internal', '10.0.0.0/33', '2001:db8::/129', '10.0.0.1/8/8', '10.0.0/8', '10.0.0.0/x'])
      expect(() => parseTrustedProxies(bad), bad).toThrow(`"${bad}"`);
  });
});

describe('TrustedProxies.clientOf', () => {
  const proxies = new TrustedProxies(parseTrustedProxies('10.1.0.0/16, 192.0.2.7, 2001:db8:1::/48'));

  it('an untrusted peer is the client, whatever X-Forwarded-For it sends', () => {
    expect(proxies.clientOf('198.51.100.4', '203.0.113.1')).toBe('198.51.100.4');
    expect(proxies.clientOf('198.51.100.4', '10.1.0.9')).toBe('198.51.100.4');
    expect(proxies.clientOf('198.51.100.4', undefined)).toBe('198.51.100.4');
  });

  it('behind trusted proxies: the right-most hop that is not one of them', () => {
    expect(proxies.clientOf('192.0.2.7', '203.0.113.1')).toBe('203.0.113.1');
    // The client wrote the left part; the proxies appended the rest.
    expect(proxies.clientOf('192.0.2.7', '127.0.0.1, 203.0.113.1, 10.1.4.4')).toBe('203.0.113.1');
    expect(proxies.clientOf('10.1.2.3', '1.2.3.4,203.0.113.1,192.0.2.7')).toBe('203.0.113.1');
    // uWS writes the peer uncompressed, and an IPv4 client of a dual-stack socket IPv4-mapped.
    expect(proxies.clientOf('0000:0000:0000:0000:0000:ffff:c000:0207', '203.0.113.1')).toBe('203.0.113.1');
    expect(proxies.clientOf('2001:db8:1::5', '2001:db8:2::9')).toBe('2001:db8:2::9');
  });

  it('reads hops with ports; with every hop trusted, the left-most; with a hop that is no address, the nearest trusted', () => {
    expect(proxies.clientOf('192.0.2.7', '203.0.113.1:4711')).toBe('203.0.113.1');
    expect(proxies.clientOf('192.0.2.7', '[2001:db8:2::9]:4711')).toBe('2001:db8:2::9');
    expect(proxies.clientOf('192.0.2.7', '10.1.0.1, 10.1.0.2')).toBe('10.1.0.1');
    expect(proxies.clientOf('192.0.2.7', '203.0.113.1, unknown, 10.1.0.2')).toBe('10.1.0.2');
    expect(proxies.clientOf('192.0.2.7', 'unknown')).toBe('192.0.2.7');
  });

  it('with none configured, the peer always', () => {
    expect(new TrustedProxies([]).clientOf('192.0.2.7', '203.0.113.1')).toBe('192.0.2.7');
  });
});
