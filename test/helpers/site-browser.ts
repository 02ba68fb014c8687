/**
 * A browser as far as the site can tell, over real HTTP: a cookie jar and the CSRF token it was last
 * given; it signs up, verifies its address from the mail the site sent, and signs in.
 */
import { expect } from 'vitest';
import type { Answer } from './answers.js';
import { call } from './consumer.js';
import { linksIn, newestLink, outboxMessages, tokenOf } from './mailbox.js';

export const PASSWORD = 'a long enough passphrase';
let people = 0;
export const newAddress = (prefix = 'site'): string => `${prefix}-${process.pid}-${people++}@example.com`;

/** Where the site's mail is read: its outbox folder, or the messages a loopback SMTP server took. */
export type MailSource = string | (() => string[]);
const messagesOf = (source: MailSource) => (typeof source === 'string' ? outboxMessages(source) : source());

export class SiteBrowser {
  private readonly cookies = new Map<string, string>();
  csrf = '';
  email = '';
  customerId = '';

  /** `from`: the client address it calls from (any of 127.0.0.0/8; default the system's choice). */
  constructor(
    private readonly origin: string,
    private readonly from?: string,
  ) {}

  get cookieHeader(): string {
    return [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
  }

  async send(path: string, body?: unknown, headers: Record<string, string> = {}): Promise<Answer> {
    return this.request(body === undefined ? 'GET' : 'POST', path, body, headers);
  }

  /** Any method; every one but GET carries the CSRF token. */
  async request(
    method: 'GET' | 'POST' | 'PATCH' | 'DELETE',
    path: string,
    body?: unknown,
    headers: Record<string, string> = {},
  ): Promise<Answer> {
    const a = await call(this.origin, path, {
      body,
      method,
      from: this.from,
      headers: { cookie: this.cookieHeader, ...(method !== 'GET' && { 'x-csrf-token': this.csrf }), ...headers },
    });
    for (const line of a.headers.getSetCookie()) {
      const [pair] = line.split(';');
      const [name, value] = pair!.split('=') as [string, string];
      if (/Max-Age=0\b/.test(line)) this.cookies.delete(name);
      else this.cookies.set(name, value);
    }
    if (typeof a.body?.csrfToken === 'string') this.csrf = a.body.csrfToken;
    return a;
  }

  async start(): Promise<void> {
    expect((await this.send('/api/session')).body).toMatchObject({ success: true });
  }

  async signUp(email = newAddress(), password = PASSWORD): Promise<{ email: string; customerId: string }> {
    await this.start();
    const a = await this.send('/api/session/signup', { email, password });
    expect(a.status, JSON.stringify(a.body)).toBe(200);
    this.email = email;
    this.customerId = a.body.user.customerId;
    return { email, customerId: this.customerId };
  }

  async signIn(email = this.email, password = PASSWORD): Promise<Answer> {
    await this.start();
    return this.send('/api/session/signin', { email, password });
  }

  /**
   * Opens the newest verification link mailed to `email` (in the outbox folder), once there are more than
   * `after` of them, and POSTs its token.
   */
  async verify(outbox: MailSource, email = this.email, after = 0): Promise<Answer> {
    const link = await newestLink(() => messagesOf(outbox), email, 'verify-email', after);
    const a = await this.send('/api/session/verify-email', { token: tokenOf(link) });
    expect(a.status, JSON.stringify(a.body)).toBe(200);
    this.customerId = a.body.user.customerId;
    return a;
  }

  /** Signs up and verifies: an account that may buy, make keys and spend credits. */
  async verifiedAccount(outbox: MailSource, email = newAddress()): Promise<{ email: string; customerId: string }> {
    const before = linksIn(messagesOf(outbox), email, 'verify-email').length;
    await this.signUp(email);
    await this.verify(outbox, email, before);
    return { email, customerId: this.customerId };
  }
}
