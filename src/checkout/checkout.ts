import type { Fulfilment, Orders, Packs } from '../accounts/index.js';
import { logError } from '../observe/log.js';
import { ApiError } from '../errors.js';
import { businessBodyViolation } from '../schema/business-body.js';
import type { OrderJson } from '../wire/site.js';
import type { Catalogue, Offer } from './catalogue.js';
import type { PaymentEvent, PaymentOutcome, PaymentProvider } from './payments.js';
import { shownWaiver, waiverRefusal } from './waiver.js';

/** What POST /api/checkout answers. */
export interface CheckoutAnswer extends OrderJson<Date> {
  success: true;
}

/** A checkout body that fits its schema (src/schema/business-requests.ts). */
interface CheckoutBody {
  packId: string;
  withdrawalWaiver: { textVersion: string };
}

/** Said where the pricing page's "1. Choose" list offers no pack by that id (GET /api/packs lists them). */
const UNKNOWN_PACK = 'Choose one of the packs listed under “1. Choose”: the one chosen is not on sale here.';

const invalid = (message: string, field?: string) => new ApiError('invalid_body', { message, field });

/** The body as its schema takes it, or the refusal the site answers: the waiver's own, or invalid_body. */
function checkoutBody(body: unknown): CheckoutBody {
  const wrong = businessBodyViolation('checkout', body);
  if (wrong === undefined) return body as CheckoutBody;
  if (wrong.field?.startsWith('withdrawalWaiver.')) throw waiverRefusal(wrong.message, wrong.field);
  throw invalid(wrong.message, wrong.field);
}

/**
 * Selling packs: an order for an offer of the catalogue, made only with the buyer's waiver of the right
 * of withdrawal, paid through the provider, fulfilled (its pack granted) once whatever the provider
 * repeats. One direction: the provider starts payments and reports events, this decides, the store
 * (`Orders`) records; every payment event comes through `record`.
 */
export class Checkout {
  constructor(
    private readonly orders: Orders & Pick<Packs, 'activePack'>,
    private readonly catalogue: Catalogue,
    /** Undefined: no provider, and test mode not asked for on loopback, so nothing can be sold here. */
    readonly provider: PaymentProvider | undefined,
    /** Told when an order has been paid, to send its receipt now rather than at the next sweep. */
    private readonly onPaid: () => void = () => {},
    /** Whether a server AI provider is configured: AI credits are sold only where they can be spent. */
    readonly serverAi = true,
  ) {}

  /** What is on sale here: top-ups only where server AI can spend their credits. */
  offers(): Catalogue['offers'] {
    return this.catalogue.offers.filter((o) => o.kind === 'studio' || this.serverAi);
  }

  /**
   * A top-up is refused where its credits could not be spent: without server AI on this site, or without
   * an active Studio pack (the gateway and the Studio's AI need one).
   */
  private async checkSellable(offer: Offer, customerId: string): Promise<void> {
    if (offer.kind !== 'topup') return;
    if (!this.serverAi)
      throw new ApiError('server_ai_unavailable', {
        message:
          'AI credits are not sold here: this site has no server AI provider configured, so they could not be spent.',
        field: 'packId',
      });
    if ((await this.orders.activePack(customerId)) === null)
      throw new ApiError('studio_pack_needed', {
        message: 'AI credits top up a Studio pack, and this account has no active one: buy the Studio pack first.',
        field: 'packId',
      });
  }

  /**
   * A checkout body → an order for the signed-in buyer's customer (never one named in the body), paid at
   * once in test mode, else waiting on the provider's page.
   */
  async start(body: unknown, buyer: { customerId: string }): Promise<CheckoutAnswer> {
    if (this.provider === undefined)
      throw new ApiError('checkout_unavailable', {
        message:
          'This site takes no payments: it has no payment provider (and test mode, QR_CHECKOUT_TEST_MODE=1 on a loopback address, is off).',
      });
    const fields = checkoutBody(body);
    const waiver = shownWaiver(fields.withdrawalWaiver.textVersion);
    const offer = this.catalogue.offer(fields.packId);
    if (offer === undefined) throw invalid(UNKNOWN_PACK, 'packId');
    await this.checkSellable(offer, buyer.customerId);

    const order = await this.orders.createOrder({
      customerId: buyer.customerId,
      offer: { id: offer.id, kind: offer.kind, credits: offer.credits, price: offer.price, currency: offer.currency },
      provider: this.provider.name,
      waiver: { textVersion: waiver.version, textSha256: waiver.sha256 },
    });
    const answer = { success: true as const, orderId: order.id, customerId: order.customerId };
    const start = await this.provider.begin(order, offer);
    if ('checkoutUrl' in start) {
      await this.orders.attachCheckoutSession(order.id, start.checkoutSessionId);
      return { ...answer, status: 'open', checkoutUrl: start.checkoutUrl };
    }
    const done = await this.record({ kind: 'paid', orderId: order.id });
    if (done.outcome !== 'granted') throw new Error(`a test-mode order was not fulfilled: ${done.outcome}`);
    return {
      ...answer,
      status: 'paid',
      testMode: true,
      packId: done.pack.id,
      credits: done.pack.credits,
      expiresAt: done.pack.expiresAt,
    };
  }

  /**
   * What the provider said of an order: paid (its pack granted once, and its receipt on its way),
   * refunded in full (its pack ended), or closed unpaid.
   */
  record(event: PaymentEvent & { kind: 'paid' }): Promise<Fulfilment>;
  record(event: PaymentEvent): Promise<PaymentOutcome>;
  async record(event: PaymentEvent): Promise<PaymentOutcome> {
    switch (event.kind) {
      case 'paid': {
        const done = await this.orders.paymentSucceeded(event);
        if (done.outcome === 'granted') this.onPaid();
        if (done.outcome === 'amount_mismatch')
          logError(
            `Order ${done.order.id} NOT fulfilled: paid ${done.paid.amount} ${done.paid.currency} for a price of ${done.order.price} ${done.order.currency}; closed as failed, no pack granted.`,
          );
        return done;
      }
      case 'refunded':
        return this.orders.paymentRefunded(event);
      case 'closed':
        await this.orders.checkoutClosed(event);
        return { outcome: 'closed' };
    }
  }
}
