import { randomBytes } from 'node:crypto';
import { base62 } from './base62.js';

/** What each kind of row's id starts with, so an id in a log or a CLI argument says what it names. */
export type IdPrefix = 'cus' | 'key' | 'pack' | 'res' | 'ord' | 'usr' | 'dsg';

/** `<prefix>_` + 96 random bits in base 62 (17 characters). */
export const newId = (prefix: IdPrefix): string => `${prefix}_${base62(randomBytes(12), 17)}`;
