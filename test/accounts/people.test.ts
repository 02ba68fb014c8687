/**
 * The site's people on both drivers: sign-up makes a user and its customer in one go, passwords are
 * argon2id hashes checked as such, sessions are found by token until they expire or end, sign-out
 * everywhere ends them all; and the usage counter adds gateway calls per UTC day in batches.
 */
import { verify } from '@node-rs/argon2';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAccounts, createPeople, csrfTokenOf, SESSION_LIFETIME_MS } from '../../src/accounts/index.js';
import { GatewayCallCounter, usageByDay } from '../../src/accounts/usage.js';
import type { Accounts, People } from '../../src/accounts/index.js';
import { isApiError } from '../../src/errors.js';
import { DRIVERS, manualClock, openTestDatabase, type TestDatabase, TEST_PEPPER } from '../helpers/databases.js';

const PASSWORD = 'correct horse battery';

const refusalOf = async (p: Promise<unknown>) => {
  try {
    await p;
  } catch (e) {
    if (isApiError(e)) return { code: e.code, field: e.field };
    throw e;
  }
  throw new Error('not refused');
};

describe.each(DRIVERS)('people on %s', (driver) => {
  let t: TestDatabase;
  let people: People;
  let accounts: Accounts;
  const clock = manualClock();
  let n = 0;
  const address = () => `person-${n++}-${driver}@example.com`;

  beforeAll(async () => {
    t = await openTestDatabase(driver);
    people = createPeople(t.db, { clock: clock.now });
    accounts = createAccounts(t.db, { pepper: TEST_PEPPER, clock: clock.now, usageFlushMs: 60_000 });
  });
  afterAll(async () => {
    await accounts?.close();
    await t?.close();
  });

  it('sign-up makes a user who is a customer, stores an argon2id hash of the password and signs in', async () => {
    const email = address();
    const { user, token, expiresAt } = await people.signUp(email, PASSWORD);
    expect(user).toMatchObject({
      email,
      customerId: expect.stringMatching(/^cus_/),
      id: expect.stringMatching(/^usr_/),
    });
    // The customer gets the address once the person proves it is theirs.
    expect(user.emailVerified).toBe(false);
    expect(await accounts.customerByEmail(email)).toBeNull();
    const { token: link } = await people.verificationToken(user.id);
    expect(await people.verifyEmail(link)).toEqual({ ...user, emailVerified: true });
    expect(await accounts.customer(user.customerId)).toMatchObject({ email });
    expect(expiresAt.getTime() - clock.now().getTime()).toBe(SESSION_LIFETIME_MS);
    const { rows } = await t.db.query<{ password_hash: string }>('SELECT password_hash FROM users WHERE id = $1', [
      user.id,
    ]);
    expect(rows[0]!.password_hash).toMatch(/^\$argon2id\$v=19\$m=19456,t=2,p=1\$/);
    expect(rows[0]!.password_hash).not.toContain(PASSWORD);
    expect(await verify(rows[0]!.password_hash, PASSWORD)).toBe(true);
    expect((await people.session(token))?.user).toEqual({ ...user, emailVerified: true });
    // Only the token's hash is stored.
    const stored = await t.db.query<{ token_hash: Uint8Array }>('SELECT token_hash FROM sessions WHERE user_id = $1', [
      user.id,
    ]);
    expect(Buffer.from(stored.rows[0]!.token_hash).toString('utf8')).not.toContain(token);
  });

  it('refuses a taken address in any case, a short password and the address as password, naming the field', async () => {
    const email = address();
    const first = await people.signUp(email, PASSWORD);
    // Unverified, the address is not taken: whoever owns the mailbox may still sign up with it.
    await people.signUp(email.toUpperCase(), PASSWORD);
    await people.verifyEmail((await people.verificationToken(first.user.id)).token);
    expect(await refusalOf(people.signUp(email.toUpperCase(), PASSWORD))).toEqual({
      code: 'customer_exists',
      field: 'email',
    });
    // A customer made without an account (the admin CLI) is claimed by signing up and verifying its address.
    const cli = await accounts.createCustomer(address());
    const claimant = await people.signUp(cli.email, PASSWORD);
    expect(claimant.user.customerId).not.toBe(cli.id);
    const claimed = await people.verifyEmail((await people.verificationToken(claimant.user.id)).token);
    expect(claimed).toMatchObject({ customerId: cli.id, email: cli.email, emailVerified: true });
    expect(await accounts.customer(claimant.user.customerId)).toBeNull();
    expect(await refusalOf(people.signUp(address(), 'short'))).toEqual({ code: 'invalid_body', field: 'password' });
    const own = address();
    expect(await refusalOf(people.signUp(own, own))).toEqual({ code: 'invalid_body', field: 'password' });
    expect(await refusalOf(people.signUp('not-an-address', PASSWORD))).toEqual({
      code: 'invalid_body',
      field: 'email',
    });
  });

  it('refuses common and easily guessed passwords and those containing the address’s name, saying why', async () => {
    const weak: [string, string, RegExp][] = [
      ['1234567890', address(), /too easy to guess \(it is one of the hundred most used\)/],
      ['password123', address(), /too easy to guess/],
      ['qwertyuiop', address(), /too easy to guess/],
      ['iloveyou12', address(), /too easy to guess/],
      ['aaaaaaaaaaaa', address(), /too easy to guess/],
      ['Margaret.Hamilton!1', 'margaret.hamilton@example.com', /must not contain the name of your e-mail address/],
      ['x-bob2024-lighthouse', 'BOB2024@example.com', /must not contain the name/],
    ];
    for (const [password, email, why] of weak) {
      const refused = await people.signUp(email, password).then(
        () => undefined,
        (e: { code: string; field: string; message: string }) => e,
      );
      expect(refused, password).toMatchObject({
        code: 'invalid_body',
        field: 'password',
        message: expect.stringMatching(why),
      });
    }
    // A long phrase passes; a two-letter local part is not looked for (it is in too many words).
    await people.signUp(address(), 'violet tractor umbrella');
    await people.signUp(`jo-${driver}@example.com`, 'enjoy the long journey home');
  });

  it('e-mail links: stored as SHA-256 only, used once, verification 24 h, reset 30 min ending every session', async () => {
    const email = address();
    const { user, token: session } = await people.signUp(email, PASSWORD);
    const { token } = await people.verificationToken(user.id);
    const stored = await t.db.query<{ token_hash: Uint8Array; purpose: string; expires_at: Date }>(
      'SELECT token_hash, purpose, expires_at FROM email_tokens WHERE user_id = $1',
      [user.id],
    );
    expect(stored.rows).toHaveLength(1);
    expect(Buffer.from(stored.rows[0]!.token_hash).toString('base64url')).not.toContain(token);
    expect(stored.rows[0]!.expires_at.getTime() - clock.now().getTime()).toBe(24 * 3_600_000);
    expect(await people.verifyEmail(`${token}x`)).toBeNull();
    expect((await people.verifyEmail(token))?.emailVerified).toBe(true);
    expect(await people.verifyEmail(token)).toBeNull();

    expect(await people.passwordResetToken(address())).toBeNull();
    const reset = (await people.passwordResetToken(email.toUpperCase()))!;
    expect(reset.email).toBe(email);
    expect(await people.resetPassword(reset.token, 'short').catch((e) => e.code)).toBe('invalid_body');
    expect(await people.resetPassword(reset.token, 'a brand new passphrase')).toBe(true);
    expect(await people.session(session)).toBeNull();
    expect(await people.resetPassword(reset.token, 'another passphrase!')).toBe(false);
    expect(await people.signIn(email, 'a brand new passphrase')).not.toBeNull();

    const late = (await people.passwordResetToken(email))!;
    clock.advance(30 * 60_000);
    expect(await people.resetPassword(late.token, 'too late a passphrase')).toBe(false);
  });

  it('erasing a person keeps their customer for accounting under a placeholder address, keys revoked', async () => {
    const email = address();
    const { user, token } = await people.signUp(email, PASSWORD);
    await people.verifyEmail((await people.verificationToken(user.id)).token);
    const key = await accounts.issueKey(user.customerId);
    await accounts.grantPack({ customerId: user.customerId, credits: 2 });
    expect(await refusalOf(people.checkPassword(user.id, 'not it'))).toEqual({
      code: 'wrong_password',
      field: undefined,
    });
    await people.eraseAccount(user.id);
    expect(await people.session(token)).toBeNull();
    expect(await people.signIn(email, PASSWORD)).toBeNull();
    expect(await accounts.customer(user.customerId)).toMatchObject({
      email: `deleted+${user.customerId}@qrfarm.invalid`,
    });
    expect((await accounts.listKeys(user.customerId))[0]).toMatchObject({ id: key.id, revokedAt: clock.now() });
    expect(await accounts.listPacks(user.customerId)).toHaveLength(1);
    const { rowCount } = await t.db.query('SELECT 1 FROM users WHERE id = $1', [user.id]);
    expect(rowCount).toBe(0);
  });

  it('signs in with the right password only; an unknown address answers the same null', async () => {
    const email = address();
    const { user } = await people.signUp(email, PASSWORD);
    const again = await people.signIn(` ${email.toUpperCase()} `, PASSWORD);
    expect(again?.user.id).toBe(user.id);
    expect(await people.signIn(email, `${PASSWORD}!`)).toBeNull();
    expect(await people.signIn(address(), PASSWORD)).toBeNull();
  });

  it('a session ends at sign-out, at expiry (then pruned), and all of them at sign-out everywhere', async () => {
    const email = address();
    const first = await people.signUp(email, PASSWORD);
    const second = (await people.signIn(email, PASSWORD))!;
    const third = (await people.signIn(email, PASSWORD))!;
    expect(new Set([first.token, second.token, third.token]).size).toBe(3);
    expect(csrfTokenOf(first.token)).not.toBe(csrfTokenOf(second.token));
    await people.signOut(first.token);
    expect(await people.session(first.token)).toBeNull();
    expect(await people.session(second.token)).not.toBeNull();
    expect(await people.signOutEverywhere(first.user.id)).toBe(2);
    expect(await people.session(second.token)).toBeNull();
    expect(await people.session(third.token)).toBeNull();

    const late = (await people.signIn(email, PASSWORD))!;
    clock.advance(SESSION_LIFETIME_MS);
    expect(await people.session(late.token)).toBeNull();
    expect(await people.pruneSessions()).toBeGreaterThanOrEqual(1);
    expect((await t.db.query('SELECT 1 FROM sessions WHERE user_id = $1', [first.user.id])).rowCount).toBe(0);
    expect(await people.session('not a token')).toBeNull();
  });

  it('counts gateway calls per UTC day and class, and credits spent per day from the ledger', async () => {
    const { id } = await accounts.createCustomer(address());
    clock.set(new Date('2025-06-01T23:59:00Z'));
    accounts.recordCall(id, 'generation');
    accounts.recordCall(id, 'generation');
    accounts.recordCall(id, 'general');
    clock.set(new Date('2025-06-02T00:01:00Z'));
    accounts.recordCall(id, 'ai');
    await accounts.grantPack({ customerId: id, credits: 3 });
    const r = (await accounts.reserveCredit(id))!;
    await accounts.commitCredit(r.id);
    // Counted after a first flush: added to what is stored, not written over it.
    expect((await accounts.usage(id, 2)).map((d) => d.generation)).toEqual([2, 0]);
    accounts.recordCall(id, 'ai');
    expect(await accounts.usage(id, 3)).toEqual([
      { day: '2025-05-31', general: 0, generation: 0, ai: 0, creditsSpent: 0 },
      { day: '2025-06-01', general: 1, generation: 2, ai: 0, creditsSpent: 0 },
      { day: '2025-06-02', general: 0, generation: 0, ai: 2, creditsSpent: 1 },
    ]);
  });

  it('a flush that fails keeps its counts, and the next one writes them with the newer ones', async () => {
    const { id } = await accounts.createCustomer(address());
    clock.set(new Date('2025-07-01T10:00:00Z'));
    let fail = true;
    const logged: string[] = [];
    const flaky = {
      ...t.db,
      query: (sql: string, params?: readonly unknown[]) => {
        if (fail) {
          fail = false;
          return Promise.reject(new Error('connection reset'));
        }
        return t.db.query(sql, params);
      },
    } as typeof t.db;
    const counter = new GatewayCallCounter(flaky, clock.now, 60_000, (m) => logged.push(m));
    counter.record(id, 'general');
    counter.record(id, 'generation');
    await counter.flush();
    expect(logged).toEqual([expect.stringContaining('connection reset')]);
    counter.record(id, 'general');
    await counter.close();
    expect((await usageByDay(t.db, id, 1, clock.now())).at(-1)).toEqual({
      day: '2025-07-01',
      general: 2,
      generation: 1,
      ai: 0,
      creditsSpent: 0,
    });
  });
});
