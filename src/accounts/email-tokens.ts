import { createHash, randomBytes } from 'node:crypto';
import type { Queryable } from '../store/index.js';

/** What a link sent by e-mail is for. */
export type EmailTokenPurpose = 'verify' | 'reset';

/** A verification link works for 24 hours; a password reset link for 30 minutes. */
export const EMAIL_TOKEN_LIFETIME_MS: Record<EmailTokenPurpose, number> = {
  verify: 24 * 3_600_000,
  reset: 30 * 60_000,
};

/** 256 random bits, base64url, as session tokens. */
const TOKEN = /^[A-Za-z0-9_-]{43}$/;

const tokenHash = (token: string): Buffer => createHash('sha256').update(`qrfarm-email-token\n${token}`).digest();

/**
 * A new link's token for the user: only its SHA-256 is stored (a lookup by hash compares nothing secret
 * in the process), and it works once, until its lifetime ends.
 */
export async function issueEmailToken(
  db: Queryable,
  userId: string,
  purpose: EmailTokenPurpose,
  email: string,
  now: Date,
): Promise<string> {
  const token = randomBytes(32).toString('base64url');
  await db.query(
    'INSERT INTO email_tokens (token_hash, user_id, purpose, email, created_at, expires_at) VALUES ($1, $2, $3, $4, $5, $6)',
    [tokenHash(token), userId, purpose, email, now, new Date(now.getTime() + EMAIL_TOKEN_LIFETIME_MS[purpose])],
  );
  return token;
}

/** The unexpired token's user and address, without using it up; null for any other string. */
export async function peekEmailToken(
  db: Queryable,
  token: string,
  purpose: EmailTokenPurpose,
  now: Date,
): Promise<{ userId: string; email: string } | null> {
  if (!TOKEN.test(token)) return null;
  const { rows } = await db.query<{ user_id: string; email: string }>(
    'SELECT user_id, email FROM email_tokens WHERE token_hash = $1 AND purpose = $2 AND expires_at > $3',
    [tokenHash(token), purpose, now],
  );
  return rows.length === 0 ? null : { userId: rows[0]!.user_id, email: rows[0]!.email };
}

/**
 * Uses the token up (deletes it) and returns its user and address, or null when it is unknown, used,
 * expired or of another purpose. Of two requests with one token, one gets it.
 */
export async function takeEmailToken(
  db: Queryable,
  token: string,
  purpose: EmailTokenPurpose,
  now: Date,
): Promise<{ userId: string; email: string } | null> {
  if (!TOKEN.test(token)) return null;
  const { rows } = await db.query<{ user_id: string; email: string; expires_at: Date }>(
    'DELETE FROM email_tokens WHERE token_hash = $1 AND purpose = $2 RETURNING user_id, email, expires_at',
    [tokenHash(token), purpose],
  );
  const r = rows[0];
  return r === undefined || r.expires_at <= now ? null : { userId: r.user_id, email: r.email };
}

/** Deletes the user's tokens of a purpose (all of them without one). */
export async function dropEmailTokens(db: Queryable, userId: string, purpose?: EmailTokenPurpose): Promise<void> {
  await db.query(`DELETE FROM email_tokens WHERE user_id = $1${purpose ? ' AND purpose = $2' : ''}`, [
    userId,
    ...(purpose ? [purpose] : []),
  ]);
}

export async function pruneEmailTokens(db: Queryable, now: Date): Promise<number> {
  return (await db.query('DELETE FROM email_tokens WHERE expires_at <= $1', [now])).rowCount;
}
