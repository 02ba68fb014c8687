/**
 * Every design field by the name the Studio's page gives it, so that what the page says about a field
 * (hints, refusals, warnings, corrections) names it as its label does rather than by its API path.
 */
import { DEFAULTS, type Design, fieldSchema } from './design.js';

/** The label each control carries on the page. */
export const LABELS: Readonly<Record<string, string>> = {
  moduleShape: 'Module shape',
  moduleScale: 'Module size',
  moduleSizeVariation: 'Size variation',
  qrShapeRadius: 'Rounding of the whole code',
  primaryColor: 'Code colour',
  backgroundColor: 'Background colour',
  foregroundGradient: 'Code gradient',
  backgroundGradient: 'Background gradient',
  alignmentColor: 'Alignment pattern colour',
  timingColor: 'Timing pattern colour',
  finderOuterShape: 'Eye ring shape',
  finderInnerShape: 'Eye centre shape',
  finderOuterColor: 'Ring colour',
  finderInnerColor: 'Centre colour',
  finderOuterGradient: 'Ring gradient',
  finderInnerGradient: 'Centre gradient',
  logoBase64: 'Logo',
  logoSizePercent: 'Logo size (%)',
  logoPaddingPercent: 'Space around the logo (%)',
  logoPlateShape: 'Plate behind the logo',
  logoPlateColor: 'Plate colour',
  backgroundImageBase64: 'Background image',
  backgroundImageOpacity: 'Opacity',
  backgroundImageFit: 'Fit',
  frameStyle: 'Frame',
  ctaText: 'Caption',
  fontFamily: 'Typeface',
  ctaTextColor: 'Caption colour',
  frameColor: 'Frame colour',
  frameTextColor: 'Frame text colour',
  centerText: 'Text across the centre',
  'centerText.text': 'Text across the centre',
  'centerText.color': 'Text colour',
  'centerText.backgroundColor': 'Band colour',
  'centerText.fontSize': 'Font size (px)',
  outputWidth: 'Width (px)',
  fileFormat: 'Format of the copied design',
  eccLevel: 'Error correction',
  quietZone: 'Quiet zone (modules)',
  minVersion: 'Smallest version',
  strictScannability: 'Fix problems automatically',
};

export const EYES = ['Top-left eye', 'Top-right eye', 'Bottom-left eye'];
const EYE_PARTS: Record<string, string> = {
  outerColor: 'Ring colour',
  innerColor: 'Centre colour',
  rotation: 'Rotation',
  flip: 'Mirror',
};
const GRADIENT_PARTS: Record<string, string> = { type: 'Kind', rotation: 'Direction (degrees)' };

/** The label of the control at `path`, as the page shows it. */
export function labelOf(path: string): string {
  const eye = /^finderEyes\.(\d)\.(\w+)$/.exec(path);
  if (eye) return EYE_PARTS[eye[2]!] ?? eye[2]!;
  const stop = /^\w+Gradient\.stops\.(\d)\.\w+$/.exec(path);
  if (stop) return stop[1] === '0' ? 'From colour' : 'To colour';
  const part = /^\w+Gradient\.(\w+)$/.exec(path);
  if (part) return GRADIENT_PARTS[part[1]!] ?? part[1]!;
  return LABELS[path] ?? path;
}

/**
 * The field's name in a sentence: its label, with the group it sits in where the label alone is shared
 * by several controls ("Ring colour" of each eye, the stops of each gradient).
 */
export function fieldName(path: string): string {
  const eye = /^finderEyes\.(\d)\./.exec(path);
  if (eye) return `${labelOf(path)} of the ${EYES[Number(eye[1])]!.toLowerCase()}`;
  const gradient = /^(\w+Gradient)\./.exec(path);
  if (gradient) return `${labelOf(path)} of the ${labelOf(gradient[1]!).toLowerCase()}`;
  if (path.startsWith('centerText.') && path !== 'centerText.text') return `${labelOf(path)} of the centre text`;
  return labelOf(path);
}

/** Field paths in a server's sentence, longest first, so `centerText.color` wins over `centerText`. */
const PATHS =
  /\b(?:finderEyes\.\d\.\w+|\w+Gradient\.stops\.\d\.\w+|\w+Gradient\.\w+|centerText\.\w+|[a-z]+[A-Z]\w*)\b/g;

/**
 * A server's or a schema's sentence with every field path in it named as the page labels it
 * (“primaryColor must be a hex colour” → “Code colour” must be a hex colour); words that are not fields
 * of the design stay as they are.
 */
export function inPageWords(text: string): string {
  return text.replace(PATHS, (path) => (isField(path) ? `“${fieldName(path)}”` : path)).replace(/`([^`]+)`/g, '$1');
}

const isField = (path: string): boolean => {
  if (LABELS[path] !== undefined || /^finderEyes\.\d\./.test(path)) return true;
  try {
    fieldSchema(path);
    return /^\w+Gradient\./.test(path);
  } catch {
    return false;
  }
};

/**
 * What a colour left empty is drawn in, as the engine decides it: the code colour for the eyes, patterns,
 * caption and frame; the background for the logo's plate; the frame's own choice for its text.
 */
const FOLLOWS: Readonly<Record<string, string>> = {
  finderOuterColor: 'primaryColor',
  finderInnerColor: 'primaryColor',
  alignmentColor: 'primaryColor',
  timingColor: 'primaryColor',
  ctaTextColor: 'primaryColor',
  frameColor: 'primaryColor',
  logoPlateColor: 'backgroundColor',
  'centerText.color': 'primaryColor',
  'centerText.backgroundColor': 'backgroundColor',
};

const valueAt = (design: Design, path: string): unknown =>
  path.split('.').reduce<unknown>((v, k) => (v == null ? undefined : (v as Record<string, unknown>)[k]), design);

/**
 * The colour an empty field stands for in this design, and the words that say so: its own default, the
 * colour of the field it follows (“Same as Code colour, #5A1E0F”), or the frame's choice.
 */
export function colourDefault(design: Design, path: string): { colour: string; words: string } {
  const eye = /^finderEyes\.\d\.(outer|inner)Color$/.exec(path);
  const follows = eye ? (eye[1] === 'outer' ? 'finderOuterColor' : 'finderInnerColor') : FOLLOWS[path];
  if (follows !== undefined) {
    const set = valueAt(design, follows) as string | undefined;
    if (set !== undefined) return { colour: set, words: `Same as ${fieldName(follows)}, ${set}` };
    const inner = colourDefault(design, follows);
    return { colour: inner.colour, words: `Same as ${fieldName(follows)}, ${inner.colour}` };
  }
  if (path === 'frameTextColor') {
    const colour = (design.backgroundColor as string | undefined) ?? (DEFAULTS.backgroundColor as string);
    return { colour, words: 'Chosen by the frame' };
  }
  const own = (valueAt(design, path) as string | undefined) ?? (DEFAULTS[path] as string | undefined);
  return own === undefined ? { colour: '#000000', words: 'Not set' } : { colour: own, words: `Default ${own}` };
}

/** The Studio's own hint where the schema's description speaks to a developer. */
const HINTS: Readonly<Record<string, string>> = {
  strictScannability:
    'On: colours, error correction and sizes are adjusted until the code scans, and each change is listed under the preview. Off: the code is drawn exactly as set; the preview says when it may not scan, and a download asks first.',
  outputWidth:
    'Width of the file in pixels, 64 to 4096 (at most 1024 without a Studio pack); a frame, a caption or a round outline widens it.',
  logoSizePercent:
    'Logo width as a share of the code’s width (3–40). Above 25 it needs error correction H and is drawn at 25, as listed under the preview.',
};

/** The hint under a control: the schema's description, its field names as the page labels them. */
export const hintOf = (path: string): string => HINTS[path] ?? inPageWords(fieldSchema(path).description ?? '');
