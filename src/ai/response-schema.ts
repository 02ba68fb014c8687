import { CALLER_FIELDS } from './clean-config.js';
import { resolveRef, typesOf, type JsonSchema } from './json-schema.js';

/**
 * The schema of the model's answer, `{config, explanation}`, projected from the QrConfig schema onto the
 * subset every vendor accepts: type, description, enum, properties, required, additionalProperties, items.
 * Numeric bounds and patterns move into the description (the cleaner enforces them), and fields that need
 * more (unions, free-form objects) are left to the prompt alone, so a growing QrConfig schema can never make
 * a vendor reject the request.
 *
 * `strict` follows OpenAI's strict mode: every property required, optional ones nullable.
 */
export function responseSchemas(config: JsonSchema): { strict: JsonSchema; loose: JsonSchema } {
  const build = (strict: boolean): JsonSchema => {
    const caller: ReadonlySet<string> = new Set(CALLER_FIELDS);
    const design = projectObject(config, config, strict, (name) => !caller.has(name)) ?? emptyObject;
    return {
      type: 'object',
      properties: {
        config: design,
        explanation: { type: 'string', description: 'One or two sentences on why this design fits the brief.' },
      },
      required: ['config', 'explanation'],
      additionalProperties: false,
    };
  };
  return { strict: build(true), loose: build(false) };
}

const emptyObject: JsonSchema = { type: 'object', properties: {}, required: [], additionalProperties: false };

function projectObject(
  schemaIn: JsonSchema,
  root: JsonSchema,
  strict: boolean,
  keep: (name: string) => boolean = () => true,
): JsonSchema | undefined {
  const schema = resolveRef(schemaIn, root);
  if (!schema.properties) return undefined;
  const properties: Record<string, JsonSchema> = {};
  for (const [name, sub] of Object.entries(schema.properties)) {
    if (!keep(name)) continue;
    const projected = project(sub, root, strict);
    if (projected) properties[name] = strict ? nullable(projected) : projected;
  }
  return {
    type: 'object',
    ...(schema.description ? { description: schema.description } : {}),
    properties,
    required: strict ? Object.keys(properties) : [],
    additionalProperties: false,
  };
}

function project(schemaIn: JsonSchema, root: JsonSchema, strict: boolean): JsonSchema | undefined {
  const schema = resolveRef(schemaIn, root);
  if (schema.anyOf || schema.oneOf) return undefined;
  const types = typesOf(schema).filter((t) => t !== 'null');
  const type =
    types.length === 2 && types.includes('integer') && types.includes('number')
      ? 'number'
      : types.length === 1
        ? types[0]
        : undefined;
  const description = describe(schema);
  const withDescription = description ? { description } : {};
  switch (type) {
    case 'string':
    case 'number':
    case 'integer':
    case 'boolean': {
      const values = schema.enum?.filter((v) => v !== null);
      return { type, ...withDescription, ...(values ? { enum: values } : {}) };
    }
    case 'object':
      return projectObject(schema, root, strict);
    case 'array': {
      const items = schema.items ? project(schema.items, root, strict) : undefined;
      return items ? { type: 'array', ...withDescription, items } : undefined;
    }
  }
  return undefined;
}

function nullable(schema: JsonSchema): JsonSchema {
  const type = schema.type as string;
  return { ...schema, type: [type, 'null'], ...(schema.enum ? { enum: [...schema.enum, null] } : {}) };
}

function describe(schema: JsonSchema): string {
  const parts = schema.description ? [schema.description.trim()] : [];
  const { minimum: min, maximum: max } = schema;
  if (min !== undefined || max !== undefined) parts.push(`Range ${min ?? '…'} to ${max ?? '…'}.`);
  if (schema.pattern && /#/.test(schema.pattern)) parts.push('Hex colour like #1a2b3c.');
  return parts.join(' ');
}
