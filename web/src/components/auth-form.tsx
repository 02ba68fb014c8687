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

/**
 * The sign-up hint, as the password is typed: the server's rule (src/accounts/passwords.ts, checkPassword)
 * as far as the page can tell without its dictionaries; common and easily guessed passwords are refused there.
 */
function passwordHint(password: string, email: string): string {
  const rule =
    '10 to 200 characters, not containing the name of your e-mail address; common or easily guessed passwords are refused. A phrase of several unrelated words is easy to remember and hard to guess.';
  if (password === '') return rule;
  const length = [...password].length;
  if (length < 10) return `${length} of at least 10 characters. ${rule}`;
  if (length > 200) return `${length} characters: at most 200.`;
  const local = email.trim().toLowerCase().split('@')[0] ?? '';
  if (local.length >= 3 && password.toLowerCase().includes(local))
    return `It contains “${local}”, the name of your e-mail address: choose another.`;
  const kinds = [/[a-z]/, /[A-Z]/, /[0-9]/, /[^a-zA-Z0-9]/].filter((r) => r.test(password)).length;
  const words = password.trim().split(/\s+/).length;
  return length >= 16 || words >= 3 || (length >= 12 && kinds >= 3)
    ? 'Looks strong; the server checks it against common passwords.'
    : 'Long enough, but it could be guessed: a longer phrase of unrelated words is stronger.';
}

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
          hint={signup ? passwordHint(password, email) : undefined}
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
