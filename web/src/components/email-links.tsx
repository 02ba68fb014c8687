import { useState } from 'preact/hooks';
import { asFailure, postJson } from '../lib/api.js';
import { Notice } from './field.js';

/** The token of a mailed link: in the fragment (#token=…), which the browser never sends to a server. */
export const linkToken = (): string => new URLSearchParams(location.hash.slice(1)).get('token') ?? '';

/** Shown while the address is not verified: what it holds back, and a new link on request. */
export function UnverifiedNotice({ email }: { email: string }) {
  const [state, setState] = useState<'idle' | 'sending' | 'sent'>('idle');
  const [error, setError] = useState<string>();
  const resend = async () => {
    setState('sending');
    setError(undefined);
    try {
      await postJson('/api/session/verify-email/resend');
      setState('sent');
    } catch (e) {
      setError(asFailure(e).message);
      setState('idle');
    }
  };
  return (
    <Notice kind="warn">
      <p>
        Please confirm your e-mail address: we sent a link to <strong>{email}</strong>. Until you open it you can design
        in the Studio, but not buy a pack, make API keys or use AI credits.
      </p>
      {state === 'sent' ? (
        <p>A new link is on its way. It works for 24 hours.</p>
      ) : (
        <button type="button" class="secondary" disabled={state === 'sending'} onClick={resend}>
          {state === 'sending' ? 'Sending…' : 'Send me a new link'}
        </button>
      )}
      {error && <p class="error">{error}</p>}
    </Notice>
  );
}
