// k6 load test of the consumer gateway with a user API key, at a constant arrival rate (open model): the
// traffic mix of loadtest/mix.json (loadtest/mix.k6.js) under /api/v1, CACHED_SHARE percent (default 50)
// of the requests instead one repeated design (the edge and render caches), the rest unique (a real
// verified render each). Thresholds: p99 of 200s, and no answer but 200 or 503 (429 is
// counted apart: raise QR_LIMIT_GENERATION on the site for a load test, or every key stops at 60/min).
//
//   npm run admin -- quickstart --json          # prints { key, ... }
//   k6 run -e SITE_URL=http://127.0.0.1:3001 -e API_KEY=qrf_... -e RPS=200 loadtest/gateway.k6.js
import http from 'k6/http';
import { check } from 'k6';
import { Rate } from 'k6/metrics';
import { mixRequest, templateIds } from './mix.k6.js';

const SITE_URL = __ENV.SITE_URL || 'http://127.0.0.1:3001';
const RPS = Number(__ENV.RPS || 200);
const CACHED_SHARE = Number(__ENV.CACHED_SHARE || 50);

const unexpected = new Rate('unexpected_status'); // anything but 200, 429 or 503
const limited = new Rate('rate_limited'); // 429: the per-customer limit, not an error of the service

export const options = {
  scenarios: {
    steady: {
      executor: 'constant-arrival-rate',
      rate: RPS,
      timeUnit: '1s',
      duration: '60s',
      preAllocatedVUs: 64,
      maxVUs: 256,
    },
  },
  thresholds: {
    'http_req_duration{status:200}': ['p(99)<150'],
    unexpected_status: ['rate<0.001'],
  },
};

export function setup() {
  return { templates: templateIds(SITE_URL, '/api/v1/qr/templates', { 'X-API-Key': __ENV.API_KEY }) };
}

export default function (data) {
  const n = __VU * 1_000_000 + __ITER;
  const cached = n % 100 < CACHED_SHARE;
  const r = cached
    ? {
        kind: 'cached',
        path: '/api/v1/qr/generate',
        body: JSON.stringify({ content: 'https://example.com/k6/cached' }),
      }
    : mixRequest(n, data.templates, '/api/v1');
  const res = http.post(`${SITE_URL}${r.path}`, r.body, {
    headers: { 'Content-Type': 'application/json', 'X-API-Key': __ENV.API_KEY },
    timeout: '10s',
    tags: { kind: r.kind },
  });
  unexpected.add(res.status !== 200 && res.status !== 429 && res.status !== 503);
  limited.add(res.status === 429);
  check(res, {
    'answered 200, 429 or 503': (r) => r.status === 200 || r.status === 429 || r.status === 503,
    'carries RateLimit': (r) => r.headers.Ratelimit !== undefined || r.headers.RateLimit !== undefined,
  });
}
