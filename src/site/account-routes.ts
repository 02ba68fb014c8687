import { checkEmail, EMAIL_TOKEN_LIFETIME_MS, requireVerifiedEmail } from '../accounts/index.js';
import type { Accounts, ApiKeyInfo, LedgerEntry, Pack, People, User } from '../accounts/types.js';
import { ApiError, isApiError } from '../errors.js';
import { admitCustomerCall, requireStudio } from '../gateway/customer-checks.js';
import { relayCall } from '../gateway/engine-client.js';
import type { GatewayDeps } from '../gateway/gateway.js';
import { relayServerAi } from '../gateway/server-ai.js';
import { jsonBytes } from '../http/json-body.js';
import { forward } from '../http/upstream.js';
import { guarded, type RequestContext, type Route } from '../http/router.js';
import type {
  AccountJson,
  IssuedKeyJson,
  KeyJson,
  LedgerEntryJson,
  PackJson,
  SessionJson,
  SignedInJson,
  UsageDayJson,
  UserJson,
} from '../wire/site.js';
import type { AccountMail, AccountMailer } from './account-mail.js';
import { readForm } from './form-body.js';
import type { SessionCookies } from './session-cookies.js';
import type { VisitorLimits } from './visitors.js';

export interface AccountDeps extends GatewayDeps {
  accounts: Accounts;
  people: People;
  cookies: SessionCookies;
  visitors: VisitorLimits;
  mailer: AccountMailer;
  /** The site's origin, which the links in its e-mails open. */
  publicUrl: string;
}

/** Ledger entries and usage days the dashboard may ask for at most. */
const MAX_LEDGER = 200;
const MAX_USAGE_DAYS = 90;

interface Credentials {
  email: string;
  password: string;
}

const userJson = (u: User): UserJson<Date> => ({
  email: u.email,
  emailVerified: u.emailVerified,
  customerId: u.customerId,
  createdAt: u.createdAt,
});
const minutes = (ms: number) => ms / 60_000;
const keyJson = (k: ApiKeyInfo): KeyJson<Date> => ({
  id: k.id,
  start: k.start,
  name: k.name,
  createdAt: k.createdAt,
  lastUsedAt: k.lastUsedAt,
  revokedAt: k.revokedAt,
});
const packJson = (p: Pack): PackJson<Date> => ({
  id: p.id,
  credits: p.credits,
  remaining: p.remaining,
  purchasedAt: p.purchasedAt,
  expiresAt: p.expiresAt,
  refundedAt: p.refundedAt,
});
const ledgerJson = (e: LedgerEntry): LedgerEntryJson<Date> => ({
  id: e.id,
  kind: e.kind,
  packId: e.packId,
  remainingChange: e.remainingChange,
  heldChange: e.heldChange,
  createdAt: e.createdAt,
});

/** A whole number from the query, within bounds, or the default. */
function countParam(ctx: RequestContext, name: string, fallback: number, max: number): number {
  const raw = ctx.query.get(name);
  if (raw === null) return fallback;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < 1 || n > max)
    throw new ApiError('invalid_body', { message: `${name} must be a whole number from 1 to ${max}.`, field: name });
  return n;
}

const ok = (ctx: RequestContext, body: Record<string, unknown>) => ctx.reply.json(200, { success: true, ...body });

/**
 * The session routes of the pages: sign-up, sign-in and out, and what the dashboard shows and changes
 * (keys, pack, credits, ledger, usage) plus the Studio's AI design, all for the signed-in user's customer.
 * Every POST carries the X-CSRF-Token of its browser (src/site/session-cookies.ts).
 */
export function accountRoutes(deps: AccountDeps): Route[] {
  const { accounts, people, cookies, visitors, mailer } = deps;
  // The token goes in the fragment: browsers never send it to a server, nor in a Referer.
  const link = (page: string, token: string) => `${deps.publicUrl}/${page}#token=${token}`;
  /** Mailed after the answer, so the time taken says nothing of the address. */
  const mail = (m: AccountMail) => void mailer.send(m);
  /**
   * The person's password, confirmed before a change to the account and counted as a sign-in is: wrong
   * ones are throttled by address and account (visitors.ts), and answered 403 wrong_password.
   */
  const passwordOf = async (ctx: RequestContext, user: User, password: string) => {
    const confirmed = await visitors.signIn(ctx.remoteAddress, user.email, () =>
      people.confirmPassword(user.id, password).then(
        () => true,
        (e: unknown) => {
          if (isApiError(e) && e.code === 'wrong_password') return null;
          throw e;
        },
      ),
    );
    if (confirmed === null) throw new ApiError('wrong_password');
  };
  const sendVerification = async (userId: string, email?: string) => {
    const v = await people.verificationToken(userId, email);
    mail({ kind: 'verify', to: v.email, link: link('verify-email', v.token) });
    return v.email;
  };
  const route = (method: 'GET' | 'POST', path: string, summary: string, response: string, body?: string) =>
    ({ method, path, doc: { summary, response, ...(body && { body }) } }) as const;

  return [
    {
      ...route(
        'GET',
        '/api/session',
        'Who this browser is signed in as, and the CSRF token its state-changing requests must send in X-CSRF-Token. Without a session, sets the pre-session cookie the sign-in and sign-up forms are checked against.',
        '{ success, signedIn, user?: { email, customerId, createdAt }, expiresAt?, csrfToken }',
      ),
      handler: async (ctx) => {
        const s = await cookies.current(ctx);
        if (s === null)
          return ok(ctx, { signedIn: false, csrfToken: cookies.preSessionCsrf(ctx) } satisfies SessionJson<Date>);
        ok(ctx, {
          signedIn: true,
          user: userJson(s.user),
          expiresAt: s.expiresAt,
          csrfToken: cookies.csrfOf(s),
        } satisfies SessionJson<Date>);
      },
    },
    {
      ...route(
        'POST',
        '/api/session/signup',
        'Creates an account (a customer) and signs this browser in, and mails a link verifying the address (24 hours); until it is opened the account cannot buy, make keys or spend credits (403 email_unverified). The password: 10 to 200 characters, not the e-mail address. Attempts are limited per client address (QR_LIMIT_SIGNIN per 15 minutes).',
        '{ success, user, csrfToken }; sets the session cookie.',
        'credentials',
      ),
      handler: async (ctx) => {
        cookies.checkPreSession(ctx);
        await visitors.signUpAttempt(ctx.remoteAddress);
        const { email, password } = await readForm<Credentials>(ctx, 'credentials');
        const session = await people.signUp(email, password);
        await sendVerification(session.user.id);
        ok(ctx, { user: userJson(session.user), csrfToken: cookies.begin(ctx, session) } satisfies SignedInJson<Date>);
      },
    },
    {
      ...route(
        'POST',
        '/api/session/signin',
        'Signs this browser in with a new session. Failed attempts are throttled per client address and per account and address, with growing delays (429 rate_limited with Retry-After while one must wait); an address that has not failed is never refused, so an account cannot be locked by others.',
        '{ success, user, csrfToken }; sets the session cookie.',
        'signIn',
      ),
      handler: async (ctx) => {
        cookies.checkPreSession(ctx);
        const { email, password } = await readForm<Credentials>(ctx, 'signIn');
        const session = await visitors.signIn(ctx.remoteAddress, email, () => people.signIn(email, password));
        if (session === null) throw new ApiError('invalid_credentials');
        ok(ctx, { user: userJson(session.user), csrfToken: cookies.begin(ctx, session) } satisfies SignedInJson<Date>);
      },
    },
    guarded(cookies.guard, {
      ...route('POST', '/api/session/signout', 'Ends this browser’s session.', '{ success }; deletes the cookie.'),
      handler: async (ctx, s) => {
        await people.signOut(s.token);
        cookies.end(ctx);
        ok(ctx, {});
      },
    }),
    guarded(cookies.guard, {
      ...route(
        'POST',
        '/api/session/signout-everywhere',
        'Ends every session of the account, on every browser, this one included.',
        '{ success, ended }',
      ),
      handler: async (ctx, s) => {
        const ended = await people.signOutEverywhere(s.user.id);
        cookies.end(ctx);
        ok(ctx, { ended });
      },
    }),
    {
      ...route(
        'POST',
        '/api/session/verify-email',
        `Verifies the address with the token of the link mailed to it (once, within ${minutes(EMAIL_TOKEN_LIFETIME_MS.verify) / 60} hours); a new address of a change takes effect now. No session needed: the link may open in another browser. An unknown, used or expired token is 400 invalid_token; an address another account verified meanwhile 409 customer_exists.`,
        '{ success, user }',
        'emailToken',
      ),
      handler: async (ctx) => {
        await cookies.checkForm(ctx);
        const { token } = await readForm<{ token: string }>(ctx, 'emailToken');
        const user = await people.verifyEmail(token);
        if (user === null) throw new ApiError('invalid_token', { field: 'token' });
        ok(ctx, { user: userJson(user) });
      },
    },
    guarded(cookies.guard, {
      ...route(
        'POST',
        '/api/session/verify-email/resend',
        'Mails a new verification link to the account’s address (limited as sign-in attempts are).',
        '{ success, email }',
      ),
      handler: async (ctx, { user }) => {
        await visitors.signUpAttempt(ctx.remoteAddress);
        ok(ctx, { email: await sendVerification(user.id) });
      },
    }),
    {
      ...route(
        'POST',
        '/api/session/password-reset',
        `Mails a link to reset the password of the account with this address (once, within ${minutes(EMAIL_TOKEN_LIFETIME_MS.reset)} minutes). Always 202, whether an account has the address or not. Limited as sign-in attempts are.`,
        '202 { success }',
        'emailOnly',
      ),
      handler: async (ctx) => {
        await cookies.checkForm(ctx);
        const { email } = await readForm<{ email: string }>(ctx, 'emailOnly');
        await visitors.signUpAttempt(ctx.remoteAddress);
        const reset = await people.passwordResetToken(email);
        if (reset !== null) mail({ kind: 'reset', to: reset.email, link: link('reset-password', reset.token) });
        ctx.reply.json(202, { success: true });
      },
    },
    {
      ...route(
        'POST',
        '/api/session/password-reset/confirm',
        'Sets a new password with the token of a reset link (once), and ends every session of the account; sign in again. An unknown, used or expired token is 400 invalid_token.',
        '{ success }',
        'passwordReset',
      ),
      handler: async (ctx) => {
        await cookies.checkForm(ctx);
        const { token, password } = await readForm<{ token: string; password: string }>(ctx, 'passwordReset');
        if (!(await people.resetPassword(token, password))) throw new ApiError('invalid_token', { field: 'token' });
        ok(ctx, {});
      },
    },
    guarded(cookies.guard, {
      ...route(
        'POST',
        '/api/account/password',
        'A new password; the current one is asked (403 wrong_password). Every other session of the account ends.',
        '{ success }',
        'passwordChange',
      ),
      handler: async (ctx, s) => {
        const form = await readForm<{ currentPassword: string; password: string }>(ctx, 'passwordChange');
        await passwordOf(ctx, s.user, form.currentPassword);
        await people.changePassword(s.user.id, s.token, form.currentPassword, form.password);
        ok(ctx, {});
      },
    }),
    guarded(cookies.guard, {
      ...route(
        'POST',
        '/api/account/email',
        'Changes the address: a link is mailed to the new one, and the change takes effect when it is opened (until then the account keeps its address). The password is asked (403 wrong_password); an address another account holds is 409 customer_exists.',
        '202 { success, pendingEmail }',
        'emailChange',
      ),
      handler: async (ctx, { user }) => {
        const form = await readForm<{ email: string; password: string }>(ctx, 'emailChange');
        await passwordOf(ctx, user, form.password);
        const pendingEmail = await sendVerification(user.id, checkEmail(form.email));
        ctx.reply.json(202, { success: true, pendingEmail });
      },
    }),
    guarded(cookies.guard, {
      ...route(
        'POST',
        '/api/account/delete',
        'Deletes the account; the password is asked (403 wrong_password). Its keys are revoked at once, every session ends, and the address and password hash are erased; orders and credit movements are kept for accounting, without the person.',
        '{ success }; deletes the cookie.',
        'passwordOnly',
      ),
      handler: async (ctx, { user }) => {
        const { password } = await readForm<{ password: string }>(ctx, 'passwordOnly');
        await passwordOf(ctx, user, password);
        // Revoked through the accounts first, so every instance forgets the keys within the second.
        for (const k of await accounts.listKeys(user.customerId))
          if (k.revokedAt === null) await accounts.revokeKey(k.id);
        await people.eraseAccount(user.id);
        cookies.end(ctx);
        ok(ctx, {});
      },
    }),
    guarded(cookies.guard, {
      ...route(
        'GET',
        '/api/account',
        'The account: the active Studio pack and when it ends, every pack, and the credits left.',
        '{ success, user, activePack: pack | null, packs: [{ id, credits, remaining, purchasedAt, expiresAt, refundedAt }], credits: { available, reserved } }',
      ),
      handler: async (ctx, { user }) => {
        const [active, packs, credits] = await Promise.all([
          accounts.activePack(user.customerId),
          accounts.listPacks(user.customerId),
          accounts.balance(user.customerId),
        ]);
        ok(ctx, {
          user: userJson(user),
          activePack: active && packJson(active),
          packs: packs.map(packJson),
          credits,
        } satisfies AccountJson<Date>);
      },
    }),
    guarded(cookies.guard, {
      ...route(
        'GET',
        '/api/account/ledger',
        `The account's credit movements, newest first (grant, reserve, commit, release, expire, refund); ?limit= up to ${MAX_LEDGER}, default 50.`,
        '{ success, ledger: [{ id, kind, packId, remainingChange, heldChange, createdAt }] }',
      ),
      handler: async (ctx, { user }) => {
        const limit = countParam(ctx, 'limit', 50, MAX_LEDGER);
        ok(ctx, { ledger: (await accounts.ledger(user.customerId, limit)).map(ledgerJson) });
      },
    }),
    guarded(cookies.guard, {
      ...route(
        'GET',
        '/api/account/usage',
        `Use per UTC day, oldest first: API calls by limit class and AI credits spent; ?days= up to ${MAX_USAGE_DAYS}, default 30.`,
        '{ success, days: [{ day, general, generation, ai, creditsSpent }] }',
      ),
      handler: async (ctx, { user }) => {
        const days: UsageDayJson[] = await accounts.usage(user.customerId, countParam(ctx, 'days', 30, MAX_USAGE_DAYS));
        ok(ctx, { days });
      },
    }),
    guarded(cookies.guard, {
      ...route(
        'GET',
        '/api/account/keys',
        'The account’s API keys, revoked ones included: the displayed start, never the key.',
        '{ success, keys: [{ id, start, name, createdAt, lastUsedAt, revokedAt }] }',
      ),
      handler: async (ctx, { user }) => {
        ok(ctx, { keys: (await accounts.listKeys(user.customerId)).map(keyJson) });
      },
    }),
    guarded(cookies.guard, {
      ...route(
        'POST',
        '/api/account/keys',
        'Issues an API key for the /api/v1 gateway. Needs a verified address (403 email_unverified) and an active Studio pack (402 studio_required); an account holds at most 25 live keys (409 key_limit_reached: revoke one first). The key is in this answer only: it is stored as a hash.',
        '{ success, key: { id, key, start, name, createdAt } }',
        'keyName',
      ),
      handler: async (ctx, { user }) => {
        const { name } = await readForm<{ name?: string }>(ctx, 'keyName');
        requireVerifiedEmail(user);
        await requireStudio(accounts, user.customerId, deps.settings);
        const k = await accounts.issueKey(user.customerId, { name });
        ok(ctx, { key: { ...keyJson(k), key: k.key } satisfies IssuedKeyJson<Date> });
      },
    }),
    guarded(cookies.guard, {
      ...route(
        'POST',
        '/api/account/keys/:id/revoke',
        'Revokes one of the account’s keys: from then on (within 1 s on every instance) the gateway answers it 401 invalid_api_key. Another account’s key is 404 api_key_not_found.',
        '{ success, key: { id, start, name, createdAt, lastUsedAt, revokedAt } }',
      ),
      handler: async (ctx, { user }) => {
        const own = (await accounts.listKeys(user.customerId)).some((k) => k.id === ctx.params.id);
        if (!own) throw new ApiError('api_key_not_found', { field: 'id' });
        ok(ctx, { key: keyJson(await accounts.revokeKey(ctx.params.id!)) });
      },
    }),
    guarded(cookies.guard, {
      ...route(
        'POST',
        '/api/account/render',
        'The Studio’s download for the signed-in account with a Studio pack: the body and answer of POST /api/v1/qr/generate, in the account’s generation limit, at any size the API takes (the anonymous Studio’s preview stops at 1024 px).',
        'As POST /api/qr/generate.',
        'qrConfig',
      ),
      handler: async (ctx, { user }) => {
        await admitCustomerCall(deps, ctx, user.customerId, 'generation');
        const call = relayCall({
          method: 'POST',
          path: '/api/qr/generate',
          headers: ctx.headers,
          body: await jsonBytes(ctx),
          caller: user,
          signal: ctx.reply.gone,
        });
        await forward(ctx, await deps.engine.relay(call), deps.settings.maxOutputBytes);
      },
    }),
    guarded(cookies.guard, {
      ...route(
        'POST',
        '/api/account/ai',
        'The Studio’s AI design for the signed-in account (its address verified, else 403 email_unverified): the body and answer of POST /api/qr/ai/generate/server, one credit spent on success and none on failure, the AI limit of the account’s customer. An Idempotency-Key header works as there.',
        'As POST /api/qr/ai/generate/server, with creditsRemaining.',
        'aiGenerateManaged',
      ),
      handler: async (ctx, { user }) => {
        requireVerifiedEmail(user);
        await admitCustomerCall(deps, ctx, user.customerId, 'ai');
        const call = relayCall({
          method: 'POST',
          path: '/api/qr/ai/generate/server',
          headers: ctx.headers,
          body: await jsonBytes(ctx),
          caller: user,
          signal: ctx.reply.abort.signal,
        });
        await relayServerAi(deps, user.customerId, ctx, call);
      },
    }),
  ];
}
