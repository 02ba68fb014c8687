import { createHash } from 'node:crypto';
import type { Redis } from 'ioredis';
import type { Config } from '../config.js';
import { rateLimitedError, WindowLimiter } from '../gateway/limits.js';
import { parseClientAddress } from '../http/address.js';

/**
 * Who a limit counts when there is no customer: the client's address as the socket saw it (no forwarding
 * header is trusted). An IPv6 client is counted by its /64, the block one subscriber usually holds, so
 * walking through the addresses of one's own network does not reset the count.
 */
export function addressKey(address: string): string {
  const parsed = parseClientAddress(address);
  if (parsed === undefined) return address;
  return parsed.family === 4 ? parsed.dotted : `${parsed.groups.slice(0, 4).join(':')}::/64`;
}

/** The Studio's per-minute window, and the sign-in one (15 minutes). */
const STUDIO_WINDOW_SEC = 60;
const SIGN_IN_WINDOW_SEC = 900;

/**
 * The site's limits on people rather than customers: anonymous Studio calls per client address per
 * minute; sign-in and sign-up attempts per client address, and sign-in attempts per e-mail address, per
 * 15 minutes (half the address limit), so one address cannot try many passwords nor one account be tried
 * from many addresses quickly. Same memory-or-Redis counters as the gateway's.
 */
export class VisitorLimits {
  private readonly studio: WindowLimiter<'studio'>;
  private readonly signIn: WindowLimiter<'sign-in' | 'account'>;

  constructor(config: Config, redis: Redis | undefined, log: (line: string) => void) {
    const common = { redis, log, keyPrefix: `${config.redisKeyPrefix}limit:` };
    const { studio, signIn } = config.site.visitorLimits;
    this.studio = new WindowLimiter({ ...common, limits: { studio }, windowSec: STUDIO_WINDOW_SEC });
    this.signIn = new WindowLimiter({
      ...common,
      limits: { 'sign-in': signIn, account: Math.max(1, Math.floor(signIn / 2)) },
      windowSec: SIGN_IN_WINDOW_SEC,
    });
  }

  /** One anonymous Studio call from `address`; rate_limited past the limit. Returns the headers to send. */
  async studioCall(address: string): Promise<Record<string, string>> {
    const d = await this.studio.consume(addressKey(address), 'studio');
    if (!d.allowed) throw rateLimitedError(d);
    return d.headers;
  }

  /** One sign-in or sign-up attempt from `address`, for `email` when signing in; rate_limited past either. */
  async attempt(address: string, email?: string): Promise<void> {
    const byAddress = await this.signIn.consume(addressKey(address), 'sign-in');
    if (!byAddress.allowed) throw rateLimitedError(byAddress);
    if (email === undefined) return;
    // Counted under a hash: the address itself has no business in Redis.
    const account = createHash('sha256').update(email.trim().toLowerCase()).digest('base64url');
    const byAccount = await this.signIn.consume(account, 'account');
    if (!byAccount.allowed) throw rateLimitedError(byAccount);
  }
}
