import { isIP } from 'node:net';

/*
 * QR_TRUSTED_PROXIES read as configuration; what it means for a request's client is in
 * src/http/client-address.ts. Apart from src/http so that the configuration reads it without importing
 * the folder that imports the configuration.
 */

/** QR_TRUSTED_PROXIES: addresses and CIDR blocks, IPv4 or IPv6, separated by commas or spaces. */
export function parseTrustedProxies(raw: string | undefined): string[] {
  const entries = (raw ?? '').split(/[\s,]+/).filter((e) => e !== '');
  for (const entry of entries) {
    const [address = '', bits, extra] = entry.split('/');
    const family = isIP(address);
    const max = family === 4 ? 32 : 128;
    const prefixOk = bits === undefined || (/^\d{1,3}$/.test(bits) && Number(bits) <= max);
    if (family === 0 || !prefixOk || extra !== undefined)
      throw new Error(`QR_TRUSTED_PROXIES: "${entry}" is not an IP address or CIDR block`);
  }
  return entries;
}
