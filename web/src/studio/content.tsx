import { useEffect, useRef, useState } from 'preact/hooks';
import { CONTENT_SCHEMAS } from '../../../src/content/schemas.js';
import { contentProperty } from '../../../src/schema/qr-config.js';
import { Field } from '../components/field.js';
import { asFailure, isAbort, postJson } from '../lib/api.js';
import { check, type SchemaNode } from './schema-check.js';

type HelperType = keyof typeof CONTENT_SCHEMAS;
type Kind = 'url' | 'text' | HelperType;

const KINDS: { kind: Kind; label: string }[] = [
  { kind: 'url', label: 'Link' },
  { kind: 'text', label: 'Text' },
  { kind: 'wifi', label: 'Wi-Fi' },
  { kind: 'vcard', label: 'Contact (vCard)' },
  { kind: 'mecard', label: 'Contact (MECARD)' },
  { kind: 'geo', label: 'Place' },
  { kind: 'email', label: 'E-mail' },
  { kind: 'sms', label: 'SMS' },
  { kind: 'tel', label: 'Phone call' },
  { kind: 'event', label: 'Event' },
  { kind: 'epc', label: 'SEPA payment' },
];

/** Labels of the helpers' fields; their schemas' descriptions become the hints. */
const LABELS: Record<string, string> = {
  ssid: 'Network name (SSID)',
  password: 'Password',
  encryption: 'Security',
  hidden: 'The network is hidden',
  firstName: 'First name',
  lastName: 'Last name',
  organization: 'Organization',
  title: 'Job title',
  phone: 'Phone',
  email: 'E-mail',
  url: 'Website',
  address: 'Address',
  note: 'Note',
  latitude: 'Latitude',
  longitude: 'Longitude',
  query: 'Label for maps',
  to: 'To',
  subject: 'Subject',
  body: 'Message',
  number: 'Phone number',
  message: 'Message',
  summary: 'Title',
  start: 'Starts',
  end: 'Ends',
  location: 'Location',
  description: 'Description',
  name: 'Beneficiary name',
  iban: 'IBAN',
  bic: 'BIC',
  amount: 'Amount in euros',
  purpose: 'Purpose code',
  remittanceReference: 'Payment reference',
  remittanceText: 'Remittance text',
  information: 'Note to the payer',
};

/**
 * A helper's refusal with its fields named as the form labels them: when the sentence is about fields
 * (it starts with one, or names one in camelCase), every field of the helper in it is replaced by its label.
 */
function inFormWords(type: HelperType, text: string): string {
  const names = Object.keys(CONTENT_SCHEMAS[type].properties);
  const aboutFields = names.some((n) => text.startsWith(`${n} `) || (/[A-Z]/.test(n) && text.includes(n)));
  if (!aboutFields) return text;
  return text.replace(/\b\w+\b/g, (w) => (names.includes(w) && LABELS[w] ? `“${LABELS[w]}”` : w));
}

/** Event times: the browser's date-time picker, sent as ISO 8601 with this computer's offset. */
const DATE_TIMES = new Set(['start', 'end']);

function withOffset(local: string): string {
  const d = new Date(local);
  const minutes = -d.getTimezoneOffset();
  const sign = minutes >= 0 ? '+' : '-';
  const pad = (n: number) => String(Math.floor(Math.abs(n))).padStart(2, '0');
  return `${local.length === 16 ? `${local}:00` : local}${sign}${pad(minutes / 60)}:${pad(minutes % 60)}`;
}

type Values = Record<string, string | boolean>;

/** A helper's form values as its request body: numbers as numbers, empty fields left out. */
function bodyOf(type: HelperType, values: Values): Record<string, unknown> {
  const schema = CONTENT_SCHEMAS[type] as unknown as SchemaNode & { properties: Record<string, SchemaNode> };
  const body: Record<string, unknown> = {};
  for (const [name, v] of Object.entries(values)) {
    const p = schema.properties[name];
    if (p === undefined || v === '' || v === false) continue;
    if (p.type === 'number') body[name] = Number(v);
    else if (DATE_TIMES.has(name) && typeof v === 'string') body[name] = withOffset(v);
    else body[name] = v;
  }
  return body;
}

const START_VALUES: Partial<Record<Kind, Values>> = {
  url: { content: 'https://example.com' },
  wifi: { encryption: 'WPA' },
};

export interface ContentState {
  /** The payload to encode, once the form is valid and, for a helper, built by the server. */
  content: string | undefined;
  busy: boolean;
  /** Typed into the link or text box, one of a run of keys (rather than built by a helper). */
  typed: boolean;
}

/**
 * What the code says: a link or text typed directly, or a helper's form (Wi-Fi, vCard, …) generated from
 * the helper's request schema, checked against it as the user types, then built by the engine through
 * POST /api/studio/content/:type, whose refusals are shown at the field they name.
 */
export function ContentPanel({ onContent }: { onContent: (s: ContentState) => void }) {
  const [kind, setKind] = useState<Kind>('url');
  const [values, setValues] = useState<Values>(START_VALUES.url!);
  const [errors, setErrors] = useState<Map<string, string>>(new Map());
  const [built, setBuilt] = useState<string>();
  const [serverField, setServerField] = useState<string>();
  const pending = useRef<AbortController>(undefined);

  useEffect(() => {
    pending.current?.abort();
    setServerField(undefined);
    if (kind === 'url' || kind === 'text') {
      const content = (values.content as string | undefined) ?? '';
      const problems = check(content, contentProperty as SchemaNode, {}, 'content');
      setErrors(new Map(problems.map((p) => [p.field, p.message])));
      setBuilt(undefined);
      onContent({ content: problems.length === 0 ? content : undefined, busy: false, typed: true });
      return;
    }
    const body = bodyOf(kind, values);
    // Nothing typed yet is no mistake: the form waits for its first field rather than being refused.
    const untouched = Object.entries(values).every(
      ([k, v]) => v === '' || v === false || START_VALUES[kind]?.[k] === v,
    );
    if (untouched) {
      setErrors(new Map());
      onContent({ content: undefined, busy: false, typed: false });
      return;
    }
    const problems = check(body, CONTENT_SCHEMAS[kind] as unknown as SchemaNode);
    setErrors(new Map(problems.map((p) => [p.field, p.message])));
    if (problems.length > 0) {
      onContent({ content: undefined, busy: false, typed: false });
      return;
    }
    const controller = new AbortController();
    pending.current = controller;
    onContent({ content: undefined, busy: true, typed: false });
    const timer = setTimeout(() => {
      postJson<{ content: string }>(`/api/studio/content/${kind}`, body, { signal: controller.signal })
        .then((r) => {
          setBuilt(r.content);
          onContent({ content: r.content, busy: false, typed: false });
        })
        .catch((e: unknown) => {
          if (isAbort(e)) return;
          const failure = asFailure(e);
          const field = failure.field ?? '';
          // The server's refusal is shown whether or not its field was touched: it is why nothing renders.
          setErrors(new Map([[field, inFormWords(kind, failure.message)]]));
          setServerField(field);
          setBuilt(undefined);
          onContent({ content: undefined, busy: false, typed: false });
        });
    }, 300);
    return () => clearTimeout(timer);
  }, [kind, values]);

  const choose = (k: Kind) => {
    setKind(k);
    setValues(START_VALUES[k] ?? {});
  };
  const set = (name: string, v: string | boolean) => setValues({ ...values, [name]: v });

  return (
    <section class="card" aria-labelledby="content-title">
      <h2 id="content-title">1. Content</h2>
      <fieldset>
        <legend>What the code holds</legend>
        <div class="tabs">
          {KINDS.map((k) => (
            <label key={k.kind}>
              <input type="radio" name="content-kind" checked={kind === k.kind} onChange={() => choose(k.kind)} />
              <span>{k.label}</span>
            </label>
          ))}
        </div>
      </fieldset>
      {kind === 'url' || kind === 'text' ? (
        <Field
          id="content"
          label={kind === 'url' ? 'Link' : 'Text'}
          hint={contentProperty.description}
          error={errors.get('content')}
        >
          {(a) =>
            kind === 'url' ? (
              <input
                {...a}
                type="url"
                value={(values.content as string) ?? ''}
                onInput={(e) => set('content', e.currentTarget.value)}
              />
            ) : (
              <textarea
                {...a}
                value={(values.content as string) ?? ''}
                onInput={(e) => set('content', e.currentTarget.value)}
              />
            )
          }
        </Field>
      ) : (
        <HelperForm
          type={kind}
          values={values}
          // A field's own problem once the user has been at it; the server's wherever it is.
          errors={new Map([...errors].filter(([f]) => f in values || f === serverField))}
          set={set}
        />
      )}
      {errors.get('') && <p class="error-text">{errors.get('')}</p>}
      {built !== undefined && (
        <details>
          <summary>The text the code will hold</summary>
          <pre>{built}</pre>
        </details>
      )}
    </section>
  );
}

function HelperForm({
  type,
  values,
  errors,
  set,
}: {
  type: HelperType;
  values: Values;
  errors: Map<string, string>;
  set: (name: string, v: string | boolean) => void;
}) {
  const schema = CONTENT_SCHEMAS[type] as unknown as SchemaNode & { properties: Record<string, SchemaNode> };
  const required = new Set(schema.required ?? []);
  return (
    <div class="row">
      {Object.entries(schema.properties).map(([name, p]) => {
        const id = `c-${type}-${name}`;
        const label = `${LABELS[name] ?? name}${required.has(name) ? ' (required)' : ''}`;
        const value = values[name];
        if (p.type === 'boolean')
          return (
            <div class="field" key={id}>
              <label class="check" for={id}>
                <input
                  id={id}
                  type="checkbox"
                  checked={value === true}
                  onChange={(e) => set(name, e.currentTarget.checked)}
                />
                <span>{label}</span>
              </label>
            </div>
          );
        return (
          <Field key={id} id={id} label={label} hint={p.description} error={errors.get(name)}>
            {(a) =>
              p.enum ? (
                <select {...a} value={String(value ?? p.enum[0])} onChange={(e) => set(name, e.currentTarget.value)}>
                  {p.enum.map((x) => (
                    <option key={String(x)}>{String(x)}</option>
                  ))}
                </select>
              ) : (p.description ?? '').includes('line breaks allowed') ? (
                <textarea {...a} value={(value as string) ?? ''} onInput={(e) => set(name, e.currentTarget.value)} />
              ) : (
                <input
                  {...a}
                  type={(p.type === 'number' ? 'number' : DATE_TIMES.has(name) ? 'datetime-local' : 'text') as 'text'}
                  step={p.type === 'number' ? 'any' : undefined}
                  required={required.has(name)}
                  value={(value as string) ?? ''}
                  onInput={(e) => set(name, e.currentTarget.value)}
                />
              )
            }
          </Field>
        );
      })}
    </div>
  );
}
