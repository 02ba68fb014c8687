import { useEffect, useRef, useState } from 'preact/hooks';
import SwaggerUI from 'swagger-ui-dist/swagger-ui-es-bundle.js';
import 'swagger-ui-dist/swagger-ui.css';
import '../docs.css';
import { mountPage } from '../components/layout.js';
import { Quickstart } from '../components/quickstart.js';

const DOCUMENTS = {
  site: {
    label: 'Consumer site (this host)',
    url: '/api/openapi.json',
    // The site's routes can be tried from here: same origin, the browser's own session and keys.
    tryable: true,
  },
  engine: {
    label: 'Marketplace engine',
    url: '/api/engine/openapi.json',
    // The engine's routes live on the marketplace host, behind its proxy: nothing to try from this page.
    tryable: false,
  },
} as const;
type Which = keyof typeof DOCUMENTS;

function Viewer({ which }: { which: Which }) {
  const ref = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (ref.current === null) return;
    ref.current.replaceChildren();
    const d = DOCUMENTS[which];
    SwaggerUI({
      url: d.url,
      domNode: ref.current,
      validatorUrl: null,
      docExpansion: 'list',
      defaultModelsExpandDepth: 0,
      supportedSubmitMethods: d.tryable ? ['get', 'post', 'patch', 'delete'] : [],
    });
  }, [which]);
  return <div ref={ref} />;
}

function Docs() {
  const [which, setWhich] = useState<Which>('site');
  return (
    <>
      <h1>API docs</h1>
      <Quickstart />
      <p>The same engine renders every code; there are two ways to reach it, each with its own authentication.</p>
      <div class="grid-2">
        <section class="card" aria-labelledby="consumer-auth">
          <h2 id="consumer-auth">Consumer channel: your API key</h2>
          <p>
            Call <code>{location.origin}/api/v1/…</code> with the header <code>X-API-Key: qrf_…</code>. Create keys on
            your <a href="/dashboard">dashboard</a>; they work while your Studio pack is active (otherwise 402{' '}
            <code>studio_required</code>). A missing key is 401 <code>missing_api_key</code>; an unknown, revoked or
            mistyped one 401 <code>invalid_api_key</code>. Keys are only accepted in that header, never in the URL.
          </p>
          <p>
            AI designs (<code>POST /api/v1/qr/ai/generate/server</code>) cost one credit each, only on success; with
            none left: 402 <code>out_of_api_credits</code>.
          </p>
          <p>
            The pages of this site use a session cookie instead, and send <code>X-CSRF-Token</code> with every change.
          </p>
        </section>
        <section class="card" aria-labelledby="marketplace-auth">
          <h2 id="marketplace-auth">Marketplace channel: the proxy secret</h2>
          <p>
            Subscribers of the API marketplace call the engine’s <code>/api/qr/…</code> routes through the marketplace’s
            proxy, which adds its secret header to every request; a request without it is 401 <code>UNAUTHORIZED</code>.
            Requests this site relays to the engine are signed instead (an HMAC with a timestamp), never with your key.
          </p>
        </section>
      </div>
      <fieldset>
        <legend>Document</legend>
        <div class="tabs">
          {(Object.keys(DOCUMENTS) as Which[]).map((w) => (
            <label key={w}>
              <input type="radio" name="doc" value={w} checked={which === w} onChange={() => setWhich(w)} />
              <span>{DOCUMENTS[w].label}</span>
            </label>
          ))}
        </div>
      </fieldset>
      <Viewer which={which} />
    </>
  );
}

mountPage('/docs', <Docs />);
