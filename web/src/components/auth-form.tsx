import { useState } from 'preact/hooks';
import type { SignedInJson } from '../../../src/wire/site.js';
import { asFailure, postJson, rememberCsrfToken } from '../lib/api.js';
import { useSession } from '../lib/session.js';
import { Field, Notice } from './field.js';

/** Where to go after signing in: ?next= when it is a path of this site, else the dashboard. */
function nextPath(): string {
  const next = new URLSearchParams(location.search).get('next');
  return next !== null && /^\/(?!\/)[\w\-/?=&.%]*$/.test(next) ? next : '/dashboard';
}

const MESSAGES: Record<string, string> = {
  customer_exists:
    'An account with this e-mail address already exists. Sign in instead, or reset its password if you forgot it.',
  invalid_credentials: 'The e-mail address or the password is wrong.',
  csrf_failed: 'This form has expired. Reload the page and try again.',
  offline: 'The site could not be reached. Try again.',
};

/** Sign-up and sign-in: the same two fields, the server's refusals shown at the field they name. */
export function AuthForm({ mode }: { mode: 'signup' | 'signin' }) {
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [errors, setErrors] = useState<{ email?: string; password?: string; form?: string }>({});
  const [busy, setBusy] = useState(false);
  const signup = mode === 'signup';
  const session = useSession();

  const submit = async (e: Event) => {
    e.preventDefault();
    setBusy(true);
    setErrors({});
    try {
      const done = await postJson<SignedInJson>(`/api/session/${mode}`, { email, password });
      rememberCsrfToken(done.csrfToken);
      location.assign(nextPath());
    } catch (err) {
      const failure = asFailure(err);
      const message = MESSAGES[failure.code] ?? failure.message;
      if (failure.field === 'email' || failure.field === 'password') setErrors({ [failure.field]: message });
      else setErrors({ form: message });
      document.getElementById(failure.field === 'password' ? 'password' : 'email')?.focus();
      setBusy(false);
    }
  };

  if (session.state === 'ready' && session.session.signedIn)
    return (
      <div class="auth">
        <h1>{signup ? 'Create your account' : 'Sign in'}</h1>
        <Notice kind="info">
          You are signed in as {session.session.user?.email}. <a href={nextPath()}>Continue</a>, or sign out first to
          use another account.
        </Notice>
      </div>
    );
  return (
    <div class="auth">
      <h1>{signup ? 'Create your account' : 'Sign in'}</h1>
      {errors.form && <Notice kind="error">{errors.form}</Notice>}
      <form onSubmit={submit} noValidate>
        <Field id="email" label="E-mail address" error={errors.email}>
          {(a) => (
            <input
              {...a}
              type="email"
              name="email"
              autocomplete={signup ? 'email' : 'username'}
              required
              value={email}
              onInput={(e) => setEmail(e.currentTarget.value)}
            />
          )}
        </Field>
        <Field
          id="password"
          label="Password"
          hint={signup ? '10 to 200 characters. A long phrase is easier to remember than symbols.' : undefined}
          error={errors.password}
        >
          {(a) => (
            <input
              {...a}
              type="password"
              name="password"
              autocomplete={signup ? 'new-password' : 'current-password'}
              required
              minLength={signup ? 10 : undefined}
              value={password}
              onInput={(e) => setPassword(e.currentTarget.value)}
            />
          )}
        </Field>
        <div class="actions">
          <button type="submit" disabled={busy}>
            {signup ? 'Create account' : 'Sign in'}
          </button>
          {signup ? <a href="/signin">I already have an account</a> : <a href="/signup">Create an account</a>}
          {!signup && <a href="/forgot-password">Forgot your password?</a>}
        </div>
      </form>
    </div>
  );
}
