import { isPlainObject } from './json-schema.js';

/**
 * Finds the JSON object in a model's text answer. JSON mode is only a request: models still wrap the object
 * in ```json fences, or say "Here is your design:" before it, or add a remark after it.
 * Returns undefined when no JSON object can be found.
 */
export function extractJsonObject(text: string): Record<string, unknown> | undefined {
  const whole = tryParse(text.trim());
  if (whole !== undefined) return whole;

  for (const fence of text.matchAll(/```[a-zA-Z0-9_-]*[ \t]*\r?\n?([\s\S]*?)```/g)) {
    const inner = tryParse(fence[1].trim()) ?? firstBalancedObject(fence[1]);
    if (inner !== undefined) return inner;
  }
  return firstBalancedObject(text);
}

function tryParse(text: string): Record<string, unknown> | undefined {
  if (!text.startsWith('{')) return undefined;
  try {
    const value: unknown = JSON.parse(text);
    return isPlainObject(value) ? value : undefined;
  } catch {
    return undefined;
  }
}

/** A bound on the candidates tried, so a reply full of stray braces cannot make the scan quadratic. */
const MAX_CANDIDATES = 64;

/** Tries each `{` in turn and parses up to its matching `}`, skipping braces inside strings. */
function firstBalancedObject(text: string): Record<string, unknown> | undefined {
  let tries = 0;
  for (let start = text.indexOf('{'); start !== -1 && tries++ < MAX_CANDIDATES; start = text.indexOf('{', start + 1)) {
    const end = matchingBrace(text, start);
    if (end === -1) continue;
    const parsed = tryParse(text.slice(start, end + 1));
    if (parsed !== undefined) return parsed;
  }
  return undefined;
}

function matchingBrace(text: string, start: number): number {
  let depth = 0;
  let inString = false;
  for (let i = start; i < text.length; i++) {
    const c = text[i];
    if (inString) {
      if (c === '\\') i++;
      else if (c === '"') inString = false;
    } else if (c === '"') inString = true;
    else if (c === '{') depth++;
    else if (c === '}' && --depth === 0) return i;
  }
  return -1;
}
