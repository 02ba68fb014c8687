import type { TemplateConfig } from './check.js';

type Fields = Record<string, unknown>;

/**
 * A colour the request sets, and the template gradient that would otherwise paint over it. The schema
 * lets a gradient beat its colour; a request that names a colour means that colour, so the template's
 * gradient gives way (a request that sets both keeps both).
 */
const GRADIENT_OF = {
  primaryColor: 'foregroundGradient',
  backgroundColor: 'backgroundGradient',
  finderOuterColor: 'finderOuterGradient',
  finderInnerColor: 'finderInnerGradient',
} as const;

const isPlainObject = (v: unknown): v is Fields => v !== null && typeof v === 'object' && !Array.isArray(v);

function deepMerge(base: Fields, over: Fields): Fields {
  const out: Fields = { ...base };
  // Keys come from a body the override schema has accepted: known field names only, never __proto__.
  for (const [k, v] of Object.entries(over))
    out[k] = isPlainObject(v) && isPlainObject(out[k]) ? deepMerge(out[k], v) : v;
  return out;
}

/**
 * A render's body over a saved design: merged as over a template (objects key by key, what the body sets
 * wins, a colour set in the body drops the design's gradient for it).
 */
export const mergeOverDesign = (design: Readonly<Fields>, overrides: Fields): Fields =>
  mergeOverTemplate(design as TemplateConfig, overrides);

/**
 * The request body over the template: objects merge key by key (so `centerText.text` alone keeps the
 * template's `centerText.color`), arrays and scalars replace, and whatever the request sets wins. The
 * result shares nothing with the catalogue, so later stages may change it freely.
 */
export function mergeOverTemplate(template: Readonly<TemplateConfig>, overrides: Fields): Fields {
  const base: Fields = structuredClone(template) as Fields;
  for (const [color, gradient] of Object.entries(GRADIENT_OF)) {
    if (overrides[color] !== undefined && overrides[gradient] === undefined) delete base[gradient];
  }
  return deepMerge(base, structuredClone(overrides));
}
