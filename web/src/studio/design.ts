import { definitions, QR_DEFAULTS, qrConfigSchema } from '../../../src/schema/qr-config.js';
import { check, type Problem, type SchemaNode } from './schema-check.js';

/** A QrConfig without its content: what the Studio edits. Absent fields take the service's defaults. */
export type Design = Record<string, unknown>;

export const SCHEMA = qrConfigSchema as unknown as SchemaNode & { properties: Record<string, SchemaNode> };
export const DEFINITIONS = definitions as unknown as Record<string, SchemaNode>;
export const DEFAULTS: Readonly<Record<string, unknown>> = QR_DEFAULTS;

/**
 * How soon a change is worth a new preview: `now` for a choice made in one go (a list, a check box, a
 * picture, a template), `typing` for one of a run of changes (keys in a text box, a colour or a slider
 * being dragged), which waits for a pause.
 */
export type Pace = 'now' | 'typing';

/** What a new Studio session starts from: a print-friendly size and the service's defaults otherwise. */
export const START_DESIGN: Design = { outputWidth: 1024 };

/**
 * How and where to deliver, rather than how the code looks: a template or an AI design never changes
 * these, nor the pictures the user uploaded.
 */
const KEPT_ACROSS_DESIGNS = [
  'outputWidth',
  'outputHeight',
  'pixelsPerModule',
  'printSize',
  'printCheck',
  'colorSpace',
  'fileFormat',
  'responseType',
  'logoBase64',
  'backgroundImageBase64',
] as const;

/** `next` (a template's or the AI's design) over what of `current` is the user's own. */
export function adoptDesign(current: Design, next: Design): Design {
  const kept = Object.fromEntries(
    KEPT_ACROSS_DESIGNS.filter((k) => current[k] !== undefined).map((k) => [k, current[k]]),
  );
  const { content: _, ...look } = next;
  for (const k of KEPT_ACROSS_DESIGNS) delete look[k];
  return { ...look, ...kept };
}

/** The body of POST /api/qr/generate for this content and design. */
export const requestBody = (content: string, design: Design, extra: Design = {}): Design => ({
  content,
  ...design,
  ...extra,
});

/** What the server's schema would refuse in this design, by dotted field. */
export function designProblems(content: string, design: Design): Map<string, string> {
  const problems: Problem[] = check(requestBody(content, design), SCHEMA, DEFINITIONS);
  return new Map(problems.map((p) => [p.field, p.message]));
}

/** The property schema of a field, dotted paths into objects allowed (`centerText.color`). */
export function fieldSchema(path: string): SchemaNode {
  let node: SchemaNode | undefined = SCHEMA;
  for (const part of path.split('.')) {
    node = /^\d+$/.test(part) ? node?.items : node?.properties?.[part];
  }
  if (node === undefined) throw new Error(`no field ${path} in QrConfig`);
  return node.$ref ? { ...DEFINITIONS[node.$ref.slice('#/definitions/'.length)], ...node } : node;
}
