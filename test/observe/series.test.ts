/**
 * The lean counters and histograms (src/observe/series.ts) against prom-client's own, as the oracle: the
 * same observations give the same exposition, sample for sample (labels compared as sets), through a
 * prom-client registry each.
 */
import { Counter, Histogram, Registry } from 'prom-client';
import { describe, expect, it } from 'vitest';
import { CounterFamily, HistogramFamily } from '../../src/observe/series.js';
import { seededRandom } from '../helpers/seeded-random.js';

/** The exposition's lines, each sample's labels sorted by name, comments kept, in a sorted list. */
async function normalized(registry: Registry): Promise<string[]> {
  const text = await registry.metrics();
  return text
    .split('\n')
    .filter((l) => l !== '')
    .map((line) => {
      const m = /^([a-zA-Z_:][a-zA-Z0-9_:]*)\{(.*)\} (\S+)$/.exec(line);
      if (m === null) return line;
      const labels = [...m[2]!.matchAll(/(\w+)="((?:[^"\\]|\\.)*)"/g)].map((l) => `${l[1]}="${l[2]}"`).sort();
      return `${m[1]}{${labels.join(',')}} ${m[3]}`;
    })
    .sort();
}

const BOUNDS = [0.001, 0.005, 0.01, 0.05, 0.1, 0.5, 1, 5];

describe('lean metric families beside prom-client', () => {
  it('a histogram: buckets, +Inf, sum and count per series, values on the bounds included', async () => {
    const random = seededRandom(29);
    const ours = new Registry();
    const theirs = new Registry();
    const family = new HistogramFamily('t_seconds', 'A test histogram.', ['route', 'method'], BOUNDS, ours);
    const oracle = new Histogram({
      name: 't_seconds',
      help: 'A test histogram.',
      labelNames: ['route', 'method'],
      buckets: BOUNDS,
      registers: [theirs],
    });
    const routes = ['/a', '/b/:id', 'with "quotes" \\ and\nnewline'];
    for (let i = 0; i < 2000; i++) {
      const route = routes[Math.floor(random() * routes.length)]!;
      const method = random() < 0.5 ? 'GET' : 'POST';
      // Every bound itself, and values past the last one.
      const value = i < BOUNDS.length ? BOUNDS[i]! : random() ** 3 * 8;
      family.labels(route, method).observe(value);
      oracle.labels(route, method).observe(value);
    }
    expect(await normalized(ours)).toEqual(await normalized(theirs));
    expect((await normalized(ours)).length).toBeGreaterThan(6 * (BOUNDS.length + 3));
  });

  it('a counter, labelled and not, and a reset', async () => {
    const random = seededRandom(30);
    const ours = new Registry();
    const theirs = new Registry();
    const labelled = new CounterFamily('t_total', 'A test counter.', ['status'], ours);
    const plain = new CounterFamily('t_plain_total', 'Without labels.', [], ours);
    const labelledOracle = new Counter({
      name: 't_total',
      help: 'A test counter.',
      labelNames: ['status'],
      registers: [theirs],
    });
    const plainOracle = new Counter({ name: 't_plain_total', help: 'Without labels.', registers: [theirs] });
    expect(await normalized(ours)).toEqual(await normalized(theirs));
    for (let i = 0; i < 500; i++) {
      const status = String(200 + Math.floor(random() * 4) * 100);
      const by = 1 + Math.floor(random() * 3);
      labelled.labels(status).inc(by);
      labelledOracle.labels(status).inc(by);
      if (i % 7 === 0) {
        plain.labels().inc();
        plainOracle.inc();
      }
    }
    expect(await normalized(ours)).toEqual(await normalized(theirs));
    ours.resetMetrics();
    theirs.resetMetrics();
    expect(await normalized(ours)).toEqual(await normalized(theirs));
  });

  it('refuses a wrong number of label values and a value that is not a number', () => {
    const family = new HistogramFamily('t2_seconds', 'x', ['a', 'b'], BOUNDS, new Registry());
    expect(() => family.labels('only one')).toThrow(/has the labels a, b, not 1 values/);
    expect(() => family.labels('x', 'y').observe(Number.NaN)).toThrow(TypeError);
  });
});
