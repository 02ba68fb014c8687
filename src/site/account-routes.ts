import { checkEmail, PACK_LIFETIME_MONTHS, requireVerifiedEmail } from '../accounts/index.js';
import type { Accounts, User } from '../accounts/types.js';
import { ApiError, isApiError } from '../errors.js';
import { admitCustomerCall, requireStudio } from '../gateway/customer-checks.js';
import { relayCall } from '../gateway/engine-client.js';
import type { GatewayDeps } from '../gateway/gateway.js';
import { relayServerAi } from '../gateway/server-ai.js';
import { jsonBytes } from '../http/json-body.js';
import { guarded, type RequestContext, type Route } from '../http/router.js';
import { forward } from '../http/upstream.js';
import type { AccountJson, IssuedKeyJson, UsageDayJson } from '../wire/site.js';
import { addMonthsUtc, countParam, keyJson, ledgerJson, ok, packJson, route, userJson } from './answers.js';
import { readForm } from './form-body.js';
import { lifecycleMail, type SessionDeps } from './session-routes.js';

export interface AccountDeps extends GatewayDeps, SessionDeps {
  accounts: Accounts;
}

/** Ledger entries and usage days the dashboard may ask for at most. */
const MAX_LEDGER = 200;
const MAX_USAGE_DAYS = 90;

/**
 * What the dashboard shows and changes for the signed-in user's customer (the account, keys, pack,
 * credits, ledger, usage; the password, the address, deleting it) and the Studio's downloads and AI design
 * for it. Every POST carries the X-CSRF-Token of its browser (src/site/session-cookies.ts).
 */
export function accountRoutes(deps: AccountDeps): Route[] {
  const { accounts, people, cookies, visitors } = deps;
  const { sendVerification } = lifecycleMail(deps);
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

  return [
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
        'The account: the active Studio pack and when it ends (and the end a Studio pack bought now would extend it to), every pack, and the credits left.',
        '{ success, user, activePack: pack | null, studioExtendsTo: time | null, packs: [{ id, credits, remaining, purchasedAt, expiresAt, refundedAt }], credits: { available, reserved } }',
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
          studioExtendsTo: active && addMonthsUtc(active.expiresAt, PACK_LIFETIME_MONTHS),
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
