import { useState } from 'preact/hooks';
import { CopyButton } from '../components/copy-button.js';
import { Notice } from '../components/field.js';
import { ApiFailure, getJson, postForFile } from '../lib/api.js';
import { useLoad } from '../lib/load.js';
import { useSession } from '../lib/session.js';
import type { AccountJson } from '../../../src/wire/site.js';
import { type Design, requestBody } from './design.js';

const FORMATS = [
  { format: 'png', label: 'PNG', ext: 'png' },
  { format: 'jpg', label: 'JPG', ext: 'jpg' },
  { format: 'webp', label: 'WebP', ext: 'webp' },
  { format: 'svg', label: 'SVG', ext: 'svg' },
  { format: 'pdf', label: 'PDF', ext: 'pdf' },
  { format: 'eps', label: 'EPS', ext: 'eps' },
] as const;

/** The design as the body of POST /api/qr/generate, for the API or the marketplace. */
export const designJson = (content: string, design: Design): string =>
  JSON.stringify(requestBody(content, design), null, 2);

/** The same as a curl call through the consumer gateway, the key taken from the environment. */
export function designCurl(content: string, design: Design): string {
  const format = (design.fileFormat as string | undefined) ?? 'png';
  const body = JSON.stringify(requestBody(content, design, { responseType: 'binary' }));
  return [
    `curl -s ${location.origin}/api/v1/qr/generate \\`,
    `  -H "X-API-Key: $QRFARM_API_KEY" -H 'content-type: application/json' \\`,
    `  --data-binary @- -o qrcode.${format} <<'JSON'`,
    body,
    'JSON',
  ].join('\n');
}

/** Downloads in each of the six formats, each rendered and verified anew at the design's size. */
export function Export({ content, design }: { content: string | undefined; design: Design }) {
  const session = useSession();
  const signedIn = session.state === 'ready' && session.session.signedIn;
  const { data: account } = useLoad(
    (signal) => (signedIn ? getJson<AccountJson>('/api/account', signal) : Promise.resolve(undefined)),
    [signedIn],
  );
  // A pack holder downloads through the account, at any size; everyone else through the Studio's preview.
  const renderPath = account?.activePack ? '/api/account/render' : '/api/studio/render';
  const [busy, setBusy] = useState<string>();
  const [said, setSaid] = useState<string>();
  const [error, setError] = useState<string>();

  const download = async (format: string, ext: string, label: string) => {
    if (content === undefined) return;
    setBusy(format);
    setError(undefined);
    setSaid(undefined);
    try {
      const res = await postForFile(
        renderPath,
        requestBody(content, design, { fileFormat: format, responseType: 'binary' }),
      );
      const url = URL.createObjectURL(await res.blob());
      const a = document.createElement('a');
      a.href = url;
      a.download = `qrcode.${ext}`;
      document.body.append(a);
      a.click();
      a.remove();
      setTimeout(() => URL.revokeObjectURL(url), 60_000);
      const verified = res.headers.get('x-qr-verified');
      setSaid(
        `${label} downloaded (qrcode.${ext}), ${res.headers.get('x-qr-width')} × ${res.headers.get('x-qr-height')} px${
          verified === 'reduced' || verified === 'full' ? ', verified: it scans' : ''
        }.`,
      );
    } catch (e) {
      setError(e instanceof ApiFailure ? e.message : 'The download failed.');
    }
    setBusy(undefined);
  };

  return (
    <section class="card" aria-labelledby="export-title">
      <h2 id="export-title">Download</h2>
      <div class="downloads">
        {FORMATS.map((f) => (
          <button
            type="button"
            key={f.format}
            disabled={content === undefined || busy !== undefined}
            onClick={() => download(f.format, f.ext, f.label)}
          >
            {busy === f.format ? `Rendering ${f.label}…` : `Download ${f.label}`}
          </button>
        ))}
      </div>
      <div role="status" aria-live="polite">
        {said && <p>{said}</p>}
      </div>
      {error && <Notice kind="error">{error}</Notice>}
      <h3>Use this design in code</h3>
      <div class="actions">
        <CopyButton label="Copy as JSON body" text={() => designJson(content ?? '', design)} />
        <CopyButton label="Copy as curl" text={() => designCurl(content ?? '', design)} />
      </div>
      <details>
        <summary>Show the JSON body</summary>
        <pre data-testid="design-json">{content === undefined ? '' : designJson(content, design)}</pre>
      </details>
    </section>
  );
}
