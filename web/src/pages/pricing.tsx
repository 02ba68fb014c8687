import { mountPage } from '../components/layout.js';

function Pricing() {
  return (
    <>
      <h1>Studio packs</h1>
      <p>
        A Studio pack opens the API (<code>/api/v1</code>) and AI design for 12 months, with AI credits: each successful
        AI design costs one.
      </p>
    </>
  );
}

mountPage('/pricing', <Pricing />);
