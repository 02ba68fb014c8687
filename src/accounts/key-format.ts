import { randomBytes } from 'node:crypto';
import { crc32 } from 'node:zlib';
import { base62 } from './base62.js';

/**
 * An API key: `qrf_` + 24 CSPRNG bytes in base 62 (33 characters, 192 bits) + a 6-character base-62
 * CRC-32 of everything before it. The checksum lets a mistyped or invented key be refused without a
 * database lookup (and lets secret scanners recognise ours), as GitHub's tokens do.
 */
export const KEY_PREFIX = 'qrf_';
const BODY_BYTES = 24;
const BODY_CHARS = 33;
const CHECKSUM_CHARS = 6;
export const KEY_LENGTH = KEY_PREFIX.length + BODY_CHARS + CHECKSUM_CHARS;
/** Characters kept in clear for display: the prefix and 8 of the 33 random ones (≥ 144 bits stay unknown). */
export const KEY_START_LENGTH = 12;

const SHAPE = new RegExp(`^${KEY_PREFIX}[0-9A-Za-z]{${BODY_CHARS + CHECKSUM_CHARS}}$`);

const checksum = (head: string): string => base62(BigInt(crc32(head)), CHECKSUM_CHARS);

export function newKey(): string {
  const head = KEY_PREFIX + base62(randomBytes(BODY_BYTES), BODY_CHARS);
  return head + checksum(head);
}

/** Prefix, length, alphabet and checksum: what can be checked without the database. */
export function isWellFormedKey(candidate: string): boolean {
  if (!SHAPE.test(candidate)) return false;
  const split = candidate.length - CHECKSUM_CHARS;
  return checksum(candidate.slice(0, split)) === candidate.slice(split);
}

export const keyStart = (key: string): string => key.slice(0, KEY_START_LENGTH);
