// The traffic mix of loadtest/mix.json for the k6 scenarios, the same file loadtest/mix.ts and
// `npm run capacity` read: each request's kind in the mix's shares (a fixed order of 100), its content unique.
// k6 cannot import mix.ts; what a kind's request is follows mixedRequests there.
import http from 'k6/http';

export const MIX = JSON.parse(open('./mix.json'));

const KINDS = [];
for (const r of MIX.requests) for (let i = 0; i < Math.round(r.share); i++) KINDS.push(r.kind);
// Spread over the 100 rather than in blocks: a stride prime to the length visits every slot once.
let stride = 37;
while (KINDS.length % stride === 0) stride++;
const ORDER = KINDS.map((_, i) => KINDS[(i * stride) % KINDS.length]);

const HELPERS = ['wifi', 'vcard', 'geo'];

/** The template ids the scenario's template requests render in turn (call from setup()). */
export function templateIds(baseUrl, path = '/api/qr/templates', headers = {}) {
  const res = http.get(`${baseUrl}${path}`, { headers });
  return res.json('templates').map((t) => t.id);
}

/** The `n`th request of the mix: its kind, path (under `prefix`) and JSON body, unique for each `n`. */
export function mixRequest(n, templates, prefix = '/api') {
  const kind = ORDER[n % ORDER.length];
  const content = `${MIX.contentPrefix}${n}`;
  if (kind === 'template') {
    return {
      kind,
      path: `${prefix}/qr/templates/${templates[n % templates.length]}`,
      body: JSON.stringify({ content }),
    };
  }
  if (kind === 'content helper') {
    const helper = HELPERS[n % HELPERS.length];
    const body =
      helper === 'wifi'
        ? { ssid: `guest-${n}`, password: `passphrase-${n}` }
        : helper === 'vcard'
          ? { firstName: 'Ada', lastName: `Lovelace ${n}`, email: `ada${n}@example.com` }
          : { latitude: ((n % 1800) - 900) / 10, longitude: ((n * 7) % 3600) / 10 - 180 };
    return { kind, path: `${prefix}/qr/content/${helper}`, body: JSON.stringify(body) };
  }
  const [format, look] = kind.split(' ');
  const body = Object.assign(
    { content },
    format === 'png' ? {} : { fileFormat: format },
    look === 'styled' ? MIX.styled : {},
  );
  return { kind, path: `${prefix}/qr/generate`, body: JSON.stringify(body) };
}
