import { useEffect, useState } from 'preact/hooks';
import type { UserJson } from '../../../src/wire/site.js';
import { linkToken } from '../components/email-links.js';
import { Notice } from '../components/field.js';
import { mountPage } from '../components/layout.js';
import { asFailure, postJson } from '../lib/api.js';

const MESSAGES: Record<string, string> = {
  invalid_token: 'This link has already been used or has expired. Sign in and ask for a new one on your dashboard.',
  customer_exists: 'Another account has confirmed this address in the meantime, so it cannot be yours here.',
};

/** The page the mailed link opens: it sends the link's token, and says what came of it. */
function VerifyEmail() {
  const [state, setState] = useState<{ user?: UserJson; error?: string }>({});
  useEffect(() => {
    const token = linkToken();
    // The token leaves the address bar at once: it is not kept in the history.
    history.replaceState(null, '', location.pathname);
    if (token === '') {
      setState({ error: 'This link is incomplete. Open the link from the e-mail again, or copy all of it.' });
      return;
    }
    postJson<{ user: UserJson }>('/api/session/verify-email', { token }).then(
      ({ user }) => setState({ user }),
      (e) => {
        const f = asFailure(e);
        setState({ error: MESSAGES[f.code] ?? f.message });
      },
    );
  }, []);
  return (
    <div class="auth">
      <h1>Confirm your e-mail address</h1>
      {state.user === undefined && state.error === undefined && <p>Confirming…</p>}
      {state.user && (
        <Notice kind="ok">
          Thank you: <strong>{state.user.email}</strong> is confirmed. You can now buy a pack and make API keys.{' '}
          <a href="/dashboard">Go to your dashboard</a>.
        </Notice>
      )}
      {state.error && <Notice kind="error">{state.error}</Notice>}
    </div>
  );
}

mountPage('/verify-email', <VerifyEmail />);
