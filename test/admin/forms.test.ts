/** The admin commands' bodies, through the validators the build compiles (dist/src/admin/compiled-forms.js). */
import { describe, expect, it } from 'vitest';
import type { Accounts } from '../../src/accounts/types.js';

const built = (file: string) => new URL(`../../dist/src/${file}`, import.meta.url).href;
const { runAdminCommand } = (await import(built('admin/routes.js'))) as typeof import('../../src/admin/routes.js');
const { isApiError } = (await import(built('errors.js'))) as typeof import('../../src/errors.js');

/** No command gets as far as the store here: every body below is refused first. */
const accounts = {} as Accounts;

const refusalOf = (command: Parameters<typeof runAdminCommand>[1], body: unknown) =>
  runAdminCommand(accounts, command, body).then(
    () => undefined,
    (e: unknown) => (isApiError(e) ? { status: e.status, code: e.code, field: e.field, message: e.message } : e),
  );

describe('admin command bodies', () => {
  it('refuses what is not an object, and unknown fields', async () => {
    expect(await refusalOf('credits', [])).toMatchObject({
      code: 'invalid_body',
      message: 'The body must be a JSON object.',
    });
    expect(await refusalOf('key list', { customer: 'cus_1', limit: 3 })).toMatchObject({
      field: 'limit',
      message: 'Unknown field "limit".',
    });
  });

  it('says what each field must be', async () => {
    expect(await refusalOf('customer create', {})).toEqual({
      status: 400,
      code: 'invalid_body',
      field: 'email',
      message: 'email must be a non-empty string.',
    });
    expect(await refusalOf('pack grant', { customer: 'cus_1', credits: 0 })).toMatchObject({
      field: 'credits',
      message: 'credits must be a whole number of at least 1.',
    });
    expect(await refusalOf('pack grant', { customer: 'cus_1', credits: 1.5 })).toMatchObject({ field: 'credits' });
    for (const purchasedAt of ['yesterday', '2025-01-31', '2025-01-32T12:00:00Z'])
      expect(await refusalOf('pack grant', { customer: 'cus_1', credits: 3, purchasedAt }), purchasedAt).toMatchObject({
        field: 'purchasedAt',
        message: 'purchasedAt must be an ISO 8601 date-time with a zone, e.g. 2025-01-31T12:00:00Z.',
      });
    expect(await refusalOf('key issue', { customer: 'cus_1', name: 'n'.repeat(101) })).toMatchObject({ field: 'name' });
    expect(await refusalOf('quickstart', { credits: 'ten' })).toMatchObject({ field: 'credits' });
  });
});
