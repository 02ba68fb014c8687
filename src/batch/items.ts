import { ApiError, isApiError } from '../errors.js';
import { validate } from '../schema/validate.js';
import type { SettledItem } from './jobs.js';
import type { BatchInput } from './parse.js';
import type { QueuedItem } from './queue.js';
import { MANIFEST } from './zip.js';

/** A file name in the ZIP: one path segment, printable, not hidden, at most 200 characters. */
const FILENAME = /^(?!\.)[^/\\\p{Cc}]{1,200}$/u;

/** What a batch becomes: the items to render, and the rows refused before rendering, each with its reason. */
export interface CheckedBatch {
  design: Record<string, unknown>;
  items: QueuedItem[];
  refused: SettledItem[];
}

/**
 * The shared design must itself be a QrConfig without content: a design that is not is the batch's fault,
 * refused whole (400, its field under `config.`).
 */
function checkDesign(design: Record<string, unknown>): Record<string, unknown> {
  if ('content' in design)
    throw new ApiError('INVALID_FIELD_VALUE', {
      message: 'The shared config has no content; each item has its own.',
      field: 'config.content',
    });
  const { responseType: _, ...kept } = design;
  try {
    validate('qrConfig', { ...kept, content: 'x' });
  } catch (e) {
    if (isApiError(e))
      throw new ApiError(e.code, { message: `config: ${e.message}`, field: e.field && `config.${e.field}` });
    throw e;
  }
  return kept;
}

/**
 * Checks every row as a single request's body would be checked (the schema, on the design with the row's
 * overrides), and names its file: `filename`, or the row number padded and the format's extension. A row
 * that fails is refused with its error's code and message, for the manifest; the batch goes on.
 */
export function checkBatch(input: BatchInput): CheckedBatch {
  const design = checkDesign(input.design);
  const digits = String(input.rows.length).length;
  const names = new Set<string>([MANIFEST]);
  const items: QueuedItem[] = [];
  const refused: SettledItem[] = [];
  for (const { row, fields, problem } of input.rows) {
    const content = typeof fields.content === 'string' ? fields.content : '';
    const { filename, responseType: _, ...own } = fields;
    const refuse = (errorCode: string, errorMessage: string, name = '') =>
      refused.push({ row, filename: name, content, ok: false, errorCode, errorMessage });
    if (problem !== undefined) {
      refuse('INVALID_FIELD_VALUE', problem);
      continue;
    }
    let format = 'png';
    try {
      const body = validate<{ fileFormat?: string }>('qrConfig', { ...design, ...own });
      format = body.fileFormat ?? format;
    } catch (e) {
      if (!isApiError(e)) throw e;
      refuse(e.code, e.message);
      continue;
    }
    const name = filename === undefined ? `${String(row).padStart(digits, '0')}.${format}` : filename;
    if (typeof name !== 'string' || !FILENAME.test(name)) {
      refuse('INVALID_FIELD_VALUE', 'filename must be a plain file name (no path), at most 200 characters.');
      continue;
    }
    if (names.has(name.toLowerCase())) {
      refuse('INVALID_FIELD_VALUE', `filename ${name} is taken by an earlier row.`, name);
      continue;
    }
    names.add(name.toLowerCase());
    items.push({ row, filename: name, fields: own });
  }
  return { design, items, refused };
}
