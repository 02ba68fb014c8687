import { createHmac, randomBytes } from 'node:crypto';
import { isMemoryDataDir, readOrCreateSecret } from '../store/index.js';

/** Shortest QR_KEY_PEPPER accepted: 32 characters (e.g. `openssl rand -base64 32` gives 44). */
export const MIN_PEPPER_LENGTH = 32;
const PEPPER_FILE = 'key-pepper';

export interface PepperSource {
  /** QR_KEY_PEPPER. */
  pepper?: string;
  /** QR_DATA_DIR: where a generated pepper is kept when the embedded store is used. */
  dataDir: string;
  /** DATABASE_URL: with a shared database the pepper must be configured, the same on every instance. */
  databaseUrl?: string;
}

/**
 * The server secret API keys are hashed with. Configured (QR_KEY_PEPPER), or with the embedded store
 * generated once and kept in the data directory (`key-pepper`, mode 0600); losing it invalidates every
 * key, so it is backed up with the directory. With DATABASE_URL it is required: instances generating
 * their own would not recognise each other's keys.
 */
export function resolvePepper({ pepper, dataDir, databaseUrl }: PepperSource): Buffer {
  if (pepper !== undefined) {
    if (pepper.length < MIN_PEPPER_LENGTH)
      throw new Error(`QR_KEY_PEPPER must be at least ${MIN_PEPPER_LENGTH} characters (openssl rand -base64 32)`);
    return Buffer.from(pepper, 'utf8');
  }
  if (databaseUrl !== undefined)
    throw new Error(
      'QR_KEY_PEPPER is required with DATABASE_URL: every instance must hash API keys with the same secret (openssl rand -base64 32)',
    );
  if (isMemoryDataDir(dataDir)) return randomBytes(32);
  return Buffer.from(readOrCreateSecret(dataDir, PEPPER_FILE), 'utf8');
}

/**
 * HMAC-SHA-256(pepper, key): what is stored and looked up. One keyed hash is enough for 192 random bits
 * (a slow password hash would only make lookup by hash impossible); the pepper means a copy of the
 * database alone cannot confirm a guessed key.
 */
export const keyDigest = (pepper: Uint8Array, key: string): Buffer => createHmac('sha256', pepper).update(key).digest();
