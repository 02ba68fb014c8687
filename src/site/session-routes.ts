import { EMAIL_TOKEN_LIFETIME_MS } from '../accounts/index.js';
import type { People } from '../accounts/types.js';
import { ApiError } from '../errors.js';
import { guarded, type Route } from '../http/router.js';
import type { SessionJson, SignedInJson } from '../wire/site.js';
import type { AccountMail, AccountMailer } from './account-mail.js';
import { minutes, ok, route, userJson } from './answers.js';
import { readForm } from './form-body.js';
import type { SessionCookies } from './session-cookies.js';
import type { VisitorLimits } from './visitors.js';

export interface SessionDeps {
  people: People;
  cookies: SessionCookies;
  visitors: VisitorLimits;
  mailer: AccountMailer;
  /** The site's origin, which the links in its e-mails open. */
  publicUrl: string;
}

interface Credentials {
  email: string;
  password: string;
}

/** The e-mails of the lifecycle: a verification link for an address, sent after the answer. */
export function lifecycleMail(deps: SessionDeps) {
  // The token goes in the fragment: browsers never send it to a server, nor in a Referer.
  const link = (page: string, token: string) => `${deps.publicUrl}/${page}#token=${token}`;
  /** Mailed after the answer, so the time taken says nothing of the address. */
  const mail = (m: AccountMail) => void deps.mailer.send(m);
  const sendVerification = async (userId: string, email?: string) => {
    const v = await deps.people.verificationToken(userId, email);
    mail({ kind: 'verify', to: v.email, link: link('verify-email', v.token) });
    return v.email;
  };
  return { link, mail, sendVerification };
}

/**
 * The session routes of the pages: sign-up, sign-in and out, the address's verification and the password
 * reset by e-mail. Every POST carries the X-CSRF-Token of its browser (src/site/session-cookies.ts).
 */
export function sessionRoutes(deps: SessionDeps): Route[] {
  const { people, cookies, visitors } = deps;
  const { link, mail, sendVerification } = lifecycleMail(deps);

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
  ];
}
