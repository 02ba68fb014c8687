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

/**
 * The unexpired token's user and address, or null when it is unknown, used, expired or of another
 * purpose. `take` uses it up (deletes it): of two requests with one token, one gets it; `peek` leaves it.
 */
export async function emailToken(
  db: Queryable,
  token: string,
  purpose: EmailTokenPurpose,
  now: Date,
  use: 'peek' | 'take',
): Promise<{ userId: string; email: string } | null> {
  if (!TOKEN.test(token)) return null;
  const where = 'FROM email_tokens WHERE token_hash = $1 AND purpose = $2';
  const { rows } = await db.query<{ user_id: string; email: string; expires_at: Date }>(
    use === 'take'
      ? `DELETE ${where} RETURNING user_id, email, expires_at`
      : `SELECT user_id, email, expires_at ${where}`,
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
