/**
 * Checks a value against the subset of JSON Schema the service's request schemas use (type, enum, bounds,
 * lengths, pattern, required, properties, items, local $ref), so the Studio's forms refuse what the
 * server would refuse, from the same schema objects (src/schema/qr-config.ts, src/content/schemas.ts),
 * before a request is sent. Lengths count code points, as AJV does. Rules that span fields stay with the
 * server; its answer names the field like these do.
 */

export interface SchemaNode {
  type?: string;
  enum?: readonly unknown[];
  minimum?: number;
  maximum?: number;
  minLength?: number;
  maxLength?: number;
  pattern?: string;
  $ref?: string;
  description?: string;
  properties?: Readonly<Record<string, SchemaNode>>;
  required?: readonly string[];
  additionalProperties?: boolean;
  items?: SchemaNode;
  minItems?: number;
  maxItems?: number;
}

export interface Problem {
  /** Dotted, as the server's `field`: `centerText.color`, `finderEyes.0.rotation`. */
  field: string;
  message: string;
}

const kindOf = (v: unknown): string =>
  Array.isArray(v)
    ? 'array'
    : v === null
      ? 'null'
      : typeof v === 'number' && Number.isInteger(v)
        ? 'integer'
        : typeof v;

const matchesType = (type: string, v: unknown): boolean =>
  type === 'number' ? typeof v === 'number' && Number.isFinite(v) : type === kindOf(v);

const TYPE_NAMES: Record<string, string> = {
  string: 'a text',
  number: 'a number',
  integer: 'a whole number',
  boolean: 'yes or no',
  object: 'a group of fields',
  array: 'a list',
};

/** Every problem of `value` against `schema`; empty when the server's schema would accept it. */
export function check(
  value: unknown,
  schema: SchemaNode,
  definitions: Readonly<Record<string, SchemaNode>> = {},
  field = '',
): Problem[] {
  const shared =
    schema.$ref?.startsWith('#/definitions/') === true
      ? definitions[schema.$ref.slice('#/definitions/'.length)]
      : undefined;
  const node: SchemaNode = shared === undefined ? schema : { ...shared, ...schema, $ref: undefined };
  const at = (message: string): Problem[] => [{ field, message }];
  if (node.type !== undefined && !matchesType(node.type, value))
    return at(`Must be ${TYPE_NAMES[node.type] ?? node.type}.`);
  if (node.enum !== undefined && !node.enum.includes(value)) return at(`Must be one of ${node.enum.join(', ')}.`);
  if (typeof value === 'string') {
    const length = [...value].length;
    if (node.minLength !== undefined && length < node.minLength)
      return at(node.minLength === 1 ? 'Required.' : `At least ${node.minLength} characters.`);
    if (node.maxLength !== undefined && length > node.maxLength) return at(`At most ${node.maxLength} characters.`);
    if (node.pattern !== undefined && !new RegExp(node.pattern, 'u').test(value))
      // A shared definition's description states its rule (hexColor: "#RGB, #RRGGBB or #RRGGBBAA").
      return at((shared ?? node).description ?? `Must match ${node.pattern}.`);
  }
  if (typeof value === 'number') {
    if ((node.minimum !== undefined && value < node.minimum) || (node.maximum !== undefined && value > node.maximum))
      return at(`From ${node.minimum ?? '−∞'} to ${node.maximum ?? '∞'}.`);
  }
  const join = (name: string | number) => (field === '' ? String(name) : `${field}.${name}`);
  if (Array.isArray(value)) {
    if (node.minItems !== undefined && value.length < node.minItems) return at(`At least ${node.minItems} entries.`);
    if (node.maxItems !== undefined && value.length > node.maxItems) return at(`At most ${node.maxItems} entries.`);
    const items = node.items;
    return items === undefined ? [] : value.flatMap((v, i) => check(v, items, definitions, join(i)));
  }
  if (kindOf(value) === 'object') {
    const object = value as Record<string, unknown>;
    const properties = node.properties ?? {};
    const problems: Problem[] = [];
    for (const name of node.required ?? [])
      if (object[name] === undefined) problems.push({ field: join(name), message: 'Required.' });
    for (const [name, v] of Object.entries(object)) {
      const property = properties[name];
      if (property === undefined) {
        if (node.additionalProperties === false) problems.push({ field: join(name), message: 'Not a known field.' });
      } else if (v !== undefined) problems.push(...check(v, property, definitions, join(name)));
    }
    return problems;
  }
  return [];
}
