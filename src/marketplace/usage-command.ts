import { ApiError } from '../errors.js';
import { type MonthKey, parseMonth } from './month.js';
import type { UsageReport } from './report.js';

/** The engine's admin API path of the usage export (`npm run admin -- usage`). */
export const USAGE_ADMIN_PATH = '/admin/usage';

/**
 * The usage export as an admin command: the body `{ month: "YYYY-MM" }`, the answer the month's report.
 * The same in the CLI's own process and through a running engine's admin API.
 */
export async function usageCommand(
  body: unknown,
  report: (month: MonthKey) => Promise<UsageReport>,
): Promise<UsageReport> {
  const fields =
    typeof body === 'object' && body !== null && !Array.isArray(body) ? (body as Record<string, unknown>) : null;
  if (fields === null) throw new ApiError('invalid_body', { message: 'The body must be a JSON object.' });
  const unknown = Object.keys(fields).find((k) => k !== 'month');
  if (unknown !== undefined)
    throw new ApiError('invalid_body', { message: `Unknown field "${unknown}".`, field: unknown });
  const month = typeof fields.month === 'string' ? parseMonth(fields.month) : null;
  if (month === null)
    throw new ApiError('invalid_body', { message: 'month must be YYYY-MM, e.g. 2026-11.', field: 'month' });
  return report(month);
}
