import { parseHex, type Rgba } from '../src/model/color.js';
import type { RenderConfig } from '../src/model/render-config.js';
import { encodePng } from '../src/render/formats/png.js';

/** The standard request's URL without its id: a unique id after it keeps the standard 52 characters. */
export const STANDARD_PREFIX = 'https://example.com/some/path?utm_source=qr&id=';

/** The styled case of issue 17: rounded modules and eyes, navy on cream. */
export const STYLED: Partial<RenderConfig> = {
  moduleShape: 'rounded',
  finderOuterShape: 'rounded',
  finderInnerShape: 'rounded',
  primaryColor: '#1a237e',
  backgroundColor: '#fff8e1',
};

/** The styled case of `npm run bench` (issue 14): rounded modules, extra-rounded rings, dot centres, a gradient, ECC H, with benchLogo. */
export const STYLED_WITH_LOGO: Partial<RenderConfig> = {
  moduleShape: 'rounded',
  finderOuterShape: 'extra-rounded',
  finderInnerShape: 'dot',
  eccLevel: 'H',
  foregroundGradient: {
    type: 'linear',
    rotation: 45,
    stops: [
      { offset: 0, color: '#0D47A1' },
      { offset: 1, color: '#6A1B9A' },
    ],
  },
};

/**
 * A `size` px PNG of a filled disc of `radius` px in `color` on transparency, as a real logo upload would
 * arrive, with nothing a decoder could mistake for a second code (the bench's logo, and the tests' uploads).
 */
export function discPng(size: number, radius: number, color: Rgba): Uint8Array<ArrayBuffer> {
  const c = (size - 1) / 2;
  const pixels = new Uint8Array(size * size);
  for (let y = 0; y < size; y++)
    for (let x = 0; x < size; x++) pixels[y * size + x] = Math.hypot(x - c, y - c) < radius ? 1 : 0;
  return encodePng({ kind: 'indexed', width: size, height: size, pixels, palette: [parseHex('#FFFFFF00'), color] });
}

/** The bench's 128 px logo. */
export const benchLogo = (): Uint8Array => discPng(128, 60, parseHex('#C62828'));

export function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
}

/**
 * `BENCH_CLOCK=cpu` times by the process's CPU time instead of the wall clock: on a machine shared with
 * other work the wall clock also counts the time other processes held the cores, CPU time only ours (all
 * of the process's threads, V8's GC helpers included).
 */
export const CPU = process.env.BENCH_CLOCK === 'cpu';
export const clock = CPU
  ? () => {
      const u = process.cpuUsage();
      return (u.user + u.system) / 1000;
    }
  : () => performance.now();
