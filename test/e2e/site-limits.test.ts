/**
 * Issue 27's attacks replayed over real HTTP (the built engine and site, accounts on PGlite), each from
 * several client addresses (127.0.0.0/8), with the limits' counts in memory and on the real Redis:
 * a stranger's wrong passwords never lock the owner out; failed API keys and admin tokens are throttled per
 * client address before any lookup; the anonymous Studio is a preview (uploads only, 1024 px); visitor
 * renders take at most half the workers (past it they wait their turn), a customer's render still gets one.
 */
import type { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectRedis } from '../../src/redis.js';
import { signRelay, VISITOR_CUSTOMER_ID } from '../../src/relay/signature.js';
import type { Answer } from '../helpers/answers.js';
import {
  type Consumer,
  call,
  consumerConfig,
  consumerStore,
  INTERNAL_SECRET,
  refusal,
  startConsumer,
} from '../helpers/consumer.js';
import { png, quadrants } from '../helpers/make-images.js';
import { deleteKeys, requireRedis, runPrefix, TEST_REDIS_URL } from '../helpers/redis.js';

const PASSWORD = 'a long enough passphrase';
let people = 0;
const newAddress = () => `limits-${process.pid}-${people++}@example.com`;

/** A browser at one client address: its cookies and CSRF token. */
class Browser {
  private cookie = '';
  private csrf = '';

  constructor(
    private readonly origin: string,
    readonly from: string,
  ) {}

  async send(path: string, body?: unknown, headers: Record<string, string> = {}): Promise<Answer> {
    const a = await call(this.origin, path, {
      body,
      from: this.from,
      headers: { cookie: this.cookie, ...(body !== undefined && { 'x-csrf-token': this.csrf }), ...headers },
    });
    const set = a.headers.getSetCookie().map((l) => l.split(';')[0]!);
    if (set.length > 0) this.cookie = set.join('; ');
    if (typeof a.body?.csrfToken === 'string') this.csrf = a.body.csrfToken;
    return a;
  }

  async signIn(email: string, password: string): Promise<Answer> {
    await this.send('/api/session');
    return this.send('/api/session/signin', { email, password });
  }
}

const retryAfter = (a: Answer) => Number(a.headers.get('retry-after'));

describe.each(['memory', 'redis'] as const)('counts in %s', (counts) => {
  let c: Consumer;
  let redis: Redis | undefined;
  const prefix = runPrefix('site-limits');
  // Each store its own range of addresses, so the two runs never share a count.
  const net = counts === 'memory' ? '127.0.10' : '127.0.20';
  const at = (host: number) => `${net}.${host}`;

  beforeAll(async () => {
    const env: Record<string, string> = {
      ...(await consumerStore('pglite')).env,
      QR_LIMIT_SIGNIN: '8',
      QR_LIMIT_AUTH_FAILURES: '5',
      QR_LIMIT_STUDIO: '1000',
    };
    if (counts === 'redis') {
      await requireRedis();
      redis = await connectRedis(TEST_REDIS_URL);
      Object.assign(env, { REDIS_URL: TEST_REDIS_URL, QR_REDIS_PREFIX: prefix });
    }
    c = await startConsumer(await consumerConfig(env));
  });
  afterAll(async () => {
    await c?.close();
    if (redis) await deleteKeys(redis, prefix);
    redis?.disconnect();
  });

  describe('sign-in: a stranger cannot lock the owner out', () => {
    it('wrong passwords from many addresses are throttled; the owner’s right password from a clean address gets in', async () => {
      const email = newAddress();
      const owner = new Browser(c.siteUrl, at(1));
      await owner.send('/api/session');
      expect((await owner.send('/api/session/signup', { email, password: PASSWORD })).status).toBe(200);

      // One stranger: 3 free failures on the pair, then it waits, longer each time it fails.
      const stranger = new Browser(c.siteUrl, at(2));
      const tries: Answer[] = [];
      for (let i = 0; i < 5; i++) tries.push(await stranger.signIn(email, 'not the password'));
      expect(tries.map((a) => a.status)).toEqual([401, 401, 401, 401, 429]);
      expect(refusal(tries[4]!)).toEqual({ status: 429, success: false, code: 'rate_limited' });
      expect(retryAfter(tries[4]!)).toBe(1);
      // The stranger's address waits whatever the password: no guess is checked meanwhile.
      expect((await stranger.signIn(email, PASSWORD)).status).toBe(429);

      // Many strangers: the account is slowed down, each new address waits from its first failure.
      for (let host = 3; host < 9; host++) {
        const b = new Browser(c.siteUrl, at(host));
        expect((await b.signIn(email, 'not the password')).status).toBe(401);
      }
      const late = new Browser(c.siteUrl, at(9));
      expect((await late.signIn(email, 'not the password')).status).toBe(401);
      const again = await late.signIn(email, 'still not the password');
      expect(refusal(again).code).toBe('rate_limited');
      expect(retryAfter(again)).toBeGreaterThanOrEqual(1);

      // The owner, from an address that has not failed, gets in at once, and again from another.
      const signedIn = await new Browser(c.siteUrl, at(10)).signIn(email, PASSWORD);
      expect(signedIn.status).toBe(200);
      expect(signedIn.body.user.email).toBe(email);
      expect((await new Browser(c.siteUrl, at(1)).signIn(email, PASSWORD)).status).toBe(200);
    });

    it('one address trying many accounts: past half of QR_LIMIT_SIGNIN failures it waits, whatever the account', async () => {
      const email = newAddress();
      const owner = new Browser(c.siteUrl, at(20));
      await owner.send('/api/session');
      await owner.send('/api/session/signup', { email, password: PASSWORD });
      const sprayer = new Browser(c.siteUrl, at(21));
      const statuses: number[] = [];
      for (let i = 0; i < 6; i++) statuses.push((await sprayer.signIn(newAddress(), 'not the password')).status);
      expect(statuses).toEqual([401, 401, 401, 401, 401, 429]);
      const refused = await sprayer.signIn(email, PASSWORD);
      expect(refused.status).toBe(429);
      expect(refused.body.error).toMatch(/failed sign-ins from this address/);
      expect((await new Browser(c.siteUrl, at(22)).signIn(email, PASSWORD)).status).toBe(200);
    });

    it('a burst of guesses sent at once is counted as it goes: the pair’s free failures, then 429s', async () => {
      const email = newAddress();
      const owner = new Browser(c.siteUrl, at(25));
      await owner.send('/api/session');
      await owner.send('/api/session/signup', { email, password: PASSWORD });
      const guesser = new Browser(c.siteUrl, at(26));
      await guesser.send('/api/session');
      const burst = await Promise.all(
        Array.from({ length: 10 }, (_, i) => guesser.send('/api/session/signin', { email, password: `guess ${i}` })),
      );
      const statuses = burst.map((a) => a.status).sort();
      expect(statuses).toEqual([401, 401, 401, 401, 429, 429, 429, 429, 429, 429]);
    });

    it('sign-up: QR_LIMIT_SIGNIN attempts per address per 15 minutes', async () => {
      const statuses: number[] = [];
      for (let i = 0; i < 9; i++) {
        const b = new Browser(c.siteUrl, at(30));
        await b.send('/api/session');
        statuses.push((await b.send('/api/session/signup', { email: newAddress(), password: PASSWORD })).status);
      }
      expect(statuses).toEqual([200, 200, 200, 200, 200, 200, 200, 200, 429]);
    });
  });

  describe('failed credentials per client address', () => {
    it('past QR_LIMIT_AUTH_FAILURES wrong keys a minute: 429 with Retry-After, the address’s valid key too; other addresses unaffected', async () => {
      const customer = await c.customer();
      const ping = (key: string, from: string) => call(c.siteUrl, '/api/v1/ping', { key, from });
      const wrong = (i: number) => `qrf_${'A'.repeat(20)}${String(i).padStart(12, '0')}`;
      const statuses: number[] = [];
      for (let i = 0; i < 8; i++) statuses.push((await ping(wrong(i), at(40))).status);
      expect(statuses).toEqual([401, 401, 401, 401, 401, 429, 429, 429]);
      const flood = await Promise.all(Array.from({ length: 200 }, (_, i) => ping(wrong(100 + i), at(40))));
      expect(flood.every((a) => a.status === 429)).toBe(true);
      const own = await ping(customer.key, at(40));
      expect(refusal(own)).toEqual({ status: 429, success: false, code: 'rate_limited' });
      expect(retryAfter(own)).toBeGreaterThanOrEqual(1);
      expect(retryAfter(own)).toBeLessThanOrEqual(60);
      expect((await ping(customer.key, at(41))).status).toBe(200);
      // A missing key is no attempt.
      expect(refusal(await call(c.siteUrl, '/api/v1/ping', { from: at(42) })).code).toBe('missing_api_key');
    });

    it('2,000 wrong keys at once from one address: QR_LIMIT_AUTH_FAILURES looked up and 401, the rest 429', async () => {
      const wrong = (i: number) => `qrf_${'B'.repeat(20)}${String(i).padStart(12, '0')}`;
      const burst = await Promise.all(
        Array.from({ length: 2000 }, (_, i) => call(c.siteUrl, '/api/v1/ping', { key: wrong(i), from: at(45) })),
      );
      expect(burst.filter((a) => a.status === 401)).toHaveLength(5);
      expect(burst.filter((a) => a.status === 429)).toHaveLength(1995);
    });

    it('wrong admin tokens count alike', async () => {
      const admin = (from: string) =>
        call(c.siteUrl, '/admin/customer/create', { body: {}, from, headers: { authorization: 'Bearer wrong' } });
      const statuses: number[] = [];
      for (let i = 0; i < 6; i++) statuses.push((await admin(at(50))).status);
      expect(statuses).toEqual([401, 401, 401, 401, 401, 429]);
      expect(refusal(await admin(at(51))).code).toBe('invalid_admin_token');
    });
  });
});

describe('the anonymous Studio is a preview', () => {
  let c: Consumer;
  beforeAll(async () => {
    c = await startConsumer(await consumerConfig({ ...(await consumerStore('pglite')).env, QR_LIMIT_STUDIO: '1000' }));
  });
  afterAll(() => c?.close());

  const studio = (body: Record<string, unknown>) =>
    call(c.siteUrl, '/api/studio/render', { body: { content: 'https://example.com', ...body } });

  it.each([
    [{ logoUrl: 'https://example.com/logo.png' }, 'logoUrl', 'INVALID_FIELD_VALUE'],
    [{ backgroundImageUrl: 'https://example.com/bg.png' }, 'backgroundImageUrl', 'INVALID_FIELD_VALUE'],
    [{ outputWidth: 2048 }, 'outputWidth', 'VALUE_OUT_OF_RANGE'],
    [{ outputWidth: 4096, fileFormat: 'pdf' }, 'outputWidth', 'VALUE_OUT_OF_RANGE'],
    [{ outputHeight: 1500 }, 'outputHeight', 'VALUE_OUT_OF_RANGE'],
    [{ printSize: { width: 100, unit: 'mm', dpi: 300 } }, 'printSize.width', 'VALUE_OUT_OF_RANGE'],
    [{ pixelsPerModule: 40 }, 'pixelsPerModule', 'VALUE_OUT_OF_RANGE'],
  ])('%j is refused 400 naming %s', async (body, field, code) => {
    const a = await studio(body);
    expect(a.status).toBe(400);
    expect(a.body).toMatchObject({ success: false, code, field });
  });

  it('within the rules: uploads and 1024 px render', async () => {
    const logoBase64 = Buffer.from(png(quadrants(64, 64))).toString('base64');
    const a = await studio({ outputWidth: 1024, logoBase64 });
    expect(a.status).toBe(200);
    expect(a.body).toMatchObject({ success: true, width: 1024 });
    expect((await studio({ printSize: { width: 80, unit: 'mm', dpi: 300 } })).status).toBe(200);
  });

  it('a customer’s render through the API keeps the whole design', async () => {
    const customer = await c.customer();
    const a = await call(c.siteUrl, '/api/v1/qr/generate', {
      key: customer.key,
      body: { content: 'https://example.com', outputWidth: 2048 },
    });
    expect(a.status).toBe(200);
    expect(a.body.width).toBe(2048);
  });

  it('visitor renders take at most half the workers: past it they wait their turn, and a customer’s render goes first', async () => {
    const relay = (customerId: string, tag: string) => {
      const body = JSON.stringify({ content: `${tag} ${'x'.repeat(1200)}`, outputWidth: 1024 });
      const headers = signRelay({
        secret: INTERNAL_SECRET,
        method: 'POST',
        pathWithQuery: '/api/qr/generate',
        body,
        customerId,
      });
      return call(c.engineUrl!, '/api/qr/generate', { body, headers });
    };
    // Each design its own (no render cache), all at once on an engine of two workers: one visitor's share.
    const finished: string[] = [];
    const sent = (customerId: string, tag: string) =>
      relay(customerId, tag).then((a) => {
        finished.push(tag);
        return a;
      });
    const visitors = Array.from({ length: 8 }, (_, i) => sent(VISITOR_CUSTOMER_ID, `visitor ${i}`));
    const customer = sent('cus_limits-e2e', 'customer');
    const answers = await Promise.all([...visitors, customer]);
    for (const a of answers) expect(a.status).toBe(200);
    // The visitors took turns on their one worker; the customer's render had the other and was not behind them.
    expect(finished.indexOf('customer')).toBeLessThan(finished.length - 1);
    expect(finished.indexOf('customer')).toBeLessThan(4);
  });
});
