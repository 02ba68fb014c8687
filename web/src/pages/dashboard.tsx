import { useEffect, useRef, useState } from 'preact/hooks';
import type {
  AccountJson,
  IssuedKeyJson,
  KeyJson,
  LedgerEntryJson,
  LedgerKind,
  UsageDayJson,
  UserJson,
} from '../../../src/wire/site.js';
import { AccountSettings } from '../components/account-settings.js';
import { Confirm } from '../components/confirm.js';
import { CopyButton } from '../components/copy-button.js';
import { DataTable } from '../components/data-table.js';
import { DesignsSection } from '../components/designs-section.js';
import { OrdersSection } from '../components/orders-section.js';
import { UnverifiedNotice } from '../components/email-links.js';
import { Field, Notice } from '../components/field.js';
import { mountPage } from '../components/layout.js';
import { UsageChart } from '../components/usage-chart.js';
import { asFailure, getJson, postJson } from '../lib/api.js';
import { formatDate, formatDateTime, plural } from '../lib/format.js';
import { useLoad } from '../lib/load.js';
import { useSession } from '../lib/session.js';

const MOVEMENTS: Record<LedgerKind, string> = {
  grant: 'Pack bought: credits added',
  reserve: 'Held for an AI design',
  commit: 'Spent on an AI design',
  release: 'Given back (the design failed)',
  expire: 'Given back (the hold expired)',
  refund: 'Pack refunded: credits removed',
};

function PackSection({ account }: { account: AccountJson }) {
  const p = account.activePack;
  return (
    <section class="card" aria-labelledby="pack-title">
      <h2 id="pack-title">Studio pack and credits</h2>
      {p ? (
        <p>
          Your Studio pack is active until <strong>{formatDate(p.expiresAt)}</strong> (bought{' '}
          {formatDate(p.purchasedAt)}).
        </p>
      ) : (
        <Notice kind="warn">
          You have no active Studio pack: API keys and AI designs need one. <a href="/pricing">See the packs</a>.
        </Notice>
      )}
      <p>
        <strong>{plural(account.credits.available, 'AI credit')}</strong> left
        {account.credits.reserved > 0 && `, ${plural(account.credits.reserved, 'credit')} held by designs in progress`}.
        Each successful AI design costs one credit; a failed one costs nothing.
      </p>
    </section>
  );
}

function NewKey({ issued }: { issued: IssuedKeyJson }) {
  const ref = useRef<HTMLElement>(null);
  useEffect(() => ref.current?.focus(), []);
  return (
    <section class="notice ok key-reveal" ref={ref} tabIndex={-1} aria-labelledby="new-key-title">
      <h3 id="new-key-title">Your new key{issued.name ? `: ${issued.name}` : ''}</h3>
      <p>
        <strong>Copy it now: it is shown only this once.</strong> We keep only a hash of it, so nobody can show it to
        you again. If you lose it, create a new key and revoke this one.
      </p>
      <Field id="new-key" label="API key">
        {(a) => <input {...a} type="text" readOnly value={issued.key} onFocus={(e) => e.currentTarget.select()} />}
      </Field>
      <CopyButton text={issued.key} label="Copy key" />
    </section>
  );
}

function KeysSection({ hasPack, onChange }: { hasPack: boolean; onChange: () => void }) {
  const listed = useLoad((signal) => getJson<{ keys: KeyJson[] }>('/api/account/keys', signal), []);
  const keys = listed.data?.keys;
  const [name, setName] = useState('');
  const [issued, setIssued] = useState<IssuedKeyJson>();
  const [failed, setFailed] = useState<string>();
  const [revoking, setRevoking] = useState<KeyJson>();
  const error = failed ?? listed.error?.message;

  const create = async (e: Event) => {
    e.preventDefault();
    setFailed(undefined);
    try {
      const r = await postJson<{ key: IssuedKeyJson }>('/api/account/keys', name ? { name } : {});
      setIssued(r.key);
      setName('');
      listed.reload();
    } catch (err) {
      setFailed(asFailure(err).message);
    }
  };

  const revoke = async () => {
    const key = revoking;
    setRevoking(undefined);
    if (key === undefined) return;
    try {
      await postJson(`/api/account/keys/${encodeURIComponent(key.id)}/revoke`);
      if (issued?.id === key.id) setIssued(undefined);
      listed.reload();
      onChange();
      document.getElementById('keys-title')?.focus();
    } catch (err) {
      setFailed(asFailure(err).message);
    }
  };

  return (
    <section class="card" aria-labelledby="keys-title">
      <h2 id="keys-title" tabIndex={-1}>
        API keys
      </h2>
      <p>
        Send a key in the <code>X-API-Key</code> header of every <code>/api/v1</code> call. Keys work while your Studio
        pack is active.
      </p>
      {error && <Notice kind="error">{error}</Notice>}
      <form onSubmit={create} class="row">
        <Field id="key-name" label="Name (optional)" hint="Where the key will be used, e.g. “shop backend”.">
          {(a) => (
            <input {...a} type="text" maxLength={100} value={name} onInput={(e) => setName(e.currentTarget.value)} />
          )}
        </Field>
        <div class="field">
          <button type="submit" disabled={!hasPack}>
            Create key
          </button>
          {!hasPack && <p class="hint">Creating a key needs an active Studio pack.</p>}
        </div>
      </form>
      {issued && <NewKey issued={issued} />}
      <DataTable
        caption="Your API keys"
        rows={keys}
        rowKey={(k) => k.id}
        empty="No keys yet."
        columns={[
          { key: 'name', header: 'Name', cell: (k) => k.name ?? '—' },
          { key: 'start', header: 'Key starts with', cell: (k) => <code>{k.start}…</code> },
          { key: 'created', header: 'Created', cell: (k) => formatDateTime(k.createdAt) },
          { key: 'used', header: 'Last used', cell: (k) => (k.lastUsedAt ? formatDateTime(k.lastUsedAt) : 'never') },
          {
            key: 'status',
            header: 'Status',
            cell: (k) =>
              k.revokedAt ? (
                `Revoked ${formatDateTime(k.revokedAt)}`
              ) : (
                <button
                  type="button"
                  class="danger"
                  onClick={() => setRevoking(k)}
                  aria-label={`Revoke key ${k.name ?? k.start}`}
                >
                  Revoke
                </button>
              ),
          },
        ]}
      />
      <Confirm
        open={revoking !== undefined}
        title="Revoke this key?"
        confirmLabel="Revoke key"
        onConfirm={revoke}
        onCancel={() => setRevoking(undefined)}
      >
        <p>
          Key <code>{revoking?.start}…</code>
          {revoking?.name ? ` (${revoking.name})` : ''} will stop working within a second: every call with it is then
          refused with 401 <code>invalid_api_key</code>. This cannot be undone.
        </p>
      </Confirm>
      <h3>Rotating a key</h3>
      <ol>
        <li>Create a new key here and copy it.</li>
        <li>Deploy the new key wherever the old one is used. Both keys work meanwhile.</li>
        <li>Check that the new key is in use: its “Last used” time appears above.</li>
        <li>
          Revoke the old key. From then on, calls with it are refused with 401 <code>invalid_api_key</code>.
        </li>
      </ol>
    </section>
  );
}

function LedgerSection({ version }: { version: number }) {
  const { data, error } = useLoad(
    (signal) => getJson<{ ledger: LedgerEntryJson[] }>('/api/account/ledger?limit=50', signal),
    [version],
  );
  const ledger = data?.ledger;
  return (
    <section class="card" aria-labelledby="ledger-title">
      <h2 id="ledger-title">Credit ledger</h2>
      {error && <Notice kind="error">{error.message}</Notice>}
      <DataTable
        caption="Credit movements, newest first"
        rows={ledger}
        rowKey={(e) => e.id}
        empty="No credit movements yet."
        columns={[
          { key: 'when', header: 'When', cell: (e) => formatDateTime(e.createdAt) },
          { key: 'movement', header: 'Movement', cell: (e) => MOVEMENTS[e.kind] },
          {
            key: 'credits',
            header: 'Credits',
            cell: (e) =>
              e.kind === 'commit' ? 'spent' : e.remainingChange > 0 ? `+${e.remainingChange}` : e.remainingChange,
          },
        ]}
      />
    </section>
  );
}

function SessionsSection() {
  const [asking, setAsking] = useState(false);
  const [error, setError] = useState<string>();
  const everywhere = async () => {
    setAsking(false);
    try {
      await postJson('/api/session/signout-everywhere');
      location.assign('/signin');
    } catch (e) {
      setError(asFailure(e).message);
    }
  };
  return (
    <section class="card" aria-labelledby="sessions-title">
      <h2 id="sessions-title">Sessions</h2>
      <p>Signed in on a computer you no longer use? End every session of your account, this one included.</p>
      {error && <Notice kind="error">{error}</Notice>}
      <button type="button" class="secondary" onClick={() => setAsking(true)}>
        Sign out everywhere
      </button>
      <Confirm
        open={asking}
        title="Sign out everywhere?"
        confirmLabel="Sign out everywhere"
        onConfirm={everywhere}
        onCancel={() => setAsking(false)}
      >
        <p>Every browser signed in to this account will have to sign in again. API keys keep working.</p>
      </Confirm>
    </section>
  );
}

/** What a signed-in person sees; mounted only once the session says who they are. */
function Account({ user }: { user: UserJson | undefined }) {
  const [version, setVersion] = useState(0);
  const account = useLoad((signal) => getJson<AccountJson>('/api/account', signal), [version]);
  const usage = useLoad((signal) => getJson<{ days: UsageDayJson[] }>('/api/account/usage?days=30', signal), [version]);
  const error = account.error ?? usage.error;
  return (
    <>
      <h1>Dashboard</h1>
      <p>
        Signed in as {user?.email}, account <code>{user?.customerId}</code>.
      </p>
      {user && !user.emailVerified && <UnverifiedNotice email={user.email} />}
      {error && <Notice kind="error">{error.message}</Notice>}
      {account.data && <PackSection account={account.data} />}
      {account.data && (
        <KeysSection hasPack={account.data.activePack !== null} onChange={() => setVersion((v) => v + 1)} />
      )}
      <section class="card" aria-labelledby="usage-title">
        <h2 id="usage-title">Usage, last 30 days</h2>
        {usage.data && <UsageChart days={usage.data.days} />}
      </section>
      <DesignsSection />
      <OrdersSection version={version} />
      <LedgerSection version={version} />
      <SessionsSection />
      {user && <AccountSettings user={user} />}
    </>
  );
}

function Dashboard() {
  const session = useSession();
  if (session.state === 'loading') return <p>Loading…</p>;
  if (session.state === 'failed') return <Notice kind="error">{session.error}</Notice>;
  if (!session.session.signedIn)
    return (
      <>
        <h1>Dashboard</h1>
        <Notice kind="info">
          <a href="/signin?next=/dashboard">Sign in</a> or <a href="/signup">create an account</a> to see your keys and
          credits.
        </Notice>
      </>
    );
  return <Account user={session.session.user} />;
}

mountPage('/dashboard', <Dashboard />);
