import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import type { Queryable } from '../store/index.js';

/** A session lasts 30 days from sign-in; signing in again starts a new one. */
export const SESSION_LIFETIME_MS = 30 * 86_400_000;

/** 256 random bits, base64url: the cookie's value. */
const TOKEN = /^[A-Za-z0-9_-]{43}$/;

export const newSessionToken = (): string => randomBytes(32).toString('base64url');

const tokenHash = (token: string): Buffer => createHash('sha256').update(token).digest();

/**
 * The session's CSRF token: derived from the session token, so it needs no storage and cannot be made
 * without the cookie, which another site's page never has. It is not the cookie: pages read it from
 * GET /api/session and send it back in X-CSRF-Token, which a cross-site form or fetch cannot do.
 */
export const csrfTokenOf = (sessionToken: string): string =>
  createHash('sha256').update(`qrfarm-csrf\n${sessionToken}`).digest('base64url');

/** Constant-time equality of two tokens of any lengths. */
export function sameToken(a: string | undefined, b: string): boolean {
  if (a === undefined) return false;
  const x = createHash('sha256').update(a).digest();
  const y = createHash('sha256').update(b).digest();
  return timingSafeEqual(x, y);
}

export async function createSession(
  db: Queryable,
  userId: string,
  now: Date,
): Promise<{ token: string; expiresAt: Date }> {
  const token = newSessionToken();
  const expiresAt = new Date(now.getTime() + SESSION_LIFETIME_MS);
  await db.query('INSERT INTO sessions (token_hash, user_id, created_at, expires_at) VALUES ($1, $2, $3, $4)', [
    tokenHash(token),
    userId,
    now,
    expiresAt,
  ]);
  return { token, expiresAt };
}

/** The user of an unexpired session, or null (a malformed token is refused without a lookup). */
export async function sessionUser(
  db: Queryable,
  token: string,
  now: Date,
): Promise<{ userId: string; expiresAt: Date } | null> {
  if (!TOKEN.test(token)) return null;
  const { rows } = await db.query<{ user_id: string; expires_at: Date }>(
    'SELECT user_id, expires_at FROM sessions WHERE token_hash = $1 AND expires_at > $2',
    [tokenHash(token), now],
  );
  return rows.length === 0 ? null : { userId: rows[0]!.user_id, expiresAt: rows[0]!.expires_at };
}

export async function endSession(db: Queryable, token: string): Promise<void> {
  if (TOKEN.test(token)) await db.query('DELETE FROM sessions WHERE token_hash = $1', [tokenHash(token)]);
}

/** Ends every session of the user; returns how many there were. */
export async function endAllSessions(db: Queryable, userId: string): Promise<number> {
  return (await db.query('DELETE FROM sessions WHERE user_id = $1', [userId])).rowCount;
}

export async function pruneSessions(db: Queryable, now: Date): Promise<number> {
  return (await db.query('DELETE FROM sessions WHERE expires_at <= $1', [now])).rowCount;
}

/** Ends every session of the user but the one with `token`; returns how many ended. */
export async function endOtherSessions(db: Queryable, userId: string, token: string): Promise<number> {
  return (await db.query('DELETE FROM sessions WHERE user_id = $1 AND token_hash <> $2', [userId, tokenHash(token)]))
    .rowCount;
}
