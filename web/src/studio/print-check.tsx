import { useState } from 'preact/hooks';
import { Notice } from '../components/field.js';
import { type ApiFailure, asFailure, postJson } from '../lib/api.js';
import { type Design, requestBody } from './design.js';
import { Refusal } from './words.js';

/** The engine's print check (README, "The print check"). */
interface PrintAnswer {
  distanceCm: number;
  minWidthMm: number | null;
  model: string;
}

/** Distances the chart marks, within the 10–300 cm the engine takes. */
const MARKS = [10, 30, 50, 100, 200, 300];
const W = 320;
const H = 150;
const PAD = { left: 44, right: 12, top: 10, bottom: 30 };

const inches = (mm: number) => (mm / 25.4).toFixed(2);

/**
 * Distance against the smallest printed width. The model's camera sees everything in its own pixels, so
 * the width grows in proportion to the distance: one answer draws the whole line.
 */
function DistanceChart({ answer }: { answer: PrintAnswer & { minWidthMm: number } }) {
  const perCm = answer.minWidthMm / answer.distanceCm;
  const top = Math.ceil((perCm * 300) / 50) * 50;
  const x = (cm: number) => PAD.left + ((cm - 10) / 290) * (W - PAD.left - PAD.right);
  const y = (mm: number) => H - PAD.bottom - (mm / top) * (H - PAD.top - PAD.bottom);
  const points = MARKS.map((cm) => [cm, Math.round(perCm * cm * 10) / 10] as const);
  return (
    <figure class="chart">
      <svg viewBox={`0 0 ${W} ${H}`} role="img" aria-labelledby="print-chart-caption">
        <title>Smallest printed width by scanning distance</title>
        <line x1={PAD.left} y1={y(0)} x2={W - PAD.right} y2={y(0)} stroke="currentColor" stroke-opacity="0.4" />
        <line x1={PAD.left} y1={y(0)} x2={PAD.left} y2={PAD.top} stroke="currentColor" stroke-opacity="0.4" />
        <polyline
          points={points.map(([cm, mm]) => `${x(cm)},${y(mm)}`).join(' ')}
          fill="none"
          stroke="currentColor"
          stroke-width="2"
        />
        {points.map(([cm, mm]) => (
          <g key={cm}>
            <circle cx={x(cm)} cy={y(mm)} r={cm === answer.distanceCm ? 4 : 2.5} fill="currentColor" />
            <text x={x(cm)} y={H - PAD.bottom + 14} font-size="10" text-anchor="middle" fill="currentColor">
              {cm}
            </text>
          </g>
        ))}
        <text x={PAD.left - 6} y={y(top) + 4} font-size="10" text-anchor="end" fill="currentColor">
          {top}
        </text>
        <text x={PAD.left - 6} y={y(0) + 4} font-size="10" text-anchor="end" fill="currentColor">
          0
        </text>
        <text x={(W + PAD.left) / 2} y={H - 2} font-size="10" text-anchor="middle" fill="currentColor">
          distance (cm)
        </text>
        <text x={4} y={PAD.top + 8} font-size="10" fill="currentColor">
          mm
        </text>
      </svg>
      <figcaption id="print-chart-caption">
        Smallest printed width by scanning distance: {points.map(([cm, mm]) => `${cm} cm → ${mm} mm`).join(', ')}.
      </figcaption>
    </figure>
  );
}

/**
 * "How small may I print this?": the engine's print check for the design at a distance the person picks,
 * as a sentence and a chart, asked for on request (it takes a few tenths of a second, too long for every
 * preview).
 */
export function PrintCheck({ content, design }: { content: string | undefined; design: Design }) {
  const [distance, setDistance] = useState(30);
  const [answer, setAnswer] = useState<PrintAnswer>();
  const [error, setError] = useState<ApiFailure>();
  const [busy, setBusy] = useState(false);

  const check = async () => {
    if (content === undefined) return;
    setBusy(true);
    try {
      const body = requestBody(content, design, {
        fileFormat: 'png',
        outputWidth: 320,
        responseType: 'base64',
        printCheck: { distanceCm: distance },
      });
      const r = await postJson<{ print: PrintAnswer }>('/api/studio/render', body);
      setAnswer(r.print);
      setError(undefined);
    } catch (e) {
      setError(asFailure(e));
    } finally {
      setBusy(false);
    }
  };

  return (
    <section aria-labelledby="print-check-title" class="print-check">
      <h3 id="print-check-title">How small can it be printed?</h3>
      <form
        onSubmit={(e) => {
          e.preventDefault();
          void check();
        }}
      >
        <label>
          Scanning distance (cm)
          <input
            type="number"
            min={10}
            max={300}
            step={1}
            value={distance}
            onInput={(e) => setDistance(Number((e.target as HTMLInputElement).value))}
          />
        </label>{' '}
        <button type="submit" class="secondary" disabled={busy || content === undefined}>
          {busy ? 'Checking…' : 'Check the print size'}
        </button>
      </form>
      <div role="status" aria-live="polite">
        {answer &&
          (answer.minWidthMm === null ? (
            <p>A phone is not expected to read this design from {answer.distanceCm} cm at any printed size.</p>
          ) : (
            <p>
              From {answer.distanceCm} cm, a phone should read this code printed at least{' '}
              <strong>
                {answer.minWidthMm} mm ({inches(answer.minWidthMm)} in)
              </strong>{' '}
              wide, quiet zone and frame included. Add a margin: this is one simulated camera, not every phone.
            </p>
          ))}
      </div>
      {answer && answer.minWidthMm !== null && (
        <DistanceChart answer={answer as PrintAnswer & { minWidthMm: number }} />
      )}
      {error && (
        <Notice kind="error">
          <Refusal failure={error} />
        </Notice>
      )}
    </section>
  );
}
