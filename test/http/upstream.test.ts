import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { isApiError } from '../../src/errors.js';
import type { RequestContext } from '../../src/http/router.js';
import { forward, type Relayed, readAll } from '../../src/http/upstream.js';

const png = { 'content-type': 'image/png' };
const json = { 'content-type': 'application/json' };
const whole = (bytes: number, headers = png, status = 200): Relayed => ({
  status,
  headers,
  length: bytes,
  body: new Uint8Array(bytes),
});

const codeOf = async (p: Promise<unknown>) => {
  const e = await p.then(
    () => undefined,
    (e: unknown) => e,
  );
  return isApiError(e) ? { status: e.status, code: e.code, message: e.message } : e;
};

describe('readAll', () => {
  it('gives a whole answer within the limit as it is', async () => {
    const r = whole(100);
    expect(await readAll(r, 100)).toBe(r.body);
  });

  it('refuses a file over the limit with output_too_large and its remedy', async () => {
    expect(await codeOf(readAll(whole(101), 100))).toEqual({
      status: 413,
      code: 'output_too_large',
      message: 'The rendered file is larger than 100 bytes; request PNG or a smaller outputWidth.',
    });
    expect(((await codeOf(readAll(whole(3 * 1048576), 2 * 1048576))) as { message: string }).message).toMatch(
      /larger than 2 MB;/,
    );
  });

  it('counts a JSON answer by the file its base64 holds', async () => {
    expect((await readAll(whole(132, json), 100)).length).toBe(132);
    expect(await codeOf(readAll(whole(136, json), 100))).toMatchObject({ code: 'output_too_large' });
  });

  it('lets refusals of any size through: the limit is on files', async () => {
    expect((await readAll(whole(500, png, 400), 100)).length).toBe(500);
  });

  it('reads a stream to its end, and stops one at the limit, destroying it', async () => {
    const chunks = () => [Buffer.alloc(40, 1), Buffer.alloc(40, 2), Buffer.alloc(40, 3)];
    const read = await readAll({ status: 200, headers: png, length: undefined, body: Readable.from(chunks()) }, 120);
    expect(Buffer.from(read)).toEqual(Buffer.concat(chunks()));
    const stream = Readable.from(chunks());
    const over = { status: 200, headers: png, length: undefined, body: stream };
    expect(await codeOf(readAll(over, 100))).toMatchObject({ code: 'output_too_large' });
    expect(stream.destroyed).toBe(true);
  });
});

describe('forward', () => {
  it('refuses an answer whose declared length is over the limit before sending anything, and drops it', async () => {
    const stream = new Readable({ read() {} });
    let sent = false;
    const ctx = { reply: { send: () => (sent = true), stream: () => (sent = true) } } as unknown as RequestContext;
    const over: Relayed = { status: 200, headers: png, length: 101, body: stream };
    expect(await codeOf(forward(ctx, over, 100))).toMatchObject({ status: 413, code: 'output_too_large' });
    expect(sent).toBe(false);
    expect(stream.destroyed).toBe(true);
  });
});
