const ALPHABET = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

/** `value` in base 62, left-padded with '0' to exactly `width` characters (it must fit). */
export function base62(value: bigint | Uint8Array, width: number): string {
  let n = typeof value === 'bigint' ? value : BigInt(`0x0${Buffer.from(value).toString('hex')}`);
  let out = '';
  while (n > 0n) {
    out = ALPHABET[Number(n % 62n)] + out;
    n /= 62n;
  }
  if (out.length > width) throw new Error(`value needs ${out.length} base-62 digits, more than ${width}`);
  return out.padStart(width, '0');
}
