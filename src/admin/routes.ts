import type { Accounts } from '../accounts/index.js';
import { ApiError, isApiError } from '../errors.js';
import type { Guard, Route } from '../http/router.js';
import type { AdminAccess, AdminRequestOrigin } from './access.js';

/**
 * The operator's commands, one handler each: `(accounts, body) => result`, the body a JSON object and
 * the result one. The admin CLI runs them in its own process when it may open the store, and sends them
 * to the running site's admin API (`POST /admin/<command words>`) when the site holds the PGlite directory.
 */
export const ADMIN_COMMANDS = [
  'customer create',
  'pack grant',
  'pack refund',
  'key issue',
  'key revoke',
  'key list',
  'credits',
  'quickstart',
] as const;
export type AdminCommand = (typeof ADMIN_COMMANDS)[number];

export const ADMIN_PATH_PREFIX = '/admin/';
export const adminPath = (command: AdminCommand): string => ADMIN_PATH_PREFIX + command.replace(' ', '/');
/** Admin bodies are a few fields; anything bigger is refused before it is read. */
export const ADMIN_MAX_BODY_BYTES = 16 * 1024;

/** Quickstart's defaults: a customer for trying the service, and a pack to try it with. */
export const QUICKSTART_EMAIL = 'quickstart@localhost';
export const QUICKSTART_CREDITS = 100;
/** Ledger entries `credits` shows. */
const LEDGER_SHOWN = 50;

type Json = Record<string, unknown>;

/** Reads the fields of one command's body; anything else in it is refused, as the public API does. */
class Fields {
  constructor(
    private readonly body: Json,
    allowed: readonly string[],
  ) {
    for (const name of Object.keys(body)) if (!allowed.includes(name)) throw invalid(name, `Unknown field "${name}".`);
  }

  text(name: string): string;
  text(name: string, optional: true): string | undefined;
  text(name: string, optional = false): string | undefined {
    const v = this.body[name];
    if (v === undefined && optional) return undefined;
    if (typeof v !== 'string' || v === '') throw invalid(name, `${name} must be a non-empty string.`);
    return v;
  }

  count(name: string, optional = false): number | undefined {
    const v = this.body[name];
    if (v === undefined && optional) return undefined;
    if (typeof v !== 'number' || !Number.isInteger(v) || v < 1)
      throw invalid(name, `${name} must be a whole number of at least 1.`);
    return v;
  }

  instant(name: string): Date | undefined {
    const v = this.text(name, true);
    if (v === undefined) return undefined;
    // ISO 8601 with a date and a time zone, so the instant is not left to the server's locale.
    const d = new Date(v);
    if (!/^\d{4}-\d{2}-\d{2}T[\d:.]+(Z|[+-]\d{2}:?\d{2})$/.test(v) || Number.isNaN(d.getTime()))
      throw invalid(name, `${name} must be an ISO 8601 date-time with a zone, e.g. 2025-01-31T12:00:00Z.`);
    return d;
  }
}

const invalid = (field: string, message: string) => new ApiError('invalid_body', { message, field });

async function requireCustomer(accounts: Accounts, customerId: string): Promise<void> {
  if ((await accounts.customer(customerId)) === null) throw new ApiError('customer_not_found', { field: 'customer' });
}

const HANDLERS: Record<AdminCommand, (accounts: Accounts, body: Json) => Promise<Json>> = {
  async 'customer create'(accounts, body) {
    const f = new Fields(body, ['email']);
    const c = await accounts.createCustomer(f.text('email'));
    return { id: c.id, email: c.email, createdAt: c.createdAt };
  },
  async 'pack grant'(accounts, body) {
    const f = new Fields(body, ['customer', 'credits', 'purchasedAt']);
    const pack = await accounts.grantPack({
      customerId: f.text('customer'),
      credits: f.count('credits')!,
      purchasedAt: f.instant('purchasedAt'),
    });
    return { ...pack };
  },
  async 'pack refund'(accounts, body) {
    const f = new Fields(body, ['id']);
    return { ...(await accounts.refundPack(f.text('id'))) };
  },
  async 'key issue'(accounts, body) {
    const f = new Fields(body, ['customer', 'name']);
    const k = await accounts.issueKey(f.text('customer'), { name: f.text('name', true) });
    return { id: k.id, key: k.key, start: k.start, customerId: k.customerId, name: k.name, createdAt: k.createdAt };
  },
  async 'key revoke'(accounts, body) {
    const f = new Fields(body, ['id']);
    const k = await accounts.revokeKey(f.text('id'));
    return { id: k.id, customerId: k.customerId, start: k.start, revokedAt: k.revokedAt };
  },
  async 'key list'(accounts, body) {
    const f = new Fields(body, ['customer']);
    const customerId = f.text('customer');
    return { customerId, keys: await accounts.listKeys(customerId) };
  },
  async credits(accounts, body) {
    const f = new Fields(body, ['customer']);
    const customerId = f.text('customer');
    await requireCustomer(accounts, customerId);
    const { available, reserved } = await accounts.balance(customerId);
    return { customerId, available, reserved, ledger: await accounts.ledger(customerId, LEDGER_SHOWN) };
  },
  /** A customer (reused when the e-mail exists), a test pack unless one is active, and a new key. */
  async quickstart(accounts, body) {
    const f = new Fields(body, ['email', 'credits']);
    const email = f.text('email', true) ?? QUICKSTART_EMAIL;
    const credits = f.count('credits', true) ?? QUICKSTART_CREDITS;
    const customer = (await accounts.customerByEmail(email)) ?? (await accounts.createCustomer(email));
    const pack =
      (await accounts.activePack(customer.id)) ?? (await accounts.grantPack({ customerId: customer.id, credits }));
    const key = await accounts.issueKey(customer.id, { name: 'quickstart' });
    const { available } = await accounts.balance(customer.id);
    return {
      customerId: customer.id,
      email: customer.email,
      packId: pack.id,
      credits: available,
      keyId: key.id,
      key: key.key,
    };
  },
};

/** Runs one command in this process, against these accounts. */
export async function runAdminCommand(accounts: Accounts, command: AdminCommand, body: unknown): Promise<Json> {
  if (typeof body !== 'object' || body === null || Array.isArray(body))
    throw new ApiError('invalid_body', { message: 'The body must be a JSON object.' });
  return HANDLERS[command](accounts, body as Json);
}

/** An admin API command, to mount on a server: it answers `handle(body)` as JSON, status 200. */
export interface AdminRoute {
  method: 'POST';
  path: string;
  handle(body: unknown): Promise<Json>;
}

export function adminRoutes(accounts: Accounts): AdminRoute[] {
  return ADMIN_COMMANDS.map((command) => ({
    method: 'POST',
    path: adminPath(command),
    handle: (body) => runAdminCommand(accounts, command, body),
  }));
}

export interface AdminHttpRequest extends AdminRequestOrigin {
  method: string;
  path: string;
  /** The raw body, at most ADMIN_MAX_BODY_BYTES. */
  body: Uint8Array;
}

export interface AdminHttpResponse {
  status: number;
  headers: Record<string, string>;
  /** The command's result, or the error envelope. */
  body: unknown;
}

/**
 * One admin API request end to end, for a server that hands over the request and writes back the answer:
 * access first (loopback and token, so nothing is learned without them), then route, body and command.
 * `routes`: the site's (`adminRoutes(accounts)`) or the engine's.
 */
export async function answerAdmin(
  request: AdminHttpRequest,
  routes: readonly AdminRoute[],
  access: AdminAccess,
  log: (message: string, error: unknown) => void = (m, e) => console.error(m, e),
): Promise<AdminHttpResponse> {
  try {
    access.check(request);
    return { status: 200, headers: {}, body: await runAdminRequest(request, routes) };
  } catch (e) {
    const error = isApiError(e) ? e : new ApiError('INTERNAL_ERROR');
    if (!isApiError(e)) log(`admin ${request.path} failed:`, e);
    return { status: error.status, headers: error.headers, body: error.toBody() };
  }
}

/** Route, method, body and command of an admin request whose access was checked. */
async function runAdminRequest(
  request: Omit<AdminHttpRequest, keyof AdminRequestOrigin>,
  routes: readonly AdminRoute[],
): Promise<Json> {
  const route = routes.find((r) => r.path === request.path);
  if (route === undefined) throw new ApiError('NOT_FOUND', { message: `No admin command at ${request.path}.` });
  if (request.method !== 'POST')
    throw new ApiError('METHOD_NOT_ALLOWED', { message: `${request.path} accepts POST.`, headers: { Allow: 'POST' } });
  if (request.body.length > ADMIN_MAX_BODY_BYTES)
    throw new ApiError('PAYLOAD_TOO_LARGE', { message: `Admin bodies are at most ${ADMIN_MAX_BODY_BYTES} bytes.` });
  let body: unknown;
  try {
    body = JSON.parse(new TextDecoder().decode(request.body));
  } catch {
    throw new ApiError('invalid_body', { message: 'The body is not valid JSON.' });
  }
  return route.handle(body);
}

/** The guard of an admin API: loopback and this run's token (from `access`, once the server listens). */
const adminGuard = (access: () => AdminAccess | undefined): Guard<void> => ({
  scheme: 'adminToken',
  admit(ctx) {
    const open = access();
    if (open === undefined) throw new Error('admin API used before the server listens');
    open.check({ remoteAddress: ctx.remoteAddress, authorization: ctx.headers.authorization });
  },
});

/** The HTTP routes of an admin API for the CLI, behind its guard: nothing is read before access is checked. */
export function adminHttpRoutes(routes: readonly AdminRoute[], access: () => AdminAccess | undefined): Route[] {
  const guard = adminGuard(access);
  return routes.map((route) => ({
    method: route.method,
    path: route.path,
    // On an engine, the token stands in for the proxy secret.
    auth: 'public',
    guard,
    handler: async (ctx) => {
      const answer = await runAdminRequest({ method: ctx.method, path: ctx.path, body: await ctx.body() }, routes);
      ctx.reply.json(200, answer);
    },
  }));
}
