import type { Pack, PackKind } from './credit-types.js';

/** Orders of packs: what was bought, how the payment provider's events settle it, its receipt and its invoice. */

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

/** A paid order and what its receipt quotes: the pack it granted and the buyer's waiver. */
export interface PaidOrder {
  order: Order;
  pack: Pack;
  waiver: Waiver;
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
