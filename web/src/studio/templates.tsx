import { useEffect, useState } from 'preact/hooks';
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
      <div class="templates">
        {templates?.map((t) => (
          <button type="button" key={t.id} aria-pressed={chosen === t.id} onClick={() => choose(t)}>
            <img src={pathOf(t.preview)} alt="" width={120} height={120} loading="lazy" />
            {t.name}
          </button>
        ))}
      </div>
    </section>
  );
}
