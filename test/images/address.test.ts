import { describe, expect, it } from 'vitest';
import { isAllowedAddress } from '../../src/images/address.js';

/** What the WHATWG URL parser (which every fetched URL goes through first) makes of a host. */
const hostOf = (url: string) => new URL(url).hostname;

describe('isAllowedAddress', () => {
  it.each([
    '127.0.0.1',
    '127.255.255.254',
    '10.0.0.1',
    '10.255.255.255',
    '172.16.0.1',
    '172.31.255.255',
    '192.168.1.1',
    '169.254.169.254',
    '169.254.0.1',
    '100.64.0.1',
    '100.127.255.255',
    '0.0.0.0',
    '0.1.2.3',
    '224.0.0.1',
    '239.255.255.250',
    '240.0.0.1',
    '255.255.255.255',
    '192.0.2.1',
    '198.18.0.1',
    '198.51.100.7',
    '203.0.113.9',
    '::1',
    '::',
    'fc00::1',
    'fd00:ec2::254',
    'fe80::1',
    'fe80::1%eth0',
    'ff02::1',
    'fec0::1',
    '2001:db8::1',
    '::ffff:127.0.0.1',
    '::ffff:7f00:1',
    '::ffff:10.0.0.1',
    '::ffff:169.254.169.254',
    '64:ff9b::a9fe:a9fe',
    '64:ff9b::127.0.0.1',
    '2002:7f00:1::',
    '2001:0:4136:e378:8000:63bf:3fff:fdd2',
    '::127.0.0.1',
    'localhost',
    'example.com',
    '',
    '1.2.3',
    '[::1]',
  ])('refuses %s', (address) => {
    expect(isAllowedAddress(address, false)).toBe(false);
  });

  it.each([
    '8.8.8.8',
    '1.1.1.1',
    '93.184.215.14',
    '172.15.255.255',
    '172.32.0.1',
    '100.63.255.255',
    '100.128.0.1',
    '2606:4700:4700::1111',
    '2a00:1450:4001:82a::200e',
    '::ffff:8.8.8.8',
    '64:ff9b::808:808',
  ])('allows %s', (address) => {
    expect(isAllowedAddress(address, false)).toBe(true);
  });

  it('the loopback allowance admits exactly loopback', () => {
    for (const a of ['127.0.0.1', '127.0.0.2', '::1', '::ffff:127.0.0.1', '[::1]'])
      expect(isAllowedAddress(a, true), a).toBe(true);
    for (const a of [
      '10.0.0.1',
      '169.254.169.254',
      '192.168.0.1',
      '0.0.0.0',
      '::',
      'fd00:ec2::254',
      'fe80::1',
      '100.64.0.1',
    ])
      expect(isAllowedAddress(a, true), a).toBe(false);
  });

  it('decimal, hexadecimal, octal and short IPv4 forms normalise to the address they mean', () => {
    for (const url of [
      'http://0x7f000001',
      'http://2130706433',
      'http://017700000001',
      'http://127.1',
      'http://0x7f.0.0.1',
      'http://0177.0.0.01',
    ]) {
      expect(hostOf(url), url).toBe('127.0.0.1');
      expect(isAllowedAddress(hostOf(url), false)).toBe(false);
    }
    expect(hostOf('http://[::ffff:127.0.0.1]')).toBe('[::ffff:7f00:1]');
    expect(isAllowedAddress(hostOf('http://[::ffff:127.0.0.1]'), false)).toBe(false);
    expect(isAllowedAddress(hostOf('http://0xa9fea9fe'), false)).toBe(false);
  });
});
