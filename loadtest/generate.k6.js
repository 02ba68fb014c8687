// k6 load test of the engine: a ramping arrival rate (open model, so a slow server cannot slow the load
// down) of the traffic mix in loadtest/mix.json (loadtest/mix.k6.js), unique content per request (every
// request a real, verified render, never a cache hit), and thresholds on p99 latency and on the share of
// answers that are neither 200 nor 503.
//
//   k6 run -e BASE_URL=http://127.0.0.1:3000 -e SECRET=... -e PEAK_RPS=800 loadtest/generate.k6.js
import http from 'k6/http';
import { check } from 'k6';
import { Rate } from 'k6/metrics';
import { mixRequest, templateIds } from './mix.k6.js';

const BASE_URL = __ENV.BASE_URL || 'http://127.0.0.1:3000';
const PEAK = Number(__ENV.PEAK_RPS || 800);
const HEADER = __ENV.SECRET_HEADER || 'X-RapidAPI-Proxy-Secret';

const unexpected = new Rate('unexpected_status'); // anything but 200 or 503
const busy = new Rate('server_busy'); // 503 SERVER_BUSY: expected under overload

export const options = {
  scenarios: {
    ramp: {
      executor: 'ramping-arrival-rate',
      startRate: 20,
      timeUnit: '1s',
      preAllocatedVUs: 64,
      maxVUs: 512,
      stages: [
        { target: PEAK / 4, duration: '20s' }, // about the sustainable rate on 2 cores
        { target: PEAK / 4, duration: '20s' },
        { target: PEAK, duration: '20s' }, // 4× overload: only 200s and fast 503s are allowed
        { target: PEAK, duration: '20s' },
        { target: 0, duration: '10s' },
      ],
    },
  },
  thresholds: {
    'http_req_duration{status:200}': ['p(99)<150'],
    unexpected_status: ['rate<0.001'],
    http_req_failed: [{ threshold: 'rate<0.9', abortOnFail: false }],
  },
};

export function setup() {
  return { templates: templateIds(BASE_URL) };
}

export default function (data) {
  const r = mixRequest(__VU * 1_000_000 + __ITER, data.templates);
  const headers = { 'Content-Type': 'application/json' };
  if (__ENV.SECRET) headers[HEADER] = __ENV.SECRET;
  const res = http.post(`${BASE_URL}${r.path}`, r.body, { headers, timeout: '10s', tags: { kind: r.kind } });
  unexpected.add(res.status !== 200 && res.status !== 503);
  busy.add(res.status === 503);
  check(res, {
    'answered 200 or 503': (r) => r.status === 200 || r.status === 503,
    '503 carries Retry-After': (r) => r.status !== 503 || r.headers['Retry-After'] !== undefined,
  });
}
