import { useState } from 'preact/hooks';
import { Field, Notice } from '../components/field.js';
import { mountPage } from '../components/layout.js';
import { postJson } from '../lib/api.js';
import { useSubmit } from '../lib/submit.js';

/** Asks for a reset link; the answer is the same whether an account has the address or not. */
function ForgotPassword() {
  const [email, setEmail] = useState('');
  const [sent, setSent] = useState(false);
  const {
    busy,
    failure: error,
    submit,
  } = useSubmit(async () => {
    await postJson('/api/session/password-reset', { email });
    setSent(true);
  });
  return (
    <div class="auth">
      <h1>Forgot your password?</h1>
      {sent ? (
        <Notice kind="ok">
          If an account uses <strong>{email}</strong>, we have sent it a link to choose a new password. The link works
          for 30 minutes. Nothing arrived? Check the spam folder, or ask again.
        </Notice>
      ) : (
        <form onSubmit={submit} noValidate>
          <p>Enter the e-mail address of your account and we will send you a link to choose a new password.</p>
          {error && error.field !== 'email' && <Notice kind="error">{error.message}</Notice>}
          <Field id="email" label="E-mail address" error={error?.field === 'email' ? error.message : undefined}>
            {(a) => (
              <input
                {...a}
                type="email"
                name="email"
                autocomplete="username"
                required
                value={email}
                onInput={(e) => setEmail(e.currentTarget.value)}
              />
            )}
          </Field>
          <div class="actions">
            <button type="submit" disabled={busy}>
              {busy ? 'Sending…' : 'Send me a link'}
            </button>
            <a href="/signin">Back to sign-in</a>
          </div>
        </form>
      )}
    </div>
  );
}

mountPage('/forgot-password', <ForgotPassword />);
