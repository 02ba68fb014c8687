import { useState } from 'preact/hooks';
import type { AccountJson, CatalogueJson, OfferJson, OrderJson, WaiverTextJson } from '../../../src/wire/site.js';
import { UnverifiedNotice } from '../components/email-links.js';
import { Notice } from '../components/field.js';
import { mountPage } from '../components/layout.js';
import { type ApiFailure, asFailure, getJson, postJson } from '../lib/api.js';
import { formatDate } from '../lib/format.js';
import { useLoad } from '../lib/load.js';
import { useSession } from '../lib/session.js';

const money = (minor: number, currency: string) =>
  new Intl.NumberFormat('en', { style: 'currency', currency }).format(minor / 100);

/** What Stripe's return to this page says (`?checkout=success` or `cancelled`). */
function Returned() {
  const outcome = new URLSearchParams(location.search).get('checkout');
  if (outcome === 'success')
    return (
      <Notice kind="ok">
        Thank you: the payment went through. Your pack appears on your <a href="/dashboard">dashboard</a> as soon as the
        payment provider confirms it, usually within seconds. A confirmation quoting your waiver is sent by e-mail.
      </Notice>
    );
  if (outcome === 'cancelled') return <Notice kind="info">The payment was cancelled: nothing was charged.</Notice>;
  return null;
}

function Confirmation({ order, offer }: { order: OrderJson; offer: OfferJson }) {
  return (
    <section class="notice ok" aria-labelledby="confirmation-title" tabIndex={-1} ref={(el) => el?.focus()}>
      <h2 id="confirmation-title">Order confirmed</h2>
      <p>
        Order <code>{order.orderId}</code>: {offer.name}, {money(offer.price, offer.currency)}
        {order.testMode && ' (test mode: nothing was charged)'}.
      </p>
      {order.credits !== undefined && order.expiresAt !== undefined && (
        <p>
          {order.credits} AI credits are on your account until {formatDate(order.expiresAt)}. A confirmation quoting
          your waiver of the right of withdrawal is kept on a durable medium (e-mail).
        </p>
      )}
      <p>
        <a href="/dashboard">Go to your dashboard</a> to make an API key, or <a href="/studio">design with AI</a>.
      </p>
    </section>
  );
}

/**
 * What buying `o` now does for this account, said before payment: a Studio pack bought while one runs
 * extends it rather than starting over.
 */
function effectOf(o: OfferJson, account: AccountJson | undefined): string {
  if (o.kind === 'topup') return `adds ${o.credits} AI credits to your Studio pack, for ${o.validMonths} months.`;
  const active = account?.activePack;
  if (active && account?.studioExtendsTo)
    return `you have a Studio pack until ${formatDate(active.expiresAt)}: buying another now extends it to ${formatDate(account.studioExtendsTo)} (${o.validMonths} months from its end) and adds ${o.credits} AI credits.`;
  return `the API and ${o.credits} AI credits for ${o.validMonths} months.`;
}

/** Why some packs are not offered here, in words. */
function NotOffered({ serverAi, hasStudio }: { serverAi: boolean; hasStudio: boolean }) {
  if (!serverAi)
    return (
      <Notice kind="info">
        AI design is not available on this site (no AI provider is configured), so AI credit top-ups are not sold here.
        The Studio pack still opens the API; its AI credits can be spent only once AI is configured.
      </Notice>
    );
  if (!hasStudio)
    return (
      <Notice kind="info">
        Top-ups of AI credits add to an active Studio pack, so they are offered once you have one: buy the Studio pack
        first.
      </Notice>
    );
  return null;
}

function Checkout({
  offers,
  waiver,
  email,
  account,
}: {
  offers: OfferJson[];
  waiver: WaiverTextJson;
  email: string;
  account: AccountJson | undefined;
}) {
  const [packId, setPackId] = useState(offers[0]?.id ?? '');
  const [consent, setConsent] = useState(false);
  const [acknowledgement, setAcknowledgement] = useState(false);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<ApiFailure>();
  const [order, setOrder] = useState<OrderJson>();
  const offer = offers.find((o) => o.id === packId);

  const submit = async (e: Event) => {
    e.preventDefault();
    setBusy(true);
    setError(undefined);
    try {
      const answer = await postJson<OrderJson>('/api/checkout', {
        packId,
        withdrawalWaiver: { consent, acknowledgement, textVersion: waiver.textVersion },
      });
      if (answer.status === 'open' && answer.checkoutUrl) {
        location.assign(answer.checkoutUrl);
        return;
      }
      setOrder(answer);
    } catch (err) {
      const failure = asFailure(err);
      setError(failure);
      if (failure.field) document.getElementById(failure.field)?.focus();
    }
    setBusy(false);
  };

  if (order && offer) return <Confirmation order={order} offer={offer} />;
  const errorAt = (field: string) =>
    error?.field === field ? (
      <p class="error" id={`${field}-error`}>
        {error.message}
      </p>
    ) : null;
  return (
    <form onSubmit={submit} noValidate>
      <fieldset>
        <legend>1. Choose</legend>
        {offers.map((o) => (
          <label class="check" key={o.id}>
            <input type="radio" name="pack" checked={packId === o.id} onChange={() => setPackId(o.id)} />
            <span>
              <strong>{o.name}</strong>: {money(o.price, o.currency)}; {effectOf(o, account)}
            </span>
          </label>
        ))}
      </fieldset>
      <fieldset>
        <legend>2. Your right of withdrawal</legend>
        <p>
          Packs are digital content made available at once. To receive yours now, you waive your 14-day right of
          withdrawal: both boxes are needed, and neither is ticked for you.
        </p>
        <label class="check" for="withdrawalWaiver.consent">
          <input
            id="withdrawalWaiver.consent"
            type="checkbox"
            checked={consent}
            onChange={(e) => setConsent(e.currentTarget.checked)}
            aria-describedby={
              error?.field === 'withdrawalWaiver.consent' ? 'withdrawalWaiver.consent-error' : undefined
            }
          />
          <span>{waiver.consent}</span>
        </label>
        {errorAt('withdrawalWaiver.consent')}
        <label class="check" for="withdrawalWaiver.acknowledgement">
          <input
            id="withdrawalWaiver.acknowledgement"
            type="checkbox"
            checked={acknowledgement}
            onChange={(e) => setAcknowledgement(e.currentTarget.checked)}
            aria-describedby={
              error?.field === 'withdrawalWaiver.acknowledgement' ? 'withdrawalWaiver.acknowledgement-error' : undefined
            }
          />
          <span>{waiver.acknowledgement}</span>
        </label>
        {errorAt('withdrawalWaiver.acknowledgement')}
      </fieldset>
      <fieldset>
        <legend>3. Pay</legend>
        <p>
          The pack goes to your account, <strong>{email}</strong>. You pay on the payment provider’s page and come back
          here; on a test site the order completes at once and nothing is charged.
        </p>
        {error && !error.field?.startsWith('withdrawalWaiver.') && <Notice kind="error">{error.message}</Notice>}
        <button type="submit" disabled={busy || offer === undefined}>
          {busy ? 'Placing the order…' : `Buy for ${offer ? money(offer.price, offer.currency) : '…'}`}
        </button>
      </fieldset>
    </form>
  );
}

function Pricing() {
  const session = useSession();
  const { data: catalogue, error } = useLoad((signal) => getJson<CatalogueJson>('/api/packs', signal), []);
  const user = session.state === 'ready' ? session.session.user : undefined;
  const account = useLoad(
    (signal) => (user ? getJson<AccountJson>('/api/account', signal) : Promise.resolve(undefined)),
    [user?.customerId],
  );
  const hasStudio = account.data?.activePack != null;
  // A top-up is offered only to an account with an active Studio pack (the site refuses it otherwise).
  const offers = catalogue?.packs.filter((o) => o.kind === 'studio' || hasStudio) ?? [];
  return (
    <>
      <h1>Studio packs</h1>
      <p>
        A Studio pack opens the API (<code>/api/v1</code>) and AI design for 12 months, with AI credits: each successful
        AI design costs one, a failed one nothing. Designing and downloading in the <a href="/studio">Studio</a> is
        free.
      </p>
      <Returned />
      {error?.status === 404 && (
        <Notice kind="info">
          Packs cannot be bought on this site. The operator grants them:{' '}
          <code>npm run -s admin -- pack grant --customer &lt;account id&gt; --credits 100</code>, the account id being
          the one your dashboard shows.
        </Notice>
      )}
      {error && error.status !== 404 && <Notice kind="error">{error.message}</Notice>}
      {catalogue && session.state === 'ready' && !user && (
        <>
          <ul class="grid-2">
            {catalogue.packs.map((o) => (
              <li class="card" key={o.id}>
                <h2>{o.name}</h2>
                <p>
                  <strong>{money(o.price, o.currency)}</strong>: {o.credits} AI credits for {o.validMonths} months
                  {o.kind === 'topup' && ', added to an active Studio pack'}.
                </p>
              </li>
            ))}
          </ul>
          <Notice kind="info">
            <a href="/signin?next=/pricing">Sign in</a> or <a href="/signup?next=/pricing">create an account</a> to buy:
            the pack goes to your account, where your API keys are. A new account confirms its e-mail address first.
          </Notice>
          {!catalogue.serverAi.available && <NotOffered serverAi={false} hasStudio={false} />}
        </>
      )}
      {catalogue && user && !user.emailVerified && <UnverifiedNotice email={user.email} />}
      {catalogue && user?.emailVerified && account.error && <Notice kind="error">{account.error.message}</Notice>}
      {/* Only once the account's own answer is in: before it, whether top-ups may be offered is not known, and
          a checkout shown from a guess would vanish while the account loads. */}
      {catalogue && user?.emailVerified && account.data !== undefined && !account.loading && (
        <>
          <NotOffered serverAi={catalogue.serverAi.available} hasStudio={hasStudio} />
          <Checkout offers={offers} waiver={catalogue.withdrawalWaiver} email={user.email} account={account.data} />
        </>
      )}
    </>
  );
}

mountPage('/pricing', <Pricing />);
