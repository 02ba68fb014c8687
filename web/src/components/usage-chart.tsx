import { useEffect, useRef, useState } from 'preact/hooks';
import type { UsageDayJson } from '../../../src/wire/site.js';
import { plural } from '../lib/format.js';
import { DataTable } from './data-table.js';

/** Colours with at least 3:1 against white and each other's neighbours (WCAG non-text contrast). */
const SERIES = [
  { key: 'generation', label: 'Renders', colour: '#1d4ed8' },
  { key: 'ai', label: 'AI designs', colour: '#b45309' },
  { key: 'general', label: 'Other calls', colour: '#0f766e' },
] as const;

const H = 220;
const PAD = { left: 40, right: 20, top: 10, bottom: 28 };
/** Narrowest the chart is drawn; a phone's column is about 330 px. */
const MIN_W = 280;
/** Room a day's label ("11-28" in 12 px type) takes, with a gap, centre to centre. */
const LABEL_PX = 60;

/**
 * Which days carry a label: every `stride`-th counted back from the last (today's), so labels are evenly
 * spaced at least LABEL_PX apart at this width and never overlap, whatever the number of days.
 */
export function labelledDays(count: number, step: number): Set<number> {
  const stride = Math.max(1, Math.ceil(LABEL_PX / step));
  const out = new Set<number>();
  for (let i = count - 1; i >= 0; i -= stride) out.add(i);
  return out;
}

/** The width of the element, followed as it changes (the chart is drawn at it: its type stays 12 px). */
function useWidth(): [preact.RefObject<HTMLDivElement | null>, number] {
  const ref = useRef<HTMLDivElement>(null);
  const [width, setWidth] = useState(720);
  useEffect(() => {
    const el = ref.current;
    if (el === null) return;
    const seen = new ResizeObserver(([entry]) => setWidth(Math.max(MIN_W, Math.round(entry!.contentRect.width))));
    seen.observe(el);
    return () => seen.disconnect();
  }, []);
  return [ref, width];
}

/**
 * API calls per day as stacked bars, drawn in SVG with no library; the numbers are in a table below it
 * for anyone who cannot see the chart, and the chart's label says the totals.
 */
export function UsageChart({ days }: { days: UsageDayJson[] }) {
  const [box, W] = useWidth();
  const totals = days.map((d) => d.general + d.generation + d.ai);
  const max = Math.max(1, ...totals);
  const step = (W - PAD.left - PAD.right) / days.length;
  const scale = (n: number) => (n / max) * (H - PAD.top - PAD.bottom);
  const calls = totals.reduce((a, b) => a + b, 0);
  const credits = days.reduce((a, d) => a + d.creditsSpent, 0);
  const labelled = labelledDays(days.length, step);
  const summary = `${plural(calls, 'API call')} and ${plural(credits, 'AI credit')} spent in the last ${days.length} days.`;
  return (
    <div class="chart" ref={box}>
      <p>{summary}</p>
      <svg
        viewBox={`0 0 ${W} ${H}`}
        width={W}
        height={H}
        role="img"
        aria-label={`Bar chart of API calls per day. ${summary}`}
      >
        <line x1={PAD.left} y1={H - PAD.bottom} x2={W - PAD.right} y2={H - PAD.bottom} stroke="#6b7487" />
        <text x={PAD.left - 6} y={PAD.top + 10} text-anchor="end" font-size="12" fill="#3d4a66">
          {max}
        </text>
        <text x={PAD.left - 6} y={H - PAD.bottom} text-anchor="end" font-size="12" fill="#3d4a66">
          0
        </text>
        {days.map((d, i) => {
          let y = H - PAD.bottom;
          const x = PAD.left + i * step + step * 0.15;
          return (
            <g key={d.day}>
              {SERIES.map((s) => {
                const h = scale(d[s.key]);
                y -= h;
                return h > 0 ? <rect key={s.key} x={x} y={y} width={step * 0.7} height={h} fill={s.colour} /> : null;
              })}
              {labelled.has(i) && (
                <text x={x + step * 0.35} y={H - 8} text-anchor="middle" font-size="12" fill="#3d4a66">
                  {d.day.slice(5)}
                </text>
              )}
            </g>
          );
        })}
      </svg>
      <ul class="legend">
        {SERIES.map((s) => (
          <li key={s.key}>
            <span class="swatch" style={{ background: s.colour }} aria-hidden="true" />
            {s.label}
          </li>
        ))}
      </ul>
      <details>
        <summary>Show the numbers</summary>
        <DataTable
          caption="API calls and credits per day"
          rows={days}
          rowKey={(d) => d.day}
          columns={[
            { key: 'day', header: 'Day (UTC)', cell: (d) => d.day },
            ...SERIES.map((s) => ({ key: s.key, header: s.label, cell: (d: UsageDayJson) => d[s.key] })),
            { key: 'credits', header: 'Credits spent', cell: (d) => d.creditsSpent },
          ]}
        />
      </details>
    </div>
  );
}
