import { useEffect, useRef, useState } from 'preact/hooks';
import { Notice } from '../components/field.js';
import type { Correction } from '../../../src/model/render-config.js';
import { type ApiFailure, asFailure, isAbort, postJson } from '../lib/api.js';
import { type Design, requestBody } from './design.js';

export interface Verification {
  decoded: boolean;
  decodedAt: 'reduced' | 'full' | null;
  contrastRatio: number;
  quietZoneModules: number;
  quietZoneClean: boolean;
  failures: string[];
  scanScore: number;
}

export interface Rendered {
  qrBase64: string;
  contentType: string;
  width: number;
  height: number;
  version: number;
  eccLevel: string;
  sizeBytes: number;
  verification: Verification;
  corrections: Correction[];
  warnings: string[];
}

/** The preview is drawn at most this wide: enough to judge, cheap to redo on every change. */
const PREVIEW_MAX_PX = 640;
/** Quiet time after the last change before the preview is asked for. */
const DEBOUNCE_MS = 350;

const shown = (v: unknown) => (typeof v === 'object' ? JSON.stringify(v) : String(v));

/** The engine's verification, said in words rather than numbers alone. */
export function VerificationReport({ r }: { r: Rendered }) {
  const v = r.verification;
  return (
    <div class="verification">
      <ul class="checks">
        <li>
          {v.decoded ? (
            <strong>Scans: the file was decoded and reads back exactly your content.</strong>
          ) : (
            <strong>Does not scan.</strong>
          )}{' '}
          {v.decodedAt === 'reduced' && 'It also reads when small, as a phone sees it from a distance.'}
          {v.decodedAt === 'full' && 'It reads only at full size: print it large, or simplify the design.'}
        </li>
        <li>
          Scan robustness {v.scanScore} of 100
          {v.scanScore >= 75
            ? ': it survives blur, low light and small prints.'
            : v.scanScore >= 50
              ? ': good.'
              : ': fragile; simplify the design or raise contrast.'}
        </li>
        <li>
          Contrast {v.contrastRatio.toFixed(1)}:1 between code and background (at least 4:1 is needed
          {v.contrastRatio >= 7 ? '; this is excellent' : ''}).
        </li>
        <li>
          Quiet zone {v.quietZoneModules} modules wide
          {v.quietZoneClean ? ', clear of anything else.' : ', but not clear: something is drawn in it.'}
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
                <code>{c.field}</code> from {shown(c.from)}
                {c.to !== undefined && ` to ${shown(c.to)}`}: {c.reason}
              </li>
            ))}
          </ul>
        </>
      )}
      {r.warnings.length > 0 && (
        <>
          <p>Warnings:</p>
          <ul class="checks">
            {r.warnings.map((w) => (
              <li key={w}>{w}</li>
            ))}
          </ul>
        </>
      )}
      {v.failures.length > 0 && (
        <ul class="checks">
          {v.failures.map((f) => (
            <li key={f}>{f}</li>
          ))}
        </ul>
      )}
    </div>
  );
}

/**
 * The live preview: the engine renders and verifies the design a moment after the last change; a newer
 * change aborts the request still running, so only the latest design is ever shown.
 */
export function Preview({
  content,
  design,
  blocked,
  onFieldError,
}: {
  content: string | undefined;
  design: Design;
  /** Why there is nothing to render yet (content still being built, a field refused). */
  blocked: string | undefined;
  onFieldError: (field: string | undefined, message: string | undefined) => void;
}) {
  const [rendered, setRendered] = useState<Rendered>();
  const [error, setError] = useState<ApiFailure>();
  const [busy, setBusy] = useState(false);
  const running = useRef<AbortController>(undefined);

  useEffect(() => {
    if (content === undefined || blocked !== undefined) return;
    const width = Math.min((design.outputWidth as number | undefined) ?? 800, PREVIEW_MAX_PX);
    const timer = setTimeout(() => {
      running.current?.abort();
      const controller = new AbortController();
      running.current = controller;
      setBusy(true);
      const body = requestBody(content, design, { fileFormat: 'png', outputWidth: width, responseType: 'base64' });
      postJson<Rendered>('/api/studio/render', body, { signal: controller.signal })
        .then((r) => {
          setRendered(r);
          setError(undefined);
          onFieldError(undefined, undefined);
          setBusy(false);
        })
        .catch((e: unknown) => {
          if (isAbort(e)) return;
          const failure = asFailure(e);
          setError(failure);
          onFieldError(failure.field, failure.message);
          setBusy(false);
        });
    }, DEBOUNCE_MS);
    return () => clearTimeout(timer);
  }, [content, design, blocked]);

  return (
    <section aria-labelledby="preview-title" id="preview">
      <h2 id="preview-title">Preview</h2>
      <div class="preview-box" aria-busy={busy}>
        {rendered ? (
          <img
            src={`data:${rendered.contentType};base64,${rendered.qrBase64}`}
            alt="Preview of your QR code"
            width={rendered.width}
            height={rendered.height}
            style={{ opacity: busy || error || blocked ? 0.4 : 1 }}
          />
        ) : (
          <p>{blocked ?? 'Rendering…'}</p>
        )}
      </div>
      <div role="status" aria-live="polite">
        {blocked && rendered && <p>{blocked}</p>}
        {busy && <p>Updating the preview…</p>}
      </div>
      {error && (
        <Notice kind="error">
          {error.message}
          {error.field && (
            <>
              {' '}
              (field <code>{error.field}</code>)
            </>
          )}
        </Notice>
      )}
      {rendered && !error && !blocked && <VerificationReport r={rendered} />}
    </section>
  );
}
