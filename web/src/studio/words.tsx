/**
 * What the Studio says about a render and a refusal, in sentences a person reads: fields named as the page
 * labels them, each problem said once, and the engine's own wording (decoder names, field paths, codes)
 * kept behind a "details" toggle for whoever wants it.
 */
import type { ComponentChildren } from 'preact';
import type { ApiFailure } from '../lib/api.js';
import { fieldName, inPageWords } from './labels.js';
import { MIN_CONTRAST, MIN_QUIET_ZONE, type Rendered } from './rendered.js';

/** Warnings that restate a verification failure the report already says in its own line. */
const RESTATED = [/ has a contrast of [\d.]+:1 with the background, below \d+:1\.$/, /^verification: /];

/** The technical wording behind a sentence: closed until asked for. */
export function Details({ children }: { children: ComponentChildren }) {
  return (
    <details class="details">
      <summary>Details</summary>
      <div class="mono">{children}</div>
    </details>
  );
}

/** Why a render may not scan, as short clauses; the figures are in the report's own lines. */
export function scanProblems(r: Rendered): string[] {
  const v = r.verification;
  const out: string[] = [];
  if (v.contrastRatio < MIN_CONTRAST) out.push('the code and background colours are too close together');
  if (!v.quietZoneClean) out.push('something is drawn in the clear margin around the code');
  if (v.quietZoneModules < MIN_QUIET_ZONE) out.push('the clear margin around the code is too narrow');
  if (!v.decoded) out.push(readers(r));
  return out;
}

function readers(r: Rendered): string {
  const read = Object.values(r.verification.decoders ?? {}).filter((d) => d.decoded).length;
  const all = Object.keys(r.verification.decoders ?? {}).length;
  return read === 0 || all === 0
    ? 'none of the scanners the file is checked with could read it'
    : `only ${read} of the ${all} scanners the file is checked with could read it, so some phones will not`;
}

const sentence = (clauses: string[]) => `${clauses.join('; ')}.`;

/** The engine's own list of what failed, every warning and the decoders' readings, for the details. */
function technical(r: Rendered): string[] {
  const v = r.verification;
  return [
    ...v.failures,
    ...r.warnings,
    ...Object.entries(v.decoders ?? {}).map(
      ([name, d]) =>
        `${name}: ${d.decoded ? `decoded (${d.decodedAt === 'reduced' ? 'also when small' : 'full size only'})` : 'not decoded'}`,
    ),
  ];
}

/** The engine's verification in words: each check once, what was changed, and what else it noticed. */
export function VerificationReport({ r }: { r: Rendered }) {
  const v = r.verification;
  const problems = scanProblems(r);
  const notes = r.warnings.filter((w) => !RESTATED.some((p) => p.test(w)));
  return (
    <div class="verification" data-testid="verification">
      <ul class="checks">
        <li>
          {v.decoded && problems.length === 0 ? (
            <strong>Scans: the file was decoded and reads back exactly your content.</strong>
          ) : v.decoded ? (
            <strong>May not scan: {sentence(problems)}</strong>
          ) : (
            <strong>Does not scan: {sentence(problems)}</strong>
          )}{' '}
          {v.decoded && v.decodedAt === 'reduced' && 'It also reads when small, as a phone sees it from a distance.'}
          {v.decoded && v.decodedAt === 'full' && 'It reads only at full size: print it large, or simplify the design.'}
        </li>
        <li>
          Scan robustness {v.scanScore} of 100
          {v.scanScore >= 75
            ? ': it survives blur, low light and small prints.'
            : v.scanScore >= 50
              ? ': good.'
              : ': fragile; simplify the design or raise the contrast.'}
        </li>
        <li>
          Contrast {v.contrastRatio.toFixed(1)}:1 between code and background (at least {MIN_CONTRAST}:1 is needed
          {v.contrastRatio >= 7 ? '; this is excellent' : ''}).
        </li>
        <li>
          Clear margin (quiet zone) {v.quietZoneModules} modules wide (at least {MIN_QUIET_ZONE})
          {v.quietZoneClean ? ', with nothing drawn in it.' : '.'}
        </li>
        <li>
          Version {r.version} ({17 + 4 * r.version} × {17 + 4 * r.version} modules), error correction {r.eccLevel}.
        </li>
      </ul>
      {r.corrections.length > 0 && (
        <>
          <p>Changed so that it scans:</p>
          <ul class="checks">
            {r.corrections.map((c) => (
              <li key={`${c.field}-${shown(c.from)}`}>
                {fieldName(c.field)} from {shown(c.from)}
                {c.to !== undefined && ` to ${shown(c.to)}`}: {inPageWords(c.reason)}.
              </li>
            ))}
          </ul>
        </>
      )}
      {notes.length > 0 && (
        <>
          <p>Also noticed:</p>
          <ul class="checks">
            {notes.map((w) => (
              <li key={w}>{inPageWords(w)}</li>
            ))}
          </ul>
        </>
      )}
      {technical(r).length > 0 && (
        <Details>
          <ul class="checks">
            {technical(r).map((t) => (
              <li key={t}>{t}</li>
            ))}
          </ul>
        </Details>
      )}
    </div>
  );
}

const shown = (v: unknown) => (typeof v === 'object' ? JSON.stringify(v) : String(v));

/** A refusal of the site or the engine as a sentence, and the technical wording behind it. */
export function refusalWords(f: ApiFailure): { sentence: string; details: string[] } {
  const raw = f.envelope.message ?? f.envelope.error;
  const details = [
    raw,
    `code ${f.code}${f.status ? `, HTTP ${f.status}` : ''}`,
    ...(f.field ? [`field ${f.field}`] : []),
  ];
  if (f.code === 'QR_UNSCANNABLE') {
    const clauses = [
      /contrast [\d.]+:1 is below/.test(raw) && 'the code and background colours are too close together',
      /decode/.test(raw) && 'no scanner the file is checked with could read it',
      /quiet zone/.test(raw) && 'the clear margin around the code is not clear',
    ].filter((c): c is string => typeof c === 'string');
    const why = clauses.length ? `: ${clauses.join(', and ')}` : '';
    const where = f.field ? ` Change “${fieldName(f.field)}”.` : ` Choose colours further apart, or a simpler design.`;
    return { sentence: `This design cannot be made to scan${why}.${where}`, details };
  }
  if (f.code === 'rate_limited')
    return { sentence: 'Too many requests from this address for now: wait a moment, then try again.', details };
  if (f.code === 'SERVER_BUSY') return { sentence: 'The service is busy right now: try again in a moment.', details };
  if (f.code === 'offline')
    return { sentence: 'The site could not be reached: check the connection, then try again.', details };
  const text = inPageWords(raw);
  return { sentence: /[.!?]$/.test(text) ? text : `${text}.`, details };
}

/** A refusal on the page: the sentence, the technical wording in a closed "Details". */
export function Refusal({ failure }: { failure: ApiFailure }) {
  const { sentence: said, details } = refusalWords(failure);
  return (
    <>
      <p>{said}</p>
      <Details>
        {details.map((d) => (
          <p key={d}>{d}</p>
        ))}
      </Details>
    </>
  );
}
