import { describe, expect, it } from 'vitest';
import { parseClientAddress } from '../../src/http/address.js';

describe('parseClientAddress', () => {
  it('keeps IPv4 dotted', () => {
    expect(parseClientAddress('203.0.113.9')).toEqual({ family: 4, dotted: '203.0.113.9' });
  });

  it('reads an IPv4-mapped address, however written, as the IPv4 address it is', () => {
    for (const a of ['::ffff:203.0.113.9', '::ffff:cb00:7109', '0000:0000:0000:0000:0000:ffff:cb00:7109'])
      expect(parseClientAddress(a), a).toEqual({ family: 4, dotted: '203.0.113.9' });
  });

  it('writes IPv6 as eight groups, lower-case, without leading zeros', () => {
    const loopback = ['0', '0', '0', '0', '0', '0', '0', '1'];
    expect(parseClientAddress('::1')).toEqual({ family: 6, groups: loopback });
    expect(parseClientAddress('0000:0000:0000:0000:0000:0000:0000:0001')).toEqual({ family: 6, groups: loopback });
    expect(parseClientAddress('2001:DB8::1')).toEqual({
      family: 6,
      groups: ['2001', 'db8', '0', '0', '0', '0', '0', '1'],
    });
    expect(parseClientAddress('fe80::')).toEqual({ family: 6, groups: ['fe80', '0', '0', '0', '0', '0', '0', '0'] });
    expect(parseClientAddress('1:2:3:4:5:6:7:8')?.family).toBe(6);
  });

  it('is undefined for what is not an IP address', () => {
    for (const a of ['', 'localhost', '127.0.0.256', '::g', '[::1]']) expect(parseClientAddress(a), a).toBeUndefined();
  });
});
