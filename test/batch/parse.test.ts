import { describe, expect, it } from 'vitest';

/** From the build: checking rows runs the schema validators compiled into dist/ (scripts/compile-schemas.ts). */
const dist = (file: string) => new URL(`../../dist/src/${file}`, import.meta.url).href;
const { checkBatch } = (await import(dist('batch/items.js'))) as typeof import('../../src/batch/items.js');
const { parseBatch } = (await import(dist('batch/parse.js'))) as typeof import('../../src/batch/parse.js');
const { ApiError } = (await import(dist('errors.js'))) as typeof import('../../src/errors.js');

const bytes = (s: string) => new TextEncoder().encode(s);
const none = new URLSearchParams();
const refusal = (f: () => unknown) => {
  try {
    f();
  } catch (e) {
    if (e instanceof ApiError) return { status: e.status, code: e.code, field: e.field };
    throw e;
  }
  throw new Error('not refused');
};

describe('parseBatch', () => {
  it('reads JSON items, each with its overrides over the design', () => {
    const input = parseBatch(
      bytes(JSON.stringify({ config: { outputWidth: 300 }, items: [{ content: 'a', config: { eccLevel: 'H' } }, 7] })),
      'application/json',
      none,
      10,
    );
    expect(input.design).toEqual({ outputWidth: 300 });
    expect(input.rows[0]).toEqual({ row: 1, fields: { eccLevel: 'H', content: 'a' } });
    expect(input.rows[1]).toMatchObject({ row: 2, problem: 'The item is not an object.' });
  });

  it('reads a CSV: typed cells, quoted fields, empty cells left to the design, the design from the query', () => {
    const csv =
      'content,filename,outputWidth,strictScannability,primaryColor\r\n"a, b",x.png,320,true,\r\nc,,,,#112233\r\n';
    const input = parseBatch(
      bytes(csv),
      'text/csv; charset=utf-8',
      new URLSearchParams({ config: '{"eccLevel":"Q"}' }),
      10,
    );
    expect(input.design).toEqual({ eccLevel: 'Q' });
    expect(input.rows).toEqual([
      { row: 1, fields: { content: 'a, b', filename: 'x.png', outputWidth: 320, strictScannability: true } },
      { row: 2, fields: { content: 'c', primaryColor: '#112233' } },
    ]);
  });

  it('refuses what is not a batch with its field', () => {
    expect(refusal(() => parseBatch(bytes('[1]'), 'application/json', none, 10))).toMatchObject({
      code: 'INVALID_JSON',
    });
    expect(refusal(() => parseBatch(bytes('{}'), 'application/json', none, 10))).toMatchObject({ field: 'items' });
    expect(refusal(() => parseBatch(bytes('{"items":[{"content":"a"}],"config":3}'), '', none, 10))).toMatchObject({
      field: 'config',
    });
    expect(refusal(() => parseBatch(bytes('a,b\n1,2'), 'text/csv', none, 10))).toMatchObject({ field: 'content' });
    expect(
      refusal(() => parseBatch(bytes('content\nx'), 'text/csv', new URLSearchParams({ config: '{' }), 10)),
    ).toMatchObject({
      field: 'config',
    });
    expect(refusal(() => parseBatch(bytes('content\na\nb\nc'), 'text/csv', none, 2))).toMatchObject({
      code: 'VALUE_OUT_OF_RANGE',
      field: 'body',
    });
  });
});

describe('checkBatch', () => {
  it('names files, refuses bad rows with their codes, and keeps the rest', () => {
    const checked = checkBatch({
      design: { fileFormat: 'svg' },
      rows: [
        { row: 1, fields: { content: 'a' } },
        { row: 2, fields: { content: 'b', filename: 'one.svg' } },
        { row: 3, fields: { content: 'c', filename: 'ONE.svg' } },
        { row: 4, fields: { content: 'd', filename: '../up.svg' } },
        { row: 5, fields: { content: 'e', moduleShape: 'stars' } },
        { row: 6, fields: { content: 'f', filename: 'manifest.csv' } },
        { row: 7, fields: {}, problem: 'The item is not an object.' },
      ],
    });
    expect(checked.items.map((i) => [i.row, i.filename])).toEqual([
      [1, '1.svg'],
      [2, 'one.svg'],
    ]);
    expect(checked.refused.map((r) => [r.row, r.errorCode])).toEqual([
      [3, 'INVALID_FIELD_VALUE'],
      [4, 'INVALID_FIELD_VALUE'],
      [5, 'INVALID_FIELD_VALUE'],
      [6, 'INVALID_FIELD_VALUE'],
      [7, 'INVALID_FIELD_VALUE'],
    ]);
  });

  it('refuses a design that is not a QrConfig without content, naming its field under config', () => {
    expect(refusal(() => checkBatch({ design: { primaryColor: 'red' }, rows: [] }))).toMatchObject({
      code: 'INVALID_HEX',
      field: 'config.primaryColor',
    });
    expect(refusal(() => checkBatch({ design: { content: 'x' }, rows: [] }))).toMatchObject({
      field: 'config.content',
    });
  });
});
