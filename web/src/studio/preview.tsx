import { useEffect, useState } from 'preact/hooks';
import { Notice } from '../components/field.js';
import { isVerified } from './rendered.js';
import type { PreviewState } from './use-preview.js';
import { Refusal, VerificationReport } from './words.js';

/** The preview and its checks in words (the state is usePreview's). */
export function Preview({ state, blocked }: { state: PreviewState; blocked: string | undefined }) {
  const { rendered, error, busy, heldSec } = state;
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
        {busy && (
          <p>
            Updating the preview…
            {heldSec !== undefined &&
              ` in ${heldSec} s: the Studio makes a limited number of previews a minute without an account.`}
          </p>
        )}
      </div>
      {error && (
        <Notice kind="error">
          <Refusal failure={error} />
        </Notice>
      )}
      {rendered && !error && !blocked && <VerificationReport r={rendered} />}
    </section>
  );
}

/**
 * The preview kept in view on a narrow screen, where the full one sits below every control: a strip
 * fixed to the bottom of the window with the code and its verdict, shown while the full preview is out
 * of sight (on a wide screen the full preview itself stays beside the controls, and this is hidden).
 */
export function PreviewDock({ state, blocked }: { state: PreviewState; blocked: string | undefined }) {
  const [away, setAway] = useState(true);
  useEffect(() => {
    const target = document.querySelector('#preview .preview-box');
    if (target === null) return;
    // One callback may carry several changes of the one target (a quick scroll past it), oldest first:
    // only the newest says where it is now.
    const seen = new IntersectionObserver((entries) => setAway(!entries.at(-1)!.isIntersecting));
    seen.observe(target);
    return () => seen.disconnect();
  }, []);
  const { rendered, error, busy } = state;
  const verdict = error
    ? 'Not rendered: see the preview'
    : blocked
      ? blocked
      : rendered === undefined
        ? 'Rendering…'
        : busy
          ? 'Updating…'
          : isVerified(rendered)
            ? 'Scans'
            : rendered.verification.decoded
              ? 'May not scan'
              : 'Does not scan';
  return (
    <section class="preview-dock" hidden={!away} aria-label="Preview while editing" data-testid="preview-dock">
      {rendered && (
        <img
          src={`data:${rendered.contentType};base64,${rendered.qrBase64}`}
          alt="Preview of your QR code"
          width={112}
          height={112}
          style={{ opacity: busy || error || blocked ? 0.4 : 1 }}
        />
      )}
      <p>
        <strong>{verdict}</strong>
        <br />
        <a href="#preview">Checks and downloads</a>
      </p>
    </section>
  );
}
