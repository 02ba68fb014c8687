import { useState } from 'preact/hooks';
import type { DesignJson } from '../../../src/wire/site.js';
import { asFailure, changeJson, getJson } from '../lib/api.js';
import { formatDateTime } from '../lib/format.js';
import { useLoad } from '../lib/load.js';
import { Confirm } from './confirm.js';
import { DataTable } from './data-table.js';
import { Notice } from './field.js';

/** The account's saved designs: opened in the Studio, renamed in place, deleted after a confirmation. */
export function DesignsSection() {
  const { data, error, reload } = useLoad(
    (signal) => getJson<{ designs: DesignJson[] }>('/api/account/designs', signal),
    [],
  );
  const [renaming, setRenaming] = useState<{ id: string; name: string }>();
  const [deleting, setDeleting] = useState<DesignJson>();
  const [said, setSaid] = useState<{ kind: 'ok' | 'error'; text: string }>();
  const act = async (what: () => Promise<unknown>, done: string) => {
    try {
      await what();
      setSaid({ kind: 'ok', text: done });
      reload();
    } catch (e) {
      setSaid({ kind: 'error', text: asFailure(e).message });
    }
  };
  const rename = (e: Event) => {
    e.preventDefault();
    const r = renaming!;
    setRenaming(undefined);
    void act(() => changeJson('PATCH', `/api/account/designs/${r.id}`, { name: r.name }), `Renamed to “${r.name}”.`);
  };
  const designs = data?.designs;
  return (
    <section class="card" aria-labelledby="designs-title">
      <h2 id="designs-title">Saved designs</h2>
      <p>
        Save a design from the <a href="/studio">Studio</a>; render it with any content through{' '}
        <code>POST /api/v1/qr/designs/&lt;id&gt;</code> with <code>{'{"content": "…"}'}</code>.
      </p>
      {error && <Notice kind="error">{error.message}</Notice>}
      <div role="status" aria-live="polite">
        {said && <Notice kind={said.kind}>{said.text}</Notice>}
      </div>
      <DataTable
        caption="Saved designs, newest first"
        rows={designs}
        rowKey={(d) => d.id}
        empty="No saved designs yet."
        columns={[
          {
            key: 'name',
            header: 'Name',
            cell: (d) =>
              renaming?.id === d.id ? (
                <form onSubmit={rename} class="inline-form">
                  <label class="visually-hidden" for={`rename-${d.id}`}>
                    New name for {d.name}
                  </label>
                  <input
                    id={`rename-${d.id}`}
                    required
                    maxLength={100}
                    value={renaming.name}
                    onInput={(e) => setRenaming({ id: d.id, name: e.currentTarget.value })}
                  />
                  <button type="submit">Save name</button>
                  <button type="button" class="secondary" onClick={() => setRenaming(undefined)}>
                    Cancel
                  </button>
                </form>
              ) : (
                d.name
              ),
          },
          { key: 'id', header: 'Id', cell: (d) => <code>{d.id}</code> },
          { key: 'changed', header: 'Changed', cell: (d) => formatDateTime(d.updatedAt) },
          {
            key: 'actions',
            header: 'Actions',
            class: 'actions',
            cell: (d) => (
              <>
                <a class="button secondary" href={`/studio?design=${encodeURIComponent(d.id)}`}>
                  Open {d.name} in the Studio
                </a>
                <button
                  type="button"
                  class="secondary"
                  aria-label={`Rename ${d.name}`}
                  onClick={() => setRenaming({ id: d.id, name: d.name })}
                >
                  Rename
                </button>
                <button type="button" class="secondary" aria-label={`Delete ${d.name}`} onClick={() => setDeleting(d)}>
                  Delete
                </button>
              </>
            ),
          },
        ]}
      />
      <Confirm
        open={deleting !== undefined}
        title="Delete this design?"
        confirmLabel="Delete design"
        onConfirm={() => {
          const d = deleting!;
          setDeleting(undefined);
          void act(() => changeJson('DELETE', `/api/account/designs/${d.id}`), `“${d.name}” deleted.`);
        }}
        onCancel={() => setDeleting(undefined)}
      >
        <p>
          “{deleting?.name}” will be gone, and calls to <code>/api/v1/qr/designs/{deleting?.id}</code> answered 404.
        </p>
      </Confirm>
    </section>
  );
}
