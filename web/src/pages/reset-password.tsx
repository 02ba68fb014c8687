import { useState } from 'preact/hooks';
import { linkToken } from '../components/email-links.js';
import { Field, Notice } from '../components/field.js';
import { mountPage } from '../components/layout.js';
import { postJson } from '../lib/api.js';
import { useSubmit } from '../lib/submit.js';

// Read once, before the address bar forgets it.
const token = linkToken();
if (token !== '') history.replaceState(null, '', location.pathname);

/** The page the reset link opens: a new password, then sign in with it. */
function ResetPassword() {
  const [password, setPassword] = useState('');
  const [done, setDone] = useState(false);
  const { busy, failure, submit } = useSubmit(async () => {
    await postJson('/api/session/password-reset/confirm', { token, password });
    setDone(true);
  });
  const error = failure && {
    field: failure.field === 'password' ? 'password' : undefined,
    message:
      failure.code === 'invalid_token'
        ? 'This link has already been used or has expired (links work for 30 minutes). Ask for a new one.'
        : failure.message,
  };
  if (token === '')
    return (
      <div class="auth">
        <h1>Choose a new password</h1>
        <Notice kind="error">
          This link is incomplete. Open the link from the e-mail again, or{' '}
          <a href="/forgot-password">ask for a new one</a>.
        </Notice>
      </div>
    );
  return (
    <div class="auth">
      <h1>Choose a new password</h1>
      {done ? (
        <Notice kind="ok">
          Your password is changed, and every browser signed in to your account has been signed out.{' '}
          <a href="/signin">Sign in</a> with your new password.
        </Notice>
      ) : (
        <form onSubmit={submit} noValidate>
          {error && error.field === undefined && (
            <Notice kind="error">
              {error.message} <a href="/forgot-password">Ask for a new link</a>.
            </Notice>
          )}
          <Field
            id="password"
            label="New password"
            hint="10 to 200 characters. A long phrase is easier to remember than symbols."
            error={error?.field === 'password' ? error.message : undefined}
          >
            {(a) => (
              <input
                {...a}
                type="password"
                name="password"
                autocomplete="new-password"
                required
                minLength={10}
                value={password}
                onInput={(e) => setPassword(e.currentTarget.value)}
              />
            )}
          </Field>
          <div class="actions">
            <button type="submit" disabled={busy}>
              {busy ? 'Saving…' : 'Save the new password'}
            </button>
          </div>
        </form>
      )}
    </div>
  );
}

mountPage('/reset-password', <ResetPassword />);
