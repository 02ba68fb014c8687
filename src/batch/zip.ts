import { Zip, ZipDeflate, ZipPassThrough } from 'fflate';
import type { Queryable } from '../store/index.js';
import { filePage, manifestPage, type ResultRow } from './jobs.js';

/** Rows read from the store at a time: what the ZIP holds in memory, whatever the job's size. */
const PAGE = 100;

export const MANIFEST = 'manifest.csv';

const MANIFEST_HEADER = 'row,filename,content,status,verified,scanScore,corrections,errorCode,errorMessage\r\n';

/** A CSV field (RFC 4180): quoted when it holds a comma, quote or line break. */
const csvField = (v: string | number | null): string => {
  const s = v === null ? '' : String(v);
  return /[",\r\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
};

export const manifestLine = (r: ResultRow): string =>
  `${[
    r.row,
    r.filename,
    r.content,
    r.ok ? 'ok' : 'failed',
    r.verified,
    r.scanScore === null ? null : Math.round(r.scanScore),
    r.corrections,
    r.errorCode,
    r.errorMessage,
  ]
    .map(csvField)
    .join(',')}\r\n`;

/**
 * A job's result as a ZIP, made as it is read: every rendered file in row order, stored as it is (PNG, JPG,
 * WebP and PDF are compressed already), then manifest.csv (deflated) with a line for every settled row. The
 * store is read a page at a time, and each page's bytes are yielded before the next is read, so memory
 * holds a page and the ZIP's directory (a few dozen bytes a file), not the job.
 */
export async function* zipOfJob(db: Queryable, jobId: string): AsyncGenerator<Uint8Array> {
  const out: Uint8Array[] = [];
  let failure: Error | null = null;
  const zip = new Zip((err, data) => {
    if (err) failure = err;
    else out.push(data);
  });
  const drain = function* () {
    if (failure) throw failure;
    while (out.length > 0) yield out.shift()!;
  };
  for (let after = 0; ; ) {
    const page = await filePage(db, jobId, after, PAGE);
    for (const file of page) {
      const entry = new ZipPassThrough(file.filename);
      zip.add(entry);
      entry.push(file.bytes, true);
    }
    yield* drain();
    if (page.length < PAGE) break;
    after = page[page.length - 1]!.row;
  }
  const manifest = new ZipDeflate(MANIFEST, { level: 6 });
  zip.add(manifest);
  manifest.push(new TextEncoder().encode(MANIFEST_HEADER));
  for (let after = 0; ; ) {
    const page = await manifestPage(db, jobId, after, PAGE);
    const last = page.length < PAGE;
    manifest.push(new TextEncoder().encode(page.map(manifestLine).join('')), last);
    yield* drain();
    if (last) break;
    after = page[page.length - 1]!.row;
  }
  zip.end();
  yield* drain();
}
