import type { ComponentChildren } from 'preact';
import { render } from 'preact';
import { useState } from 'preact/hooks';
import { ApiFailure, postJson } from '../lib/api.js';
import { SessionContext, useLoadedSession } from '../lib/session.js';
import '../styles.css';

const NAV = [
  { href: '/studio', label: 'Studio' },
  { href: '/bulk', label: 'Bulk' },
  { href: '/pricing', label: 'Pricing' },
  { href: '/docs', label: 'API docs' },
  { href: '/dashboard', label: 'Dashboard' },
];

function SignOut() {
  const [error, setError] = useState<string>();
  const signOut = async () => {
    try {
      await postJson('/api/session/signout');
      location.assign('/');
    } catch (e) {
      setError(e instanceof ApiFailure ? e.message : 'Signing out failed.');
    }
  };
  return (
    <>
      <button type="button" class="secondary" onClick={signOut}>
        Sign out
      </button>
      {error && <span role="alert">{error}</span>}
    </>
  );
}

function Layout({ path, children }: { path: string; children: ComponentChildren }) {
  const session = useLoadedSession();
  return (
    <SessionContext.Provider value={session}>
      <a class="skip" href="#main">
        Skip to content
      </a>
      <header class="site">
        <div class="bar">
          <a class="brand" href="/">
            qrfarm
          </a>
          <nav aria-label="Main">
            <ul>
              {NAV.map((n) => (
                <li key={n.href}>
                  <a href={n.href} aria-current={n.href === path ? 'page' : undefined}>
                    {n.label}
                  </a>
                </li>
              ))}
            </ul>
          </nav>
          <div class="who">
            {session.state === 'ready' && session.session.signedIn && (
              <>
                <span>{session.session.user?.email}</span>
                <SignOut />
              </>
            )}
            {session.state === 'ready' && !session.session.signedIn && (
              <>
                <a href="/signin" aria-current={path === '/signin' ? 'page' : undefined}>
                  Sign in
                </a>
                <a href="/signup" aria-current={path === '/signup' ? 'page' : undefined}>
                  Sign up
                </a>
              </>
            )}
          </div>
        </div>
      </header>
      <main id="main" tabIndex={-1}>
        {children}
      </main>
      <footer class="site">
        <p>
          qrfarm: every code is decoded before it is delivered. <a href="/docs">API docs</a> ·{' '}
          <a href="/pricing">Studio packs</a>
        </p>
      </footer>
    </SessionContext.Provider>
  );
}

/** Renders a page into #app inside the shared header, navigation and footer. */
export function mountPage(path: string, page: ComponentChildren): void {
  render(<Layout path={path}>{page}</Layout>, document.getElementById('app')!);
}
