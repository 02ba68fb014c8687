import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { ClassMeasure, Plan } from './capacity-plan.js';
import type { Mix } from './mix.js';

/** What `npm run capacity` measured and planned, as written to capacity.json. */
export interface CapacityReport {
  measuredAt: string;
  machine: {
    cpus: number;
    cpuModel: string;
    memoryGiB: number;
    node: string;
    loadBefore: number[];
    loadAfter: number[];
  };
  /** The p99 each class's step had to meet, in ms. */
  targetP99Ms: number;
  quick: boolean;
  mix: Mix;
  classes: ClassMeasure[];
  plan: Plan;
}

const fixed = (n: number, digits: number) => n.toFixed(digits);
const row = (cells: (string | number)[]) => `| ${cells.join(' | ')} |`;

/** The report in Markdown: the machine, each class's steps and per-core figure, the plan. */
export function markdown(r: CapacityReport): string {
  const m = r.machine;
  const p = r.plan;
  const out = [
    '# Capacity',
    '',
    `Measured ${r.measuredAt}${r.quick ? ' (--quick)' : ''} on ${m.cpus} × ${m.cpuModel}, ${m.memoryGiB} GiB, Node ${m.node}; ` +
      `load average before ${m.loadBefore.map((l) => fixed(l, 1)).join(' ')}, after ${m.loadAfter.map((l) => fixed(l, 1)).join(' ')}.`,
    `One engine with one render worker and one site; each class stepped through closed-loop concurrency, planned by the highest step whose p99 ≤ ${r.targetP99Ms} ms.`,
    'A core sustains 1000 ms ÷ the CPU ms a request costs the engine and the site (their processes, from /proc).',
    '',
    '## Per class',
    '',
    row([
      'class',
      'concurrency',
      'req/s',
      'p50 ms',
      'p99 ms',
      'engine CPU ms',
      'site CPU ms',
      'one core: req/s',
      'p99 target',
    ]),
    row(['---', '---:', '---:', '---:', '---:', '---:', '---:', '---:', '---']),
    ...r.classes.map((c) => {
      const s = c.steps[c.chosen]!;
      return row([
        c.kind,
        s.concurrency,
        fixed(s.rate, 0),
        fixed(s.p50, 0),
        fixed(s.p99, 0),
        fixed(c.engineCpuMs, 2),
        fixed(c.siteCpuMs, 2),
        fixed(c.perCore, 0),
        c.metTarget ? 'met' : 'not met at any step',
      ]);
    }),
    '',
    '![requests a second one core sustains, per class](capacity.svg)',
    '',
    `## Plan: ${fixed(p.rate, 0)} req/s of the mix`,
    '',
    `Mix: ${r.mix.requests.map((q) => `${q.kind} ${q.share}`).join(', ')}; ${r.mix.throughGateway} % through the gateway; ` +
      `${r.mix.serverAi} server-AI calls per 100. Cores planned at ${fixed(p.utilisation * 100, 0)} % busy; ` +
      `${p.coresPerEngine} cores an engine, ${p.coresPerSite} a site.`,
    '',
    row(['class', 'req/s', 'engine cores', 'site cores']),
    row(['---', '---:', '---:', '---:']),
    ...p.lines.map((l) => row([l.kind, fixed(l.rate, 1), fixed(l.engineCores, 2), fixed(l.siteCores, 2)])),
    row(['**busy**', '', fixed(p.engineCoresBusy, 2), fixed(p.siteCoresBusy, 2)]),
    row(['**planned**', '', fixed(p.engineCores, 2), fixed(p.siteCores, 2)]),
    '',
    `**${p.engines} engine${p.engines === 1 ? '' : 's'} and ${p.sites} site${p.sites === 1 ? '' : 's'}** ` +
      `(${fixed(p.engineCores, 1)} engine cores, ${fixed(p.siteCores, 1)} site cores); one core sustains ` +
      `${fixed(p.mixPerCore, 0)} req/s of this mix. Add one engine and one site to survive the loss of either.`,
    '',
  ];
  return out.join('\n');
}

const xmlText = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

/**
 * A bar per class, the requests a second one core sustains on a log scale (the classes span two orders of
 * magnitude); a class whose p99 missed the target at every step is drawn hatched grey.
 */
export function chart(classes: readonly ClassMeasure[]): string {
  const rowH = 22;
  const left = 130;
  const width = 640;
  const barMax = width - left - 70;
  const top = 30;
  const height = top + classes.length * rowH + 30;
  const max = Math.max(10, ...classes.map((c) => c.perCore));
  const decades = Math.ceil(Math.log10(max));
  const x = (v: number) => left + (Math.log10(Math.max(1, v)) / decades) * barMax;
  const ticks = Array.from({ length: decades + 1 }, (_, i) => 10 ** i);
  const parts = [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}" font-family="sans-serif" font-size="12">`,
    '<title>Requests a second one core sustains, by request class</title>',
    '<rect width="100%" height="100%" fill="#fff"/>',
    `<text x="10" y="16" font-weight="bold">Requests a second one core sustains (log scale; grey: p99 over the target at every step)</text>`,
    ...ticks.map(
      (t) =>
        `<line x1="${fixed(x(t), 1)}" y1="${top - 4}" x2="${fixed(x(t), 1)}" y2="${height - 24}" stroke="#ddd"/>` +
        `<text x="${fixed(x(t), 1)}" y="${height - 10}" text-anchor="middle" fill="#555">${t}</text>`,
    ),
    ...classes.map((c, i) => {
      const y = top + i * rowH;
      const w = Math.max(1, x(c.perCore) - left);
      const fill = c.metTarget ? '#1a237e' : '#999';
      return (
        `<text x="${left - 6}" y="${y + 14}" text-anchor="end">${xmlText(c.kind)}</text>` +
        `<rect class="bar" x="${left}" y="${y + 3}" width="${fixed(w, 1)}" height="${rowH - 6}" fill="${fill}"/>` +
        `<text x="${fixed(left + w + 4, 1)}" y="${y + 14}">${fixed(c.perCore, 0)}</text>`
      );
    }),
    '</svg>',
    '',
  ];
  return parts.join('\n');
}

/** Writes capacity.md, capacity.json and capacity.svg into `dir`; returns their paths. */
export function writeReport(dir: string, r: CapacityReport): string[] {
  mkdirSync(dir, { recursive: true });
  const files: [string, string][] = [
    ['capacity.md', markdown(r)],
    ['capacity.json', `${JSON.stringify(r, null, 2)}\n`],
    ['capacity.svg', chart(r.classes)],
  ];
  return files.map(([name, text]) => {
    const path = join(dir, name);
    writeFileSync(path, text);
    return path;
  });
}
