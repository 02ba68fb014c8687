import { ApiError } from '../errors.js';
import type { Correction } from '../model/render-config.js';
import { toHexColor } from './colors.js';
import { isPlainObject, resolveRef, typesOf, type JsonSchema } from './json-schema.js';

/**
 * Fields the caller sets and the model must not: what is encoded, the uploaded images and texts, the
 * output format and size (pixelsPerModule sets the size when outputWidth is absent), and whether the engine
 * may correct the design. The model's values for them are dropped, never merged.
 */
export const CALLER_FIELDS = [
  'content',
  'logoUrl',
  'logoBase64',
  'backgroundImageUrl',
  'backgroundImageBase64',
  'centerText',
  'ctaText',
  'fileFormat',
  'outputWidth',
  'outputHeight',
  'pixelsPerModule',
  'printSize',
  'printCheck',
  'colorSpace',
  'responseType',
  'strictScannability',
] as const;
const CALLER_SET: ReadonlySet<string> = new Set(CALLER_FIELDS);

export interface CleanResult {
  config: Record<string, unknown>;
  corrections: Correction[];
}

type Outcome = { ok: true; value: unknown } | { ok: false; reason: string };
const ok = (value: unknown): Outcome => ({ ok: true, value });
const fail = (reason: string): Outcome => ({ ok: false, reason });
const DROP: unique symbol = Symbol('drop');

/**
 * Walks the model's config against the QrConfig schema, so it keeps up as the schema grows: unknown and
 * caller-owned fields are dropped, numbers clamped, obvious type slips fixed ("0.8" → 0.8), colours turned
 * into hex and unknown enum names mapped to the nearest known one. Every change is recorded.
 * Throws AI_CONFIG_INVALID when the config is not an object at all.
 */
export function cleanConfig(raw: unknown, schema: JsonSchema): CleanResult {
  if (!isPlainObject(raw)) {
    throw new ApiError('AI_CONFIG_INVALID', {
      message: 'The AI returned a design that is not a JSON object; retry with lower creativity.',
    });
  }
  const cleaner = new Cleaner(schema);
  return { config: cleaner.object(raw, schema, '', true), corrections: cleaner.corrections };
}

class Cleaner {
  readonly corrections: Correction[] = [];
  constructor(private readonly root: JsonSchema) {}

  object(value: Record<string, unknown>, schemaIn: JsonSchema, path: string, top: boolean): Record<string, unknown> {
    const schema = resolveRef(schemaIn, this.root);
    const out: Record<string, unknown> = {};
    for (const [key, v] of Object.entries(value)) {
      const field = path === '' ? key : `${path}.${key}`;
      if (top && CALLER_SET.has(key)) {
        this.corrections.push({ field, from: v, reason: 'set by the caller, not by the AI' });
        continue;
      }
      const own = schema.properties && Object.hasOwn(schema.properties, key) ? schema.properties[key] : undefined;
      const sub = own ?? (isPlainObject(schema.additionalProperties) ? schema.additionalProperties : undefined);
      if (!sub || key === '__proto__') {
        this.corrections.push({ field, from: v, reason: 'unknown field' });
        continue;
      }
      // Strict structured output spells "not set" as null; that is no mistake to report.
      if ((v === null || v === undefined) && !typesOf(resolveRef(sub, this.root)).includes('null')) continue;
      const cleaned = this.field(v, sub, field, key);
      if (cleaned !== DROP) out[key] = cleaned;
    }
    return out;
  }

  /** Cleans one value and records what changed. `name` is the property name (an array item's is its list's). */
  private field(v: unknown, schema: JsonSchema, field: string, name: string): unknown {
    const fixes: string[] = [];
    const out = this.value(v, schema, field, name, fixes);
    if (!out.ok) {
      this.corrections.push({ field, from: v, reason: out.reason });
      return DROP;
    }
    if (fixes.length > 0) this.corrections.push({ field, from: v, to: out.value, reason: fixes.join('; ') });
    return out.value;
  }

  private value(v: unknown, schemaIn: JsonSchema, field: string, name: string, fixes: string[]): Outcome {
    const schema = resolveRef(schemaIn, this.root);
    const branches = schema.anyOf ?? schema.oneOf;
    if (branches) return this.branch(v, branches, field, name, fixes);
    if (schema.const !== undefined) {
      return JSON.stringify(v) === JSON.stringify(schema.const)
        ? ok(v)
        : fail(`must be ${JSON.stringify(schema.const)}`);
    }
    const types = typesOf(schema);
    if (types.length === 0) return ok(v);
    if (v === null) return types.includes('null') ? ok(null) : fail('null is not allowed');
    const type = types.find((t) => fits(v, t)) ?? types.find((t) => t !== 'null');
    switch (type) {
      case 'string':
        return this.string(v, schema, name, fixes);
      case 'number':
      case 'integer':
        return this.number(v, schema, type === 'integer', fixes);
      case 'boolean':
        return this.boolean(v, fixes);
      case 'object':
        return this.nested(v, schema, field, fixes);
      case 'array':
        return this.array(v, schema, field, name, fixes);
    }
    return fail(`expected ${types.join(' or ')}`);
  }

  /** The first branch that takes the value unchanged wins; else the first that takes it at all. */
  private branch(v: unknown, branches: readonly JsonSchema[], field: string, name: string, fixes: string[]): Outcome {
    let fallback: { out: Outcome; fixes: string[]; scratch: Cleaner } | undefined;
    for (const b of branches) {
      const scratch = new Cleaner(this.root);
      const branchFixes: string[] = [];
      const out = scratch.value(v, b, field, name, branchFixes);
      if (!out.ok) continue;
      if (branchFixes.length === 0 && scratch.corrections.length === 0) return out;
      fallback ??= { out, fixes: branchFixes, scratch };
    }
    if (!fallback) return fail('matches none of the allowed forms');
    fixes.push(...fallback.fixes);
    this.corrections.push(...fallback.scratch.corrections);
    return fallback.out;
  }

  private string(v: unknown, schema: JsonSchema, name: string, fixes: string[]): Outcome {
    let s: string;
    if (typeof v === 'string') s = v;
    else if (typeof v === 'number' || typeof v === 'boolean') {
      s = String(v);
      fixes.push('expected text');
    } else return fail('expected text');

    if (schema.enum) return enumValue(s, schema, fixes);
    if (isColorField(name, schema)) {
      const hex = toHexColor(s);
      if (hex === undefined) return fail('not a colour');
      if (hex !== s) fixes.push('colour converted to hex');
      s = hex;
    }
    const pattern = schema.pattern === undefined ? undefined : compile(schema.pattern);
    if (pattern && !pattern.test(s)) return fail(`does not match ${schema.pattern}`);
    if (schema.maxLength !== undefined && s.length > schema.maxLength) {
      s = s.slice(0, schema.maxLength);
      fixes.push(`cut to ${schema.maxLength} characters`);
    }
    if (schema.minLength !== undefined && s.length < schema.minLength)
      return fail(`shorter than ${schema.minLength} characters`);
    return ok(s);
  }

  private number(v: unknown, schema: JsonSchema, integer: boolean, fixes: string[]): Outcome {
    let n: number;
    if (typeof v === 'number') n = v;
    else if (typeof v === 'string' && /^\s*[-+]?(\d+\.?\d*|\.\d+)(e[-+]?\d+)?\s*$/i.test(v)) {
      n = Number(v);
      fixes.push('number given as text');
    } else return fail('expected a number');
    if (!Number.isFinite(n)) return fail('not a finite number');
    if (integer && !Number.isInteger(n)) {
      n = Math.round(n);
      fixes.push('rounded to a whole number');
    }
    if (schema.enum) return enumValue(n, schema, fixes);
    if (schema.minimum !== undefined && n < schema.minimum) {
      n = schema.minimum;
      fixes.push(`raised to the minimum ${schema.minimum}`);
    }
    if (schema.maximum !== undefined && n > schema.maximum) {
      n = schema.maximum;
      fixes.push(`lowered to the maximum ${schema.maximum}`);
    }
    if (
      (schema.exclusiveMinimum !== undefined && n <= schema.exclusiveMinimum) ||
      (schema.exclusiveMaximum !== undefined && n >= schema.exclusiveMaximum)
    ) {
      return fail('out of range');
    }
    return ok(n);
  }

  private boolean(v: unknown, fixes: string[]): Outcome {
    if (typeof v === 'boolean') return ok(v);
    const text = String(v).trim().toLowerCase();
    const value = ['true', 'yes', 'on', '1'].includes(text)
      ? true
      : ['false', 'no', 'off', '0'].includes(text)
        ? false
        : undefined;
    if (value === undefined || (typeof v !== 'string' && typeof v !== 'number')) return fail('expected true or false');
    fixes.push('expected true or false');
    return ok(value);
  }

  private nested(v: unknown, schema: JsonSchema, field: string, fixes: string[]): Outcome {
    const parsed = typeof v === 'string' ? parseJson(v) : v;
    if (!isPlainObject(parsed)) return fail('expected an object');
    if (parsed !== v) fixes.push('object given as JSON text');
    // An object the schema does not describe is passed on for the engine's own validation to judge.
    if (!schema.properties && schema.additionalProperties === undefined) return ok(parsed);
    const cleaned = this.object(parsed, schema, field, false);
    const missing = (schema.required ?? []).filter((k) => !Object.hasOwn(cleaned, k));
    return missing.length > 0 ? fail(`lacks ${missing.join(', ')}`) : ok(cleaned);
  }

  private array(v: unknown, schema: JsonSchema, field: string, name: string, fixes: string[]): Outcome {
    const parsed = typeof v === 'string' ? parseJson(v) : v;
    if (!Array.isArray(parsed)) return fail('expected a list');
    if (parsed !== v) fixes.push('list given as JSON text');
    let items: unknown[] = parsed;
    if (schema.items) {
      const itemSchema = schema.items;
      items = parsed.map((item, i) => this.field(item, itemSchema, `${field}[${i}]`, name)).filter((x) => x !== DROP);
    }
    if (schema.maxItems !== undefined && items.length > schema.maxItems) {
      items = items.slice(0, schema.maxItems);
      fixes.push(`cut to ${schema.maxItems} items`);
    }
    if (schema.minItems !== undefined && items.length < schema.minItems)
      return fail(`fewer than ${schema.minItems} usable items`);
    return ok(items);
  }
}

function fits(v: unknown, type: string): boolean {
  switch (type) {
    case 'string':
      return typeof v === 'string';
    case 'number':
    case 'integer':
      return typeof v === 'number';
    case 'boolean':
      return typeof v === 'boolean';
    case 'object':
      return isPlainObject(v);
    case 'array':
      return Array.isArray(v);
    case 'null':
      return v === null;
  }
  return false;
}

/** A colour is recognised by format, by a `…Color`/`…Colors` name, or by a hex pattern. */
const isColorField = (name: string, schema: JsonSchema): boolean =>
  schema.format === 'color' ||
  /colou?rs?$/i.test(name) ||
  (schema.pattern !== undefined && /#/.test(schema.pattern) && /a-f/i.test(schema.pattern));

const patterns = new Map<string, RegExp | undefined>();
function compile(pattern: string): RegExp | undefined {
  if (!patterns.has(pattern)) {
    let re: RegExp | undefined;
    try {
      re = new RegExp(pattern, 'u');
    } catch {
      re = undefined; // a pattern JavaScript cannot read is left to the engine's validator
    }
    patterns.set(pattern, re);
  }
  return patterns.get(pattern);
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

function enumValue(v: string | number, schema: JsonSchema, fixes: string[]): Outcome {
  const options = schema.enum ?? [];
  if (options.includes(v)) return ok(v);
  const names = options.filter((o): o is string => typeof o === 'string');
  const numbers = options.filter((o): o is number => typeof o === 'number');
  const match = typeof v === 'string' ? nearestName(v, names) : nearestNumber(v, numbers);
  if (match !== undefined) {
    fixes.push(`unknown value; nearest allowed is ${JSON.stringify(match)}`);
    return ok(match);
  }
  if (schema.default !== undefined && options.includes(schema.default)) {
    fixes.push('unknown value; default used');
    return ok(schema.default);
  }
  return fail(`not one of ${options.map((o) => JSON.stringify(o)).join(', ')}`);
}

const nearestNumber = (v: number, options: readonly number[]): number | undefined =>
  options.length === 0 ? undefined : options.reduce((best, o) => (Math.abs(o - v) < Math.abs(best - v) ? o : best));

const normalise = (s: string): string => s.toLowerCase().replace(/[^a-z0-9]/g, '');

/**
 * The allowed name a model most likely meant: the same name in other case or spacing ("Rounded Square" →
 * "rounded-square"), then a name contained in it or containing it, then the closest by edit distance.
 * Undefined when nothing is close, so "hexagon" does not become "diamond" by accident.
 */
export function nearestName(value: string, names: readonly string[]): string | undefined {
  const v = normalise(value);
  if (v === '') return undefined;
  const norm = names.map((name) => ({ name, n: normalise(name) }));
  const same = norm.find((x) => x.n === v);
  if (same) return same.name;
  const inside = norm.filter((x) => x.n.length >= 3 && v.includes(x.n)).sort((a, b) => b.n.length - a.n.length)[0];
  if (inside) return inside.name;
  const around = norm.filter((x) => v.length >= 3 && x.n.includes(v)).sort((a, b) => a.n.length - b.n.length)[0];
  if (around) return around.name;
  let best: { name: string; d: number; len: number } | undefined;
  for (const x of norm) {
    const d = editDistance(v, x.n);
    if (!best || d < best.d) best = { name: x.name, d, len: Math.max(v.length, x.n.length) };
  }
  // 40 % of the letters may differ: "circel" → "circle", but "Z" is no misspelling of "L".
  return best && best.d <= Math.floor(best.len * 0.4) ? best.name : undefined;
}

function editDistance(a: string, b: string): number {
  let prev = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const row = [i];
    for (let j = 1; j <= b.length; j++) {
      row[j] = Math.min(prev[j] + 1, row[j - 1] + 1, prev[j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1));
    }
    prev = row;
  }
  return prev[b.length];
}
