import { useState } from 'preact/hooks';
import { Field, Notice } from '../components/field.js';
import { type ApiFailure, asFailure, getJson, postJson } from '../lib/api.js';
import { plural } from '../lib/format.js';
import { useLoad } from '../lib/load.js';
import { useSession } from '../lib/session.js';
import { STYLE_PRESETS } from '../../../src/ai/system-prompt.js';
import type { AccountJson } from '../../../src/wire/site.js';
import type { Design } from './design.js';
import { Refusal } from './words.js';

interface AiAnswer {
  generatedConfig: Design;
  aiExplanation: string;
  creditsRemaining: number;
}

/**
 * Design with AI: the prompt goes to the server's AI (POST /api/account/ai) for a signed-in account
 * with a Studio pack, one credit per design that comes back; the design is loaded into the editor.
 */
export function AiBox({
  content,
  design,
  onDesign,
}: {
  content: string | undefined;
  design: Design;
  onDesign: (d: Design) => void;
}) {
  const session = useSession();
  const signedIn = session.state === 'ready' && session.session.signedIn;
  const { data: account } = useLoad(
    (signal) => (signedIn ? getJson<AccountJson>('/api/account', signal) : Promise.resolve(undefined)),
    [signedIn],
  );
  const hasPack = account && account.activePack !== null;
  const [creditsLeft, setCreditsLeft] = useState<number>();
  const credits = creditsLeft ?? account?.credits.available;
  const [prompt, setPrompt] = useState('');
  const [preset, setPreset] = useState('luxury');
  const [busy, setBusy] = useState(false);
  const [explanation, setExplanation] = useState<string>();
  const [error, setError] = useState<ApiFailure>();

  const run = async (e: Event) => {
    e.preventDefault();
    if (content === undefined) return;
    setBusy(true);
    setError(undefined);
    setExplanation(undefined);
    try {
      const body: Design = { content, prompt, stylePreset: preset, outputWidth: 480 };
      if (design.logoBase64) body.logoBase64 = design.logoBase64;
      const r = await postJson<AiAnswer>('/api/account/ai', body);
      onDesign(r.generatedConfig);
      setExplanation(r.aiExplanation);
      setCreditsLeft(r.creditsRemaining);
    } catch (err) {
      setError(asFailure(err));
    }
    setBusy(false);
  };

  return (
    <section class="card" aria-labelledby="ai-title">
      <h2 id="ai-title">Design with AI</h2>
      {!signedIn && (
        <p>
          <a href="/signin?next=/studio">Sign in</a> with a Studio pack to describe a look and let the AI design it (one
          credit per design).
        </p>
      )}
      {signedIn && hasPack === false && (
        <p>
          AI designs need a Studio pack. <a href="/pricing">See the packs</a>.
        </p>
      )}
      {signedIn && hasPack && (
        <form onSubmit={run}>
          <Field
            id="ai-prompt"
            label="Describe the look"
            hint="Colours, mood, shapes, the kind of place or brand: up to 10,000 characters."
          >
            {(a) => (
              <textarea
                {...a}
                required
                maxLength={10000}
                value={prompt}
                placeholder="calm teal for a tea shop, rounded dots"
                onInput={(ev) => setPrompt(ev.currentTarget.value)}
              />
            )}
          </Field>
          <Field id="ai-preset" label="Style">
            {(a) => (
              <select {...a} value={preset} onChange={(ev) => setPreset(ev.currentTarget.value)}>
                {STYLE_PRESETS.map((p) => (
                  <option key={p}>{p}</option>
                ))}
              </select>
            )}
          </Field>
          <div class="actions">
            <button type="submit" disabled={busy || content === undefined || prompt.trim() === ''}>
              {busy ? 'Designing…' : 'Design with AI (1 credit)'}
            </button>
            {credits !== undefined && <span data-testid="ai-credits">{plural(credits, 'credit')} left</span>}
          </div>
        </form>
      )}
      <div role="status" aria-live="polite">
        {explanation && (
          <Notice kind="ok">
            <strong>Loaded into the editor.</strong> {explanation}
          </Notice>
        )}
      </div>
      {error && (
        <Notice kind="error">
          <Refusal failure={error} />
          {error.envelope.pricing && (
            <>
              {' '}
              <a href="/pricing">See the packs</a>.
            </>
          )}
        </Notice>
      )}
    </section>
  );
}
