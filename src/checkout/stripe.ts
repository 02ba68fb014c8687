import Stripe from 'stripe';
import type { Order } from '../accounts/index.js';
import type { PaymentSettings, StripeSettings } from '../config.js';
import { ApiError } from '../errors.js';
import type { Offer } from './catalogue.js';
import type { PaymentProvider, PaymentStart } from './payments.js';

/** How long a Stripe API call may take before checkout answers 503 (the buyer can retry). */
const STRIPE_TIMEOUT_MS = 20_000;

/** `url` with `query` added to its query string. */
const withQuery = (url: string, query: string) => `${url}${url.includes('?') ? '&' : '?'}${query}`;

/**
 * Payments through Stripe Checkout: one Checkout Session per order (made with the order id as its
 * idempotency key, so a retried call never makes two), the order fulfilled from Stripe's webhooks only,
 * never from the buyer's return to the site.
 */
export class StripePayments implements PaymentProvider {
  readonly name = 'stripe' as const;
  private readonly stripe: Stripe;

  constructor(
    private readonly settings: StripeSettings,
    private readonly payments: Pick<PaymentSettings, 'returnUrl'>,
  ) {
    this.stripe = new Stripe(settings.secretKey, {
      maxNetworkRetries: 2,
      timeout: STRIPE_TIMEOUT_MS,
      telemetry: false,
      ...settings.api,
    });
  }

  async begin(order: Order, offer: Offer): Promise<PaymentStart> {
    let session: Stripe.Checkout.Session;
    try {
      session = await this.stripe.checkout.sessions.create(
        {
          mode: 'payment',
          line_items: [
            {
              quantity: 1,
              price_data: { currency: offer.currency, unit_amount: offer.price, product_data: { name: offer.name } },
            },
          ],
          customer_email: order.email,
          client_reference_id: order.id,
          metadata: { orderId: order.id },
          payment_intent_data: { metadata: { orderId: order.id } },
          success_url: withQuery(this.payments.returnUrl, 'checkout=success&session_id={CHECKOUT_SESSION_ID}'),
          cancel_url: withQuery(this.payments.returnUrl, 'checkout=cancelled'),
        },
        { idempotencyKey: `checkout-${order.id}` },
      );
    } catch (e) {
      // Stripe's message may name the account or the request; the buyer gets neither.
      throw new ApiError('checkout_unavailable', {
        message: 'The payment provider could not start the checkout; retry shortly.',
        headers: { 'Retry-After': '5' },
        cause: e,
      });
    }
    if (session.url === null) throw new Error(`Stripe made checkout session ${session.id} without a URL`);
    return { checkoutUrl: session.url, checkoutSessionId: session.id };
  }

  /**
   * A webhook delivery, verified on its raw bytes against the endpoint's signing secret (HMAC-SHA256 of
   * `<timestamp>.<body>`, at most 5 minutes old), or invalid_webhook_signature.
   */
  event(body: Uint8Array, signature: string | undefined): Stripe.Event {
    if (signature === undefined)
      throw new ApiError('invalid_webhook_signature', { message: 'The Stripe-Signature header is missing.' });
    try {
      return this.stripe.webhooks.constructEvent(Buffer.from(body), signature, this.settings.webhookSecret);
    } catch (e) {
      throw new ApiError('invalid_webhook_signature', { cause: e });
    }
  }
}
