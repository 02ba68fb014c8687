import type { Packs } from '../accounts/types.js';
import type { LimitClass, SiteSettings } from '../config.js';
import { ApiError, type ErrorCode } from '../errors.js';
import type { RequestContext } from '../http/router.js';
import { type CustomerLimiter, rateLimitedError } from './limits.js';

/** The 402 answers carry where to read about Studio packs and where to buy one. */
export const paymentRequired = (code: ErrorCode, settings: SiteSettings): ApiError =>
  new ApiError(code, { extra: { docs: settings.docsUrl, pricing: settings.pricingUrl } });

/** Every gateway call needs an active Studio pack, not only the ones that spend credits. */
export async function requireStudio(
  accounts: Pick<Packs, 'activePack'>,
  customerId: string,
  settings: SiteSettings,
): Promise<void> {
  const pack = await accounts.activePack(customerId);
  if (pack === null) throw paymentRequired('studio_required', settings);
}

export interface CustomerCallDeps {
  accounts: Pick<Packs, 'activePack'>;
  limiter: CustomerLimiter;
  settings: SiteSettings;
}

/**
 * A known customer's call, after who it is and before its body: the customer's limit for the class, then
 * an active Studio pack. Every answer from the limit on, refusals included, tells the client where it stands.
 */
export async function admitCustomerCall(
  deps: CustomerCallDeps,
  ctx: RequestContext,
  customerId: string,
  limitClass: LimitClass,
): Promise<void> {
  const limit = await deps.limiter.consume(customerId, limitClass);
  if (!limit.allowed) throw rateLimitedError(limit);
  for (const [k, v] of Object.entries(limit.headers)) ctx.reply.header(k, v);
  await requireStudio(deps.accounts, customerId, deps.settings);
}
