import { ApiError } from '../errors.js';
import { type Db, isUniqueViolation, type Queryable } from '../store/index.js';
import { insertCustomer } from './customers.js';
import { newId } from './ids.js';
import type { User } from './types.js';

interface UserRow {
  id: string;
  customer_id: string;
  email: string;
  created_at: Date;
}

const COLUMNS = 'u.id, u.customer_id, c.email, u.created_at';

const toUser = (r: UserRow): User => ({ id: r.id, customerId: r.customer_id, email: r.email, createdAt: r.created_at });

/**
 * A user and the customer they are, in one transaction. An address some customer already has (made by
 * the admin CLI or a checkout without an account) is refused like a taken one: the site cannot check
 * that whoever signs up owns the address, and that customer's keys and credits would be theirs.
 */
export async function insertUser(db: Db, email: string, passwordHash: string, now: Date): Promise<User> {
  try {
    return await db.transaction(async (tx) => {
      const customer = await insertCustomer(tx, email, now);
      const { rows } = await tx.query<{ id: string; created_at: Date }>(
        'INSERT INTO users (id, customer_id, password_hash, created_at) VALUES ($1, $2, $3, $4) RETURNING id, created_at',
        [newId('usr'), customer.id, passwordHash, now],
      );
      return { id: rows[0]!.id, customerId: customer.id, email: customer.email, createdAt: rows[0]!.created_at };
    });
  } catch (e) {
    if (isUniqueViolation(e)) throw new ApiError('customer_exists', { field: 'email' });
    throw e;
  }
}

/** The user with this address and their password hash, or null. */
export async function userByEmail(db: Queryable, email: string): Promise<{ user: User; passwordHash: string } | null> {
  const { rows } = await db.query<UserRow & { password_hash: string }>(
    `SELECT ${COLUMNS}, u.password_hash FROM users u JOIN customers c ON c.id = u.customer_id
     WHERE lower(c.email) = lower($1)`,
    [email.trim()],
  );
  return rows.length === 0 ? null : { user: toUser(rows[0]!), passwordHash: rows[0]!.password_hash };
}

export async function userById(db: Queryable, userId: string): Promise<User | null> {
  const { rows } = await db.query<UserRow>(
    `SELECT ${COLUMNS} FROM users u JOIN customers c ON c.id = u.customer_id WHERE u.id = $1`,
    [userId],
  );
  return rows.length === 0 ? null : toUser(rows[0]!);
}
