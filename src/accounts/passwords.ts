import { Algorithm, hash, verify } from '@node-rs/argon2';
import { ApiError } from '../errors.js';

/**
 * argon2id with OWASP's first recommended setting (19 MiB, two passes, one lane): about 30 ms on one
 * core, run on libuv's thread pool so the event loop keeps answering. The parameters are in each stored
 * hash (PHC string), so raising them later leaves older hashes verifiable.
 */
const ARGON2 = { algorithm: Algorithm.Argon2id, memoryCost: 19_456, timeCost: 2, parallelism: 1 } as const;

/** NIST SP 800-63B: length is what counts; no composition rules. The upper bound only bounds the work. */
export const PASSWORD_MIN_LENGTH = 10;
export const PASSWORD_MAX_LENGTH = 200;

/** Refuses a password that is too short, too long, or the e-mail address itself (field `password`). */
export function checkPassword(password: string, email: string): void {
  const length = [...password].length;
  if (length < PASSWORD_MIN_LENGTH || length > PASSWORD_MAX_LENGTH)
    throw new ApiError('invalid_body', {
      message: `The password must be ${PASSWORD_MIN_LENGTH} to ${PASSWORD_MAX_LENGTH} characters long.`,
      field: 'password',
    });
  if (password.trim().toLowerCase() === email.trim().toLowerCase())
    throw new ApiError('invalid_body', { message: 'The password must not be your e-mail address.', field: 'password' });
}

export const hashPassword = (password: string): Promise<string> => hash(password, ARGON2);

/** A hash of nothing anyone can type, checked when the e-mail is unknown so that case takes as long. */
let decoy: Promise<string> | undefined;

/**
 * Whether `password` matches the stored hash. With no hash (no such user) a decoy is verified instead,
 * so the time taken does not tell which addresses have an account.
 */
export async function verifyPassword(stored: string | undefined, password: string): Promise<boolean> {
  if (stored !== undefined) return verify(stored, password);
  decoy ??= hashPassword('\u0000decoy');
  await verify(await decoy, password);
  return false;
}
