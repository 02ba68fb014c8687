/** A known customer's call before its body: the limit, then the Studio pack, on real accounts (PGlite). */
import { describe, expect, it } from 'vitest';
import type { SiteSettings } from '../../src/config.js';
import { isApiError } from '../../src/errors.js';
import { admitCustomerCall } from '../../src/gateway/customer-checks.js';
import { CustomerLimiter } from '../../src/gateway/limits.js';
import type { RequestContext } from '../../src/http/router.js';
import { accountsFixture } from '../helpers/databases.js';

const settings = { docsUrl: 'https://docs.example', pricingUrl: 'https://pricing.example' } as SiteSettings;
const fixture = accountsFixture('pglite');

/** The headers set on the answer, and the refusal if there is one. */
async function admit(limiter: CustomerLimiter, customerId: string) {
  const headers: Record<string, string> = {};
  const ctx = { reply: { header: (k: string, v: string) => (headers[k] = v) } } as unknown as RequestContext;
  try {
    await admitCustomerCall({ accounts: fixture.accounts, limiter, settings }, ctx, customerId, 'ai');
    return { headers };
  } catch (e) {
    if (!isApiError(e)) throw e;
    return { headers, refusal: { status: e.status, ...e.toBody() } };
  }
}

describe('admitCustomerCall', () => {
  it('lets a customer with an active pack through, telling it where it stands', async () => {
    const id = await fixture.newCustomer();
    await fixture.accounts.grantPack({ customerId: id, credits: 1 });
    const a = await admit(new CustomerLimiter({ limits: { general: 9, generation: 9, ai: 2 } }), id);
    expect(a.refusal).toBeUndefined();
    expect(a.headers).toHaveProperty('RateLimit');
  });

  it('refuses a customer without a pack with 402 studio_required, its limit headers already set', async () => {
    const id = await fixture.newCustomer();
    const a = await admit(new CustomerLimiter({ limits: { general: 9, generation: 9, ai: 2 } }), id);
    expect(a.refusal).toMatchObject({
      status: 402,
      code: 'studio_required',
      docs: 'https://docs.example',
      pricing: 'https://pricing.example',
    });
    expect(a.headers).toHaveProperty('RateLimit-Policy');
  });

  it('refuses past the limit with 429 rate_limited before the pack is looked at', async () => {
    const id = await fixture.newCustomer();
    const limiter = new CustomerLimiter({ limits: { general: 9, generation: 9, ai: 1 } });
    await admit(limiter, id);
    const a = await admit(limiter, id);
    expect(a.refusal).toMatchObject({ status: 429, code: 'rate_limited' });
  });
});
