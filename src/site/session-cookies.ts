import { csrfTokenOf, newSessionToken, SESSION_LIFETIME_MS, sameToken } from '../accounts/index.js';
import type { NewSession, People, User } from '../accounts/types.js';
import { ApiError } from '../errors.js';
import type { Guard, RequestContext } from '../http/router.js';
import { readCookies, setCookie } from './cookies.js';

export interface SignedIn {
  user: User;
  token: string;
  expiresAt: Date;
}

/** A year: the pre-session cookie only ties sign-in forms to the browser that loaded them. */
const PRE_SESSION_MAX_AGE = 365 * 86_400;

/**
 * The browser's side of sessions. Two HttpOnly, SameSite=Lax cookies, `Secure` and `__Host-` named when
 * the site is served over TLS: the session token, and before sign-in a random pre-session token. Each
 * state-changing request must carry `X-CSRF-Token`, the hash of whichever of the two the browser holds
 * (csrfTokenOf), which the pages read from GET /api/session: a form or script on another site can make
 * the browser send the cookies, but cannot read that answer nor set the header (no CORS is answered).
 * Checking it on sign-in too stops another site from signing a visitor into an account of its own.
 */
export class SessionCookies {
  readonly sessionName: string;
  readonly preSessionName: string;

  constructor(
    private readonly people: People,
    private readonly secure: boolean,
  ) {
    const prefix = secure ? '__Host-' : '';
    this.sessionName = `${prefix}qrf_session`;
    this.preSessionName = `${prefix}qrf_csrf`;
  }

  /** The browser's session, or null (none, expired or ended). */
  async current(ctx: RequestContext): Promise<SignedIn | null> {
    const token = readCookies(ctx.headers.cookie).get(this.sessionName);
    if (token === undefined) return null;
    const found = await this.people.session(token);
    return found === null ? null : { ...found, token };
  }

  /**
   * The guard of the account routes: the browser's session (session_required without one) and, on anything
   * but a GET (POST, PATCH, DELETE), its X-CSRF-Token (csrf_failed).
   */
  readonly guard: Guard<SignedIn> = {
    scheme: 'session',
    admit: async (ctx) => {
      const s = await this.current(ctx);
      if (s === null) throw new ApiError('session_required');
      if (ctx.method !== 'GET') this.checkCsrf(ctx, s.token);
      return s;
    },
  };

  /** The CSRF token of a signed-in browser. */
  csrfOf(session: SignedIn): string {
    return csrfTokenOf(session.token);
  }

  /** A sign-in or sign-up form: its X-CSRF-Token must match this browser's pre-session cookie. */
  checkPreSession(ctx: RequestContext): void {
    this.checkCsrf(ctx, readCookies(ctx.headers.cookie).get(this.preSessionName));
  }

  /**
   * A form that needs no session (a link's token, a reset request): the X-CSRF-Token of this browser's
   * session when it has one, else of its pre-session cookie.
   */
  async checkForm(ctx: RequestContext): Promise<void> {
    const s = await this.current(ctx);
    if (s === null) this.checkPreSession(ctx);
    else this.checkCsrf(ctx, s.token);
  }

  private checkCsrf(ctx: RequestContext, cookieToken: string | undefined): void {
    if (cookieToken === undefined || !sameToken(ctx.headers['x-csrf-token'], csrfTokenOf(cookieToken)))
      throw new ApiError('csrf_failed');
  }

  /** The CSRF token for a browser without a session, setting its pre-session cookie when it has none. */
  preSessionCsrf(ctx: RequestContext): string {
    let token = readCookies(ctx.headers.cookie).get(this.preSessionName);
    if (token === undefined || !/^[A-Za-z0-9_-]{43}$/.test(token)) {
      token = newSessionToken();
      ctx.reply.header('Set-Cookie', setCookie(this.preSessionName, token, this.options(PRE_SESSION_MAX_AGE)));
    }
    return csrfTokenOf(token);
  }

  /** Sets the new session's cookie; returns the CSRF token that goes with it. */
  begin(ctx: RequestContext, session: NewSession): string {
    const maxAge = Math.floor(SESSION_LIFETIME_MS / 1000);
    ctx.reply.header('Set-Cookie', setCookie(this.sessionName, session.token, this.options(maxAge)));
    return csrfTokenOf(session.token);
  }

  /** Deletes the session cookie from the browser. */
  end(ctx: RequestContext): void {
    ctx.reply.header('Set-Cookie', setCookie(this.sessionName, '', this.options(0)));
  }

  private options(maxAge: number) {
    return { maxAge, secure: this.secure };
  }
}
