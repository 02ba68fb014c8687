/**
 * The usage export as an admin command (src/marketplace/usage-command.ts), built (the body is checked by
 * the schema compiled at build): the month asked for is the one reported; any other body is 400
 * invalid_body on the field at fault, the report never asked.
 */
import { describe, expect, it } from 'vitest';
import type { UsageReport } from '../../src/marketplace/report.js';

const { usageCommand, USAGE_ADMIN_PATH } = (await import(
  new URL('../../dist/src/marketplace/usage-command.js', import.meta.url).href
)) as typeof import('../../src/marketplace/usage-command.js');

/** A report function that records the months it is asked for. */
function reporter() {
  const asked: string[] = [];
  const report = async (month: string): Promise<UsageReport> => {
    asked.push(month);
    return { month, users: [] };
  };
  return { asked, report };
}

async function refusal(body: unknown) {
  const { asked, report } = reporter();
  const e = (await usageCommand(body, report).then(
    () => undefined,
    (x: unknown) => x,
  )) as { status: number; code: string; field?: string; message: string };
  expect(e, JSON.stringify(body)).toBeDefined();
  expect(asked).toEqual([]);
  return { status: e.status, code: e.code, field: e.field, message: e.message };
}

describe('usageCommand', () => {
  it('answers the report of the month asked for', async () => {
    const { asked, report } = reporter();
    expect(await usageCommand({ month: '2026-11' }, report)).toEqual({ month: '2026-11', users: [] });
    expect(await usageCommand({ month: '1999-01' }, report)).toEqual({ month: '1999-01', users: [] });
    expect(asked).toEqual(['2026-11', '1999-01']);
    expect(USAGE_ADMIN_PATH).toBe('/admin/usage');
  });

  it('refuses a month not written YYYY-MM, or none: 400 invalid_body on month, saying how to write it', async () => {
    for (const month of ['2026-13', '2026-00', '2026-1', '26-11', '2026-11-01', ' 2026-11', 202611, null]) {
      expect(await refusal({ month }), String(month)).toEqual({
        status: 400,
        code: 'invalid_body',
        field: 'month',
        message: 'month must be YYYY-MM, e.g. 2026-11.',
      });
    }
    expect((await refusal({})).field).toBe('month');
  });

  it('refuses a field it does not take, and a body that is not an object', async () => {
    expect(await refusal({ month: '2026-11', user: 'alice' })).toMatchObject({ code: 'invalid_body', field: 'user' });
    for (const body of [null, [], '2026-11', 7]) expect((await refusal(body)).code).toBe('invalid_body');
  });
});
