import type { Db } from '../store/index.js';
import { checkPassword, hashPassword, verifyPassword } from './passwords.js';
import { createSession, endAllSessions, endSession, pruneSessions, sessionUser } from './sessions.js';
import type { People } from './interfaces.js';
import type { Clock } from './types.js';
import { insertUser, userByEmail, userById } from './users.js';

/** The site's people on the store: users (one customer each), argon2id passwords, server-side sessions. */
export function createPeople(db: Db, { clock = () => new Date() }: { clock?: Clock } = {}): People {
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
    pruneSessions: (now = clock()) => pruneSessions(db, now),
  };
}
