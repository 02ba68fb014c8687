/**
 * The month's usage report (src/marketplace/report.ts) from rows written here into the metering tables of a
 * migrated PGlite: calls by class merged with the exact managed-AI counts per user, each user's latest plan,
 * overage by that plan, other months and unknown classes left out; its rows, and its CSV as RFC 4180 with
 * formula-looking names defused.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PLANS } from '../../src/marketplace/plans.js';
import { type UsageReport, usageCsv, usageReport, usageRows } from '../../src/marketplace/report.js';
import { openTestDatabase, type TestDatabase } from '../helpers/databases.js';

let t: TestDatabase;

const calls = (user: string, month: string, endpointClass: string, n: number, plan: string) =>
  t.db.query(
    'INSERT INTO marketplace_usage (marketplace_user, month, endpoint_class, calls, plan) VALUES ($1, $2, $3, $4, $5)',
    [user, month, endpointClass, n, plan],
  );
const managed = (user: string, month: string, designs: number, overage: number, plan: string) =>
  t.db.query(
    'INSERT INTO managed_ai_usage (marketplace_user, month, plan, held, designs, overage) VALUES ($1, $2, $3, 0, $4, $5)',
    [user, month, plan, designs, overage],
  );

beforeAll(async () => {
  t = await openTestDatabase('pglite');
  await calls('carol', '2026-11', 'general', 10, 'PRO');
  await calls('carol', '2026-11', 'generation', 1990, 'PRO');
  await calls('carol', '2026-11', 'ai', 5, 'PRO');
  // A class this build does not know (a newer engine's) is left out, not added to another.
  await calls('carol', '2026-11', 'batch', 999, 'PRO');
  await calls('Bob', '2026-11', 'general', 80, 'BASIC');
  // Alice called only managed AI; her plan is that row's.
  await managed('alice', '2026-11', 7, 0, 'MEGA');
  // Dave's managed row was written after his last counted call: it names his current plan.
  await calls('dave', '2026-11', 'managed_ai', 3, 'BASIC');
  await managed('dave', '2026-11', 3, 1, 'ULTRA');
  await calls('erin', '2026-11', 'general', 4_000_000_000, 'CUSTOM');
  await calls('carol', '2026-10', 'general', 5, 'PRO');
  await managed('zed', '2026-12', 1, 0, 'PRO');
});
afterAll(() => t?.close());

const noCalls = { general: 0, generation: 0, ai: 0, managed_ai: 0 };

describe('usageReport', () => {
  it('merges each user’s calls and managed-AI designs for the month, sorted by user', async () => {
    const report = await usageReport(t.db, '2026-11', PLANS);
    expect(report.month).toBe('2026-11');
    expect(report.users.map((u) => u.user)).toEqual(['Bob', 'alice', 'carol', 'dave', 'erin']);
    const [bob, alice, carol, dave, erin] = report.users;
    expect(carol).toEqual({
      user: 'carol',
      plan: 'PRO',
      calls: { general: 10, generation: 1990, ai: 5, managed_ai: 0 },
      // 2005 calls on a plan of 2000 with overage.
      callsOverage: 5,
      managedAiDesigns: 0,
      managedAiQuota: 100,
      managedAiOverage: 0,
    });
    // Basic has no overage: whatever the count, none is billed.
    expect(bob).toMatchObject({
      plan: 'BASIC',
      calls: { ...noCalls, general: 80 },
      callsOverage: 0,
      managedAiQuota: 5,
    });
    expect(alice).toEqual({
      user: 'alice',
      plan: 'MEGA',
      calls: noCalls,
      callsOverage: 0,
      managedAiDesigns: 7,
      managedAiQuota: 5000,
      managedAiOverage: 0,
    });
    expect(dave).toMatchObject({
      plan: 'ULTRA',
      calls: { ...noCalls, managed_ai: 3 },
      managedAiDesigns: 3,
      managedAiOverage: 1,
      managedAiQuota: 1000,
    });
    // A count past 2^31 is read whole; an unknown plan name is reported as stored, measured by the fallback.
    expect(erin).toMatchObject({
      plan: 'CUSTOM',
      calls: { ...noCalls, general: 4_000_000_000 },
      callsOverage: 0,
      managedAiQuota: 5,
    });
  });

  it('a month nobody called is an empty report', async () => {
    expect(await usageReport(t.db, '2025-01', PLANS)).toEqual({ month: '2025-01', users: [] });
  });
});

describe('usageRows and usageCsv', () => {
  const COLUMNS =
    'month,user,plan,calls,calls_general,calls_generation,calls_ai,calls_managed_ai,calls_overage,managed_ai_designs,managed_ai_quota,managed_ai_overage';

  it('one flat row per user, its calls summed, named as the CSV’s columns', async () => {
    const report = await usageReport(t.db, '2026-11', PLANS);
    const carol = usageRows(report).find((r) => r.user === 'carol');
    expect(carol).toEqual({
      month: '2026-11',
      user: 'carol',
      plan: 'PRO',
      calls: 2005,
      calls_general: 10,
      calls_generation: 1990,
      calls_ai: 5,
      calls_managed_ai: 0,
      calls_overage: 5,
      managed_ai_designs: 0,
      managed_ai_quota: 100,
      managed_ai_overage: 0,
    });
    expect(Object.keys(carol!).join(',')).toBe(COLUMNS);
  });

  it('the CSV: a header line, a line per user, CRLF line ends', async () => {
    const csv = usageCsv(await usageReport(t.db, '2026-11', PLANS));
    const lines = csv.split('\r\n');
    expect(lines[0]).toBe(COLUMNS);
    expect(lines[3]).toBe('2026-11,carol,PRO,2005,10,1990,5,0,5,0,100,0');
    expect(lines).toHaveLength(7);
    expect(lines.at(-1)).toBe('');
    expect(csv.replaceAll('\r\n', '')).not.toMatch(/[\r\n]/);
  });

  it('an empty month is the header line alone', () => {
    expect(usageCsv({ month: '2025-01', users: [] })).toBe(`${COLUMNS}\r\n`);
  });

  it('quotes names holding a separator, a quote or a line break, and defuses those a spreadsheet would run', () => {
    const user = (name: string) => ({
      user: name,
      plan: 'PRO',
      calls: noCalls,
      callsOverage: 0,
      managedAiDesigns: 0,
      managedAiQuota: 100,
      managedAiOverage: 0,
    });
    const names = ['a,b', 'say "hi"', 'two\nlines', '=1+1', '+1', '-1', '@SUM(A1)', '\tx', 'plain'];
    const report: UsageReport = { month: '2026-11', users: names.map(user) };
    const cells = usageCsv(report)
      .split('\r\n')
      .slice(1, -1)
      .map((line) => line.slice('2026-11,'.length, line.indexOf(',PRO,')));
    expect(cells).toEqual([
      '"a,b"',
      '"say ""hi"""',
      '"two\nlines"',
      "'=1+1",
      "'+1",
      "'-1",
      "'@SUM(A1)",
      "'\tx",
      'plain',
    ]);
  });
});
