import { ApiError } from '../errors.js';
import type { Db, Queryable } from '../store/index.js';
import { newId } from './ids.js';
import type { Design } from './types.js';

/**
 * Saved designs: a name and a QrConfig without its content, which each render gives anew. Bounded per
 * customer in count and size, so an account (or a stolen session) cannot fill the store.
 */
export const MAX_DESIGNS = 50;
/** The stored JSON of one design's config: an embedded logo or background picture fits, a gallery does not. */
export const MAX_DESIGN_BYTES = 512 * 1024;
export const MAX_DESIGN_NAME_LENGTH = 100;

interface DesignRow {
  id: string;
  customer_id: string;
  name: string;
  config: Record<string, unknown>;
  created_at: Date;
  updated_at: Date;
}

const COLUMNS = 'id, customer_id, name, config, created_at, updated_at';

const toDesign = (r: DesignRow): Design => ({
  id: r.id,
  customerId: r.customer_id,
  name: r.name,
  config: r.config,
  createdAt: r.created_at,
  updatedAt: r.updated_at,
});

/** The config as stored: its JSON, without `content`, within MAX_DESIGN_BYTES. */
function storedConfig(config: Record<string, unknown>): string {
  const { content: _content, ...design } = config;
  const json = JSON.stringify(design);
  if (Buffer.byteLength(json) > MAX_DESIGN_BYTES)
    throw new ApiError('design_too_large', {
      message: `The design is ${Math.ceil(Buffer.byteLength(json) / 1024)} KiB of JSON; a saved design is at most ${MAX_DESIGN_BYTES / 1024} KiB. Give the logo as logoUrl, or a smaller picture.`,
      field: 'config',
    });
  return json;
}

export async function saveDesign(
  db: Db,
  customerId: string,
  input: { name: string; config: Record<string, unknown> },
  now: Date,
): Promise<Design> {
  const json = storedConfig(input.config);
  // The customer's row locked, so two saves at once count each other: never more than MAX_DESIGNS.
  return db.transaction(async (tx) => {
    const customer = await tx.query('SELECT 1 FROM customers WHERE id = $1 FOR UPDATE', [customerId]);
    if (customer.rowCount === 0) throw new ApiError('customer_not_found', { field: 'customer' });
    const { rows: held } = await tx.query<{ n: number }>(
      'SELECT count(*)::int AS n FROM designs WHERE customer_id = $1',
      [customerId],
    );
    if (held[0]!.n >= MAX_DESIGNS)
      throw new ApiError('design_limit_reached', {
        message: `This account already has ${MAX_DESIGNS} saved designs, the most it may keep; delete one first.`,
      });
    const { rows } = await tx.query<DesignRow>(
      `INSERT INTO designs (id, customer_id, name, config, created_at, updated_at)
       VALUES ($1, $2, $3, $4::jsonb, $5, $5) RETURNING ${COLUMNS}`,
      [newId('dsg'), customerId, input.name, json, now],
    );
    return toDesign(rows[0]!);
  });
}

/** The customer's design; another customer's, or none, is design_not_found alike. */
export async function getDesign(db: Queryable, customerId: string, id: string): Promise<Design> {
  const { rows } = await db.query<DesignRow>(`SELECT ${COLUMNS} FROM designs WHERE id = $1 AND customer_id = $2`, [
    id,
    customerId,
  ]);
  if (rows.length === 0) throw new ApiError('design_not_found', { field: 'id' });
  return toDesign(rows[0]!);
}

export async function listDesigns(db: Queryable, customerId: string): Promise<Design[]> {
  const { rows } = await db.query<DesignRow>(
    `SELECT ${COLUMNS} FROM designs WHERE customer_id = $1 ORDER BY created_at DESC, id`,
    [customerId],
  );
  return rows.map(toDesign);
}

/** Renames the design and/or replaces its config. */
export async function updateDesign(
  db: Queryable,
  customerId: string,
  id: string,
  change: { name?: string; config?: Record<string, unknown> },
  now: Date,
): Promise<Design> {
  const json = change.config === undefined ? null : storedConfig(change.config);
  const { rows } = await db.query<DesignRow>(
    `UPDATE designs SET name = COALESCE($3, name), config = COALESCE($4::jsonb, config), updated_at = $5
     WHERE id = $1 AND customer_id = $2 RETURNING ${COLUMNS}`,
    [id, customerId, change.name ?? null, json, now],
  );
  if (rows.length === 0) throw new ApiError('design_not_found', { field: 'id' });
  return toDesign(rows[0]!);
}

export async function deleteDesign(db: Queryable, customerId: string, id: string): Promise<void> {
  const { rowCount } = await db.query('DELETE FROM designs WHERE id = $1 AND customer_id = $2', [id, customerId]);
  if (rowCount === 0) throw new ApiError('design_not_found', { field: 'id' });
}
