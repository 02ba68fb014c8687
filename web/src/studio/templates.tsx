import { useEffect, useRef, useState } from 'preact/hooks';
import { Notice } from '../components/field.js';
import { ApiFailure, getJson } from '../lib/api.js';
import type { Design } from './design.js';

interface Summary {
  id: string;
  name: string;
  category: string;
  tags: string[];
  preview: string;
}

/** A preview link as a path of this site, whatever host the engine wrote into it. */
const pathOf = (url: string) => new URL(url, location.origin).pathname;

/**
 * The template gallery: the engine's list, filtered by category on the server (?category=); choosing a
 * template loads its whole design into the editor, where every field stays editable.
 */
export function TemplateGallery({ onDesign }: { onDesign: (d: Design, name: string) => void }) {
  const [categories, setCategories] = useState<string[]>([]);
  const [category, setCategory] = useState('');
  const [templates, setTemplates] = useState<Summary[]>();
  const [chosen, setChosen] = useState<string>();
  const [error, setError] = useState<string>();
  const failed = (e: unknown) => setError(e instanceof ApiFailure ? e.message : 'The templates could not be loaded.');

  useEffect(() => {
    getJson<{ templates: Summary[] }>('/api/studio/templates')
      .then((r) => setCategories([...new Set(r.templates.map((t) => t.category))].sort()))
      .catch(failed);
  }, []);
  useEffect(() => {
    const query = category === '' ? '' : `?category=${encodeURIComponent(category)}`;
    getJson<{ templates: Summary[] }>(`/api/studio/templates${query}`)
      .then((r) => setTemplates(r.templates))
      .catch(failed);
  }, [category]);

  const choose = async (t: Summary) => {
    try {
      const r = await getJson<{ config: Design }>(`/api/studio/templates/${encodeURIComponent(t.id)}`);
      setChosen(t.id);
      onDesign(r.config, t.name);
    } catch (e) {
      failed(e);
    }
  };

  return (
    <section class="card" aria-labelledby="templates-title">
      <h2 id="templates-title">2. Start from a template (optional)</h2>
      {error && <Notice kind="error">{error}</Notice>}
      <div class="field">
        <label for="template-category">Category</label>
        <select id="template-category" value={category} onChange={(e) => setCategory(e.currentTarget.value)}>
          <option value="">All categories</option>
          {categories.map((c) => (
            <option key={c} value={c}>
              {c}
            </option>
          ))}
        </select>
      </div>
      <p class="visually-hidden" role="status">
        {templates ? `${templates.length} templates shown` : ''}
      </p>
      <p class="hint" id="templates-hint">
        Arrow keys move between the templates, Enter or Space loads one.
      </p>
      {templates && <TemplateList templates={templates} chosen={chosen} onChoose={choose} />}
    </section>
  );
}

/** The column count of a grid laid out by CSS (auto-fill): how many items share the first one's row. */
const columnsOf = (items: HTMLElement[]) => items.filter((i) => i.offsetTop === items[0]?.offsetTop).length || 1;

const KEYS: Record<string, (at: number, last: number, columns: number) => number> = {
  ArrowRight: (at, last) => Math.min(last, at + 1),
  ArrowLeft: (at) => Math.max(0, at - 1),
  ArrowDown: (at, last, columns) => Math.min(last, at + columns),
  ArrowUp: (at, _, columns) => Math.max(0, at - columns),
  Home: () => 0,
  End: (_, last) => last,
  PageDown: (at, last, columns) => Math.min(last, at + 3 * columns),
  PageUp: (at, _, columns) => Math.max(0, at - 3 * columns),
};

/**
 * The templates as one listbox, one stop of the Tab key however many there are: the arrow keys move
 * between them in the grid they are drawn in (roving tabindex: only the current one is focusable),
 * Enter, Space or a click loads the one in focus, and aria-selected marks the one loaded.
 */
function TemplateList({
  templates,
  chosen,
  onChoose,
}: {
  templates: Summary[];
  chosen: string | undefined;
  onChoose: (t: Summary) => void;
}) {
  const [current, setCurrent] = useState(0);
  const list = useRef<HTMLDivElement>(null);
  const at = Math.min(current, templates.length - 1);
  useEffect(
    () =>
      setCurrent(
        Math.max(
          0,
          templates.findIndex((t) => t.id === chosen),
        ),
      ),
    [templates],
  );

  const onKeyDown = (e: KeyboardEvent) => {
    const options = [...(list.current?.querySelectorAll<HTMLElement>('[role="option"]') ?? [])];
    const move = KEYS[e.key];
    if (move) {
      e.preventDefault();
      const next = move(at, templates.length - 1, columnsOf(options));
      setCurrent(next);
      options[next]?.focus();
      options[next]?.scrollIntoView({ block: 'nearest' });
    } else if (e.key === 'Enter' || e.key === ' ') {
      e.preventDefault();
      onChoose(templates[at]!);
    }
  };

  return (
    <div
      class="templates"
      role="listbox"
      ref={list}
      aria-labelledby="templates-title"
      aria-describedby="templates-hint"
      onKeyDown={onKeyDown}
    >
      {templates.map((t, i) => (
        // biome-ignore lint/a11y/useKeyWithClickEvents: the listbox's onKeyDown takes the keys of every option.
        <div
          key={t.id}
          role="option"
          tabIndex={i === at ? 0 : -1}
          aria-selected={chosen === t.id}
          onClick={() => {
            setCurrent(i);
            onChoose(t);
          }}
        >
          <img src={pathOf(t.preview)} alt="" width={120} height={120} loading="lazy" />
          {t.name}
        </div>
      ))}
    </div>
  );
}
