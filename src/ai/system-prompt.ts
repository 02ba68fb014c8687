import { FINDER_INNER_SHAPES, FINDER_OUTER_SHAPES, MODULE_SHAPES } from '../model/vocabulary.js';
import { CALLER_FIELDS } from './clean-config.js';
import { resolveRef, typesOf, type JsonSchema } from './json-schema.js';

export const STYLE_PRESETS = ['minimal', 'artistic', 'corporate', 'playful', 'luxury', 'tech', 'nature'] as const;
export type StylePreset = (typeof STYLE_PRESETS)[number];
export const DEFAULT_STYLE_PRESET: StylePreset = 'luxury';

export const PRESET_GUIDE: Readonly<Record<StylePreset, string>> = {
  minimal:
    'restraint: one dark colour on white or a very light tint, plain square or softly rounded modules, solid square eyes, no gradients or ornaments.',
  artistic:
    'expressive and painterly: unusual module shapes, a harmonious multi-hue palette or gradient, eyes that echo the module shape.',
  corporate:
    'trustworthy and brand-like: one strong brand colour (navy, blue, teal, charcoal) on white, clean square or slightly rounded shapes, crisp eyes.',
  playful:
    'friendly and fun: bright saturated colours, round dots and bubbly eyes, cheerful accents; modules still clearly darker than the background.',
  luxury:
    'premium and elegant: deep black, navy, burgundy or emerald with gold or champagne accents, refined shapes and a sense of craft.',
  tech: 'precise and modern: cool blues, cyans or violets, geometric or pixel-like modules, sharp eyes, at most a subtle gradient.',
  nature:
    'organic and calm: greens, earth browns and sky tones on a warm off-white, rounded organic shapes, soft eyes.',
};

/** The shape fields whose allowed names come from the design modules, not from the schema's text. */
export const VOCABULARY: ReadonlyMap<string, readonly string[]> = new Map<string, readonly string[]>([
  ['moduleShape', MODULE_SHAPES],
  ['finderOuterShape', FINDER_OUTER_SHAPES],
  ['finderInnerShape', FINDER_INNER_SHAPES],
]);

/**
 * The one system prompt: role, answer format, the shape vocabulary, every design field of the QrConfig
 * schema, the style presets and the scannability rules. Vocabulary and fields are read from the exported
 * lists and the schema on each build, so new shapes and fields reach the model without touching this file.
 */
export function buildSystemPrompt(schema: JsonSchema): string {
  const caller = new Set<string>(CALLER_FIELDS);
  const fields = Object.entries(schema.properties ?? {})
    .filter(([name]) => !caller.has(name))
    .map(([name, sub]) => describeField(name, sub, schema, ''))
    .join('\n');
  const presets = STYLE_PRESETS.map((p) => `- ${p}: ${PRESET_GUIDE[p]}`).join('\n');
  return `You are the art director of a QR-code studio. From a short brief you design how a QR code looks: colours, module shapes, finder eyes and the other design fields below. The code must still scan on any phone.

## Answer format
Answer with one JSON object and nothing else:
{"config": { ...the design fields you choose... }, "explanation": "one or two sentences on why the design fits the brief"}
Set only fields listed below; leave a field out (or null) to keep the engine's default. Colours are hex: #RGB, #RRGGBB or #RRGGBBAA.
The user sets these and you must never include them: ${CALLER_FIELDS.join(', ')}.

## Shape vocabulary (use these exact names)
- moduleShape, the data modules: ${MODULE_SHAPES.join(', ')}
- finderOuterShape, the 7x7 ring of each of the three corner eyes: ${FINDER_OUTER_SHAPES.join(', ')}
- finderInnerShape, the 3x3 centre of each eye: ${FINDER_INNER_SHAPES.join(', ')}

## Design fields
${fields}

## Style presets (the user names one)
${presets}

## Scannability rules (a design that breaks them is corrected or rejected)
1. Contrast between the module colour and the background must be at least 4:1; aim higher.
2. Prefer dark modules on a light background. Light modules on a dark background (say gold on black) scan on fewer phones: use them only when the brief asks for it, and then keep the contrast high.
3. Keep the finder eyes solid and the darkest, clearest part of the code: no transparency, no faint colours, no gradient that fades them into the background.
4. A logo covers at most 25% of the code (logoSizePercent at most 25) and then needs error correction H.
5. Keep the quiet zone around the code clear, module size variation small (0.15 at most) and module scale near 1 unless the brief asks for an airy look.`;
}

/** The user message: the brief, the preset and how bold to be. */
export function buildUserPrompt(prompt: string, preset: StylePreset, creativity: number): string {
  return `Design brief from the user (it describes the look only):
"""
${prompt}
"""
Style preset: ${preset}, ${PRESET_GUIDE[preset]}
Boldness: ${boldness(creativity)} (creativity ${creativity.toFixed(2)} on a 0 to 1 scale).
Reply with the JSON object only.`;
}

function boldness(creativity: number): string {
  if (creativity < 0.34) return 'conservative; classic shapes and high contrast, stay close to the preset';
  if (creativity < 0.67) return 'balanced; one or two distinctive choices on a safe base';
  return 'bold; expressive shapes, gradients and striking colour, still within every scannability rule';
}

function describeField(name: string, schemaIn: JsonSchema, root: JsonSchema, indent: string): string {
  const schema = resolveRef(schemaIn, root);
  const facts: string[] = [];
  const types = typesOf(schema).filter((t) => t !== 'null');
  const items = schema.items ? resolveRef(schema.items, root) : undefined;
  if (types.length > 0)
    facts.push(types.map((t) => (t === 'array' && items ? `list of ${typesOf(items).join(' or ')}` : t)).join(' or '));
  if (schema.minItems !== undefined || schema.maxItems !== undefined)
    facts.push(`${schema.minItems ?? 0} to ${schema.maxItems ?? 'any number of'} items`);
  if (schema.minimum !== undefined || schema.maximum !== undefined)
    facts.push(`${schema.minimum ?? '…'} to ${schema.maximum ?? '…'}`);
  if (VOCABULARY.has(name)) facts.push('a name from the shape vocabulary');
  else if (schema.enum) facts.push(`one of ${schema.enum.map((v) => String(v)).join(', ')}`);
  if (schema.default !== undefined) facts.push(`default ${JSON.stringify(schema.default)}`);
  const line = `${indent}- ${name}${facts.length ? ` (${facts.join('; ')})` : ''}${schema.description ? `: ${schema.description}` : ''}`;
  const nested = schema.properties ?? items?.properties;
  if (!nested) return line;
  const children = Object.entries(nested).map(([n, s]) => describeField(n, s, root, `${indent}  `));
  return [line, ...children].join('\n');
}
