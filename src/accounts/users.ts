import { ApiError } from '../errors.js';
import { type Db, isUniqueViolation, type Queryable } from '../store/index.js';
import { checkEmail, insertCustomer } from './customers.js';
import { newId } from './ids.js';
import type { User } from './types.js';

interface UserRow {
  id: string;
  customer_id: string;
  email: string;
  email_verified_at: Date | null;
  created_at: Date;
}

/** Until verified, a user's address is the one they claimed; their customer holds a placeholder. */
const COLUMNS = 'u.id, u.customer_id, COALESCE(u.claimed_email, c.email) AS email, u.email_verified_at, u.created_at';
const FROM = 'users u JOIN customers c ON c.id = u.customer_id';

const toUser = (r: UserRow): User => ({
  id: r.id,
  customerId: r.customer_id,
  email: r.email,
  emailVerified: r.email_verified_at !== null,
  createdAt: r.created_at,
});

/** The address a customer holds while its person has not verified theirs (`.invalid` never delivers). */
export const placeholderEmail = (userId: string): string => `unverified+${userId}@qrfarm.invalid`;

/**
 * A user and a customer of their own, in one transaction. The customer gets the address only when the
 * person proves it is theirs (verifyEmail): until then it holds a placeholder and the user claims the
 * address, so signing up with someone else's address takes nothing from them. An address a person already
 * holds is refused (customer_exists); one only a customer without a person holds (made by the admin CLI)
 * can be claimed, and becomes that customer's on verification.
 */
export async function insertUser(db: Db, email: string, passwordHash: string, now: Date): Promise<User> {
  const address = checkEmail(email);
  return db.transaction(async (tx) => {
    const { rowCount } = await tx.query(
      `SELECT 1 FROM customers c JOIN users u ON u.customer_id = c.id WHERE lower(c.email) = lower($1)`,
      [address],
    );
    if (rowCount > 0) throw new ApiError('customer_exists', { field: 'email' });
    const userId = newId('usr');
    const customer = await insertCustomer(tx, placeholderEmail(userId), now);
    await tx.query(
      'INSERT INTO users (id, customer_id, password_hash, created_at, claimed_email) VALUES ($1, $2, $3, $4, $5)',
      [userId, customer.id, passwordHash, now, address],
    );
    return { id: userId, customerId: customer.id, email: address, emailVerified: false, createdAt: now };
  });
}

/**
 * The user who signs in with this address and their password hash, or null: the person holding it
 * verified first, else the newest who claimed it (someone else's earlier claim never locks the owner out).
 */
export async function userByEmail(db: Queryable, email: string): Promise<{ user: User; passwordHash: string } | null> {
  const { rows } = await db.query<UserRow & { password_hash: string }>(
    `SELECT ${COLUMNS}, u.password_hash FROM ${FROM}
     WHERE (lower(c.email) = lower($1) OR lower(u.claimed_email) = lower($1))
     ORDER BY (u.claimed_email IS NULL) DESC, u.created_at DESC, u.id LIMIT 1`,
    [email.trim()],
  );
  return rows.length === 0 ? null : { user: toUser(rows[0]!), passwordHash: rows[0]!.password_hash };
}

export async function userById(db: Queryable, userId: string): Promise<User | null> {
  const { rows } = await db.query<UserRow>(`SELECT ${COLUMNS} FROM ${FROM} WHERE u.id = $1`, [userId]);
  return rows.length === 0 ? null : toUser(rows[0]!);
}

export async function passwordHashOf(db: Queryable, userId: string): Promise<string | undefined> {
  const { rows } = await db.query<{ password_hash: string }>('SELECT password_hash FROM users WHERE id = $1', [userId]);
  return rows[0]?.password_hash;
}

export async function setPasswordHash(db: Queryable, userId: string, passwordHash: string): Promise<void> {
  await db.query('UPDATE users SET password_hash = $2 WHERE id = $1', [userId, passwordHash]);
}

/** Whether a person (not only a customer made by the admin CLI) holds the address. */
export async function addressHeld(db: Queryable, email: string): Promise<boolean> {
  const { rowCount } = await db.query(
    'SELECT 1 FROM customers c JOIN users u ON u.customer_id = c.id WHERE lower(c.email) = lower($1)',
    [email],
  );
  return rowCount > 0;
}

/**
 * The user's address becomes `email`, proven theirs by the link: their customer's address (unique, so
 * one held by another person is customer_exists), or, for an address the admin CLI gave a customer
 * without a person, that customer (its keys, packs and credits) becomes theirs, and the customer they had
 * until then is dropped when nothing was bought on it.
 */
export async function confirmAddress(tx: Queryable, userId: string, email: string, now: Date): Promise<void> {
  const { rows } = await tx.query<{ customer_id: string; email: string }>(
    'SELECT u.customer_id, c.email FROM users u JOIN customers c ON c.id = u.customer_id WHERE u.id = $1 FOR UPDATE OF u',
    [userId],
  );
  const mine = rows[0];
  if (mine === undefined) throw new ApiError('invalid_token');
  if (mine.email.toLowerCase() !== email.toLowerCase()) {
    const { rows: held } = await tx.query<{ id: string; user_id: string | null }>(
      `SELECT c.id, u.id AS user_id FROM customers c LEFT JOIN users u ON u.customer_id = c.id
       WHERE lower(c.email) = lower($1) FOR UPDATE OF c`,
      [email],
    );
    const holder = held[0];
    if (holder?.user_id != null) throw new ApiError('customer_exists', { field: 'email' });
    if (holder === undefined) {
      try {
        await tx.query('UPDATE customers SET email = $2 WHERE id = $1', [mine.customer_id, email]);
      } catch (e) {
        if (isUniqueViolation(e)) throw new ApiError('customer_exists', { field: 'email' });
        throw e;
      }
    } else {
      if (!(await customerIsEmpty(tx, mine.customer_id))) throw new ApiError('customer_exists', { field: 'email' });
      await tx.query('UPDATE users SET customer_id = $2 WHERE id = $1', [userId, holder.id]);
      await tx.query('DELETE FROM usage_daily WHERE customer_id = $1', [mine.customer_id]);
      await tx.query('DELETE FROM customers WHERE id = $1', [mine.customer_id]);
    }
  }
  await tx.query('UPDATE users SET email_verified_at = $2, claimed_email = NULL WHERE id = $1', [userId, now]);
}

/** Whether nothing was ever bought, granted, issued or spent on the customer. */
async function customerIsEmpty(tx: Queryable, customerId: string): Promise<boolean> {
  const tables = ['packs', 'api_keys', 'orders', 'credit_ledger', 'credit_reservations', 'idempotency_keys'];
  const { rows } = await tx.query<{ used: boolean }>(
    `SELECT ${tables.map((t) => `EXISTS (SELECT 1 FROM ${t} WHERE customer_id = $1)`).join(' OR ')} AS used`,
    [customerId],
  );
  return !rows[0]!.used;
}

/** email_unverified unless the user has verified their address: buying, keys and credits need it. */
export function requireVerifiedEmail(user: User): void {
  if (!user.emailVerified) throw new ApiError('email_unverified');
}
