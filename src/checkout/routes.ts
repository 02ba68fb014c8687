import { ApiError } from '../errors.js';
import { type CustomerLimiter, rateLimitedError } from '../gateway/limits.js';
import { parseJsonBody } from '../http/json-body.js';
import { requireVerifiedEmail, type User } from '../accounts/index.js';
import { type Guard, guarded, type Route } from '../http/router.js';
import type { OfferJson, WaiverTextJson } from '../wire/site.js';
import type { Checkout } from './checkout.js';
import { CURRENT_WAIVER } from './waiver.js';

export interface CheckoutRouteDeps {
  checkout: Checkout;
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
export function checkoutRoutes({ checkout, limiter, guard }: CheckoutRouteDeps): Route[] {
  const packs: OfferJson[] = checkout.offers().map(({ id, name, kind, credits, price, currency, validMonths }) => ({
    id,
    name,
    kind,
    credits,
    price,
    currency,
    validMonths,
  }));
  const serverAi = { available: checkout.serverAi };
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
        summary:
          'What is on sale: the Studio pack, and credit top-ups where server AI is available (serverAi.available: a server AI provider is configured); the waiver text a checkout shows. A top-up needs an active Studio pack; a Studio pack bought while one is active runs 12 months from the end of the current one.',
        response:
          '{ success, packs: [{ id, name, kind, credits, price, currency, validMonths }], serverAi: { available }, withdrawalWaiver }',
      },
      handler: (ctx) => ctx.reply.json(200, { success: true, packs, serverAi, withdrawalWaiver }),
    },
    guarded(guard, {
      method: 'POST',
      path: '/api/checkout',
      doc: {
        summary:
          'Buy a pack for the signed-in account, whose e-mail address must be verified (403 email_unverified): { packId, withdrawalWaiver: { consent, acknowledgement, textVersion } }, both boxes true. A top-up is 409 server_ai_unavailable on a site without server AI, 409 studio_pack_needed without an active Studio pack.',
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
