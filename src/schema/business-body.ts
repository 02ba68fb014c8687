import type { ErrorObject } from 'ajv';
import { BUSINESS_SCHEMAS, type BusinessSchemaName } from './business-requests.js';
import { validators } from './compiled.js';

/** Why a body was refused: the field at fault (none for the body as a whole) and what it must be. */
export interface BodyViolation {
  field?: string;
  message: string;
}

interface PropertySchema {
  description?: string;
  required?: readonly string[];
  properties?: Readonly<Record<string, PropertySchema>>;
}

/**
 * The path of the field at fault. An object field missing or of another type is reported at its own
 * first required field: a waiver left out is one with neither box ticked.
 */
function pathOf(e: ErrorObject, schema: PropertySchema): string[] {
  const path = e.instancePath.split('/').slice(1);
  if (e.keyword === 'required') path.push((e.params as { missingProperty: string }).missingProperty);
  if (e.keyword === 'additionalProperties') path.push((e.params as { additionalProperty: string }).additionalProperty);
  if (e.keyword === 'required' || (e.keyword === 'type' && path.length > 0))
    for (let s = schemaAt(schema, path); s?.required !== undefined; s = schemaAt(schema, path))
      path.push(s.required[0]!);
  return path;
}

const schemaAt = (schema: PropertySchema, path: readonly string[]): PropertySchema | undefined =>
  path.reduce<PropertySchema | undefined>((s, name) => s?.properties?.[name], schema);

/** The first way `body` breaks the named schema, or undefined when it fits. */
export function businessBodyViolation(name: BusinessSchemaName, body: unknown): BodyViolation | undefined {
  const check = validators[name];
  if (check(body)) return undefined;
  const e = check.errors![0]!;
  const schema = BUSINESS_SCHEMAS[name] as PropertySchema;
  const path = pathOf(e, schema);
  const field = path.join('.');
  if (e.keyword === 'additionalProperties') return { field, message: `Unknown field "${field}".` };
  if (path.length === 0) return { message: 'The body must be a JSON object.' };
  return { field, message: schemaAt(schema, path)?.description ?? `${field} ${e.message ?? 'is invalid'}.` };
}
