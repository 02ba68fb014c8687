import { logError } from '../observe/log.js';
import type { Accounts } from '../accounts/index.js';
import { ApiError, isApiError } from '../errors.js';
import { formError } from '../http/form-error.js';
import type { Guard, Route } from '../http/router.js';
import type { CredentialFailures } from '../gateway/failure-throttle.js';
import type { AdminAccess, AdminRequestOrigin } from './access.js';
import { validators } from './compiled-forms.js';
import { type AdminForm, describeAdminField } from './forms.js';

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

/** An instant the form's pattern let through, refused when Date cannot read it (2025-01-32T00:00:00Z). */
function instantOf(text: string | undefined): Date | undefined {
  if (text === undefined) return undefined;
  const d = new Date(text);
  if (Number.isNaN(d.getTime()))
    throw new ApiError('invalid_body', {
      message: describeAdminField('pack_grant', 'purchasedAt'),
      field: 'purchasedAt',
    });
  return d;
}

async function requireCustomer(accounts: Accounts, customerId: string): Promise<void> {
  if ((await accounts.customer(customerId)) === null) throw new ApiError('customer_not_found', { field: 'customer' });
}

/** The fields of every command's body; which one takes which, and which it requires, is in ADMIN_FORMS. */
interface Fields {
  email?: string;
  customer?: string;
  credits?: number;
  purchasedAt?: string;
  id?: string;
  name?: string;
}

const HANDLERS: Record<AdminCommand, (accounts: Accounts, body: Fields) => Promise<Json>> = {
  async 'customer create'(accounts, { email }) {
    const c = await accounts.createCustomer(email!);
    return { id: c.id, email: c.email, createdAt: c.createdAt };
  },
  async 'pack grant'(accounts, { customer, credits, purchasedAt }) {
    const pack = await accounts.grantPack({
      customerId: customer!,
      credits: credits!,
      purchasedAt: instantOf(purchasedAt),
    });
    return { ...pack };
  },
  async 'pack refund'(accounts, { id }) {
    return { ...(await accounts.refundPack(id!)) };
  },
  async 'key issue'(accounts, { customer, name }) {
    const k = await accounts.issueKey(customer!, { name });
    return { id: k.id, key: k.key, start: k.start, customerId: k.customerId, name: k.name, createdAt: k.createdAt };
  },
  async 'key revoke'(accounts, { id }) {
    const k = await accounts.revokeKey(id!);
    return { id: k.id, customerId: k.customerId, start: k.start, revokedAt: k.revokedAt };
  },
  async 'key list'(accounts, { customer }) {
    return { customerId: customer, keys: await accounts.listKeys(customer!) };
  },
  async credits(accounts, { customer }) {
    await requireCustomer(accounts, customer!);
    const { available, reserved } = await accounts.balance(customer!);
    return { customerId: customer, available, reserved, ledger: await accounts.ledger(customer!, LEDGER_SHOWN) };
  },
  /** A customer (reused when the e-mail exists), a test pack unless one is active, and a new key. */
  async quickstart(accounts, { email = QUICKSTART_EMAIL, credits = QUICKSTART_CREDITS }) {
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
  const form = command.replace(' ', '_') as AdminForm;
  const check = validators[form];
  if (!check(body)) throw formError(check.errors![0]!, (field) => describeAdminField(form, field));
  return HANDLERS[command](accounts, body as Fields);
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
  log: (message: string, error: unknown) => void = logError,
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

/**
 * The guard of an admin API: loopback and this run's token (from `access`, once the server listens). A
 * wrong token counts against the client's address with the failed API keys (`failures`): past the limit,
 * 429 before the token is compared.
 */
const adminGuard = (access: () => AdminAccess | undefined, failures: CredentialFailures): Guard<void> => ({
  scheme: 'adminToken',
  async admit(ctx) {
    const open = access();
    if (open === undefined) throw new Error('admin API used before the server listens');
    const origin = { remoteAddress: ctx.remoteAddress, authorization: ctx.headers.authorization };
    await failures.check(
      origin.remoteAddress,
      () => open.check(origin),
      (e) => e instanceof ApiError && e.code === 'invalid_admin_token',
    );
  },
});

/** The HTTP routes of an admin API for the CLI, behind its guard: nothing is read before access is checked. */
export function adminHttpRoutes(
  routes: readonly AdminRoute[],
  access: () => AdminAccess | undefined,
  failures: CredentialFailures,
): Route[] {
  const guard = adminGuard(access, failures);
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
