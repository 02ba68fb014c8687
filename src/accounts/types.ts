/**
 * The account store's data: customers, keys, Idempotency-Key records, users and saved designs here; packs
 * and credits in credit-types.ts, orders, receipts and invoices in order-types.ts, all of them named from
 * this module. What can be done with them is in interfaces.ts, one interface per concern.
 */

export type * from './credit-types.js';
export type * from './order-types.js';

/** Who a verified API key belongs to. Never carries the key or its hash. */
export interface KeyOwner {
  customerId: string;
  keyId: string;
}

/** `now` for everything time-dependent (pack expiry, reservation expiry, cache ages); injectable in tests. */
export type Clock = () => Date;

export interface Customer {
  id: string;
  email: string;
  createdAt: Date;
}

/** An API key as the operator sees it: never the key or its hash. */
export interface ApiKeyInfo {
  id: string;
  customerId: string;
  /** The key's first characters, for telling keys apart. */
  start: string;
  name: string | null;
  createdAt: Date;
  /** Updated at most once a minute. */
  lastUsedAt: Date | null;
  revokedAt: Date | null;
}

/** A key just issued: the only time its plaintext exists outside the customer's hands. */
export interface IssuedKey extends ApiKeyInfo {
  key: string;
}

/** A response kept for an Idempotency-Key, replayed as it was. */
export interface StoredResponse {
  status: number;
  headers: Record<string, string>;
  body: Uint8Array;
}

/**
 * What to do with a request carrying an Idempotency-Key: run it (`started`, the key is now held), answer
 * the stored response (`replay`), refuse it while the first is still running (`in_progress`), or refuse
 * it because the key came with a different request (`reused`).
 */
export type IdempotencyStart =
  | { outcome: 'started' }
  | { outcome: 'replay'; response: StoredResponse }
  | { outcome: 'in_progress' }
  | { outcome: 'reused' };

/** A person who signs in to the site: one customer, with its e-mail address. */
export interface User {
  id: string;
  customerId: string;
  /** The address the person signs in with (until verified, the one they signed up with). */
  email: string;
  /** Whether they opened the link sent to `email`: needed to buy, make keys and spend credits. */
  emailVerified: boolean;
  createdAt: Date;
}

/** A session just begun: its token goes into the cookie and nowhere else. */
export interface NewSession {
  user: User;
  token: string;
  expiresAt: Date;
}

/** A saved design: a name and a QrConfig without `content`, which each render gives. */
export interface Design {
  id: string;
  customerId: string;
  name: string;
  config: Record<string, unknown>;
  createdAt: Date;
  updatedAt: Date;
}

// The composite and the site's people, where their consumers outside src/accounts/ import them from.
export type {
  Accounts,
  CallUsage,
  Credits,
  Designs,
  IdempotencyRecords,
  KeyCheck,
  OrderHistory,
  Packs,
  People,
} from './interfaces.js';
