import type {
  CheckoutClosed,
  Fulfilment,
  Order,
  PaymentProviderName,
  PaymentRefunded,
  PaymentSucceeded,
  RefundOutcome,
} from '../accounts/index.js';
import type { Offer } from './catalogue.js';

/** How a new order is to be paid: on the provider's checkout page, or (test mode) not at all. */
export type PaymentStart = { checkoutUrl: string; checkoutSessionId: string } | { paidAtOnce: true };

/** Who takes the money for orders: Stripe, or nobody in the loopback-only test mode. */
export interface PaymentProvider {
  readonly name: PaymentProviderName;
  /** Starts the payment of an order just made; records nothing (the checkout does). */
  begin(order: Order, offer: Offer): Promise<PaymentStart>;
}

/** What a payment provider says of an order, as src/checkout/checkout.ts acts on it. */
export type PaymentEvent =
  | ({ kind: 'paid' } & PaymentSucceeded)
  | ({ kind: 'refunded' } & PaymentRefunded)
  | ({ kind: 'closed' } & CheckoutClosed);

/** What acting on a payment event did. */
export type PaymentOutcome = Fulfilment | RefundOutcome | { outcome: 'closed' };

/**
 * The embedded default, without a payment provider: every order is paid at once and no money moves. The
 * site offers it only on a loopback address and says so at start (src/site/server.ts).
 */
export const TEST_MODE: PaymentProvider = {
  name: 'test',
  begin: async () => ({ paidAtOnce: true }),
};
