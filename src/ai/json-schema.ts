/**
 * The part of JSON Schema the AI layer reads from the QrConfig schema. It is deliberately loose (readonly,
 * everything optional) so an `as const` schema object, or one the lead grows with new keywords, still fits.
 */
export interface JsonSchema {
  readonly type?: string | readonly string[];
  readonly description?: string;
  readonly enum?: readonly unknown[];
  readonly const?: unknown;
  readonly default?: unknown;
  readonly minimum?: number;
  readonly maximum?: number;
  readonly exclusiveMinimum?: number;
  readonly exclusiveMaximum?: number;
  readonly minLength?: number;
  readonly maxLength?: number;
  readonly pattern?: string;
  readonly format?: string;
  readonly properties?: Readonly<Record<string, JsonSchema>>;
  readonly required?: readonly string[];
  readonly additionalProperties?: boolean | JsonSchema;
  readonly items?: JsonSchema;
  readonly minItems?: number;
  readonly maxItems?: number;
  readonly anyOf?: readonly JsonSchema[];
  readonly oneOf?: readonly JsonSchema[];
  readonly $ref?: string;
  readonly $defs?: Readonly<Record<string, JsonSchema>>;
  readonly definitions?: Readonly<Record<string, JsonSchema>>;
}

/** Follows local `#/$defs/X` / `#/definitions/X` references; anything else is returned unchanged. */
export function resolveRef(schema: JsonSchema, root: JsonSchema): JsonSchema {
  let s = schema;
  for (let hops = 0; s.$ref !== undefined && hops < 16; hops++) {
    const m = /^#\/(\$defs|definitions)\/(.+)$/.exec(s.$ref);
    const target = m ? (m[1] === '$defs' ? root.$defs : root.definitions)?.[decodeURIComponent(m[2])] : undefined;
    if (!target) return s;
    s = target;
  }
  return s;
}

/** The JSON types a schema admits, inferring them when `type` is absent. */
export function typesOf(schema: JsonSchema): string[] {
  if (typeof schema.type === 'string') return [schema.type];
  if (Array.isArray(schema.type)) return [...(schema.type as readonly string[])];
  if (schema.enum) {
    return [...new Set(schema.enum.map((v) => (v === null ? 'null' : Number.isInteger(v) ? 'integer' : typeof v)))];
  }
  if (schema.properties) return ['object'];
  if (schema.items) return ['array'];
  return [];
}

export const isPlainObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);
