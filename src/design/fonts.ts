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
 * Cyrillic and Vietnamese. A character a family lacks is taken from FALLBACK.
 */
const FILES: Record<FontFamily, string> = {
  sans: '@expo-google-fonts/noto-sans/700Bold/NotoSans_700Bold.ttf',
  serif: '@expo-google-fonts/noto-serif/700Bold/NotoSerif_700Bold.ttf',
  mono: '@expo-google-fonts/roboto-mono/700Bold/RobotoMono_700Bold.ttf',
  rounded: '@expo-google-fonts/nunito/800ExtraBold/Nunito_800ExtraBold.ttf',
  display: '@expo-google-fonts/oswald/600SemiBold/Oswald_600SemiBold.ttf',
};

/** The widest-coverage family, asked for any character the chosen family lacks. */
export const FALLBACK: FontFamily = 'sans';

const require = createRequire(import.meta.url);
const loaded = new Map<FontFamily, Font>();

/** The parsed font of a family, read from node_modules the first time a render in this thread needs it. */
export function fontOf(family: FontFamily): Font {
  let font = loaded.get(family);
  if (!font) {
    // A .ttf file holds one font, never a collection.
    font = create(readFileSync(require.resolve(FILES[family]))) as Font;
    loaded.set(family, font);
  }
  return font;
}
