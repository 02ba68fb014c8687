import { describe, expect, it } from 'vitest';
import { ApiError, isApiError } from '../../src/errors.js';
import { jsonBytes, requireJson } from '../../src/http/json-body.js';
import type { RequestContext } from '../../src/http/router.js';

const refusalOf = async (run: () => unknown) => {
  try {
    await run();
  } catch (e) {
    if (isApiError(e)) return { status: e.status, code: e.code, message: e.message };
    throw e;
  }
  return undefined;
};

describe('requireJson', () => {
  it('lets any JSON through, whatever the engine will make of it', () => {
    for (const text of ['{"content":"x"}', '[1,2]', '"text"', ' {} '])
      expect(() => requireJson(Buffer.from(text)), text).not.toThrow();
  });

  it('refuses a body that is not JSON at all, or not UTF-8, with invalid_body', async () => {
    for (const bytes of [Buffer.from('{"content":'), Buffer.from(''), Buffer.from([0x7b, 0xff, 0xfe, 0x7d])])
      expect(await refusalOf(() => requireJson(bytes))).toMatchObject({
        status: 400,
        code: 'invalid_body',
        message: expect.stringMatching(/^Body could not be parsed: /),
      });
  });
});

describe('jsonBytes', () => {
  const ctxOf = (contentType: string | undefined, body: () => Promise<Uint8Array>) =>
    ({ headers: contentType === undefined ? {} : { 'content-type': contentType }, body }) as RequestContext;
  const bytes = Buffer.from('{}');

  it('gives the body as sent when it says JSON, with or without parameters', async () => {
    for (const type of ['application/json', 'Application/JSON; charset=utf-8', 'application/json ;charset=utf-8'])
      expect(await jsonBytes(ctxOf(type, async () => bytes)), type).toBe(bytes);
  });

  it('refuses other types before reading the body', async () => {
    const unread = async () => {
      throw new Error('read');
    };
    expect(await refusalOf(() => jsonBytes(ctxOf('multipart/form-data; boundary=x', unread)))).toMatchObject({
      status: 415,
      code: 'multipart_not_supported',
    });
    expect(await refusalOf(() => jsonBytes(ctxOf('text/plain', unread)))).toMatchObject({
      status: 400,
      code: 'invalid_body',
      message: 'The gateway accepts JSON bodies only; Content-Type was "text/plain".',
    });
    expect(await refusalOf(() => jsonBytes(ctxOf(undefined, unread)))).toMatchObject({
      message: 'The gateway accepts JSON bodies only; Content-Type was missing.',
    });
    expect(await refusalOf(() => jsonBytes(ctxOf('application/jsonp', unread)))).toMatchObject({
      code: 'invalid_body',
    });
  });

  it('renames the front end’s body refusals into the consumer’s codes', async () => {
    const failing = (e: ApiError) => ctxOf('application/json', () => Promise.reject(e));
    expect(await refusalOf(() => jsonBytes(failing(new ApiError('PAYLOAD_TOO_LARGE'))))).toMatchObject({
      status: 413,
      code: 'payload_too_large',
    });
    const late = new ApiError('REQUEST_TIMEOUT', { message: 'The body did not arrive within 10 s.' });
    expect(await refusalOf(() => jsonBytes(failing(late)))).toMatchObject({
      status: 408,
      code: 'request_timeout',
      message: 'The body did not arrive within 10 s.',
    });
  });
});
