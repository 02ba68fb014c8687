import { mountPage } from '../components/layout.js';

function Home() {
  return (
    <>
      <section class="hero" aria-labelledby="hero-title">
        <h1 id="hero-title">QR codes that are proven to scan</h1>
        <p class="lead">
          Design a code in the Studio, with your colours, shapes, logo and frame, and download it as PNG, JPG, WebP, SVG
          or PDF. Every file is decoded on our side before you get it: if it would not scan, it is fixed or refused,
          never delivered.
        </p>
        <div class="actions">
          <a class="button" href="/studio">
            Open the Studio
          </a>
          <a class="button secondary" href="/signup">
            Create an account
          </a>
        </div>
      </section>
      <section class="grid-2" aria-label="What you can do">
        <div class="card">
          <h2>Design without an account</h2>
          <p>
            The Studio works for anyone: links, text, Wi-Fi, contacts, places, e-mails, messages, calls, events and SEPA
            payments, 118 templates, a live preview with its scan check in plain words.
          </p>
        </div>
        <div class="card">
          <h2>Design with AI</h2>
          <p>
            With a Studio pack, describe the look you want and the AI picks shapes and colours; each design costs one
            credit, and only when it succeeds.
          </p>
        </div>
        <div class="card">
          <h2>Use the API</h2>
          <p>
            Create an API key on your dashboard and render codes from your own code through <code>/api/v1</code>. The{' '}
            <a href="/docs">API docs</a> show every route.
          </p>
        </div>
      </section>
      <section aria-labelledby="curl-title">
        <h2 id="curl-title">One call</h2>
        <pre>
          <code>
            {`curl -s ${location.origin}/api/v1/qr/generate -H "X-API-Key: $KEY" \\
  -H 'content-type: application/json' \\
  -d '{"content":"https://example.com","responseType":"binary"}' -o qr.png`}
          </code>
        </pre>
      </section>
    </>
  );
}

mountPage('/', <Home />);
