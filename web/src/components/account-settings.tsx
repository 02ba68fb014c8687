import { useState } from 'preact/hooks';
import type { UserJson } from '../../../src/wire/site.js';
import { asFailure, postJson } from '../lib/api.js';
import { Confirm } from './confirm.js';
import { Field, Notice } from './field.js';

const SAID: Record<string, string> = {
  wrong_password: 'That is not your current password.',
  customer_exists: 'Another account already uses this address.',
};

type Outcome = { ok?: string; error?: string; field?: string } | undefined;

function failed(e: unknown): Outcome {
  const f = asFailure(e);
  return { error: SAID[f.code] ?? f.message, field: f.field };
}

function PasswordInput({
  id,
  label,
  value,
  onInput,
  error,
  autocomplete,
  hint,
}: {
  id: string;
  label: string;
  value: string;
  onInput: (v: string) => void;
  error?: string;
  autocomplete: 'current-password' | 'new-password';
  hint?: string;
}) {
  return (
    <Field id={id} label={label} error={error} hint={hint}>
      {(a) => (
        <input
          {...a}
          type="password"
          autocomplete={autocomplete}
          required
          value={value}
          onInput={(e) => onInput(e.currentTarget.value)}
        />
      )}
    </Field>
  );
}

function ChangePassword() {
  const [current, setCurrent] = useState('');
  const [next, setNext] = useState('');
  const [outcome, setOutcome] = useState<Outcome>();
  const submit = async (e: Event) => {
    e.preventDefault();
    try {
      await postJson('/api/account/password', { currentPassword: current, password: next });
      setCurrent('');
      setNext('');
      setOutcome({ ok: 'Your password is changed. Other browsers signed in to your account have been signed out.' });
    } catch (err) {
      setOutcome(failed(err));
    }
  };
  const at = (field: string) => (outcome?.field === field ? outcome.error : undefined);
  return (
    <form onSubmit={submit} noValidate aria-labelledby="password-title">
      <h3 id="password-title">Change your password</h3>
      <PasswordInput
        id="current-password"
        label="Current password"
        value={current}
        onInput={setCurrent}
        autocomplete="current-password"
        error={outcome?.error && (outcome.field === 'currentPassword' || !outcome.field) ? outcome.error : undefined}
      />
      <PasswordInput
        id="new-password"
        label="New password"
        value={next}
        onInput={setNext}
        autocomplete="new-password"
        hint="10 to 200 characters."
        error={at('password')}
      />
      {outcome?.ok && <Notice kind="ok">{outcome.ok}</Notice>}
      <button type="submit">Change password</button>
    </form>
  );
}

function ChangeEmail({ user }: { user: UserJson }) {
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [outcome, setOutcome] = useState<Outcome>();
  const submit = async (e: Event) => {
    e.preventDefault();
    try {
      const { pendingEmail } = await postJson<{ pendingEmail: string }>('/api/account/email', { email, password });
      setPassword('');
      setOutcome({
        ok: `We sent a link to ${pendingEmail}. Your address changes when you open it; until then it stays ${user.email}.`,
      });
    } catch (err) {
      setOutcome(failed(err));
    }
  };
  return (
    <form onSubmit={submit} noValidate aria-labelledby="email-title">
      <h3 id="email-title">Change your e-mail address</h3>
      <Field id="new-email" label="New e-mail address" error={outcome?.field === 'email' ? outcome.error : undefined}>
        {(a) => (
          <input
            {...a}
            type="email"
            autocomplete="email"
            required
            value={email}
            onInput={(e) => setEmail(e.currentTarget.value)}
          />
        )}
      </Field>
      <PasswordInput
        id="email-password"
        label="Your password"
        value={password}
        onInput={setPassword}
        autocomplete="current-password"
        error={outcome?.error && outcome.field !== 'email' ? outcome.error : undefined}
      />
      {outcome?.ok && <Notice kind="ok">{outcome.ok}</Notice>}
      <button type="submit">Send a confirmation link</button>
    </form>
  );
}

function DeleteAccount() {
  const [password, setPassword] = useState('');
  const [asking, setAsking] = useState(false);
  const [outcome, setOutcome] = useState<Outcome>();
  const erase = async () => {
    setAsking(false);
    try {
      await postJson('/api/account/delete', { password });
      location.assign('/');
    } catch (err) {
      setOutcome(failed(err));
    }
  };
  return (
    <form
      onSubmit={(e) => {
        e.preventDefault();
        setAsking(true);
      }}
      noValidate
      aria-labelledby="delete-title"
    >
      <h3 id="delete-title">Delete your account</h3>
      <p>
        Your API keys stop working at once, every browser is signed out, and your e-mail address and password are
        erased. Credits left are lost. Records of past orders are kept, without your name or address, as the law on
        accounting requires.
      </p>
      <PasswordInput
        id="delete-password"
        label="Your password"
        value={password}
        onInput={setPassword}
        autocomplete="current-password"
        error={outcome?.error}
      />
      <button type="submit" class="danger">
        Delete account…
      </button>
      <Confirm
        open={asking}
        title="Delete your account for good?"
        confirmLabel="Delete my account"
        onConfirm={erase}
        onCancel={() => setAsking(false)}
      >
        <p>This cannot be undone. Your keys, pack and credits go with the account.</p>
      </Confirm>
    </form>
  );
}

/** The dashboard's settings: password, address, and deleting the account. */
export function AccountSettings({ user }: { user: UserJson }) {
  return (
    <section class="card settings" aria-labelledby="settings-title">
      <h2 id="settings-title">Account settings</h2>
      <ChangePassword />
      <ChangeEmail user={user} />
      <DeleteAccount />
    </section>
  );
}
