/**
 * The managed-AI quota of marketplace plans over real HTTP: the built engine with its metering store on
 * PGlite (in memory) and on the real PostgreSQL (a schema made for the run), the managed chain pointed at a
 * loopback fake groq that counts every call. A Basic user is refused past five designs before any LLM is
 * asked; paid plans go on and count overage; the billing header comes with a delivered design only; and 200
 * concurrent calls of one user are counted exactly. Every delivered file is decoded.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { type FakeVendor, managedByFakeGroq, startFakeVendor, success } from '../ai/fake-vendor.js';
import { type Answer, answerOf } from '../helpers/answers.js';
import {
  DRIVERS,
  type DriverName,
  manualClock,
  openTestDatabase,
  type TestDatabase,
  TEST_DATABASE_URL,
} from '../helpers/databases.js';
import { decodeOne } from '../helpers/decode.js';
import { startTestService, type TestService } from '../helpers/service.js';

const GROQ_KEY = 'gsk_MarketplaceQuotaGroq1a2b3c4d5e6f';
const CONTENT = 'https://bakery.example.com/order?src=qr';
const DESIGN = {
  config: { primaryColor: '#3d2b1f', backgroundColor: '#fff8ee', moduleShape: 'rounded', eccLevel: 'Q' },
  explanation: 'Crust brown on cream.',
};
const BRIEF = { content: CONTENT, prompt: 'warm bakery colours', outputWidth: 128 };
const MANAGED = '/api/qr/ai/generate-managed';
const BILLING = 'x-rapidapi-billing';

/** How many answers came with each status and code, e.g. `{ '200': 5, '429 MANAGED_AI_QUOTA_EXCEEDED': 195 }`. */
function tally(answers: Answer[]): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const a of answers) {
    const key = a.status === 200 ? '200' : `${a.status} ${a.body?.code}`;
    counts[key] = (counts[key] ?? 0) + 1;
  }
  return counts;
}

const fileOf = (a: Answer): Uint8Array => new Uint8Array(Buffer.from(a.body.qrBase64, 'base64'));

let groq: FakeVendor;

beforeAll(async () => {
  groq = await startFakeVendor('openai', GROQ_KEY);
});
afterAll(() => groq?.close());
beforeEach(() => {
  groq.clearReplies();
  groq.reply(success.openai(JSON.stringify(DESIGN)));
});

function quotaSuite(driver: DriverName): void {
  describe(`managed-AI quotas, metering on ${driver}`, () => {
    const clock = manualClock(new Date('2026-11-20T09:30:00Z'));
    let svc: TestService;
    let t: TestDatabase | undefined;
    let users = 0;
    const newUser = () => `user-${driver}-${users++}`;

    const managed = async (user: string | undefined, plan: string | undefined, body: unknown = BRIEF) => {
      const headers: Record<string, string> = {};
      if (user !== undefined) headers['x-rapidapi-user'] = user;
      if (plan !== undefined) headers['x-rapidapi-subscription'] = plan;
      return answerOf(await svc.post(MANAGED, body, headers));
    };
    const usage = (user: string, month = '2026-11') => svc.service.marketplace.managedUsage(user, month);

    beforeAll(async () => {
      // PostgreSQL: a schema made for the run, which the engine opens and migrates itself.
      if (driver === 'postgres') t = await openTestDatabase(driver);
      const store = t && {
        databaseUrl: TEST_DATABASE_URL,
        schema: t.schema,
        dataDir: 'memory://',
        keyPepper: undefined,
      };
      svc = await startTestService(
        { ai: managedByFakeGroq(groq, GROQ_KEY), maxQueue: 1000, ...(store && { store }) },
        () => {},
        {
          marketplace: { managedAi: { clock: clock.now } },
        },
      );
    });
    afterAll(async () => {
      await svc?.close();
      await t?.close();
    });

    it("a Basic user's sixth managed design is refused with 429 and the reset time, and no LLM is called", async () => {
      const user = newUser();
      for (let i = 1; i <= 5; i++) {
        const a = await managed(user, 'BASIC');
        expect(a.status).toBe(200);
        expect(a.body.managed).toBe(true);
        expect(a.headers.get(BILLING)).toBe('managed-ai-designs=1');
        expect((await decodeOne('png', fileOf(a))).text).toBe(CONTENT);
      }
      expect(await usage(user)).toEqual({ held: 0, designs: 5, overage: 0, plan: 'BASIC' });
      const llmCalls = groq.received.length;

      const sixth = await managed(user, 'BASIC');
      expect(sixth.status).toBe(429);
      expect(sixth.body).toEqual({
        success: false,
        error: expect.stringMatching(/Basic plan includes 5 managed-AI designs/),
        code: 'MANAGED_AI_QUOTA_EXCEEDED',
        resetAt: '2026-12-01T00:00:00.000Z',
      });
      // 2026-11-20T09:30Z to the first of December: 10 days 14.5 hours.
      expect(sixth.headers.get('retry-after')).toBe(String(10 * 86_400 + 14.5 * 3600));
      expect(sixth.headers.get(BILLING)).toBeNull();
      expect(groq.received.length).toBe(llmCalls);
      expect(await usage(user)).toEqual({ held: 0, designs: 5, overage: 0, plan: 'BASIC' });

      // Another user on the same plan is not affected; the month after, the first one is served again.
      expect((await managed(newUser(), 'BASIC')).status).toBe(200);
      clock.set(new Date('2026-12-01T00:00:00Z'));
      try {
        const next = await managed(user, 'BASIC');
        expect(next.status).toBe(200);
        expect(await usage(user, '2026-12')).toEqual({ held: 0, designs: 1, overage: 0, plan: 'BASIC' });
      } finally {
        clock.set(new Date('2026-11-20T09:30:00Z'));
      }
    });

    it('a missing or unknown plan header is Basic, and a missing user header is one shared user', async () => {
      const unknown = newUser();
      for (let i = 0; i < 5; i++) expect((await managed(unknown, 'CUSTOM')).status).toBe(200);
      expect((await managed(unknown, 'CUSTOM')).body.code).toBe('MANAGED_AI_QUOTA_EXCEEDED');
      expect((await managed(unknown, undefined)).body.code).toBe('MANAGED_AI_QUOTA_EXCEEDED');
      // The plan header is read case-insensitively: pro is PRO, which goes on.
      expect((await managed(unknown, 'pro')).status).toBe(200);

      for (let i = 0; i < 5; i++) expect((await managed(undefined, undefined)).status).toBe(200);
      expect((await managed(undefined, undefined)).body.code).toBe('MANAGED_AI_QUOTA_EXCEEDED');
      expect(await usage('(none)')).toMatchObject({ designs: 5, plan: 'BASIC' });
    });

    it('a paid plan goes past its quota and counts the overage', async () => {
      const user = newUser();
      // Pro includes 100 designs a month: the next two are overage, billed like the others.
      for (let round = 0; round < 10; round++)
        for (const a of await Promise.all(Array.from({ length: 10 }, () => managed(user, 'PRO'))))
          expect(a.status).toBe(200);
      expect(await usage(user)).toEqual({ held: 0, designs: 100, overage: 0, plan: 'PRO' });
      for (let i = 0; i < 2; i++) {
        const a = await managed(user, 'PRO');
        expect(a.status).toBe(200);
        expect(a.headers.get(BILLING)).toBe('managed-ai-designs=1');
      }
      expect(await usage(user)).toEqual({ held: 0, designs: 102, overage: 2, plan: 'PRO' });
    });

    it('a call without a design is neither counted nor billed, and gives its hold back', async () => {
      const user = newUser();
      for (let i = 0; i < 4; i++) expect((await managed(user, 'BASIC')).status).toBe(200);
      // The model answers nothing usable: no design, no count, no billing header.
      groq.clearReplies();
      groq.reply(success.openai('I would rather not.'));
      const failed = await managed(user, 'BASIC');
      expect(failed.status).toBeGreaterThanOrEqual(400);
      expect(failed.headers.get(BILLING)).toBeNull();
      // A design no decoder reads, with the auto-fix turned off (a tinted grey one of them would still read,
      // and non-strict mode delivers what one family reads), is not delivered either.
      groq.clearReplies();
      groq.reply(
        success.openai(
          JSON.stringify({ config: { primaryColor: '#808080', backgroundColor: '#808080' }, explanation: 'Grey.' }),
        ),
      );
      const refused = await managed(user, 'BASIC', { ...BRIEF, strictScannability: false });
      expect([refused.status, refused.body?.code]).toEqual([422, 'QR_UNSCANNABLE']);
      expect(refused.headers.get(BILLING)).toBeNull();
      expect(await usage(user)).toEqual({ held: 0, designs: 4, overage: 0, plan: 'BASIC' });
      // The fifth design of the month is still there to be had.
      groq.clearReplies();
      groq.reply(success.openai(JSON.stringify(DESIGN)));
      expect((await managed(user, 'BASIC')).status).toBe(200);
      expect((await managed(user, 'BASIC')).status).toBe(429);
    });

    it('200 concurrent managed calls of one Pro user are counted exactly, one in five failing', async () => {
      const user = newUser();
      let n = 0;
      groq.clearReplies();
      // Every fifth answer is unusable: those calls must give their hold back.
      groq.reply(() => (n++ % 5 === 4 ? success.openai('no design today') : success.openai(JSON.stringify(DESIGN))));
      const llmBefore = groq.received.length;
      const answers = await Promise.all(Array.from({ length: 200 }, () => managed(user, 'PRO')));
      const delivered = answers.filter((a) => a.status === 200);
      expect(groq.received.length - llmBefore).toBe(200);
      expect(tally(answers)).toEqual({ '200': 160, '502 AI_GENERATION_FAILED': 40 });
      for (const a of answers) expect(a.headers.get(BILLING)).toBe(a.status === 200 ? 'managed-ai-designs=1' : null);
      expect((await decodeOne('png', fileOf(delivered[0]!))).text).toBe(CONTENT);
      expect(await usage(user)).toEqual({ held: 0, designs: 160, overage: 60, plan: 'PRO' });
    });

    it('200 concurrent calls of one Basic user deliver exactly five designs and ask the LLM no more than that', async () => {
      const user = newUser();
      const llmBefore = groq.received.length;
      const answers = await Promise.all(Array.from({ length: 200 }, () => managed(user, 'BASIC')));
      // The plan's 75 calls of the month are admitted, five of them get a design; the rest are past its calls.
      expect(tally(answers)).toEqual({
        '200': 5,
        '429 MANAGED_AI_QUOTA_EXCEEDED': 70,
        '429 CALL_QUOTA_EXCEEDED': 125,
      });
      expect(groq.received.length - llmBefore).toBe(5);
      expect(await usage(user)).toEqual({ held: 0, designs: 5, overage: 0, plan: 'BASIC' });
    });
  });
}

for (const driver of DRIVERS) quotaSuite(driver);
