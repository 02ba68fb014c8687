import type { ApiKeyInfo, LedgerEntry, Pack, User } from '../accounts/types.js';
import { ApiError } from '../errors.js';
import type { Method, RequestContext } from '../http/router.js';
import type { KeyJson, LedgerEntryJson, PackJson, UserJson } from '../wire/site.js';

/*
 * How the site's own routes answer: their records as the wire types the pages read (src/wire/site.ts),
 * a success, and the description each route carries into the OpenAPI document.
 */

export const userJson = (u: User): UserJson<Date> => ({
  email: u.email,
  emailVerified: u.emailVerified,
  customerId: u.customerId,
  createdAt: u.createdAt,
});
export const keyJson = (k: ApiKeyInfo): KeyJson<Date> => ({
  id: k.id,
  start: k.start,
  name: k.name,
  createdAt: k.createdAt,
  lastUsedAt: k.lastUsedAt,
  revokedAt: k.revokedAt,
});
export const packJson = (p: Pack): PackJson<Date> => ({
  id: p.id,
  credits: p.credits,
  remaining: p.remaining,
  purchasedAt: p.purchasedAt,
  expiresAt: p.expiresAt,
  refundedAt: p.refundedAt,
});
export const ledgerJson = (e: LedgerEntry): LedgerEntryJson<Date> => ({
  id: e.id,
  kind: e.kind,
  packId: e.packId,
  remainingChange: e.remainingChange,
  heldChange: e.heldChange,
  createdAt: e.createdAt,
});

/** A whole number from the query, within bounds, or the default. */
export function countParam(ctx: RequestContext, name: string, fallback: number, max: number): number {
  const raw = ctx.query.get(name);
  if (raw === null) return fallback;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < 1 || n > max)
    throw new ApiError('invalid_body', { message: `${name} must be a whole number from 1 to ${max}.`, field: name });
  return n;
}

export const ok = (ctx: RequestContext, body: Record<string, unknown>) =>
  ctx.reply.json(200, { success: true, ...body });

/** A route's method, path and documentation (summary, response, and the name of its body's schema). */
export const route = (method: Method, path: string, summary: string, response: string, body?: string) =>
  ({ method, path, doc: { summary, response, ...(body && { body }) } }) as const;

export const minutes = (ms: number) => ms / 60_000;

/**
 * `months` calendar months after `d` in UTC, as PostgreSQL adds an interval of months: a day the month
 * does not have becomes its last (31 January + 1 month is 28 or 29 February).
 */
export function addMonthsUtc(d: Date, months: number): Date {
  const out = new Date(d);
  out.setUTCDate(1);
  out.setUTCMonth(out.getUTCMonth() + months);
  const last = new Date(Date.UTC(out.getUTCFullYear(), out.getUTCMonth() + 1, 0)).getUTCDate();
  out.setUTCDate(Math.min(d.getUTCDate(), last));
  return out;
}
