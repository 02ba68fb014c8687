import { ApiError } from '../errors.js';
import { type CustomerLimiter, rateLimitedError } from '../gateway/limits.js';
import { parseJsonBody } from '../http/json-body.js';
import { requireVerifiedEmail, type User } from '../accounts/index.js';
import { type Guard, guarded, type Route } from '../http/router.js';
import type { OfferJson, WaiverTextJson } from '../wire/site.js';
import type { Catalogue } from './catalogue.js';
import type { Checkout } from './checkout.js';
import { CURRENT_WAIVER } from './waiver.js';

export interface CheckoutRouteDeps {
  checkout: Checkout;
  catalogue: Catalogue;
  /** Checkouts per client address and minute, with the gateway's general limit. */
  limiter: CustomerLimiter;
  /** The site's session guard (and CSRF check): a pack is bought for the signed-in account only. */
  guard: Guard<{ user: User }>;
}

/** The body parsed as every JSON body is (src/http/json-body.ts); what it refuses is the checkout's invalid_body. */
function checkoutJson(bytes: Uint8Array): unknown {
  try {
    return parseJsonBody(bytes);
  } catch (e) {
    throw new ApiError('invalid_body', { message: (e as ApiError).message, field: (e as ApiError).field });
  }
}

/** The site's public pack list, and checkout for a signed-in account. */
export function checkoutRoutes({ checkout, catalogue, limiter, guard }: CheckoutRouteDeps): Route[] {
  const packs: OfferJson[] = catalogue.offers.map(({ id, name, kind, credits, price, currency, validMonths }) => ({
    id,
    name,
    kind,
    credits,
    price,
    currency,
    validMonths,
  }));
  const withdrawalWaiver: WaiverTextJson = {
    textVersion: CURRENT_WAIVER.version,
    consent: CURRENT_WAIVER.consent,
    acknowledgement: CURRENT_WAIVER.acknowledgement,
  };
  return [
    {
      method: 'GET',
      path: '/api/packs',
      auth: 'public',
      doc: {
        summary: 'The Studio pack and the credit top-ups on sale, and the waiver text a checkout shows.',
        response: '{ success, packs: [{ id, name, kind, credits, price, currency, validMonths }], withdrawalWaiver }',
      },
      handler: (ctx) => ctx.reply.json(200, { success: true, packs, withdrawalWaiver }),
    },
    guarded(guard, {
      method: 'POST',
      path: '/api/checkout',
      doc: {
        summary:
          'Buy a pack for the signed-in account, whose e-mail address must be verified (403 email_unverified): { packId, withdrawalWaiver: { consent, acknowledgement, textVersion } }, both boxes true.',
        response: '{ success, orderId, customerId, status, checkoutUrl } (test mode: status paid, packId)',
      },
      handler: async (ctx, { user }) => {
        const limit = await limiter.consume(`checkout:${ctx.remoteAddress}`, 'general');
        if (!limit.allowed) throw rateLimitedError(limit);
        requireVerifiedEmail(user);
        ctx.reply.json(200, await checkout.start(checkoutJson(await ctx.body()), user));
      },
    }),
  ];
}
