import { isApiError } from '../errors.js';
import { weakestContrast } from '../model/contrast.js';
import { prepareRender, type QrConfigBody } from '../schema/prepare-render.js';
import { validate } from '../schema/validate.js';

/** A template's design: a QrConfig without `content` and without the fields that say how to deliver it. */
export type TemplateConfig = Omit<QrConfigBody, 'content'>;

export interface Template {
  id: string;
  name: string;
  category: string;
  tags: readonly string[];
  config: Readonly<TemplateConfig>;
}

export interface Catalogue {
  templates: readonly Template[];
  byId: ReadonlyMap<string, Template>;
}

/** Fields a template may not set: what to encode and the output form belong to each request. */
export const REQUEST_FIELDS = [
  'content',
  'responseType',
  'fileFormat',
  'outputWidth',
  'outputHeight',
  'pixelsPerModule',
] as const;

/**
 * Stricter than the engine's 4:1, so a template keeps a margin when a request overrides one of its
 * colours or a printer renders it a little lighter.
 */
const TEMPLATE_MIN_CONTRAST = 4.5;

const SLUG = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;
const ENTRY_KEYS = ['category', 'config', 'id', 'name', 'tags'];

/** What every template is previewed and start-up-checked with: a short URL unique to the template. */
export const sampleContent = (id: string): string => `https://example.com/t/${id}`;

const isObject = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v);

function deepFreeze<T>(v: T): T {
  if (v !== null && typeof v === 'object') {
    for (const child of Object.values(v)) deepFreeze(child);
    Object.freeze(v);
  }
  return v;
}

/** One entry, checked as far as the main thread can check a design without rendering it. */
function checkEntry(entry: unknown, index: number): Template {
  const at = `template #${index}`;
  if (!isObject(entry) || Object.keys(entry).sort().join() !== ENTRY_KEYS.join())
    throw new Error(`${at}: expected exactly the keys ${ENTRY_KEYS.join(', ')}`);
  const { id, name, category, tags, config } = entry;
  if (typeof id !== 'string' || !SLUG.test(id))
    throw new Error(`${at}: id must be a kebab-case slug, got ${JSON.stringify(id)}`);
  const where = `template ${id}`;
  if (typeof name !== 'string' || name.trim() === '') throw new Error(`${where}: name must be a non-empty string`);
  if (typeof category !== 'string' || !SLUG.test(category))
    throw new Error(`${where}: category must be a kebab-case slug`);
  if (!Array.isArray(tags) || tags.length === 0 || !tags.every((t) => typeof t === 'string' && SLUG.test(t)))
    throw new Error(`${where}: tags must be a non-empty list of slugs`);
  if (!isObject(config)) throw new Error(`${where}: config must be an object`);
  const set = REQUEST_FIELDS.filter((f) => f in config);
  if (set.length) throw new Error(`${where}: config sets ${set.join(', ')}, which belong to the request`);
  try {
    const body = validate<QrConfigBody>('qrConfig', { ...config, content: sampleContent(id) });
    const weakest = weakestContrast(prepareRender(body, {}).config);
    if (weakest.ratio < TEMPLATE_MIN_CONTRAST)
      throw new Error(
        `${weakest.field} has a contrast of ${weakest.ratio.toFixed(2)}:1 with the background; templates need ${TEMPLATE_MIN_CONTRAST}:1`,
      );
  } catch (e) {
    const field = isApiError(e) && e.field ? ` (config.${e.field})` : '';
    throw new Error(`${where}: ${(e as Error).message}${field}`);
  }
  return { id, name, category, tags: tags as string[], config: config as TemplateConfig };
}

/** JSON with keys sorted at every level: equal designs give equal strings whatever their key order. */
const canonicalJson = (v: unknown): string =>
  JSON.stringify(v, (_k, x: unknown) =>
    isObject(x) ? Object.fromEntries(Object.entries(x).sort(([a], [b]) => (a < b ? -1 : 1))) : x,
  );

/**
 * What makes two templates look alike at a glance: the same module and eye shapes in the same main colour.
 * Every template must differ from every other one in this, not only somewhere in its JSON.
 */
const lookOf = (c: TemplateConfig): string =>
  [
    c.moduleShape ?? 'square',
    c.finderOuterShape ?? 'square',
    c.finderInnerShape ?? 'square',
    (c.primaryColor ?? '#000000').toUpperCase(),
  ].join(' ');

/** Refuses a second template under a key the first one already holds. */
function unique(templates: Template[], what: string, key: (t: Template) => string): void {
  const seen = new Map<string, string>();
  for (const t of templates) {
    const k = key(t);
    const first = seen.get(k);
    if (first !== undefined) throw new Error(`templates: ${t.id} has the same ${what} as ${first}`);
    seen.set(k, t.id);
  }
}

/**
 * Checks every template (shape, schema, contrast) and the catalogue as a whole (unique ids, no two alike)
 * and indexes it by id. Throws on the first problem, naming the template: a bad catalogue stops the
 * service from starting rather than failing a request.
 */
export function loadCatalogue(data: unknown): Catalogue {
  if (!Array.isArray(data) || data.length === 0)
    throw new Error('templates: the catalogue must be a non-empty JSON array');
  const templates = data.map(checkEntry);
  unique(templates, 'id', (t) => t.id);
  unique(templates, 'config', (t) => canonicalJson(t.config));
  unique(templates, 'shapes and primary colour', (t) => lookOf(t.config));
  return { templates: deepFreeze(templates), byId: new Map(templates.map((t) => [t.id, t])) };
}
