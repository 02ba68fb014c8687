import { createHash, timingSafeEqual } from 'node:crypto';

const digest = (s: string) => createHash('sha256').update(s).digest();

/**
 * Compares a presented secret with the expected one in constant time. Both are hashed first so the
 * comparison takes the same time whatever their lengths, and the length of the secret does not leak.
 */
export function makeSecretCheck(secret: string): (presented: string | undefined) => boolean {
  const expected = digest(secret);
  return (presented) => presented !== undefined && timingSafeEqual(digest(presented), expected);
}
