import { useState } from 'preact/hooks';
import { Confirm } from '../components/confirm.js';
import { CopyButton } from '../components/copy-button.js';
import { Notice } from '../components/field.js';
import { type ApiFailure, asFailure, getJson, postJson } from '../lib/api.js';
import { useLoad } from '../lib/load.js';
import { useSession } from '../lib/session.js';
import type { AccountJson } from '../../../src/wire/site.js';
import { type Design, requestBody } from './design.js';
import { bytesOf, isVerified, type Rendered } from './rendered.js';
import { Refusal, scanProblems } from './words.js';

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

/** A file handed to the browser to save under `name`. */
function save(bytes: Uint8Array<ArrayBuffer>, type: string, name: string): void {
  const url = URL.createObjectURL(new Blob([bytes], { type }));
  const a = document.createElement('a');
  a.href = url;
  a.download = name;
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 60_000);
}

/** The name a download is saved under: marked when the engine could not verify that it scans. */
export const fileName = (ext: string, verified: boolean): string =>
  verified ? `qrcode.${ext}` : `qrcode-unverified.${ext}`;

interface Held {
  r: Rendered;
  label: string;
  ext: string;
}

/**
 * Downloads in each of the six formats, each rendered and verified anew at the design's size. A file the
 * engine could not verify (possible with “Fix problems automatically” off) is not saved until the person
 * has read why it may not scan and chosen to keep it; it is then named as unverified.
 */
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
  const [error, setError] = useState<ApiFailure>();
  const [held, setHeld] = useState<Held>();

  const keep = ({ r, label, ext }: Held) => {
    const verified = isVerified(r);
    const name = fileName(ext, verified);
    save(bytesOf(r), r.contentType, name);
    setSaid(
      verified
        ? `${label} downloaded (${name}), ${r.width} × ${r.height} px, verified: it scans.`
        : `${label} downloaded as ${name}, ${r.width} × ${r.height} px: not verified, it may not scan.`,
    );
  };

  const download = async (format: string, ext: string, label: string) => {
    if (content === undefined) return;
    setBusy(format);
    setError(undefined);
    setSaid(undefined);
    try {
      const r = await postJson<Rendered>(
        renderPath,
        requestBody(content, design, { fileFormat: format, responseType: 'base64' }),
      );
      if (isVerified(r)) keep({ r, label, ext });
      else setHeld({ r, label, ext });
    } catch (e) {
      setError(asFailure(e));
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
      {error && (
        <Notice kind="error">
          <Refusal failure={error} />
        </Notice>
      )}
      <Confirm
        open={held !== undefined}
        title="This code may not scan. Download it anyway?"
        confirmLabel="Download anyway"
        onConfirm={() => {
          if (held) keep(held);
          setHeld(undefined);
        }}
        onCancel={() => {
          if (held) setSaid(`Nothing was downloaded: the ${held.label} was not verified.`);
          setHeld(undefined);
        }}
      >
        {held && (
          <>
            <p>
              Phones may fail to read it: {scanProblems(held.r).join('; ') || 'the checks did not pass'}. With “Fix
              problems automatically” on, the Studio changes what it must until the code scans.
            </p>
            <p>
              If you download it, the file is named {fileName(held.ext, false)} so that it is not taken for a verified
              one.
            </p>
          </>
        )}
      </Confirm>
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
