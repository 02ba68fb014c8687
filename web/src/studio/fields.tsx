import { Field } from '../components/field.js';
import { DEFAULTS, type Design, fieldSchema, type Pace } from './design.js';
import { colourDefault, EYES, hintOf, labelOf } from './labels.js';

/** The value at a dotted path (`centerText.color`, `finderEyes.1.rotation`). */
export function valueAt(design: Design, path: string): unknown {
  let v: unknown = design;
  for (const part of path.split('.'))
    v = v === undefined || v === null ? undefined : (v as Record<string, unknown>)[part];
  return v;
}

const isEmpty = (v: unknown): boolean =>
  v === undefined || (typeof v === 'object' && v !== null && !Array.isArray(v) && Object.keys(v).length === 0);

/**
 * The design with the value at `path` replaced (undefined removes it); objects and lists left empty by a
 * removal go too, so the body never carries `{}`.
 */
export function withValue(design: Design, path: string, value: unknown): Design {
  const [head, ...rest] = path.split('.') as [string, ...string[]];
  const current = design[head];
  let next: unknown;
  if (rest.length === 0) next = value;
  else if (Array.isArray(current) || /^\d+$/.test(rest[0]!)) {
    const list = [...((current as unknown[]) ?? [])];
    const index = Number(rest[0]);
    while (list.length <= index) list.push({});
    list[index] = rest.length === 1 ? value : withValue((list[index] as Design) ?? {}, rest.slice(1).join('.'), value);
    while (list.length > 0 && isEmpty(list[list.length - 1])) list.pop();
    next = list.length === 0 ? undefined : list.map((x) => (isEmpty(x) ? {} : x));
  } else next = withValue((current as Design) ?? {}, rest.join('.'), value);
  const out = { ...design };
  if (isEmpty(next)) delete out[head];
  else out[head] = next;
  return out;
}

export interface FieldProps {
  design: Design;
  onChange: (d: Design, pace: Pace) => void;
  problems: Map<string, string>;
}

/** A control of one field; its label is the page's (labels.ts) unless given. */
export type Control = FieldProps & { path: string; label?: string };

export const idOf = (path: string) => `f-${path.replace(/\./g, '-')}`;

/**
 * A hex colour: the browser's picker for #RRGGBB beside a text box that also takes #RGB and #RRGGBBAA.
 * Empty, the box says what the colour then is in this design (the code colour it follows, say).
 */
export function ColourField({ path, label = labelOf(path), design, onChange, problems }: Control) {
  const value = valueAt(design, path) as string | undefined;
  const standIn = colourDefault(design, path);
  const fallback = standIn.colour;
  const shown = value ?? '';
  const sixDigit = /^#[0-9a-f]{6}$/i.test(shown)
    ? shown
    : /^#[0-9a-f]{3}$/i.test(shown)
      ? `#${[...shown.slice(1)].map((c) => c + c).join('')}`
      : /^#[0-9a-f]{8}$/i.test(shown)
        ? shown.slice(0, 7)
        : fallback.slice(0, 7);
  const id = idOf(path);
  return (
    <Field id={id} label={label} hint={hintOf(path)} error={problems.get(path)}>
      {(a) => (
        <div class="colour">
          <input
            type="color"
            aria-label={`${label}: colour picker`}
            value={sixDigit}
            onInput={(e) => onChange(withValue(design, path, e.currentTarget.value.toUpperCase()), 'typing')}
          />
          <input
            {...a}
            type="text"
            placeholder={value === undefined ? standIn.words : undefined}
            value={shown}
            spellcheck={false}
            onInput={(e) => onChange(withValue(design, path, e.currentTarget.value.trim() || undefined), 'typing')}
          />
        </div>
      )}
    </Field>
  );
}

/**
 * Any scalar field, its control chosen by its schema: a list for an enumeration, a slider with a number
 * box for a bounded number, a check box for yes/no, a text box otherwise. Emptying a box returns the
 * field to its default.
 */
export function SchemaField({
  path,
  label = labelOf(path),
  design,
  onChange,
  problems,
  multiline,
}: Control & { multiline?: boolean }) {
  const schema = fieldSchema(path);
  const value = valueAt(design, path);
  const fallback = DEFAULTS[path];
  const id = idOf(path);
  const hint = hintOf(path);
  const set = (v: unknown, pace: Pace = 'now') => onChange(withValue(design, path, v), pace);
  if (schema.type === 'boolean')
    return (
      <div class="field">
        <label class="check" for={id}>
          <input
            id={id}
            type="checkbox"
            checked={(value ?? fallback ?? false) as boolean}
            onChange={(e) => set(e.currentTarget.checked === fallback ? undefined : e.currentTarget.checked)}
            aria-describedby={`${id}-hint`}
          />
          <span>{label}</span>
        </label>
        <p class="hint" id={`${id}-hint`}>
          {hint}
        </p>
      </div>
    );
  return (
    <Field id={id} label={label} hint={hint} error={problems.get(path)}>
      {(a) => {
        if (schema.enum !== undefined)
          return (
            <select
              {...a}
              value={String(value ?? fallback ?? '')}
              onChange={(e) => {
                const raw = e.currentTarget.value;
                const picked = schema.enum!.find((x) => String(x) === raw);
                set(raw === '' || picked === fallback ? undefined : picked);
              }}
            >
              {fallback === undefined && <option value="">(default)</option>}
              {schema.enum.map((x) => (
                <option key={String(x)} value={String(x)}>
                  {String(x)}
                  {x === fallback ? ' (default)' : ''}
                </option>
              ))}
            </select>
          );
        if (schema.type === 'number' || schema.type === 'integer') {
          const n = (value ?? fallback) as number | undefined;
          const step = schema.type === 'integer' ? 1 : (schema.maximum ?? 1) - (schema.minimum ?? 0) <= 2 ? 0.01 : 1;
          const setNumber = (raw: string) => set(raw === '' ? undefined : Number(raw), 'typing');
          return (
            <div class="row">
              {schema.minimum !== undefined && schema.maximum !== undefined && (
                <input
                  type="range"
                  aria-label={`${label}: slider`}
                  min={schema.minimum}
                  max={schema.maximum}
                  step={step}
                  value={n ?? schema.minimum}
                  onInput={(e) => setNumber(e.currentTarget.value)}
                />
              )}
              <input
                {...a}
                type="number"
                min={schema.minimum}
                max={schema.maximum}
                step={step}
                placeholder={
                  value === undefined ? (fallback === undefined ? 'Default' : `Default ${fallback}`) : undefined
                }
                value={value === undefined ? '' : String(value)}
                onInput={(e) => setNumber(e.currentTarget.value)}
              />
            </div>
          );
        }
        const text = (value as string | undefined) ?? '';
        return multiline ? (
          <textarea {...a} value={text} onInput={(e) => set(e.currentTarget.value || undefined, 'typing')} />
        ) : (
          <input {...a} type="text" value={text} onInput={(e) => set(e.currentTarget.value || undefined, 'typing')} />
        );
      }}
    </Field>
  );
}

/** A shape (or frame) chosen by its picture, drawn by the engine: a radio group, arrow keys move the choice. */
export function Picker({
  field,
  label = labelOf(field),
  design,
  onChange,
}: FieldProps & { field: string; label?: string }) {
  const schema = fieldSchema(field);
  const current = (design[field] ?? DEFAULTS[field]) as string;
  return (
    <fieldset>
      <legend>{label}</legend>
      <div class="pickers">
        {(schema.enum as string[]).map((name) => (
          <label key={name}>
            <input
              type="radio"
              name={field}
              value={name}
              checked={current === name}
              onChange={() => onChange(withValue(design, field, name === DEFAULTS[field] ? undefined : name), 'now')}
            />
            <img
              src={`/api/studio/shapes/${field}/${name}`}
              alt=""
              width={88}
              height={88}
              loading="lazy"
              class={field.startsWith('finder') ? 'crop-eye' : field === 'frameStyle' ? 'whole' : undefined}
            />
            {name}
          </label>
        ))}
      </div>
    </fieldset>
  );
}

/** A two-to-eight-stop gradient of one design field; off means the plain colour applies. */
export function GradientField({ path, label = labelOf(path), design, onChange, problems }: Control) {
  const g = valueAt(design, path) as
    | { type: string; rotation?: number; stops: { offset: number; color: string }[] }
    | undefined;
  const id = idOf(path);
  const toggle = (on: boolean) =>
    onChange(
      withValue(
        design,
        path,
        on
          ? {
              type: 'linear',
              rotation: 45,
              stops: [
                { offset: 0, color: '#1D3557' },
                { offset: 1, color: '#457B9D' },
              ],
            }
          : undefined,
      ),
      'now',
    );
  return (
    <fieldset>
      <legend>{label}</legend>
      <label class="check" for={id}>
        <input id={id} type="checkbox" checked={g !== undefined} onChange={(e) => toggle(e.currentTarget.checked)} />
        <span>Use a gradient</span>
      </label>
      {g && (
        <>
          <div class="row">
            <SchemaField path={`${path}.type`} design={design} onChange={onChange} problems={problems} />
            <SchemaField path={`${path}.rotation`} design={design} onChange={onChange} problems={problems} />
          </div>
          <div class="row">
            {g.stops.map((_, i) => (
              <ColourField
                key={i}
                path={`${path}.stops.${i}.color`}
                design={design}
                onChange={onChange}
                problems={problems}
              />
            ))}
          </div>
        </>
      )}
    </fieldset>
  );
}

/** Per-eye overrides: each eye's colours, rotation and mirror. */
export function EyesField(props: FieldProps) {
  return (
    <>
      {EYES.map((name, i) => (
        <fieldset key={name}>
          <legend>{name}</legend>
          <div class="row">
            <ColourField {...props} path={`finderEyes.${i}.outerColor`} />
            <ColourField {...props} path={`finderEyes.${i}.innerColor`} />
            <SchemaField {...props} path={`finderEyes.${i}.rotation`} />
            <SchemaField {...props} path={`finderEyes.${i}.flip`} />
          </div>
        </fieldset>
      ))}
    </>
  );
}
