import { useEffect, useState } from 'preact/hooks';
import { Notice } from '../components/field.js';
import { mountPage } from '../components/layout.js';
import { ApiFailure, getJson } from '../lib/api.js';

interface PackOffer {
  id: string;
  name: string;
  credits: number;
  price: number;
  currency: string;
  validMonths: number;
}

const money = (amount: number, currency: string) =>
  new Intl.NumberFormat('en', { style: 'currency', currency }).format(amount);

function Pricing() {
  const [packs, setPacks] = useState<PackOffer[]>();
  const [error, setError] = useState<ApiFailure>();
  useEffect(() => {
    getJson<{ packs: PackOffer[] }>('/api/packs')
      .then((r) => setPacks(r.packs))
      .catch((e) => setError(e instanceof ApiFailure ? e : undefined));
  }, []);
  return (
    <>
      <h1>Studio packs</h1>
      <p>
        A Studio pack opens the API (<code>/api/v1</code>) and AI design for 12 months, with AI credits: each successful
        AI design costs one, a failed one nothing. Designing and downloading in the <a href="/studio">Studio</a> is
        free.
      </p>
      {packs && (
        <ul class="grid-2">
          {packs.map((p) => (
            <li class="card" key={p.id}>
              <h2>{p.name}</h2>
              <p>
                <strong>{money(p.price, p.currency)}</strong>: {p.credits} AI credits, {p.validMonths} months.
              </p>
            </li>
          ))}
        </ul>
      )}
      {error?.status === 404 && (
        <Notice kind="info">
          Packs cannot be bought on this site yet. The operator grants them:{' '}
          <code>npm run -s admin -- pack grant --customer &lt;account id&gt; --credits 100</code>, the account id being
          the one your dashboard shows.
        </Notice>
      )}
    </>
  );
}

mountPage('/pricing', <Pricing />);
