import { ApiError } from '../errors.js';
import { businessBodyViolation } from '../schema/business-body.js';
import type { MonthKey } from './month.js';
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
  const wrong = businessBodyViolation('usageExport', body);
  if (wrong !== undefined) throw new ApiError('invalid_body', wrong);
  return report((body as { month: MonthKey }).month);
}
