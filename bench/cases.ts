import type { RenderConfig } from '../src/model/render-config.js';

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
