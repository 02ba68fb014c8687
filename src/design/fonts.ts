import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { create, type Font } from 'fontkit';
import type { FontFamily } from '../model/vocabulary.js';

/**
 * The TrueType file of each family, inside an npm package (Google Fonts builds, SIL OFL 1.1), so text is
 * drawn as outlines from bytes the service ships, never from system fonts or the network. One bold-ish
 * weight each: captions and bands are short, and must stay legible when fitted small.
 *
 * Coverage: each file has all of Latin-1 and Latin Extended-A (Nunito lacks only the ligature ĳ and the
 * long s ſ, Oswald only the invisible soft hyphen), Noto Sans and Noto Serif also Latin Extended-B, Greek,
 * Cyrillic and Vietnamese; Nunito, Oswald and Roboto Mono have a few mathematical signs Noto Sans lacks
 * (∞ ≠ ≤ ≥ √ ∑). A character the chosen family lacks is taken from the others, in FALLBACKS order, then
 * from the symbol face.
 */
const FILES: Record<FontFamily, string> = {
  sans: '@expo-google-fonts/noto-sans/700Bold/NotoSans_700Bold.ttf',
  serif: '@expo-google-fonts/noto-serif/700Bold/NotoSerif_700Bold.ttf',
  mono: '@expo-google-fonts/roboto-mono/700Bold/RobotoMono_700Bold.ttf',
  rounded: '@expo-google-fonts/nunito/800ExtraBold/Nunito_800ExtraBold.ttf',
  display: '@expo-google-fonts/oswald/600SemiBold/Oswald_600SemiBold.ttf',
};

/** Where a character the chosen family lacks is looked for: the widest coverage first, proportional faces before the monospaced one. */
const FALLBACKS: readonly FontFamily[] = ['sans', 'serif', 'rounded', 'display', 'mono'];

/**
 * Symbols no family has, asked last: Noto Sans Symbols 2 (same source and licence) has the stars, checks,
 * hearts, phones, envelopes and planes of Dingbats and Miscellaneous Symbols, all Geometric Shapes, many
 * arrows and pictographs, but no letters of its own worth setting text in, and no emoji faces. It comes
 * in one weight, regular.
 */
const SYMBOLS = '@expo-google-fonts/noto-sans-symbols-2/400Regular/NotoSansSymbols2_400Regular.ttf';

const require = createRequire(import.meta.url);
const parsed = new Map<string, Font>();

/** The parsed font in a package file, read from node_modules the first time a render in this thread needs it. */
function load(file: string): Font {
  let font = parsed.get(file);
  if (!font) {
    // A .ttf file holds one font, never a collection.
    font = create(readFileSync(require.resolve(file))) as Font;
    parsed.set(file, font);
  }
  return font;
}

/** The parsed font of a family. */
export const fontOf = (family: FontFamily): Font => load(FILES[family]);

/**
 * The faces text in `family` is set from, in the order a character is looked for: the family's own first.
 * A face is read only when a character gets as far as it, so plain text loads one file.
 */
export function* facesOf(family: FontFamily): Generator<Font, void, undefined> {
  yield fontOf(family);
  for (const other of FALLBACKS) if (other !== family) yield fontOf(other);
  yield load(SYMBOLS);
}
