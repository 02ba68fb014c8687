import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { create, type Font } from 'fontkit';
import { centerBand, drawsCenterText } from '../../src/design/center-text.js';
import { coverageRecoverable } from '../../src/design/ecc-budget.js';
import { fontOf } from '../../src/design/fonts.js';
import { gridFromSymbol } from '../../src/design/grid.js';
import { cleanText, lineOutline, missingWarning, setLine } from '../../src/design/typeset.js';
import type { RenderConfig } from '../../src/model/render-config.js';
import { FONT_FAMILIES } from '../../src/model/vocabulary.js';
import { encode } from '../../src/qr/encode.js';
import { computeLayout } from '../../src/render/layout.js';
import { darkCount, decode, lightness, prepare, rasterize, SHORT_URL } from './scan.js';
import { configOf, drawDesign, symbolBounds } from './text-render.js';

beforeAll(prepare);
afterEach(() => vi.unstubAllGlobals());

const WIDE = { size: 40, minSize: 40, maxWidth: Infinity };
/** Every printable character of Latin-1 (the soft hyphen is invisible and removed) and of Latin Extended-A. */
const LATIN = [
  ...Array.from({ length: 0xff - 0xa1 + 1 }, (_, i) => 0xa1 + i).filter((c) => c !== 0xad),
  ...Array.from({ length: 0x80 }, (_, i) => 0x100 + i),
].map((c) => String.fromCodePoint(c));

describe('fonts', () => {
  it('offer five families', () => {
    expect([...FONT_FAMILIES]).toEqual(['sans', 'serif', 'mono', 'rounded', 'display']);
  });

  it('load from the bytes in node_modules, never from the network', () => {
    const fetch = vi.fn(() => Promise.reject(new Error('no network')));
    vi.stubGlobal('fetch', fetch);
    const require = createRequire(import.meta.url);
    expect(require.resolve('@expo-google-fonts/noto-sans/700Bold/NotoSans_700Bold.ttf')).toMatch(/node_modules/);
    for (const family of FONT_FAMILIES) expect(fontOf(family).numGlyphs).toBeGreaterThan(200);
    expect(fetch).not.toHaveBeenCalled();
  });

  it('are parsed once per thread', () => {
    expect(fontOf('serif')).toBe(fontOf('serif'));
  });

  it.each(FONT_FAMILIES)(
    '%s draws all of Latin-1 and Latin Extended-A with real glyphs (its own or the fallback’s)',
    (family) => {
      const line = setLine(LATIN.join(''), family, WIDE);
      expect(line.missing).toEqual([]);
      expect(line.glyphs.every((g) => g.glyph.id > 0)).toBe(true);
    },
  );
});

describe('setLine', () => {
  it('draws é, ß and ł with their own glyphs, not a replacement', () => {
    for (const ch of ['é', 'ß', 'ł']) {
      const line = setLine(ch, 'sans', WIDE);
      expect(line.glyphs).toHaveLength(1);
      expect(line.glyphs[0]!.glyph.codePoints).toContain(ch.codePointAt(0));
    }
  });

  it('takes a character the family lacks from the fallback family', () => {
    // Nunito has no long s; Noto Sans does.
    const line = setLine('ſ', 'rounded', WIDE);
    expect(line.missing).toEqual([]);
    expect(line.glyphs[0]!.font).toBe(fontOf('sans'));
  });

  it('looks further down the bundled faces for a character Noto Sans lacks too', () => {
    // Noto Sans has no ≤ or ∞; Nunito, the next face with them, does.
    for (const family of ['sans', 'serif'] as const) {
      const line = setLine('≤ 5 min ∞', family, WIDE);
      expect(line.missing).toEqual([]);
      for (const cp of [0x2264, 0x221e]) {
        const g = line.glyphs.find((x) => x.glyph.codePoints.includes(cp))!;
        expect(g.font).toBe(fontOf('rounded'));
        expect(g.glyph.id).toBe(fontOf('rounded').glyphForCodePoint(cp).id);
      }
    }
  });

  it('draws symbols no family has (★ ✓ ♥ ☎) from the bundled symbol face, whatever the family', () => {
    const require = createRequire(import.meta.url);
    // The face read here, apart from the service's own loading, to compare outlines with.
    const symbols = create(
      readFileSync(
        require.resolve('@expo-google-fonts/noto-sans-symbols-2/400Regular/NotoSansSymbols2_400Regular.ttf'),
      ),
    ) as Font;
    for (const family of FONT_FAMILIES) {
      const line = setLine('★ Scan ✓ ♥ ☎', family, WIDE);
      expect(line.missing).toEqual([]);
      expect(line.text).toBe('★ Scan ✓ ♥ ☎');
      for (const ch of '★✓♥☎') {
        const cp = ch.codePointAt(0)!;
        const g = line.glyphs.find((x) => x.glyph.codePoints.includes(cp))!;
        const expected = symbols.glyphForCodePoint(cp);
        expect(g.font.familyName).toBe('Noto Sans Symbols 2');
        expect(g.glyph.id).toBeGreaterThan(0);
        expect(g.glyph.path.toSVG()).toBe(expected.path.toSVG());
      }
      // Not a question mark in its place.
      expect(line.glyphs.some((x) => x.glyph.codePoints.includes(0x3f))).toBe(false);
    }
  });

  it('leaves out a character no bundled face has, closing up the space, and reports it: never a stand-in glyph', () => {
    const line = setLine('A 東 B東', 'sans', WIDE);
    const without = setLine('A B', 'sans', WIDE);
    expect(line.missing).toEqual(['東']);
    expect(line.text).toBe('A B');
    expect(line.glyphs.map((g) => g.glyph.id)).toEqual(without.glyphs.map((g) => g.glyph.id));
    expect(line.width).toBe(without.width);
    expect(line.glyphs.every((g) => g.glyph.id > 0)).toBe(true);
  });

  it('names the field, each missing character and its code point in the warning', () => {
    expect(missingWarning('ctaText', setLine('Menu 東京', 'sans', WIDE))).toEqual([
      'ctaText: no bundled typeface has 東 (U+6771), 京 (U+4EAC); they are left out of the drawing.',
    ]);
    expect(missingWarning('centerText.text', setLine('🍕', 'sans', WIDE))).toEqual([
      'centerText.text: no bundled typeface has 🍕 (U+1F355); it is left out, and nothing of centerText.text is left to draw.',
    ]);
    expect(missingWarning('ctaText', setLine('Menu', 'sans', WIDE))).toEqual([]);
  });

  it('kerns pairs the font kerns', () => {
    for (const family of ['sans', 'serif'] as const) {
      const pair = setLine('AV', family, WIDE).width;
      const apart = setLine('A', family, WIDE).width + setLine('V', family, WIDE).width;
      expect(pair).toBeLessThan(apart - 1);
    }
  });

  it('keeps its size when the text fits', () => {
    const line = setLine('Scan me', 'sans', { size: 30, minSize: 10, maxWidth: 500 });
    expect(line.size).toBe(30);
    expect(line.truncated).toBe(false);
  });

  it('shrinks text to fit the width, down to the smallest size', () => {
    const natural = setLine('Scan to see the menu', 'display', WIDE);
    const line = setLine('Scan to see the menu', 'display', { size: 40, minSize: 20, maxWidth: natural.width * 0.7 });
    expect(line.size).toBeCloseTo(28, 5);
    expect(line.width).toBeLessThanOrEqual(natural.width * 0.7 + 1e-6);
    expect(line.text).toBe('Scan to see the menu');
  });

  it('cuts text still too wide at the smallest size, at a character, and ends it in an ellipsis', () => {
    const text = 'A caption far too long for the little space it has been given';
    const line = setLine(text, 'serif', { size: 40, minSize: 30, maxWidth: 300 });
    expect(line).toMatchObject({ size: 30, truncated: true });
    expect(line.width).toBeLessThanOrEqual(300);
    expect(line.text.endsWith('…')).toBe(true);
    expect(text.startsWith(line.text.slice(0, -1))).toBe(true);
    expect(line.text.length).toBeGreaterThan(5);
  });

  it('cleans up what a font cannot show: breaks, soft hyphens, zero-width and control characters', () => {
    expect(cleanText('  Scan\nme\u00ad\u200b\u0007 now\t ')).toBe('Scan me now');
    expect(cleanText('e\u0301')).toBe('é');
    // An emoji presentation selector is invisible: only the character it follows is looked for.
    expect(cleanText('Love \u2764\ufe0f')).toBe('Love \u2764');
  });
});

describe('lineOutline', () => {
  it('is path data of moves, lines, cubics and closes only (PDF has no quadratic curves)', () => {
    for (const family of FONT_FAMILIES) {
      const d = lineOutline(setLine('Qg&ß', family, WIDE), (x) => [1, 0, 0, 1, x, 50]);
      expect(d).toMatch(/^M/);
      expect(d.replace(/[-\d.\s]/g, '')).toMatch(/^[MLCZ]+$/);
    }
  });

  it('draws the glyphs where the transform puts them, right side up', () => {
    const line = setLine('HI', 'sans', { size: 80, minSize: 80, maxWidth: Infinity });
    const d = lineOutline(line, (x) => [1, 0, 0, 1, 20 + x, 100]);
    const r = rasterize(
      `<svg xmlns="http://www.w3.org/2000/svg" width="200" height="120"><rect width="200" height="120" fill="#fff"/><path d="${d}"/></svg>`,
    );
    // Capitals stand on the baseline (y 100) and reach up by the cap height.
    expect(darkCount(r, 0, 101, 200, 120)).toBe(0);
    expect(darkCount(r, 0, 0, 200, Math.floor(100 - line.capHeight) - 1)).toBe(0);
    expect(darkCount(r, 20, Math.ceil(100 - line.capHeight) + 1, Math.ceil(20 + line.width), 99)).toBeGreaterThan(500);
  });
});

describe('error-correction budget', () => {
  const size = 33; // version 4
  it('accepts nothing covered and refuses everything covered', () => {
    expect(coverageRecoverable(size, 'H', new Uint8Array(size * size))).toBe(true);
    expect(coverageRecoverable(size, 'H', new Uint8Array(size * size).fill(1))).toBe(false);
  });

  it('allows more at a higher ECC level', () => {
    const covered = new Uint8Array(size * size);
    for (let y = 15; y < 18; y++) covered.fill(1, y * size + 12, y * size + 21);
    expect(coverageRecoverable(size, 'H', covered)).toBe(true);
    expect(coverageRecoverable(size, 'L', covered)).toBe(false);
  });
});

describe('centre text', () => {
  const content = 'https://example.com/menu?table=12';

  it('covers a centred band of whole modules, clears them, and the code still decodes', async () => {
    for (const minVersion of [2, 4, 7, 10]) {
      const cfg = configOf({ content, eccLevel: 'H', minVersion, centerText: { text: 'SCAN ME' } });
      const { layout, decorations, svg } = drawDesign(cfg);
      const cleared = decorations.cleared!;
      const cells = [...cleared.keys()].filter((i) => cleared[i]);
      expect(cells.length).toBeGreaterThan(0);
      const xs = cells.map((i) => i % layout.size);
      const ys = cells.map((i) => Math.floor(i / layout.size));
      // Centred on the middle module, a full rectangle.
      expect(Math.min(...xs) + Math.max(...xs)).toBe(layout.size - 1);
      expect(Math.min(...ys) + Math.max(...ys)).toBe(layout.size - 1);
      expect(cells.length).toBe((Math.max(...xs) - Math.min(...xs) + 1) * (Math.max(...ys) - Math.min(...ys) + 1));
      expect(svg).not.toContain('<text');
      expect(await decode(rasterize(svg))).toEqual([content]);
    }
  });

  it('draws the text in its colour on the band in its colour', () => {
    const cfg = configOf({
      content,
      eccLevel: 'H',
      minVersion: 6,
      centerText: { text: 'OPEN', color: '#FF0000', backgroundColor: '#00FF00' },
    });
    const { layout, svg } = drawDesign(cfg);
    const r = rasterize(svg);
    const [x0, y0, x1, y1] = symbolBounds(layout, 0);
    const cy = Math.round((y0 + y1) / 2);
    let red = 0;
    let green = 0;
    for (let y = cy - 30; y < cy + 30; y++) {
      for (let x = x0; x < x1; x++) {
        const o = (y * r.width + x) * 4;
        if (r.pixels[o]! > 200 && r.pixels[o + 1]! < 50) red++;
        if (r.pixels[o]! < 50 && r.pixels[o + 1]! > 200) green++;
      }
    }
    expect(red).toBeGreaterThan(100);
    expect(green).toBeGreaterThan(100);
  });

  it('shrinks a fontSize whose band would hide more than error correction recovers, and says so', () => {
    const cfg = configOf({ content, eccLevel: 'H', centerText: { text: 'HUGE', fontSize: 150 } });
    const { decorations } = drawDesign(cfg);
    expect(decorations.corrections).toEqual([
      {
        field: 'centerText.fontSize',
        from: 150,
        to: expect.any(Number),
        reason: expect.stringMatching(/error correction/),
      },
    ]);
    expect(decorations.corrections[0]!.to as number).toBeLessThan(150);
  });

  it('keeps a fontSize that fits', () => {
    const { decorations } = drawDesign(
      configOf({ content, eccLevel: 'H', minVersion: 10, centerText: { text: 'Hi', fontSize: 20 } }),
    );
    expect(decorations.corrections).toEqual([]);
  });

  it('shortens long text with an ellipsis rather than shrinking it past legibility', async () => {
    const cfg = configOf({
      content,
      eccLevel: 'H',
      minVersion: 5,
      centerText: { text: 'Welcome to our restaurant, scan for the menu and the specials of the day' },
    });
    const { decorations, svg } = drawDesign(cfg);
    expect(decorations.warnings).toEqual([expect.stringMatching(/^centerText was shortened to ".+…"/)]);
    expect(await decode(rasterize(svg))).toEqual([content]);
  });

  it('leaves out characters no bundled face has: the band and text of what remains, and a warning naming centerText.text', () => {
    const withMissing = drawDesign(configOf({ content, eccLevel: 'H', centerText: { text: 'MENU 東京' } }));
    const without = drawDesign(configOf({ content, eccLevel: 'H', centerText: { text: 'MENU' } }));
    expect(withMissing.svg).toBe(without.svg);
    expect(withMissing.decorations.warnings).toEqual([
      expect.stringMatching(/^centerText\.text: no bundled typeface has 東/),
    ]);
  });

  it('draws no band when no character of the text can be drawn, or it is only spaces, and says so', () => {
    for (const [text, warning] of [
      ['東京', /nothing of centerText\.text is left to draw/],
      [' \u00a0\u200b ', /^centerText\.text has nothing to draw/],
    ] as const) {
      const cfg = configOf({ content, eccLevel: 'H', centerText: { text } });
      const out = drawDesign(cfg);
      expect(out.decorations.cleared).toBeUndefined();
      expect(out.decorations.layers.above).toEqual([]);
      expect(out.decorations.warnings).toEqual([expect.stringMatching(warning)]);
      // What decides the band's ECC H (render/guarantee.ts) agrees.
      expect(drawsCenterText(cfg)).toBe(false);
    }
    expect(drawsCenterText(configOf({ content, centerText: { text: '東京 A' } }))).toBe(true);
    expect(drawsCenterText(configOf({ content }))).toBe(false);
  });

  it('gives up the band, with a warning, when the symbol cannot spare a single small one', () => {
    // Version 2 at ECC L has 10 check codewords in one block; the smallest band here hides more than 3 of them.
    const symbol = encode('HELLO', { ecc: 'L', minVersion: 2 });
    const layout = computeLayout(symbol.size, { quietZone: 4, outputWidth: 200 });
    const out = centerBand(
      configOf({ content: 'HELLO', eccLevel: 'L', centerText: { text: 'SCAN ME' } }),
      gridFromSymbol(symbol),
      layout,
    );
    expect(out.cleared).toBeUndefined();
    expect(out.layers.above).toEqual([]);
    expect(out.warnings).toEqual([expect.stringMatching(/centerText was left out/)]);
  });

  it('leaves the quiet zone and everything outside the symbol untouched', () => {
    const plain = rasterize(drawDesign(configOf({ content, eccLevel: 'H' })).svg);
    const { layout, svg } = drawDesign(configOf({ content, eccLevel: 'H', centerText: { text: 'SCAN ME' } }));
    const r = rasterize(svg);
    const [x0, y0, x1, y1] = symbolBounds(layout, 0);
    let outside = 0;
    for (let y = 0; y < r.height; y++)
      for (let x = 0; x < r.width; x++)
        if ((x < x0 || x >= x1 || y < y0 || y >= y1) && lightness(r, x, y) !== lightness(plain, x, y)) outside++;
    expect(outside).toBe(0);
  });
});

describe('text legibility', () => {
  const warningsOf = (design: Partial<RenderConfig>) =>
    drawDesign(configOf({ content: SHORT_URL, eccLevel: 'H', ...design })).decorations.warnings;

  it('warns when a caption, a frame text or a centre band text reads below 4.5:1, and names the field', () => {
    expect(warningsOf({ ctaText: 'Scan me', ctaTextColor: '#BBBBBB' })).toEqual([
      expect.stringMatching(/^ctaTextColor has 1\.\d\d:1 contrast .* below the 4\.5:1/),
    ]);
    expect(
      warningsOf({ ctaText: 'Scan me', frameStyle: 'box-bottom', frameColor: '#1565C0', frameTextColor: '#1E88E5' }),
    ).toEqual([expect.stringMatching(/^frameTextColor has/)]);
    expect(warningsOf({ centerText: { text: 'MENU', color: '#777777', backgroundColor: '#888888' } })).toEqual([
      expect.stringMatching(/^centerText\.color has/),
    ]);
    // A translucent band is judged as it shows over the background.
    expect(
      warningsOf({
        backgroundColor: '#000000',
        primaryColor: '#FFFFFF',
        centerText: { text: 'MENU', color: '#000000', backgroundColor: '#FFFFFF10' },
      }),
    ).toEqual([expect.stringMatching(/^centerText\.color has/)]);
  });

  it('is silent for legible text, the defaults included', () => {
    expect(warningsOf({ ctaText: 'Scan me' })).toEqual([]);
    expect(warningsOf({ ctaText: 'Scan me', frameStyle: 'banner-bottom' })).toEqual([]);
    expect(warningsOf({ centerText: { text: 'MENU' } })).toEqual([]);
    expect(warningsOf({ centerText: { text: 'MENU', color: '#FFFFFF', backgroundColor: '#B71C1C' } })).toEqual([]);
  });
});
