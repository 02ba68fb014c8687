import { describe, expect, it } from 'vitest';
import { ClientGone } from '../../src/http/client-gone.js';
import { EdgeCache, namesRemoteImage } from '../../src/gateway/edge-cache.js';
import { type RelayCall, relayCall } from '../../src/gateway/engine-client.js';

const bytes = (s: string) => new TextEncoder().encode(s);

/** A call as the gateway makes it, its body's hash computed from the body given. */
const callOf = (over: Partial<Omit<RelayCall, 'bodySha256'>> = {}): RelayCall =>
  relayCall({
    method: 'POST',
    path: '/api/qr/generate',
    headers: { host: 'site.example', 'content-type': 'application/json' },
    body: bytes('{"content":"https://example.com/a"}'),
    caller: { customerId: 'cus_1' },
    signal: new ClientGone(),
    ...over,
  });

describe('namesRemoteImage: a body whose answer depends on a fetched image', () => {
  it('finds logoUrl and backgroundImageUrl, however the name is spelt in JSON', () => {
    expect(namesRemoteImage(bytes('{"content":"x","logoUrl":"https://img.example/l.png"}'))).toBe(true);
    expect(namesRemoteImage(bytes('{"content":"x","backgroundImageUrl":"https://img.example/b.png"}'))).toBe(true);
    expect(namesRemoteImage(bytes('{"content":"x","logo\\u0055rl":"https://img.example/l.png"}'))).toBe(true);
  });

  it('passes bodies without them, Url in the content and escapes included, and bodies that are not JSON', () => {
    expect(namesRemoteImage(bytes('{"content":"https://example.com/a"}'))).toBe(false);
    expect(namesRemoteImage(bytes('{"content":"https://example.com/?returnUrl=1"}'))).toBe(false);
    expect(namesRemoteImage(bytes('{"content":"line\\nbreak"}'))).toBe(false);
    expect(namesRemoteImage(bytes('{"logoUrl":'))).toBe(false);
  });
});

describe('EdgeCache.keyOf: everything the answer is a function of, and nothing else', () => {
  const cache = new EdgeCache(1024 * 1024);

  it('differs with the method, the path and query, the body and the headers a route varies on', () => {
    const base = cache.keyOf(callOf(), {});
    expect(base).toBeDefined();
    expect(cache.keyOf(callOf(), {})).toBe(base);
    expect(cache.keyOf(callOf({ path: '/api/qr/generate?x=1' }), {})).not.toBe(base);
    expect(cache.keyOf(callOf({ path: '/api/qr/templates/a' }), {})).not.toBe(base);
    expect(cache.keyOf(callOf({ method: 'GET' }), {})).not.toBe(base);
    expect(cache.keyOf(callOf({ body: bytes('{"content":"https://example.com/b"}') }), {})).not.toBe(base);
    const perHost = cache.keyOf(callOf(), { vary: ['host'] });
    expect(cache.keyOf(callOf({ headers: { host: 'other.example' } }), { vary: ['host'] })).not.toBe(perHost);
  });

  it('is the same for another customer, and for headers the engine does not read', () => {
    const base = cache.keyOf(callOf(), {});
    expect(cache.keyOf(callOf({ caller: { customerId: 'cus_2' } }), {})).toBe(base);
    expect(cache.keyOf(callOf({ headers: { host: 'other.example', 'if-none-match': '"x"' } }), {})).toBe(base);
  });

  it('gives none for a render that fetches an image', () => {
    const logo = callOf({ body: bytes('{"content":"x","logoUrl":"https://img.example/l.png"}') });
    expect(cache.keyOf(logo, { fetchesImages: true })).toBeUndefined();
    expect(cache.keyOf(callOf(), { fetchesImages: true })).toBeDefined();
  });
});
