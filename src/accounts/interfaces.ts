import type { LimitClass } from '../config.js';
import type {
  ApiKeyInfo,
  CheckoutClosed,
  CreditBalance,
  Customer,
  Design,
  Fulfilment,
  GrantPackInput,
  IdempotencyStart,
  Invoice,
  IssuedKey,
  KeyOwner,
  LedgerEntry,
  NewOrder,
  NewSession,
  Order,
  OrderSummary,
  Pack,
  PaidOrder,
  PaymentRefunded,
  PaymentSucceeded,
  RefundOutcome,
  ReceiptState,
  Reservation,
  StoredResponse,
  UsageDay,
  User,
  Waiver,
} from './types.js';

/**
 * What the account store does, one interface per concern: each consumer asks for the ones it uses.
 * `createAccounts` (accounts.ts) implements them all on one store (PGlite or PostgreSQL).
 */

/** API keys checked at the edge. */
export interface KeyCheck {
  /**
   * The owner of an active key, or null for a key that is malformed (prefix or checksum: refused
   * without a lookup), unknown or revoked. Cached briefly; a revocation reaches every instance within 1 s.
   */
  verifyKey(plaintext: string): Promise<KeyOwner | null>;
  /** Whether revocations from other instances arrive by Redis pub/sub (`off`: no REDIS_URL). */
  keyRevocationFeed(): 'off' | 'listening' | 'down';
}

/** API keys as their owner and the operator manage them. */
export interface Keys {
  /** A new key for the customer; the returned plaintext is never stored. Several keys may be active. */
  issueKey(customerId: string, options?: { name?: string }): Promise<IssuedKey>;
  /** Revokes the key (idempotent) and tells every instance to forget it. */
  revokeKey(keyId: string): Promise<ApiKeyInfo>;
  listKeys(customerId: string): Promise<ApiKeyInfo[]>;
}

export interface Customers {
  createCustomer(email: string): Promise<Customer>;
  customer(customerId: string): Promise<Customer | null>;
  customerByEmail(email: string): Promise<Customer | null>;
}

/** Studio packs (one opens the gateway) and top-ups. */
export interface Packs {
  /**
   * The customer's active Studio pack (its end after `now`, not refunded), the one ending last.
   * Trusted for 5 s once read; a refund through this instance is seen at once (src/accounts/pack-cache.ts).
   */
  activePack(customerId: string, now?: Date): Promise<Pack | null>;
  grantPack(input: GrantPackInput): Promise<Pack>;
  /** Marks the pack refunded (idempotent); its remaining credits leave the balance. */
  refundPack(packId: string, now?: Date): Promise<Pack>;
  listPacks(customerId: string): Promise<Pack[]>;
}

/** AI credits, reserved before an LLM call and committed or released after it. */
export interface Credits {
  /** Holds one credit, or null when none is available. Exact under concurrency. */
  reserveCredit(customerId: string, now?: Date): Promise<Reservation | null>;
  /** Spends a held credit; returns what is left available afterwards. Idempotent per reservation. */
  commitCredit(reservationId: string): Promise<CreditBalance>;
  /** Returns a held credit. Idempotent per reservation; a committed one stays committed. */
  releaseCredit(reservationId: string): Promise<void>;
  balance(customerId: string, now?: Date): Promise<CreditBalance>;
  /** The customer's credit movements, newest first. */
  ledger(customerId: string, limit?: number): Promise<LedgerEntry[]>;
  /** Releases holds past their expiry (a crashed instance's); returns how many. Safe on several instances. */
  sweepExpiredReservations(now?: Date): Promise<number>;
}

/** Gateway calls per customer and day, for the dashboard's chart. */
export interface CallUsage {
  /** Counts one gateway call of the customer (written in batches). */
  recordCall(customerId: string, limitClass: LimitClass): void;
  /** The customer's last `days` UTC days, oldest first; calls counted but not yet written are included. */
  usage(customerId: string, days: number, now?: Date): Promise<UsageDay[]>;
}

/** Idempotency-Key records of server AI. */
export interface IdempotencyRecords {
  /** `requestHash`: SHA-256 of what identifies the request (see `hashRequest`). */
  beginIdempotent(customerId: string, key: string, requestHash: Uint8Array, now?: Date): Promise<IdempotencyStart>;
  /** Stores the outcome of a started key for its retries. */
  completeIdempotent(customerId: string, key: string, response: StoredResponse): Promise<void>;
  /** Forgets a started key (an engine failure or timeout) so a retry runs again. */
  abandonIdempotent(customerId: string, key: string): Promise<void>;
  /** Deletes records older than 24 hours; returns how many. */
  pruneIdempotency(now?: Date): Promise<number>;
}

/** Orders of the site's checkout and what the payment provider said of them, as src/checkout/ decides. */
export interface Orders {
  /** An order of an existing customer (the signed-in buyer's) and their waiver. */
  createOrder(input: NewOrder): Promise<Order>;
  order(orderId: string): Promise<Order | null>;
  waiver(orderId: string): Promise<Waiver | null>;
  attachCheckoutSession(orderId: string, sessionId: string): Promise<void>;
  /** Grants the order's pack, exactly once whatever the provider repeats or reorders. */
  paymentSucceeded(payment: PaymentSucceeded): Promise<Fulfilment>;
  /** Ends the pack of a fully refunded payment; this instance's gateway refuses it at once, others within 5 s. */
  paymentRefunded(refund: PaymentRefunded): Promise<RefundOutcome>;
  checkoutClosed(closed: CheckoutClosed): Promise<void>;
}

/** Receipts of paid orders: the outbox each fulfilment writes (src/accounts/receipts.ts). */
export interface Receipts {
  /** Receipts waiting to be sent, claimed for `leaseMs`; order ids. */
  claimReceipts(leaseMs: number, limit: number): Promise<string[]>;
  /** A paid order with its pack and waiver, or null for an order not paid. */
  paidOrder(orderId: string): Promise<PaidOrder | null>;
  receiptSent(orderId: string, messageId: string): Promise<void>;
  /** A send that failed, to be tried again `retryInMs` from now. */
  receiptFailed(orderId: string, retryInMs: number): Promise<void>;
  receipt(orderId: string): Promise<ReceiptState | null>;
}

/** A customer's orders and the invoices of those paid, for their dashboard. */
export interface OrderHistory {
  /** Newest first, at most `limit`. */
  ordersOf(customerId: string, limit: number): Promise<OrderSummary[]>;
  /** The invoice of the customer's own paid order; null for another's, an unknown or an unpaid one. */
  invoiceOf(customerId: string, orderId: string): Promise<Invoice | null>;
}

/** Saved designs (src/accounts/designs.ts): each belongs to one customer; another's id is design_not_found. */
export interface Designs {
  /** design_limit_reached past MAX_DESIGNS, design_too_large past MAX_DESIGN_BYTES; `content` is not kept. */
  saveDesign(customerId: string, input: { name: string; config: Record<string, unknown> }): Promise<Design>;
  design(customerId: string, id: string): Promise<Design>;
  listDesigns(customerId: string): Promise<Design[]>;
  updateDesign(
    customerId: string,
    id: string,
    change: { name?: string; config?: Record<string, unknown> },
  ): Promise<Design>;
  deleteDesign(customerId: string, id: string): Promise<void>;
}

/** The whole account store, for what wires it up (the site's server, the operator's commands). */
export interface Accounts
  extends KeyCheck,
    Keys,
    Customers,
    Packs,
    Credits,
    CallUsage,
    IdempotencyRecords,
    Orders,
    OrderHistory,
    Designs,
    Receipts {
  /** Closes the Redis connections and waits for pending writes; the Db stays open (its opener closes it). */
  close(): Promise<void>;
}

/** The site's people: sign-up, sign-in and server-side sessions (src/accounts/people.ts). */
export interface People {
  /** A new user and customer, signed in. Refuses a taken address (customer_exists) and weak passwords. */
  signUp(email: string, password: string): Promise<NewSession>;
  /** A new session, or null when the address is unknown or the password wrong (alike in time). */
  signIn(email: string, password: string): Promise<NewSession | null>;
  /** The user of an unexpired session. */
  session(token: string): Promise<{ user: User; expiresAt: Date } | null>;
  signOut(token: string): Promise<void>;
  /** Ends every session of the user, this one included; returns how many ended. */
  signOutEverywhere(userId: string): Promise<number>;
  /** Deletes expired sessions (and expired e-mail links); returns how many sessions. */
  pruneSessions(now?: Date): Promise<number>;

  /**
   * A link's token proving `email` (the user's own address by default, or the new address of a change) is
   * theirs: works once, for 24 hours. The site mails it; only its hash is stored.
   */
  verificationToken(userId: string, email?: string): Promise<{ token: string; email: string }>;
  /**
   * Uses a verification token: the address becomes the user's, verified (a change of address takes effect
   * now; an address only an admin-made customer held makes that customer theirs). Null for a token that is
   * unknown, used or expired; customer_exists when another person verified the address meanwhile.
   */
  verifyEmail(token: string): Promise<User | null>;
  /** A password reset token for the account signing in with `email` (30 minutes, once), or null for none. */
  passwordResetToken(email: string): Promise<{ token: string; email: string } | null>;
  /** Sets the password of the token's user and ends every session of theirs; false for a bad token. */
  resetPassword(token: string, password: string): Promise<boolean>;
  /** wrong_password unless `password` is the user's. */
  confirmPassword(userId: string, password: string): Promise<void>;
  /** A new password, the current one asked; every other session of the user ends. */
  changePassword(userId: string, sessionToken: string, current: string, next: string): Promise<void>;
  /**
   * Erases the person: sessions, links, the user row (address and password hash); their customer stays for
   * what accounting keeps (orders, ledger) under a placeholder address, its keys revoked.
   */
  eraseAccount(userId: string): Promise<void>;
}
