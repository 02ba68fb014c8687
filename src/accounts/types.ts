/**
 * The account store's data: customers, keys, packs and credits, orders and receipts, Idempotency-Key
 * records, users. What can be done with them is in interfaces.ts, one interface per concern.
 */

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

/** A Studio pack opens the gateway and holds credits; a top-up only adds credits. */
export type PackKind = 'studio' | 'topup';

export interface Pack {
  id: string;
  customerId: string;
  kind: PackKind;
  /** Credits the pack granted when bought. */
  credits: number;
  /** Credits of this pack not yet reserved or spent. */
  remaining: number;
  purchasedAt: Date;
  refundedAt: Date | null;
  /**
   * 12 months after purchase, or after the end of the Studio pack it extends: the pack is active strictly
   * before this instant.
   */
  expiresAt: Date;
}

/** A credit held for one AI call: committed when a design comes back, released otherwise. */
export interface Reservation {
  id: string;
  customerId: string;
  /** The pack the credit was drawn from, and is given back to on release. */
  packId: string;
  /** A hold still open after this is released by the sweeper. */
  expiresAt: Date;
}

export interface CreditBalance {
  /** Credits that can still be reserved, over the customer's active packs. */
  available: number;
  /** Credits held by reservations not yet committed or released. */
  reserved: number;
}

export interface GrantPackInput {
  customerId: string;
  credits: number;
  /** Default: a Studio pack. */
  kind?: PackKind;
  /** Default: now. */
  purchasedAt?: Date;
  /** Grants once per key (e.g. a checkout session): a repeat returns the pack already granted. */
  idempotencyKey?: string;
}

export type LedgerKind = 'grant' | 'reserve' | 'commit' | 'release' | 'expire' | 'refund';

/**
 * One credit movement. Over a pack's entries, remainingChange sums to its remaining credits; over a
 * customer's, heldChange sums to the credits on hold. `expire` is a release by the sweeper.
 */
export interface LedgerEntry {
  id: string;
  kind: LedgerKind;
  packId: string;
  reservationId: string | null;
  remainingChange: number;
  heldChange: number;
  createdAt: Date;
}

export type OrderState = 'open' | 'paid' | 'refunded' | 'expired' | 'failed';
/** Who takes the money: Stripe, or nobody (the loopback-only test mode). */
export type PaymentProviderName = 'stripe' | 'test';

/** What a buyer orders, as the catalogue sold it; kept on the order. */
export interface OrderedOffer {
  id: string;
  kind: PackKind;
  credits: number;
  /** In the currency's minor unit (cents). */
  price: number;
  /** ISO 4217, lower case. */
  currency: string;
}

/** The buyer's waiver of the right of withdrawal as they gave it (both boxes ticked). */
export interface Waiver {
  /** Which text the buyer was shown. */
  textVersion: string;
  /** SHA-256 of that text, so the text itself can be proven later. */
  textSha256: Uint8Array;
  givenAt: Date;
}

export interface NewOrder {
  /** The buyer: the customer of the signed-in, verified account placing the order. */
  customerId: string;
  offer: OrderedOffer;
  provider: PaymentProviderName;
  waiver: Omit<Waiver, 'givenAt'>;
}

export interface Order extends Omit<OrderedOffer, 'id'> {
  id: string;
  customerId: string;
  /** The buyer's address: the customer's. */
  email: string;
  offerId: string;
  provider: PaymentProviderName;
  state: OrderState;
  checkoutSessionId: string | null;
  paymentIntentId: string | null;
  /** The pack the order granted, once paid. */
  packId: string | null;
  createdAt: Date;
  paidAt: Date | null;
  closedAt: Date | null;
}

/** A payment provider's event: acted on once per id. */
export interface ProviderEvent {
  id: string;
  type: string;
}

export interface PaymentSucceeded {
  orderId: string;
  /** Undefined in test mode, where no provider sends events. */
  event?: ProviderEvent;
  checkoutSessionId?: string;
  paymentIntentId?: string;
  /**
   * What the provider says was paid (minor unit, ISO currency code); undefined in test mode. The pack is
   * granted only when it equals the order's price and currency.
   */
  paid?: { amount: number | null; currency: string | null };
}

export type Fulfilment =
  | { outcome: 'granted'; order: Order; pack: Pack }
  /** Paid or refunded before: a retry, a repeat, or another event of the same payment. */
  | { outcome: 'already_done'; order: Order }
  /** The payment's full refund arrived first: the order is refunded and grants nothing. */
  | { outcome: 'refunded_first'; order: Order }
  | { outcome: 'duplicate_event' }
  /** No order of ours (another application's payment on the same account, or another session). */
  | { outcome: 'unknown_order' }
  /** Paid another amount or currency than the order's: the order is closed as failed, no pack granted. */
  | { outcome: 'amount_mismatch'; order: Order; paid: { amount: number | null; currency: string | null } };

export interface PaymentRefunded {
  event?: ProviderEvent;
  paymentIntentId: string;
}

export type RefundOutcome =
  | { outcome: 'refunded'; order: Order; pack: Pack }
  /** Kept for the payment's event, which has not arrived, or nothing to do (not paid, refunded before). */
  | { outcome: 'recorded' }
  | { outcome: 'duplicate_event' };

/** A paid order's receipt: sent once delivered to the mail server (or written to the outbox). */
export interface ReceiptState {
  state: 'pending' | 'sent';
  /** Claims so far, the successful one included. */
  attempts: number;
  sentAt: Date | null;
  messageId: string | null;
}

export interface CheckoutClosed {
  orderId: string;
  event?: ProviderEvent;
  checkoutSessionId?: string;
  state: 'expired' | 'failed';
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

/** One UTC day of a customer's use: gateway calls by limit class, and AI credits spent (any channel). */
export interface UsageDay {
  /** YYYY-MM-DD. */
  day: string;
  general: number;
  generation: number;
  ai: number;
  creditsSpent: number;
}

/** A paid order and what its receipt quotes: the pack it granted and the buyer's waiver. */
export interface PaidOrder {
  order: Order;
  pack: Pack;
  waiver: Waiver;
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

/** Who sells, as an invoice names them, and the tax its prices include (QR_SELLER_*, QR_TAX_PERCENT). */
export interface Seller {
  name: string;
  /** Lines separated by newlines; empty when not configured. */
  address: string;
  taxId: string;
  /** The rate of tax included in every price, 0 to under 100. */
  taxPercent: number;
}

/** The invoice of a paid order, written in its payment's transaction and never changed. */
export interface Invoice {
  /** From a sequence of the store: never given twice. */
  number: number;
  order: Order;
  /** The pack the order granted (its end is the item's). */
  pack: Pack | null;
  issuedAt: Date;
  buyerEmail: string;
  seller: Seller;
}

/** An order as its buyer's dashboard lists it. */
export interface OrderSummary {
  order: Order;
  /** The invoice's number, for a paid (or since refunded) order. */
  invoiceNumber: number | null;
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
