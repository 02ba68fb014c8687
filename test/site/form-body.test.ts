/** The site's forms, through the validators the build compiles (dist/src/site/compiled-forms.js). */
import { describe, expect, it } from 'vitest';
import type { RequestContext } from '../../src/http/router.js';

const built = (file: string) => new URL(`../../dist/src/${file}`, import.meta.url).href;
const { readForm } = (await import(built('site/form-body.js'))) as typeof import('../../src/site/form-body.js');
const { isApiError } = (await import(built('errors.js'))) as typeof import('../../src/errors.js');
const { MAX_EMAIL_LENGTH, MAX_KEY_NAME_LENGTH, PASSWORD_MAX_LENGTH } = (await import(
  built('accounts/index.js')
)) as typeof import('../../src/accounts/index.js');

const ctxOf = (body: string) =>
  ({
    headers: { 'content-type': 'application/json' },
    body: async () => Buffer.from(body),
  }) as unknown as RequestContext;

const refusalOf = (form: Parameters<typeof readForm>[1], body: string) =>
  readForm(ctxOf(body), form).then(
    () => undefined,
    (e: unknown) => (isApiError(e) ? { status: e.status, code: e.code, field: e.field, message: e.message } : e),
  );

describe('readForm', () => {
  it('gives a valid body as sent; an empty body is {}', async () => {
    const credentials = { email: 'a@example.com', password: 'a long enough passphrase' };
    expect(await readForm(ctxOf(JSON.stringify(credentials)), 'credentials')).toEqual(credentials);
    expect(await readForm(ctxOf(''), 'keyName')).toEqual({});
  });

  it('names the field at fault in a sentence with its label on the page, with its bounds', async () => {
    expect(await refusalOf('credentials', '{"email":"a@example.com","password":"short"}')).toEqual({
      status: 400,
      code: 'invalid_body',
      field: 'password',
      message: `Password must be 10 to ${PASSWORD_MAX_LENGTH} characters long.`,
    });
    expect(await refusalOf('credentials', '{"email":"a@example.com"}')).toMatchObject({ field: 'password' });
    expect(await refusalOf('signIn', '{"email":"","password":"x"}')).toMatchObject({
      field: 'email',
      message: `E-mail address must be filled in, with at most ${MAX_EMAIL_LENGTH} characters.`,
    });
    // The same body field, labelled as its own page labels it.
    expect(await refusalOf('emailChange', '{"email":"","password":"x"}')).toMatchObject({
      field: 'email',
      message: `New e-mail address must be filled in, with at most ${MAX_EMAIL_LENGTH} characters.`,
    });
    expect(await refusalOf('passwordChange', '{"currentPassword":"","password":"a long enough one"}')).toMatchObject({
      field: 'currentPassword',
      message: `Current password must be filled in, with at most ${PASSWORD_MAX_LENGTH} characters.`,
    });
    expect(await refusalOf('signIn', '{"email":"a@example.com","password":"x","remember":true}')).toMatchObject({
      field: 'remember',
      message: 'Unknown field "remember".',
    });
    expect(await refusalOf('keyName', '[]')).toEqual({
      status: 400,
      code: 'invalid_body',
      field: undefined,
      message: 'The body must be a JSON object.',
    });
  });

  it('takes the key name’s limit from the accounts, where it is enforced', async () => {
    const name = 'n'.repeat(MAX_KEY_NAME_LENGTH);
    expect(await readForm(ctxOf(JSON.stringify({ name })), 'keyName')).toEqual({ name });
    expect(await refusalOf('keyName', JSON.stringify({ name: `${name}n` }))).toMatchObject({
      field: 'name',
      message: `Name must be filled in, with at most ${MAX_KEY_NAME_LENGTH} characters.`,
    });
  });

  it('lets a sign-in password of any length through to be found wrong, not malformed', async () => {
    expect(await readForm(ctxOf('{"email":"a@example.com","password":"x"}'), 'signIn')).toMatchObject({
      password: 'x',
    });
  });
});
