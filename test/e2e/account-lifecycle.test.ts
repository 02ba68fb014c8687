/**
 * The account lifecycle of issue 27 over real HTTP (the built engine and site, checkout in test mode), the
 * accounts on PGlite and on the real PostgreSQL, the links read from the .eml files of the outbox: an
 * address verified by its link before buying, keys or credits; the anonymous checkout that took any
 * address, replayed and refused; an admin-made customer claimed by signing up; password reset (202 for any
 * address, one use, 30 minutes, every session ended), change of password and of address, and deletion.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type Consumer,
  type ConsumerStore,
  call,
  consumerConfig,
  consumerStore,
  refusal,
  startConsumer,
  stoppableClock,
} from '../helpers/consumer.js';
import { DRIVERS, type DriverName } from '../helpers/databases.js';
import { linksIn, newestLink, outboxMessages, tokenOf } from '../helpers/mailbox.js';
import { newAddress, PASSWORD, SiteBrowser } from '../helpers/site-browser.js';
import { GIVEN_WAIVER } from '../helpers/waiver.js';

const NEW_PASSWORD = 'another long passphrase';
const studio = { packId: 'studio', withdrawalWaiver: GIVEN_WAIVER };

function lifecycleSuite(driver: DriverName): void {
  describe(`the account lifecycle, accounts on ${driver}`, () => {
    let store: ConsumerStore;
    let c: Consumer;
    const clock = stoppableClock();
    const outbox = mkdtempSync(join(tmpdir(), `qrfarm-lifecycle-${driver}-`));
    const mails = () => outboxMessages(outbox);
    const browser = () => new SiteBrowser(c.siteUrl);
    const address = () => newAddress(`life-${driver}`);

    beforeAll(async () => {
      store = await consumerStore(driver);
      c = await startConsumer(
        await consumerConfig({ ...store.env, QR_OUTBOX_DIR: outbox, QR_LIMIT_SIGNIN: '1000' }),
        clock.now,
      );
    });
    afterAll(async () => {
      await c?.close();
      await store?.close();
      rmSync(outbox, { recursive: true, force: true });
    });

    it('sign-up mails a link; until it is opened the account cannot buy, make keys or spend credits', async () => {
      const b = browser();
      const { email, customerId } = await b.signUp(address());
      expect((await b.send('/api/session')).body.user).toMatchObject({ email, emailVerified: false });
      for (const [path, body] of [
        ['/api/checkout', studio],
        ['/api/account/keys', {}],
        ['/api/account/ai', { prompt: 'a red code' }],
      ] as const)
        expect(refusal(await b.send(path, body)), path).toEqual({
          status: 403,
          success: false,
          code: 'email_unverified',
        });
      const link = await newestLink(mails, email, 'verify-email');
      expect(link).toMatch(/\/verify-email#token=[\w-]{43}$/);
      // The token is stored as a hash: nowhere in the answers, and a second use fails.
      const verified = await b.send('/api/session/verify-email', { token: tokenOf(link) });
      expect(verified.body).toMatchObject({ success: true, user: { email, emailVerified: true, customerId } });
      expect(refusal(await b.send('/api/session/verify-email', { token: tokenOf(link) }))).toEqual({
        status: 400,
        success: false,
        code: 'invalid_token',
      });
      const bought = await b.send('/api/checkout', studio);
      expect(bought.body).toMatchObject({ success: true, status: 'paid', customerId, testMode: true });
      expect((await b.send('/api/account/keys', {})).status).toBe(200);
    });

    it('a new link on request; the link works without a session, in another browser', async () => {
      const b = browser();
      const { email } = await b.signUp(address());
      await newestLink(mails, email, 'verify-email');
      const resent = await b.send('/api/session/verify-email/resend', {});
      expect(resent.body).toEqual({ success: true, email });
      const link = await newestLink(mails, email, 'verify-email', 1);
      const elsewhere = browser();
      await elsewhere.start();
      expect((await elsewhere.send('/api/session/verify-email', { token: tokenOf(link) })).status).toBe(200);
      expect((await b.send('/api/account')).body.user.emailVerified).toBe(true);
      expect(refusal(await elsewhere.send('/api/session/verify-email', { token: 'x'.repeat(43) })).code).toBe(
        'invalid_token',
      );
    });

    it('the attack replayed: an anonymous checkout names no customer, and the owner signs up', async () => {
      const victim = address();
      const anonymous = await call(c.siteUrl, '/api/checkout', { body: { ...studio, email: victim } });
      expect(refusal(anonymous)).toEqual({ status: 401, success: false, code: 'session_required' });
      expect(await c.accounts.customerByEmail(victim)).toBeNull();
      // Someone signing up with the address first takes nothing: it is the customer's once verified.
      const squatter = browser();
      await squatter.signUp(victim);
      await newestLink(mails, victim, 'verify-email');
      expect(await c.accounts.customerByEmail(victim)).toBeNull();
      const owner = browser();
      const { customerId } = await owner.signUp(victim);
      await owner.verify(outbox, victim, 1);
      expect((await c.accounts.customerByEmail(victim))?.id).toBe(customerId);
      // The body names no one: an address in it is refused, and the order is the session's account's.
      expect(refusal(await owner.send('/api/checkout', { ...studio, email: 'other@example.com' })).code).toBe(
        'invalid_body',
      );
      expect((await owner.send('/api/checkout', studio)).body).toMatchObject({ status: 'paid', customerId });
      const again = browser();
      await again.start();
      expect(refusal(await again.send('/api/session/signup', { email: victim, password: PASSWORD }))).toEqual({
        status: 409,
        success: false,
        code: 'customer_exists',
      });
    });

    it('an address the admin CLI gave a customer is claimed by signing up and verifying it', async () => {
      const email = address();
      const made = await c.accounts.createCustomer(email);
      const pack = await c.accounts.grantPack({ customerId: made.id, credits: 5 });
      const b = browser();
      await b.signUp(email);
      // Before verification the customer's pack is not theirs to see.
      expect((await b.send('/api/account')).body).toMatchObject({ activePack: null, user: { emailVerified: false } });
      await b.verify(outbox);
      const account = await b.send('/api/account');
      expect(account.body).toMatchObject({
        user: { email, emailVerified: true, customerId: made.id },
        activePack: { id: pack.id },
      });
    });

    it('password reset: 202 for any address, a 30-minute link used once, every session ended', async () => {
      const b = browser();
      const { email } = await b.signUp(address());
      const other = browser();
      expect((await other.signIn(email)).status).toBe(200);
      const asker = browser();
      await asker.start();
      const unknown = await asker.send('/api/session/password-reset', { email: address() });
      const known = await asker.send('/api/session/password-reset', { email: email.toUpperCase() });
      expect([unknown.status, known.status]).toEqual([202, 202]);
      expect(known.body).toEqual(unknown.body);
      const link = await newestLink(mails, email, 'reset-password');
      const token = tokenOf(link);
      const short = await asker.send('/api/session/password-reset/confirm', { token, password: 'short' });
      expect(short.body).toMatchObject({ code: 'invalid_body', field: 'password' });
      const done = await asker.send('/api/session/password-reset/confirm', { token, password: NEW_PASSWORD });
      expect(done.body).toEqual({ success: true });
      expect(refusal(await b.send('/api/account')).code).toBe('session_required');
      expect(refusal(await other.send('/api/account')).code).toBe('session_required');
      expect(refusal(await asker.send('/api/session/password-reset/confirm', { token, password: PASSWORD })).code).toBe(
        'invalid_token',
      );
      expect(refusal(await browser().signIn(email, PASSWORD)).code).toBe('invalid_credentials');
      expect((await browser().signIn(email, NEW_PASSWORD)).status).toBe(200);

      // 30 minutes later a link no longer works.
      await asker.send('/api/session/password-reset', { email });
      const late = tokenOf(await newestLink(mails, email, 'reset-password', 1));
      clock.stopAt(new Date(Date.now() + 30 * 60_000 + 1000));
      try {
        const expired = await asker.send('/api/session/password-reset/confirm', { token: late, password: PASSWORD });
        expect(refusal(expired).code).toBe('invalid_token');
      } finally {
        clock.resume();
      }
    });

    it('change of password asks the current one and ends the other sessions', async () => {
      const b = browser();
      const { email } = await b.signUp(address());
      const other = browser();
      await other.signIn(email);
      const wrong = await b.send('/api/account/password', {
        currentPassword: 'not the password',
        password: NEW_PASSWORD,
      });
      expect(refusal(wrong)).toEqual({ status: 403, success: false, code: 'wrong_password' });
      expect(
        (await b.send('/api/account/password', { currentPassword: PASSWORD, password: NEW_PASSWORD })).status,
      ).toBe(200);
      expect((await b.send('/api/account')).status).toBe(200);
      expect(refusal(await other.send('/api/account')).code).toBe('session_required');
      expect((await browser().signIn(email, NEW_PASSWORD)).status).toBe(200);
    });

    it('change of address: a link to the new one; the change takes effect when it is opened', async () => {
      const b = browser();
      const { email, customerId } = await b.verifiedAccount(outbox, address());
      const taken = (await browser().verifiedAccount(outbox, address())).email;
      expect(refusal(await b.send('/api/account/email', { email: taken, password: PASSWORD })).code).toBe(
        'customer_exists',
      );
      expect(refusal(await b.send('/api/account/email', { email: address(), password: 'wrong' })).code).toBe(
        'wrong_password',
      );
      const next = address();
      const asked = await b.send('/api/account/email', { email: next, password: PASSWORD });
      expect(asked.status).toBe(202);
      expect(asked.body).toEqual({ success: true, pendingEmail: next });
      expect((await b.send('/api/account')).body.user.email).toBe(email);
      await b.verify(outbox, next);
      expect((await b.send('/api/account')).body.user).toMatchObject({ email: next, emailVerified: true, customerId });
      expect((await browser().signIn(next)).status).toBe(200);
      expect(refusal(await browser().signIn(email)).code).toBe('invalid_credentials');
    });

    it('deleting the account: password asked; keys revoked at once; sessions ended; person erased, orders kept', async () => {
      const b = browser();
      const { email, customerId } = await b.verifiedAccount(outbox, address());
      const order = await b.send('/api/checkout', studio);
      const key: string = (await b.send('/api/account/keys', {})).body.key.key;
      expect((await call(c.siteUrl, '/api/v1/ping', { key })).status).toBe(200);
      const other = browser();
      await other.signIn(email);
      expect(refusal(await b.send('/api/account/delete', { password: 'wrong' })).code).toBe('wrong_password');
      const deleted = await b.send('/api/account/delete', { password: PASSWORD });
      expect(deleted.body).toEqual({ success: true });
      expect(deleted.headers.getSetCookie()).toEqual([expect.stringMatching(/^qrf_session=; .*Max-Age=0/)]);
      expect(refusal(await call(c.siteUrl, '/api/v1/ping', { key })).code).toBe('invalid_api_key');
      expect(refusal(await other.send('/api/account')).code).toBe('session_required');
      expect(refusal(await browser().signIn(email)).code).toBe('invalid_credentials');
      expect(await c.accounts.customerByEmail(email)).toBeNull();
      expect((await c.accounts.customer(customerId))?.email).toBe(`deleted+${customerId}@qrfarm.invalid`);
      expect(await c.accounts.order(order.body.orderId)).toMatchObject({ customerId, state: 'paid' });
      expect((await c.accounts.ledger(customerId)).length).toBeGreaterThan(0);
      // The address is free again.
      expect((await browser().verifiedAccount(outbox, email)).customerId).not.toBe(customerId);
    });

    it('mail holds the link only: no token in any answer or in the mail of another address', async () => {
      const b = browser();
      const { email } = await b.signUp(address());
      const link = await newestLink(mails, email, 'verify-email');
      expect(linksIn(mails(), address(), 'verify-email')).toEqual([]);
      expect(JSON.stringify((await b.send('/api/session')).body)).not.toContain(tokenOf(link));
    });
  });
}

for (const driver of DRIVERS) lifecycleSuite(driver);
