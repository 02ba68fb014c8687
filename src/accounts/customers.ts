import { ApiError } from '../errors.js';
import { isUniqueViolation, type Queryable } from '../store/index.js';
import { newId } from './ids.js';
import type { Customer } from './types.js';

/** A plausible address: something@something, no spaces, at most 254 characters (RFC 5321's path limit). */
const EMAIL = /^[^\s@]+@[^\s@]+$/;
export const MAX_EMAIL_LENGTH = 254;

interface CustomerRow {
  id: string;
  email: string;
  created_at: Date;
}

const toCustomer = (r: CustomerRow): Customer => ({ id: r.id, email: r.email, createdAt: r.created_at });

/** The address, trimmed, or invalid_body (`field: email`) when it is not one. */
export function checkEmail(email: string): string {
  const address = email.trim();
  if (address.length > MAX_EMAIL_LENGTH || !EMAIL.test(address))
    throw new ApiError('invalid_body', { message: 'email must be an e-mail address.', field: 'email' });
  return address;
}

export async function createCustomer(db: Queryable, email: string, now: Date): Promise<Customer> {
  try {
    return await insertCustomer(db, email, now);
  } catch (e) {
    if (isUniqueViolation(e)) throw new ApiError('customer_exists', { field: 'email' });
    throw e;
  }
}

/** Inserts the customer; a taken address is the caller's to report (it may be inside a transaction). */
export async function insertCustomer(db: Queryable, email: string, now: Date): Promise<Customer> {
  const address = checkEmail(email);
  const { rows } = await db.query<CustomerRow>(
    'INSERT INTO customers (id, email, created_at) VALUES ($1, $2, $3) RETURNING id, email, created_at',
    [newId('cus'), address, now],
  );
  return toCustomer(rows[0]!);
}

export async function getCustomer(db: Queryable, customerId: string): Promise<Customer | null> {
  const { rows } = await db.query<CustomerRow>('SELECT id, email, created_at FROM customers WHERE id = $1', [
    customerId,
  ]);
  return rows.length === 0 ? null : toCustomer(rows[0]!);
}

export async function findCustomerByEmail(db: Queryable, email: string): Promise<Customer | null> {
  const { rows } = await db.query<CustomerRow>(
    'SELECT id, email, created_at FROM customers WHERE lower(email) = lower($1)',
    [email.trim()],
  );
  return rows.length === 0 ? null : toCustomer(rows[0]!);
}

/**
 * Locks the customer's row for the rest of the transaction. Every change to a customer's credits takes
 * this lock first, so they happen one after another and each sees the last one's result. NO KEY UPDATE, not
 * UPDATE: NO KEY UPDATE conflicts with itself (reservations still queue) but not with the KEY SHARE that a
 * foreign key check takes on this row. A release holds its pack's row while it writes its ledger row (whose
 * foreign key takes that KEY SHARE), and a reservation holding this lock waits for that pack's row: with
 * FOR UPDATE each waited on the other until PostgreSQL failed one (test/accounts/credit-locks.test.ts).
 */
export async function lockCustomer(tx: Queryable, customerId: string): Promise<void> {
  const { rowCount } = await tx.query('SELECT 1 FROM customers WHERE id = $1 FOR NO KEY UPDATE', [customerId]);
  if (rowCount === 0) throw new ApiError('customer_not_found', { field: 'customer' });
}

/** customer_not_found unless the customer exists. */
export async function requireCustomer(db: Queryable, customerId: string): Promise<void> {
  const { rowCount } = await db.query('SELECT 1 FROM customers WHERE id = $1', [customerId]);
  if (rowCount === 0) throw new ApiError('customer_not_found', { field: 'customer' });
}
