import { CopyButton } from './copy-button.js';

/** The key the examples show; a person puts their own in its place. */
export const KEY_PLACEHOLDER = 'qrf_YOUR_KEY';

const BODY = { content: 'https://example.com', fileFormat: 'png', responseType: 'binary' };

/**
 * The first call, in three languages, each a whole program that writes qr.png: copied as shown, with a key
 * in place of the placeholder, it works (a test runs each as the page shows it).
 */
export function examples(origin: string): Record<'curl' | 'javascript' | 'python', { label: string; code: string }> {
  const url = `${origin}/api/v1/qr/generate`;
  return {
    curl: {
      label: 'curl',
      code: `curl --fail-with-body -s ${url} \\
  -H "X-API-Key: ${KEY_PLACEHOLDER}" \\
  -H 'Content-Type: application/json' \\
  -d '${JSON.stringify(BODY)}' \\
  -o qr.png`,
    },
    javascript: {
      label: 'JavaScript (Node 18+, save as qr.mjs)',
      code: `import { writeFile } from 'node:fs/promises';

const res = await fetch('${url}', {
  method: 'POST',
  headers: { 'X-API-Key': '${KEY_PLACEHOLDER}', 'Content-Type': 'application/json' },
  body: JSON.stringify(${JSON.stringify(BODY).replaceAll(',', ', ').replaceAll('":', '": ')}),
});
if (!res.ok) throw new Error(\`\${res.status}: \${await res.text()}\`);
await writeFile('qr.png', Buffer.from(await res.arrayBuffer()));`,
    },
    python: {
      label: 'Python (requests)',
      code: `import requests

res = requests.post(
    "${url}",
    headers={"X-API-Key": "${KEY_PLACEHOLDER}"},
    json=${JSON.stringify(BODY).replaceAll(',', ', ').replaceAll('":', '": ')},
    timeout=60,
)
res.raise_for_status()
with open("qr.png", "wb") as f:
    f.write(res.content)`,
    },
  };
}

type Language = keyof ReturnType<typeof examples>;

/** The quickstart /docs opens with: a key, one call, a verified PNG. */
export function Quickstart() {
  const all = examples(location.origin);
  return (
    <section class="card" aria-labelledby="quickstart">
      <h2 id="quickstart">Quickstart: your first code in one call</h2>
      <ol>
        <li>
          Get a Studio pack on the <a href="/pricing">pricing page</a> and create an API key on your{' '}
          <a href="/dashboard">dashboard</a>.
        </li>
        <li>
          Run one of these with your key in place of <code>{KEY_PLACEHOLDER}</code>: each writes <code>qr.png</code>, a
          code the engine has read back before sending it.
        </li>
      </ol>
      {(Object.keys(all) as Language[]).map((l) => (
        <div key={l} class="example">
          <h3 id={`example-${l}`}>{all[l].label}</h3>
          <pre>
            <code data-example={l}>{all[l].code}</code>
          </pre>
          <CopyButton
            text={all[l].code}
            label={`Copy the ${l === 'javascript' ? 'JavaScript' : l === 'python' ? 'Python' : 'curl'} example`}
          />
        </div>
      ))}
      <p>
        Every design field (colours, shapes, logos, frames…) goes in the same body: the <code>qrConfig</code> schema
        below. Authorize with your key to try each route from this page.
      </p>
    </section>
  );
}
