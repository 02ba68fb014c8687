/**
 * What a router promises the HTTP server (src/http/server.ts), as one suite that any implementation runs:
 * build it from a route table, then ask it for a method and a path. The server answers 404 on null, 405
 * with `Allow` on `{ allowed }`, 400 when the router throws a URIError, and otherwise calls the route's
 * handler with the params. A second router (a trie, a compiled regular expression) is correct when it
 * passes this suite unchanged.
 */
import { describe, expect, it } from 'vitest';
import type { Match, Method, Route } from '../../src/http/router.js';

/** A router built once from its table, asked once per request. */
export type Router = (method: string, path: string) => Match;
export type MakeRouter = (routes: Route[]) => Router;

/** A route with a handler of its own, so a match can be told apart from another route on the same path. */
const route = (method: Method, path: string): Route => ({ method, path, handler: () => {} });

function expectRoute(match: Match, want: Route, params: Record<string, string> = {}): void {
  expect(match).toEqual({ route: want, params });
  expect((match as { route: Route }).route).toBe(want);
}

/** The methods a 405 names: each once (`Allow` is a set), in no particular order. */
function allowedOf(match: Match): Method[] {
  expect(match).toEqual({ allowed: expect.any(Array) });
  const allowed = (match as { allowed: Method[] }).allowed;
  expect(new Set(allowed).size).toBe(allowed.length);
  return [...allowed].sort();
}

export function describeRouterContract(name: string, makeRouter: MakeRouter): void {
  describe(`router contract: ${name}`, () => {
    describe('static paths', () => {
      const ping = route('GET', '/api/ping');
      const generate = route('POST', '/api/qr/generate');
      const root = route('GET', '/');
      const router = makeRouter([ping, generate, root]);

      it('a registered path and method give that route, with no params', () => {
        expectRoute(router('GET', '/api/ping'), ping);
        expectRoute(router('POST', '/api/qr/generate'), generate);
        expectRoute(router('GET', '/'), root);
      });

      it('an unknown path is null (404), whatever the method', () => {
        expect(router('GET', '/api/nope')).toBeNull();
        expect(router('POST', '/api')).toBeNull();
        expect(router('GET', '/api/ping/more')).toBeNull();
        expect(router('DELETE', '/nowhere')).toBeNull();
        expect(makeRouter([])('GET', '/')).toBeNull();
      });

      it('segments match exactly: case, trailing slashes and empty segments are other paths', () => {
        expect(router('GET', '/API/ping')).toBeNull();
        expect(router('GET', '/api/ping/')).toBeNull();
        expect(router('GET', '/api//ping')).toBeNull();
        expect(router('GET', '//api/ping')).toBeNull();
        expect(router('GET', '')).toBeNull();
      });

      it('a static segment is compared as sent, not percent-decoded', () => {
        expect(router('GET', '/api/p%69ng')).toBeNull();
      });
    });

    describe('methods', () => {
      const get = route('GET', '/api/thing');
      const post = route('POST', '/api/thing');
      const only = route('POST', '/api/qr/generate');
      const router = makeRouter([get, post, only]);

      it('the same path under two methods gives the route of the method asked', () => {
        expectRoute(router('GET', '/api/thing'), get);
        expectRoute(router('POST', '/api/thing'), post);
      });

      it('a known path under another method gives the methods it allows (405), never a route', () => {
        expect(allowedOf(router('GET', '/api/qr/generate'))).toEqual(['POST']);
        expect(allowedOf(router('DELETE', '/api/thing'))).toEqual(['GET', 'POST']);
      });

      it('a method matches exactly: HEAD is not served by GET, and methods are case-sensitive', () => {
        expect(allowedOf(router('HEAD', '/api/thing'))).toEqual(['GET', 'POST']);
        expect(allowedOf(router('get', '/api/thing'))).toEqual(['GET', 'POST']);
      });

      it('the allowed methods come from every route whose pattern matches, static or parameter', () => {
        const r = makeRouter([route('GET', '/t/:id'), route('POST', '/t/special')]);
        expect(allowedOf(r('PUT', '/t/special'))).toEqual(['GET', 'POST']);
        expect(allowedOf(r('PUT', '/t/other'))).toEqual(['GET']);
      });
    });

    describe('parameters', () => {
      const one = route('GET', '/api/qr/templates/:id/preview');
      const two = route('GET', '/api/v/:version/item/:item');
      const router = makeRouter([one, two]);

      it('a :name segment captures one path segment under that name', () => {
        expectRoute(router('GET', '/api/qr/templates/minimal-black/preview'), one, { id: 'minimal-black' });
        expectRoute(router('GET', '/api/v/2/item/42'), two, { version: '2', item: '42' });
      });

      it('a parameter never captures an empty segment, nor more than one segment', () => {
        expect(router('GET', '/api/qr/templates//preview')).toBeNull();
        expect(router('GET', '/api/qr/templates/a/b/preview')).toBeNull();
        expect(router('GET', '/api/qr/templates/preview')).toBeNull();
      });

      it('captured segments are percent-decoded, an encoded slash staying inside its parameter', () => {
        expectRoute(router('GET', '/api/qr/templates/caf%C3%A9%20au%20lait/preview'), one, { id: 'café au lait' });
        expectRoute(router('GET', '/api/qr/templates/a%2Fb/preview'), one, { id: 'a/b' });
        expectRoute(router('GET', '/api/qr/templates/%3Aid/preview'), one, { id: ':id' });
      });

      it('a malformed escape in a captured segment throws URIError (400), never a route or a crash of another kind', () => {
        expect(() => router('GET', '/api/qr/templates/%E0%A4%A/preview')).toThrow(URIError);
        expect(() => router('GET', '/api/qr/templates/%/preview')).toThrow(URIError);
      });

      it('the params of a match are those of its own pattern only', () => {
        const x = route('GET', '/a/:x/b');
        const y = route('GET', '/a/:y/c');
        expectRoute(makeRouter([x, y])('GET', '/a/1/c'), y, { y: '1' });
      });

      it('a 405 carries no params', () => {
        expect(router('POST', '/api/v/2/item/42')).toEqual({ allowed: ['GET'] });
      });
    });

    describe('precedence: the first route registered that matches wins', () => {
      const special = route('GET', '/t/special');
      const byId = route('GET', '/t/:id');

      it('a static route registered before a parameter route takes its own path; the parameter takes the rest', () => {
        const router = makeRouter([special, byId]);
        expectRoute(router('GET', '/t/special'), special);
        expectRoute(router('GET', '/t/other'), byId, { id: 'other' });
      });

      it('a parameter route registered first takes the static path too', () => {
        const router = makeRouter([byId, special]);
        expectRoute(router('GET', '/t/special'), byId, { id: 'special' });
      });

      it('a route of the asked method wins over an earlier route of another method on the same path', () => {
        const post = route('POST', '/t/:id');
        const router = makeRouter([post, byId]);
        expectRoute(router('GET', '/t/7'), byId, { id: '7' });
        expectRoute(router('POST', '/t/7'), post, { id: '7' });
      });

      it('a 405 names a method once, however many routes of it match the path', () => {
        const router = makeRouter([byId, special]);
        expect(allowedOf(router('POST', '/t/special'))).toEqual(['GET']);
      });
    });

    describe("the service's template routes", () => {
      // The shapes of src/api/templates.ts: a list, a render under two paths, a preview.
      const list = route('GET', '/api/qr/templates');
      const render = route('POST', '/api/qr/templates/:id');
      const renderToo = route('POST', '/api/qr/templates/:id/generate');
      const preview = route('GET', '/api/qr/templates/:id/preview');
      const router = makeRouter([list, render, renderToo, preview]);

      it('each path reaches its route, and the other method of each is a 405 naming the right one', () => {
        expectRoute(router('GET', '/api/qr/templates'), list);
        expectRoute(router('POST', '/api/qr/templates/neon'), render, { id: 'neon' });
        expectRoute(router('POST', '/api/qr/templates/neon/generate'), renderToo, { id: 'neon' });
        expectRoute(router('GET', '/api/qr/templates/neon/preview'), preview, { id: 'neon' });
        expect(allowedOf(router('POST', '/api/qr/templates'))).toEqual(['GET']);
        expect(allowedOf(router('GET', '/api/qr/templates/neon'))).toEqual(['POST']);
        expect(allowedOf(router('GET', '/api/qr/templates/neon/generate'))).toEqual(['POST']);
        expect(allowedOf(router('POST', '/api/qr/templates/neon/preview'))).toEqual(['GET']);
        expect(router('GET', '/api/qr/templates/neon/other')).toBeNull();
      });
    });
  });
}
