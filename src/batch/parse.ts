import { parse as parseCsv } from 'csv-parse/sync';
import { ApiError } from '../errors.js';
import { parseJsonBody } from '../http/json-body.js';
import { qrConfigSchema } from '../schema/qr-config.js';

/** One row of a batch as it came: its content, filename and design overrides not yet checked. */
export interface BatchRow {
  /** 1-based, as the manifest numbers rows. */
  row: number;
  /** The row's own fields: `content`, optional `filename`, and QrConfig overrides. */
  fields: Record<string, unknown>;
  /** A row that is not an object at all (JSON): why, for the manifest. */
  problem?: string;
}

/** A batch as submitted: the shared design and the rows. */
export interface BatchInput {
  design: Record<string, unknown>;
  rows: BatchRow[];
}

const isObject = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v);

const PROPERTIES = qrConfigSchema.properties as Record<string, { type?: string }>;

/**
 * A CSV cell as the QrConfig field of its column expects it: numbers, booleans and objects (gradients,
 * frames) from their text; anything that does not read as the type stays text, for validation to name.
 */
function cellValue(column: string, cell: string): unknown {
  const type = PROPERTIES[column]?.type;
  if (type === 'number' || type === 'integer') return /^-?\d+(\.\d+)?$/.test(cell.trim()) ? Number(cell) : cell;
  if (type === 'boolean') return cell === 'true' ? true : cell === 'false' ? false : cell;
  if (type === 'object' || type === 'array') {
    try {
      return JSON.parse(cell);
    } catch {
      return cell;
    }
  }
  return cell;
}

/** The shared design of a CSV batch: the `config` query parameter, a QrConfig without content as JSON. */
function csvDesign(query: URLSearchParams): Record<string, unknown> {
  const raw = query.get('config');
  if (raw === null) return {};
  let design: unknown;
  try {
    design = JSON.parse(raw);
  } catch {
    throw new ApiError('INVALID_FIELD_VALUE', { message: 'The config query parameter is not JSON.', field: 'config' });
  }
  if (!isObject(design))
    throw new ApiError('INVALID_FIELD_VALUE', { message: 'config must be a JSON object.', field: 'config' });
  return design;
}

function fromCsv(raw: Uint8Array, query: URLSearchParams): BatchInput {
  let records: string[][];
  try {
    records = parseCsv(Buffer.from(raw), { bom: true, skip_empty_lines: true, relax_column_count: true });
  } catch (e) {
    throw new ApiError('INVALID_FIELD_VALUE', {
      message: `The CSV could not be read: ${(e as Error).message}`,
      field: 'body',
    });
  }
  const [header, ...lines] = records;
  const columns = (header ?? []).map((c) => c.trim());
  if (!columns.includes('content'))
    throw new ApiError('MISSING_REQUIRED_FIELD', {
      message: 'The CSV header row has no content column.',
      field: 'content',
    });
  for (const column of columns) {
    if (column !== 'filename' && !(column in PROPERTIES))
      throw new ApiError('INVALID_FIELD_VALUE', { message: `Unknown CSV column ${column}.`, field: column });
  }
  const rows = lines.map((cells, i): BatchRow => {
    const fields: Record<string, unknown> = {};
    columns.forEach((column, c) => {
      const cell = cells[c];
      // An empty cell leaves the shared design's value; content is the row's own, empty or not.
      if (cell === undefined || (cell === '' && column !== 'content')) return;
      fields[column] = column === 'content' || column === 'filename' ? cell : cellValue(column, cell);
    });
    return { row: i + 1, fields };
  });
  return { design: csvDesign(query), rows };
}

function fromJson(raw: Uint8Array): BatchInput {
  const body = parseJsonBody(raw);
  if (!isObject(body)) throw new ApiError('INVALID_JSON', { message: 'Request body must be a JSON object.' });
  for (const key of Object.keys(body)) {
    if (key !== 'config' && key !== 'items')
      throw new ApiError('INVALID_FIELD_VALUE', {
        message: `Unknown field ${key}; a batch has config and items.`,
        field: key,
      });
  }
  if (body.items === undefined)
    throw new ApiError('MISSING_REQUIRED_FIELD', { message: 'items is required.', field: 'items' });
  if (!Array.isArray(body.items))
    throw new ApiError('INVALID_FIELD_VALUE', { message: 'items must be an array.', field: 'items' });
  if (body.config !== undefined && !isObject(body.config))
    throw new ApiError('INVALID_FIELD_VALUE', { message: 'config must be an object.', field: 'config' });
  const rows = body.items.map((item: unknown, i): BatchRow => {
    if (!isObject(item)) return { row: i + 1, fields: {}, problem: 'The item is not an object.' };
    const { config, ...own } = item;
    if (config !== undefined && !isObject(config))
      return { row: i + 1, fields: own, problem: 'The item’s config is not an object.' };
    return { row: i + 1, fields: { ...(config ?? {}), ...own } };
  });
  return { design: body.config ?? {}, rows };
}

/**
 * Reads a batch body: JSON `{config, items}`, or `text/csv` with a header row (its shared design in the
 * `config` query parameter). Throws the 400 envelope for a body that is not a batch, and for one of more
 * than `maxItems` rows or none; a bad row is kept, to be reported.
 */
export function parseBatch(raw: Uint8Array, contentType: string, query: URLSearchParams, maxItems: number): BatchInput {
  const csv = contentType.toLowerCase().startsWith('text/csv');
  const input = csv ? fromCsv(raw, query) : fromJson(raw);
  const field = csv ? 'body' : 'items';
  if (input.rows.length === 0)
    throw new ApiError('MISSING_REQUIRED_FIELD', { message: 'The batch has no items.', field });
  if (input.rows.length > maxItems)
    throw new ApiError('VALUE_OUT_OF_RANGE', {
      message: `The batch has ${input.rows.length} items; at most ${maxItems}.`,
      field,
    });
  return input;
}
