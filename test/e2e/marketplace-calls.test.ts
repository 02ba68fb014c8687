/**
 * The Basic plan's hard limit on calls over real HTTP ("hard limit, never billed beyond"): the built engine
 * with its metering on PGlite (in memory), then two engines sharing the real PostgreSQL (a schema made for
 * the run). A Basic user's 76th call of the month is refused with 429 CALL_QUOTA_EXCEEDED, Retry-After and
 * resetAt, counted exactly when the calls come at once to both engines; paid plans, callers naming no plan
 * and the next month go on.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import catalogue from '../../src/marketplace/plans.json' with { type: 'json' };
import { type Answer, answerOf } from '../helpers/answers.js';
import { openTestDatabase, TEST_DATABASE_URL, type TestDatabase } from '../helpers/databases.js';
import { startTestService, type TestService } from '../helpers/service.js';

const BASIC = catalogue.plans.find((p) => p.id === 'BASIC')!;
let now = new Date('2026-11-20T09:30:00Z');
const clock = () => now;

const call = async (svc: TestService, user: string | undefined, plan: string | undefined): Promise<Answer> => {
  const headers: Record<string, string> = {};
  if (user !== undefined) headers['x-rapidapi-user'] = user;
  if (plan !== undefined) headers['x-rapidapi-subscription'] = plan;
  return answerOf(await fetch(`${svc.url}/api/qr/templates`, { headers }));
};

const tally = (answers: Answer[]) => {
  const counts: Record<string, number> = {};
  for (const a of answers) {
    const key = a.status === 200 ? '200' : `${a.status} ${a.body?.code}`;
    counts[key] = (counts[key] ?? 0) + 1;
  }
  return counts;
};

const engine = (store?: { databaseUrl: string; schema: string | undefined }) =>
  startTestService(store && { store: { ...store, dataDir: 'memory://', keyPepper: undefined } }, () => {}, {
    marketplace: { calls: { clock } },
  });

describe('the Basic hard limit on calls, metering on pglite', () => {
  let svc: TestService;
  beforeAll(async () => {
    svc = await engine();
  });
  afterAll(() => svc?.close());

  it(`a Basic user's call past ${BASIC.callsPerMonth} is refused with 429, Retry-After and resetAt`, async () => {
    expect(BASIC.overageUsdPerCall).toBeNull();
    for (let i = 0; i < BASIC.callsPerMonth; i++) expect((await call(svc, 'bea', 'BASIC')).status).toBe(200);
    const refused = await call(svc, 'bea', 'BASIC');
    expect(refused.status).toBe(429);
    expect(refused.body).toEqual({
      success: false,
      error: expect.stringMatching(/Basic plan includes 75 calls a month/),
      code: 'CALL_QUOTA_EXCEEDED',
      resetAt: '2026-12-01T00:00:00.000Z',
    });
    expect(refused.headers.get('retry-after')).toBe(String(10 * 86_400 + 14.5 * 3600));
    expect(await svc.service.marketplace.callsTaken('bea', '2026-11')).toBe(BASIC.callsPerMonth);

    // Paid plans, another user, and a caller naming no plan (an open loopback engine) go on.
    expect((await call(svc, 'bea', 'PRO')).status).toBe(200);
    expect((await call(svc, 'cy', 'BASIC')).status).toBe(200);
    expect((await call(svc, 'bea', undefined)).status).toBe(200);
    // An unknown plan is Basic, as for managed AI.
    expect((await call(svc, 'bea', 'CUSTOM')).body.code).toBe('CALL_QUOTA_EXCEEDED');
    // The month after, the quota starts again.
    const before = now;
    now = new Date('2026-12-01T00:00:00Z');
    try {
      expect((await call(svc, 'bea', 'BASIC')).status).toBe(200);
    } finally {
      now = before;
    }
  });
});

describe('the Basic hard limit on calls, two engines on one PostgreSQL', () => {
  let t: TestDatabase;
  let a: TestService;
  let b: TestService;
  beforeAll(async () => {
    t = await openTestDatabase('postgres');
    const store = { databaseUrl: TEST_DATABASE_URL, schema: t.schema };
    a = await engine(store);
    b = await engine(store);
  });
  afterAll(async () => {
    await a?.close();
    await b?.close();
    await t?.close();
  });

  it('120 calls at once, half to each engine: exactly 75 answered, 45 refused', async () => {
    const answers = await Promise.all(Array.from({ length: 120 }, (_, i) => call(i % 2 === 0 ? a : b, 'dee', 'BASIC')));
    expect(tally(answers)).toEqual({ '200': 75, '429 CALL_QUOTA_EXCEEDED': 45 });
    expect(await a.service.marketplace.callsTaken('dee', '2026-11')).toBe(75);
    expect((await call(b, 'dee', 'BASIC')).status).toBe(429);
    expect((await call(a, 'dee', 'ULTRA')).status).toBe(200);
  });
});
