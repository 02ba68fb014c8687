/**
 * Marketplace usage end to end: the built engine counts the calls of marketplace users by endpoint class
 * (answers below 500, as the marketplace counts them; relayed consumer calls not at all), and the operator
 * exports a month with `npm run admin -- usage --month … --csv`: through the running engine's admin API
 * while it holds its PGlite directory, from the directory itself once it has stopped (its counts written
 * at close), and from PostgreSQL. Every rendered file is decoded.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Config } from '../../src/config.js';
import { signRelay } from '../../src/relay/signature.js';
import { type FakeVendor, managedByFakeGroq, startFakeVendor, success } from '../ai/fake-vendor.js';
import { admin, fails, ok } from '../helpers/admin-cli.js';
import { answerOf } from '../helpers/answers.js';
import { openTestDatabase, TEST_DATABASE_URL, type TestDatabase } from '../helpers/databases.js';
import { decodeOne } from '../helpers/decode.js';
import { startTestService, type TestService } from '../helpers/service.js';

const GROQ_KEY = 'gsk_MarketplaceUsageGroq9z8y7x6w5v4u';
const RELAY_SECRET = 'marketplace-usage-relay-secret-0123456789abcdef012345';
/** Every count lands in November 2026, whatever today is. */
const NOW = new Date('2026-11-12T15:00:00Z');
const CONTENT = 'https://usage.example.com/q?id=1';
const DESIGN = { config: { primaryColor: '#0b3954', backgroundColor: '#fdfdfd' }, explanation: 'Ink blue.' };
const CLI_TIMEOUT_MS = 300_000;

const EXPECTED_CSV = [
  'month,user,plan,calls,calls_general,calls_generation,calls_ai,calls_managed_ai,calls_overage,managed_ai_designs,managed_ai_quota,managed_ai_overage',
  '2026-11,(none),BASIC,1,1,0,0,0,0,0,5,0',
  '2026-11,ada,PRO,5,1,3,0,1,0,1,100,0',
  '2026-11,bo,BASIC,2,2,0,0,0,0,0,5,0',
  '',
].join('\r\n');

let groq: FakeVendor;
beforeAll(async () => {
  groq = await startFakeVendor('openai', GROQ_KEY);
  groq.reply(success.openai(JSON.stringify(DESIGN)));
});
afterAll(() => groq?.close());

async function startEngine(store: Config['store']): Promise<TestService> {
  return startTestService(
    {
      ai: managedByFakeGroq(groq, GROQ_KEY),
      store,
      internalSecrets: [RELAY_SECRET],
      marketplace: { ...baseMarketplace(), usageFlushMs: 3_600_000 },
    },
    () => {},
    { marketplace: { usage: { clock: () => NOW.getTime() }, managedAi: { clock: () => NOW } } },
  );
}

const baseMarketplace = (): Config['marketplace'] => ({
  userHeader: 'x-rapidapi-user',
  planHeader: 'x-rapidapi-subscription',
  billingHeader: 'X-RapidAPI-Billing',
  managedAiBillingObject: 'managed-ai-designs',
  usageFlushMs: 10_000,
});

/** The month's traffic: what the CSV above counts, and what it must not. */
async function traffic(svc: TestService): Promise<void> {
  const ada = { 'x-rapidapi-user': 'ada', 'x-rapidapi-subscription': 'PRO' };
  const bo = { 'x-rapidapi-user': 'bo' };
  const call = async (path: string, body: unknown, headers: Record<string, string>) =>
    answerOf(await svc.post(path, body, headers));

  for (let i = 0; i < 2; i++) {
    const a = await call('/api/qr/generate', { content: CONTENT, outputWidth: 128 }, ada);
    expect(a.status).toBe(200);
    expect((await decodeOne('png', new Uint8Array(Buffer.from(a.body.qrBase64, 'base64')))).text).toBe(CONTENT);
  }
  // A refusal below 500 is a call the marketplace counts, so it is counted.
  expect((await call('/api/qr/generate', { content: '' }, ada)).status).toBe(400);
  expect(
    (await call('/api/qr/content/wifi', { ssid: 'Cafe', password: 'latte-art', encryption: 'WPA' }, ada)).status,
  ).toBe(200);
  const managed = await call('/api/qr/ai/generate-managed', { content: CONTENT, prompt: 'ink', outputWidth: 128 }, ada);
  expect(managed.status).toBe(200);
  expect(managed.headers.get('x-rapidapi-billing')).toBe('managed-ai-designs=1');

  expect((await fetch(`${svc.url}/api/qr/templates`, { headers: bo })).status).toBe(200);
  expect((await fetch(`${svc.url}/api/ping`, { headers: bo })).status).toBe(200);
  expect((await fetch(`${svc.url}/api/ping`)).status).toBe(200);
  // Not counted: an unknown path, and a call relayed by the consumer site (its credits are the site's).
  expect((await fetch(`${svc.url}/api/qr/nothing`, { headers: bo })).status).toBe(404);
  const body = JSON.stringify({ content: CONTENT, outputWidth: 128 });
  const relay = signRelay({
    secret: RELAY_SECRET,
    method: 'POST',
    pathWithQuery: '/api/qr/generate',
    body,
    customerId: 'cus_relayed',
  });
  expect((await svc.post('/api/qr/generate', body, { ...bo, ...relay })).status).toBe(200);
}

describe('usage export of an engine on its own PGlite directory', () => {
  let dir: string;
  let svc: TestService | undefined;
  let env: Record<string, string>;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'qrfarm-usage-'));
    env = { QR_DATA_DIR: dir };
    svc = await startEngine({ databaseUrl: undefined, schema: undefined, dataDir: dir, keyPepper: undefined });
    await traffic(svc);
  });
  afterAll(async () => {
    await svc?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it(
    'goes through the running engine, which writes its counts first; then reads the directory once it stopped',
    async () => {
      const running = await admin(['usage', '--month', '2026-11', '--csv'], env);
      expect(running.code, running.stderr).toBe(0);
      expect(running.stdout).toBe(EXPECTED_CSV);

      const json = await ok(['usage', '--month', '2026-11'], env);
      expect(json.month).toBe('2026-11');
      expect(json.users).toContainEqual({
        user: 'ada',
        plan: 'PRO',
        calls: { general: 1, generation: 3, ai: 0, managed_ai: 1 },
        callsOverage: 0,
        managedAiDesigns: 1,
        managedAiQuota: 100,
        managedAiOverage: 0,
      });
      expect(await fails(['usage', '--month', '2026-13'], env)).toMatchObject({ code: 'invalid_body', field: 'month' });
      expect((await admin(['usage'], env)).code).toBe(2);
      expect((await admin(['credits', '--customer', 'cus_x', '--csv'], env)).code).toBe(2);

      await svc!.close();
      svc = undefined;
      const stopped = await admin(['usage', '--month', '2026-11', '--csv'], env);
      expect(stopped.code, stopped.stderr).toBe(0);
      expect(stopped.stdout).toBe(EXPECTED_CSV);
      expect((await admin(['usage', '--month', '2026-10', '--csv'], env)).stdout).toBe(
        `${EXPECTED_CSV.split('\r\n')[0]}\r\n`,
      );
    },
    CLI_TIMEOUT_MS,
  );
});

describe('usage export from PostgreSQL', () => {
  let t: TestDatabase;
  let svc: TestService;

  beforeAll(async () => {
    t = await openTestDatabase('postgres');
    svc = await startEngine({
      databaseUrl: TEST_DATABASE_URL,
      schema: t.schema,
      dataDir: 'memory://',
      keyPepper: undefined,
    });
    await traffic(svc);
  });
  afterAll(async () => {
    await svc?.close();
    await t?.close();
  });

  it(
    'reads the shared database itself, once the engine has written its counts',
    async () => {
      await svc.service.marketplace.report('2026-11');
      const run = await admin(['usage', '--month', '2026-11', '--csv'], {
        DATABASE_URL: TEST_DATABASE_URL,
        QR_DATABASE_SCHEMA: t.schema!,
        QR_DATA_DIR: 'memory://',
      });
      expect(run.code, run.stderr).toBe(0);
      expect(run.stdout).toBe(EXPECTED_CSV);
    },
    CLI_TIMEOUT_MS,
  );
});
