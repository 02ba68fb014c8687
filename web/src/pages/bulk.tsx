import { useEffect, useState } from 'preact/hooks';
import { qrConfigSchema } from '../../../src/schema/qr-config.js';
import { Notice } from '../components/field.js';
import { mountPage } from '../components/layout.js';
import { type ApiFailure, asFailure, currentCsrfToken, readAnswer } from '../lib/api.js';
import { useSession } from '../lib/session.js';

/** What each CSV column becomes, as the engine reads it (src/batch/parse.ts). */
type ColumnRole = 'content' | 'filename' | 'design' | 'unknown';

const FIELDS = new Set(Object.keys(qrConfigSchema.properties));

const roleOf = (column: string): ColumnRole =>
  column === 'content' ? 'content' : column === 'filename' ? 'filename' : FIELDS.has(column) ? 'design' : 'unknown';

const ROLE_TEXT: Record<ColumnRole, string> = {
  content: 'the content of each code',
  filename: 'the file name in the ZIP',
  design: 'a design field, for its row',
  unknown: 'not a QrConfig field: the batch would be refused',
};

/** The header row of a CSV: its first line split on commas outside quotes. */
function headerOf(csv: string): string[] {
  const line = csv.replace(/^\uFEFF/, '').split(/\r?\n/, 1)[0] ?? '';
  const cells: string[] = [];
  let cell = '';
  let quoted = false;
  for (const ch of line) {
    if (ch === '"') quoted = !quoted;
    else if (ch === ',' && !quoted) {
      cells.push(cell.trim());
      cell = '';
    } else cell += ch;
  }
  cells.push(cell.trim());
  return cells;
}

const rowsOf = (csv: string) => csv.split(/\r?\n/).filter((l) => l.trim() !== '').length - 1;

interface JobState {
  jobId: string;
  status: string;
  total: number;
  done: number;
  failed: number;
  progress: number;
}

/** The job's progress as the site's events say it, until it ends. */
function Progress({ job, onUpdate }: { job: JobState; onUpdate: (j: JobState) => void }) {
  useEffect(() => {
    const events = new EventSource(`/api/account/batch/${job.jobId}/events`);
    events.addEventListener('progress', (e) => {
      const next = JSON.parse((e as MessageEvent).data) as JobState;
      onUpdate(next);
      if (next.status !== 'queued' && next.status !== 'running') events.close();
    });
    return () => events.close();
  }, [job.jobId]);
  const finished = job.status !== 'queued' && job.status !== 'running';
  return (
    <section class="card" aria-labelledby="progress-title">
      <h2 id="progress-title">2. Progress</h2>
      <progress id="bulk-progress" max={1} value={job.progress} aria-label="Codes made" />
      <p aria-live="polite">
        {job.done + job.failed} of {job.total} rows: {job.done} codes made and verified, {job.failed} refused (
        {job.status}
        ).
      </p>
      {finished && (
        <p>
          <a class="button" id="bulk-download" href={`/api/account/batch/${job.jobId}/result`} download>
            Download the ZIP
          </a>{' '}
          (every code, and manifest.csv saying what became of each row)
        </p>
      )}
    </section>
  );
}

function BulkPage() {
  const session = useSession();
  const [csv, setCsv] = useState<string>();
  const [name, setName] = useState('');
  const [job, setJob] = useState<JobState>();
  const [failure, setFailure] = useState<ApiFailure>();
  if (session.state !== 'ready') return <p>Loading…</p>;
  if (!session.session.signedIn)
    return (
      <Notice kind="info">
        <a href="/signin">Sign in</a> to make codes in bulk: a CSV in, a ZIP of verified codes out.
      </Notice>
    );
  const columns = csv === undefined ? [] : headerOf(csv);
  const refused = columns.some((c) => roleOf(c) === 'unknown') || !columns.includes('content');
  const start = async () => {
    setFailure(undefined);
    try {
      const res = await fetch('/api/account/batch', {
        method: 'POST',
        credentials: 'same-origin',
        headers: { 'content-type': 'text/csv', 'x-csrf-token': await currentCsrfToken() },
        body: csv,
      });
      const queued = await readAnswer<JobState>(res);
      setJob({ ...queued, done: 0, failed: 0, progress: 0 });
    } catch (e) {
      setFailure(asFailure(e));
    }
  };
  return (
    <>
      <h1>Bulk</h1>
      <section class="card" aria-labelledby="upload-title">
        <h2 id="upload-title">1. A CSV</h2>
        <p>
          A header row with a <code>content</code> column; optionally <code>filename</code>, and any design field as a
          column of its own for its row (<code>primaryColor</code>, <code>moduleShape</code>, <code>outputWidth</code>
          …).
        </p>
        <label>
          CSV file{' '}
          <input
            type="file"
            id="bulk-file"
            accept=".csv,text/csv"
            onChange={async (e) => {
              const file = (e.currentTarget as HTMLInputElement).files?.[0];
              if (!file) return;
              setName(file.name);
              setJob(undefined);
              setCsv(await file.text());
            }}
          />
        </label>
        {csv !== undefined && (
          <>
            <p>
              {name}: {rowsOf(csv)} rows.
            </p>
            <table id="bulk-columns">
              <thead>
                <tr>
                  <th>Column</th>
                  <th>Becomes</th>
                </tr>
              </thead>
              <tbody>
                {columns.map((c) => (
                  <tr key={c}>
                    <td>
                      <code>{c}</code>
                    </td>
                    <td>{ROLE_TEXT[roleOf(c)]}</td>
                  </tr>
                ))}
              </tbody>
            </table>
            {!columns.includes('content') && <Notice kind="error">The CSV has no content column.</Notice>}
            <button type="button" id="bulk-start" disabled={refused || job !== undefined} onClick={start}>
              Make {rowsOf(csv)} codes
            </button>
          </>
        )}
        {failure && <Notice kind="error">{failure.message}</Notice>}
      </section>
      {job && <Progress job={job} onUpdate={setJob} />}
    </>
  );
}

mountPage('/bulk', <BulkPage />);
