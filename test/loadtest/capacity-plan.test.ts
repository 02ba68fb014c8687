/**
 * `npm run capacity`'s plan and report on measured input: which step a class is planned by, the cores, engines
 * and sites a mix at a rate needs, and the three files of the report. The measuring itself runs in
 * `npm run capacity` (its figures: bench/README.md).
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { STYLED } from '../../bench/cases.js';
import {
  type ClassMeasure,
  GATEWAY_RELAY,
  measureOf,
  plan,
  SERVER_AI,
  type Step,
} from '../../loadtest/capacity-plan.js';
import { type CapacityReport, chart, markdown, writeReport } from '../../loadtest/capacity-report.js';
import { checkMix, type Mix, MIX, mixedRequests, RENDER_KINDS } from '../../loadtest/mix.js';
import stored from '../../loadtest/mix.json' with { type: 'json' };

const step = (concurrency: number, p99: number, engineCpuMs: number, siteCpuMs = 0, failed = 0): Step => ({
  concurrency,
  seconds: 5,
  ok: 100,
  failed,
  rate: 100 / 5,
  p50: p99 / 2,
  p99,
  engineCpuMs,
  siteCpuMs,
});

describe('measureOf', () => {
  it('plans by the highest concurrency whose p99 met the target, and one core sustains 1000 ÷ its CPU ms', () => {
    const m = measureOf('png plain', [step(1, 20, 4), step(4, 120, 2.5), step(16, 400, 2)], 250);
    expect(m.chosen).toBe(1);
    expect(m.metTarget).toBe(true);
    expect(m.engineCpuMs).toBe(2.5);
    expect(m.perCore).toBeCloseTo(400, 9);
  });

  it('charges each class the processes it is for; a step with a failed request does not qualify', () => {
    const relay = measureOf(GATEWAY_RELAY, [step(1, 10, 3, 0.5), step(4, 30, 2, 0.4, 1)], 250);
    expect(relay).toMatchObject({ chosen: 0, engineCpuMs: 0, siteCpuMs: 0.5, perCore: 2000 });
    const ai = measureOf(SERVER_AI, [step(1, 10, 9, 1)], 250);
    expect(ai).toMatchObject({ engineCpuMs: 9, siteCpuMs: 1, perCore: 100 });
    // The site idling beside a render sent straight to the engine is not the render's.
    expect(measureOf('svg plain', [step(1, 10, 2, 0.3)], 250)).toMatchObject({ siteCpuMs: 0, perCore: 500 });
  });

  it('no step within the target: the lowest, marked as such', () => {
    const m = measureOf('jpg styled', [step(1, 300, 10), step(4, 900, 8)], 250);
    expect(m).toMatchObject({ chosen: 0, metTarget: false, engineCpuMs: 10, perCore: 100 });
  });
});

/** Every class measured: renders costing 2 ms (4 when styled), the relay 0.5 ms of the site's, AI 10 + 1. */
const measures: ClassMeasure[] = [
  ...RENDER_KINDS.map((kind) => measureOf(kind, [step(4, 50, kind.endsWith('styled') ? 4 : 2)], 250)),
  measureOf(GATEWAY_RELAY, [step(4, 50, 2, 0.5)], 250),
  measureOf(SERVER_AI, [step(4, 100, 10, 1)], 250),
];
const mix: Mix = {
  requests: [
    { kind: 'png plain', share: 60 },
    { kind: 'png styled', share: 30 },
    { kind: 'template', share: 10 },
  ],
  throughGateway: 50,
  serverAi: 2,
};
const options = { rate: 1000, utilisation: 0.5, coresPerEngine: 4, coresPerSite: 2 };

describe('plan', () => {
  it('cores per class, busy and planned, and the engines and sites they make', () => {
    const p = plan(measures, mix, options);
    const line = (kind: string) => p.lines.find((l) => l.kind === kind)!;
    expect(line('png plain')).toEqual({ kind: 'png plain', rate: 600, engineCores: 1.2, siteCores: 0 });
    expect(line('png styled').engineCores).toBeCloseTo(1.2, 9);
    expect(line('template').engineCores).toBeCloseTo(0.2, 9);
    expect(line(GATEWAY_RELAY)).toEqual({ kind: GATEWAY_RELAY, rate: 500, engineCores: 0, siteCores: 0.25 });
    expect(line(SERVER_AI)).toMatchObject({ rate: 20, engineCores: 0.2, siteCores: 0.02 });
    expect(p.engineCoresBusy).toBeCloseTo(2.8, 9);
    expect(p.siteCoresBusy).toBeCloseTo(0.27, 9);
    expect(p.engineCores).toBeCloseTo(5.6, 9);
    expect(p.siteCores).toBeCloseTo(0.54, 9);
    expect(p.engines).toBe(2);
    expect(p.sites).toBe(1);
    expect(p.mixPerCore).toBeCloseTo(1020 / 3.07, 9);
  });

  it('scales with the rate; shares are relative weights', () => {
    const doubled = plan(
      measures,
      { ...mix, requests: mix.requests.map((r) => ({ ...r, share: r.share * 2 })) },
      {
        ...options,
        rate: 10_000,
      },
    );
    expect(doubled.engineCores).toBeCloseTo(56, 9);
    expect(doubled.engines).toBe(14);
    expect(doubled.sites).toBe(3);
  });

  it('refuses a mix naming a class that was not measured, and a rate or utilisation out of range', () => {
    expect(() => plan(measures.slice(1), mix, options)).toThrow('"png plain"');
    expect(() => plan(measures, mix, { ...options, rate: 0 })).toThrow('rate');
    expect(() => plan(measures, mix, { ...options, utilisation: 1.5 })).toThrow('utilisation');
  });
});

describe('loadtest/mix.json', () => {
  it('is issue 17’s mix, its styled case the one of bench/cases.ts, and a stretch of 100 requests has its shares', () => {
    expect(MIX.requests.reduce((s, r) => s + r.share, 0)).toBe(100);
    expect(stored.styled).toEqual(STYLED);
    const next = mixedRequests(['t1', 't2']);
    const counts = new Map<string, number>();
    for (let i = 0; i < 100; i++) {
      const r = next();
      counts.set(r.kind, (counts.get(r.kind) ?? 0) + 1);
    }
    expect(Object.fromEntries(counts)).toEqual(Object.fromEntries(MIX.requests.map((r) => [r.kind, r.share])));
  });

  it('checkMix refuses unknown kinds and bad shares, naming the file', () => {
    expect(() => checkMix({ requests: [{ kind: 'gif plain', share: 1 }] }, 'x.json')).toThrow('x.json: unknown kind');
    expect(() => checkMix({ requests: [{ kind: 'png plain', share: -1 }] }, 'x.json')).toThrow('share');
    expect(() => checkMix({ requests: [{ kind: 'png plain', share: 1 }], throughGateway: 101 }, 'x.json')).toThrow(
      'throughGateway',
    );
  });
});

describe('the report', () => {
  const report: CapacityReport = {
    measuredAt: '2026-11-28T12:00:00.000Z',
    machine: {
      cpus: 2,
      cpuModel: 'Test CPU',
      memoryGiB: 24,
      node: '20.20.2',
      loadBefore: [1, 1, 1],
      loadAfter: [2, 2, 2],
    },
    targetP99Ms: 250,
    quick: true,
    mix,
    classes: measures,
    plan: plan(measures, mix, options),
  };

  it('writes Markdown, JSON and SVG: the JSON whole, a table row and a bar per class, the plan’s answer', () => {
    const dir = mkdtempSync(join(tmpdir(), 'capacity-test-'));
    try {
      const files = writeReport(dir, report);
      expect(files.map((f) => f.slice(dir.length + 1))).toEqual(['capacity.md', 'capacity.json', 'capacity.svg']);
      expect(JSON.parse(readFileSync(join(dir, 'capacity.json'), 'utf8'))).toEqual(report);
      const md = readFileSync(join(dir, 'capacity.md'), 'utf8');
      for (const c of measures) expect(md).toContain(`| ${c.kind} | 4 |`);
      expect(md).toContain('| png plain | 4 | 20 | 25 | 50 | 2.00 | 0.00 | 500 | met |');
      expect(md).toContain('**2 engines and 1 site**');
      const svg = readFileSync(join(dir, 'capacity.svg'), 'utf8');
      expect(svg.startsWith('<svg xmlns="http://www.w3.org/2000/svg"')).toBe(true);
      expect(svg.match(/class="bar"/g)).toHaveLength(measures.length);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('draws longer bars for classes a core sustains more of, and a missed target grey', () => {
    const svg = chart([measures[0]!, measures[1]!, measureOf('x', [step(1, 999, 100)], 250)]);
    const widths = [...svg.matchAll(/class="bar" x="\d+" y="[\d.]+" width="([\d.]+)"[^>]*fill="(#[0-9a-f]+)"/g)].map(
      (m) => [Number(m[1]), m[2]],
    );
    expect(widths).toHaveLength(3);
    expect(widths[0]![0]).toBeGreaterThan(widths[1]![0] as number);
    expect(widths[1]![0]).toBeGreaterThan(widths[2]![0] as number);
    expect(widths.map((w) => w[1])).toEqual(['#1a237e', '#1a237e', '#999']);
    expect(markdown(report)).toContain('Measured 2026-11-28T12:00:00.000Z (--quick) on 2 × Test CPU');
  });
});
