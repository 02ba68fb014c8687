import { useEffect, useState } from 'preact/hooks';
import type { DesignJson } from '../../../src/wire/site.js';
import { asFailure, getJson, postJson } from '../lib/api.js';
import { useSession } from '../lib/session.js';
import { Field, Notice } from './field.js';

type Design = Record<string, unknown>;

/**
 * The Studio's link to the account's saved designs: a design named and saved (its content is not kept),
 * and the one `?design=<id>` names loaded when the Studio opens from the dashboard.
 */
export function SaveDesign({ design, onOpen }: { design: Design; onOpen: (d: Design, name: string) => void }) {
  const session = useSession();
  const signedIn = session.state === 'ready' && session.session.signedIn;
  const [name, setName] = useState('');
  const [said, setSaid] = useState<{ kind: 'ok' | 'error'; text: string; field?: string }>();
  const [saving, setSaving] = useState(false);

  useEffect(() => {
    const id = new URLSearchParams(location.search).get('design');
    if (!signedIn || id === null) return;
    getJson<{ designs: DesignJson[] }>('/api/account/designs').then(
      ({ designs }) => {
        const found = designs.find((d) => d.id === id);
        if (found === undefined) setSaid({ kind: 'error', text: 'That saved design is not in your account.' });
        else {
          setName(found.name);
          onOpen(found.config, found.name);
        }
      },
      (e: unknown) => setSaid({ kind: 'error', text: asFailure(e).message }),
    );
  }, [signedIn]);

  if (!signedIn) return null;
  const save = async (e: Event) => {
    e.preventDefault();
    setSaving(true);
    try {
      const { content: _, ...config } = design;
      const { design: saved } = await postJson<{ design: DesignJson }>('/api/account/designs', { name, config });
      setSaid({ kind: 'ok', text: `Saved as “${saved.name}”. Your designs are on the dashboard.` });
    } catch (failure) {
      const f = asFailure(failure);
      setSaid({ kind: 'error', text: f.message, field: f.field });
    } finally {
      setSaving(false);
    }
  };
  return (
    <section class="card" aria-labelledby="save-design-title">
      <h2 id="save-design-title">Save this design</h2>
      <form onSubmit={save}>
        <Field
          id="design-name"
          label="Design name"
          hint="Saved to your account without the content; an API key renders it with any content."
          error={said?.kind === 'error' && said.field === 'name' ? said.text : undefined}
        >
          {(a) => (
            <input {...a} required maxLength={100} value={name} onInput={(e) => setName(e.currentTarget.value)} />
          )}
        </Field>
        <button type="submit" disabled={saving || name.trim() === ''}>
          Save design
        </button>
      </form>
      <div role="status" aria-live="polite">
        {said && said.field !== 'name' && <Notice kind={said.kind}>{said.text}</Notice>}
      </div>
    </section>
  );
}
