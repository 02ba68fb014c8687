import { randomBytes } from 'node:crypto';
import { ApiError } from '../errors.js';
import type { Db } from '../store/index.js';
import { dropEmailTokens, emailToken, issueEmailToken, pruneEmailTokens } from './email-tokens.js';
import type { People } from './interfaces.js';
import { checkPassword, hashPassword, verifyPassword } from './passwords.js';
import { createSession, endAllSessions, endOtherSessions, endSession, pruneSessions, sessionUser } from './sessions.js';
import type { Clock } from './types.js';
import {
  addressHeld,
  confirmAddress,
  insertUser,
  passwordHashOf,
  setPasswordHash,
  userByEmail,
  userById,
} from './users.js';

/** The address a deleted account's customer keeps: no one's, and unique. */
export const erasedEmail = (customerId: string): string => `deleted+${customerId}@qrfarm.invalid`;

/**
 * The site's people on the store: users (one customer each), argon2id passwords, server-side sessions, and
 * the links mailed to them (verification, password reset).
 */
export function createPeople(db: Db, { clock = () => new Date() }: { clock?: Clock } = {}): People {
  const mustBePassword = async (userId: string, password: string) => {
    if (!(await verifyPassword(await passwordHashOf(db, userId), password))) throw new ApiError('wrong_password');
  };
  return {
    async signUp(email, password) {
      checkPassword(password, email);
      const user = await insertUser(db, email, await hashPassword(password), clock());
      return { user, ...(await createSession(db, user.id, clock())) };
    },
    async signIn(email, password) {
      const found = await userByEmail(db, email);
      if (!(await verifyPassword(found?.passwordHash, password)) || found === null) return null;
      return { user: found.user, ...(await createSession(db, found.user.id, clock())) };
    },
    async session(token) {
      const s = await sessionUser(db, token, clock());
      if (s === null) return null;
      const user = await userById(db, s.userId);
      return user === null ? null : { user, expiresAt: s.expiresAt };
    },
    signOut: (token) => endSession(db, token),
    signOutEverywhere: (userId) => endAllSessions(db, userId),
    async pruneSessions(now = clock()) {
      await pruneEmailTokens(db, now);
      return pruneSessions(db, now);
    },

    async verificationToken(userId, email) {
      const user = await userById(db, userId);
      if (user === null) throw new ApiError('session_required');
      const address = email ?? user.email;
      if (address.toLowerCase() !== user.email.toLowerCase() && (await addressHeld(db, address)))
        throw new ApiError('customer_exists', { field: 'email' });
      return { token: await issueEmailToken(db, userId, 'verify', address, clock()), email: address };
    },
    async verifyEmail(token) {
      const now = clock();
      const userId = await db.transaction(async (tx) => {
        const taken = await emailToken(tx, token, 'verify', now, 'take');
        if (taken === null) return null;
        await confirmAddress(tx, taken.userId, taken.email, now);
        return taken.userId;
      });
      return userId === null ? null : userById(db, userId);
    },
    async passwordResetToken(email) {
      const found = await userByEmail(db, email);
      if (found === null) {
        // A lookup of a token no one has, so an unknown address costs about what a known one does.
        await emailToken(db, randomBytes(32).toString('base64url'), 'reset', clock(), 'peek');
        return null;
      }
      const { user } = found;
      return { token: await issueEmailToken(db, user.id, 'reset', user.email, clock()), email: user.email };
    },
    async resetPassword(token, password) {
      const found = await emailToken(db, token, 'reset', clock(), 'peek');
      if (found === null) return false;
      // Checked before the token is used up, so a refused password leaves the link working.
      checkPassword(password, found.email);
      const hash = await hashPassword(password);
      return db.transaction(async (tx) => {
        const taken = await emailToken(tx, token, 'reset', clock(), 'take');
        if (taken === null) return false;
        await setPasswordHash(tx, taken.userId, hash);
        await dropEmailTokens(tx, taken.userId, 'reset');
        await endAllSessions(tx, taken.userId);
        return true;
      });
    },
    checkPassword: mustBePassword,
    async changePassword(userId, sessionToken, current, next) {
      const user = await userById(db, userId);
      if (user === null) throw new ApiError('session_required');
      await mustBePassword(userId, current);
      checkPassword(next, user.email);
      await setPasswordHash(db, userId, await hashPassword(next));
      await endOtherSessions(db, userId, sessionToken);
      await dropEmailTokens(db, userId, 'reset');
    },
    async eraseAccount(userId) {
      const now = clock();
      await db.transaction(async (tx) => {
        const { rows } = await tx.query<{ customer_id: string }>(
          'SELECT customer_id FROM users WHERE id = $1 FOR UPDATE',
          [userId],
        );
        const customerId = rows[0]?.customer_id;
        if (customerId === undefined) return;
        await tx.query('UPDATE api_keys SET revoked_at = $2 WHERE customer_id = $1 AND revoked_at IS NULL', [
          customerId,
          now,
        ]);
        await endAllSessions(tx, userId);
        await dropEmailTokens(tx, userId);
        await tx.query('DELETE FROM users WHERE id = $1', [userId]);
        await tx.query('UPDATE customers SET email = $2, deleted_at = $3 WHERE id = $1', [
          customerId,
          erasedEmail(customerId),
          now,
        ]);
      });
    },
  };
}
