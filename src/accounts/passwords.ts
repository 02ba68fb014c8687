import { Algorithm, hash, verify } from '@node-rs/argon2';
import { ZxcvbnFactory } from '@zxcvbn-ts/core';
import * as common from '@zxcvbn-ts/language-common';
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
/**
 * zxcvbn's score (0–4) a password needs: 3, "safely unguessable" (about 10^8 guesses or more). Below it are
 * the lists of common passwords (`1234567890`, `password123`), keyboard walks, repeats, sequences, dates and
 * words with a number tacked on.
 */
export const PASSWORD_MIN_SCORE = 3;
/** A local part this long or longer may not appear in the password (shorter ones are in too many words). */
const LOCAL_PART_MIN_LENGTH = 3;

/**
 * zxcvbn-ts with its common dictionaries (the most used passwords from breaches, and common words), made on
 * the first check: the site alone needs it, and it takes tens of milliseconds and a few MB to build.
 */
let estimator: ZxcvbnFactory | undefined;
const strength = (password: string, hints: string[]) => {
  estimator ??= new ZxcvbnFactory({ dictionary: { ...common.dictionary }, graphs: common.adjacencyGraphs });
  return estimator.check(password, hints);
};

const refuse = (message: string) => new ApiError('invalid_body', { message, field: 'password' });

/**
 * The one rule for a new password (sign-up, and any reset or change): 10 to 200 characters, not the
 * e-mail address nor containing its local part (3 characters or more), and not easily guessed: a common
 * password, a keyboard walk, a sequence or a variant of those (zxcvbn score below PASSWORD_MIN_SCORE).
 * Refused with `invalid_body` on field `password`, saying why.
 */
export function checkPassword(password: string, email: string): void {
  const length = [...password].length;
  if (length < PASSWORD_MIN_LENGTH || length > PASSWORD_MAX_LENGTH)
    throw refuse(`The password must be ${PASSWORD_MIN_LENGTH} to ${PASSWORD_MAX_LENGTH} characters long.`);
  const address = email.trim().toLowerCase();
  const lowered = password.toLowerCase();
  if (lowered.trim() === address) throw refuse('The password must not be your e-mail address.');
  const local = address.split('@')[0] ?? '';
  if (local.length >= LOCAL_PART_MIN_LENGTH && lowered.includes(local))
    throw refuse('The password must not contain the name of your e-mail address.');
  const { score, feedback } = strength(password, [address, local]);
  if (score < PASSWORD_MIN_SCORE)
    throw refuse(
      `This password is too easy to guess${feedback.warning ? ` (${WARNINGS[feedback.warning] ?? feedback.warning})` : ''}: use a longer one, several unrelated words for instance.`,
    );
}

/** zxcvbn's warnings, as the refusal says them (its own texts come from a translation package). */
const WARNINGS: Record<string, string> = {
  topTen: 'it is one of the ten most used',
  topHundred: 'it is one of the hundred most used',
  common: 'it is a commonly used password',
  similarToCommon: 'it is very like a commonly used password',
  wordByItself: 'it is a single word',
  namesByThemselves: 'it is a name or surname',
  commonNames: 'it is a common name',
  userInputs: 'it is made of your own details',
  straightRow: 'it is a row of keys',
  keyPattern: 'it is a keyboard pattern',
  simpleRepeat: 'it repeats characters',
  extendedRepeat: 'it repeats a pattern',
  sequences: 'it is a common sequence',
  recentYears: 'it is a recent year',
  dates: 'it is a date',
  pwned: 'it appeared in a data breach',
};

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
