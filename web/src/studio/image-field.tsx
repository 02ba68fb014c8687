import { useState } from 'preact/hooks';
import { Field } from '../components/field.js';
import { type Control, idOf, withValue } from './fields.js';
import { labelOf } from './labels.js';

/** Largest picture sent as is; bigger ones are scaled down first, so the request stays under the site's 1 MiB. */
const SEND_AS_IS_BYTES = 300 * 1024;
const SCALED_MAX_PX = 1024;

const readAsDataUrl = (blob: Blob): Promise<string> =>
  new Promise((resolve, reject) => {
    const r = new FileReader();
    r.onload = () => resolve(r.result as string);
    r.onerror = () => reject(r.error);
    r.readAsDataURL(blob);
  });

/** The file as a data URL: as it is when small, else redrawn at most 1024 px wide as WebP (alpha kept). */
async function pictureOf(file: File): Promise<string> {
  if (file.size <= SEND_AS_IS_BYTES) return readAsDataUrl(file);
  const bitmap = await createImageBitmap(file);
  const scale = Math.min(1, SCALED_MAX_PX / Math.max(bitmap.width, bitmap.height));
  const canvas = document.createElement('canvas');
  canvas.width = Math.round(bitmap.width * scale);
  canvas.height = Math.round(bitmap.height * scale);
  canvas.getContext('2d')!.drawImage(bitmap, 0, 0, canvas.width, canvas.height);
  const blob = await new Promise<Blob | null>((resolve) => canvas.toBlob(resolve, 'image/webp', 0.9));
  if (blob === null) throw new Error('This browser cannot re-encode the picture.');
  return readAsDataUrl(blob);
}

/** An uploaded picture (logo or background), sent inline as base64. */
export function ImageField({ path, label = labelOf(path), design, onChange, problems }: Control) {
  const [error, setError] = useState<string>();
  const [name, setName] = useState<string>();
  const value = design[path] as string | undefined;
  const id = idOf(path);
  const pick = async (input: HTMLInputElement) => {
    const file = input.files?.[0];
    if (file === undefined) return;
    setError(undefined);
    try {
      onChange(withValue(design, path, await pictureOf(file)), 'now');
      setName(file.name);
    } catch {
      setError('That picture could not be read: choose a PNG, JPG, GIF, BMP or WebP file.');
    }
  };
  return (
    <Field
      id={id}
      label={label}
      hint="PNG, JPG, GIF, BMP or WebP. Large pictures are scaled down to 1024 px before they are sent."
      error={error ?? problems.get(path)}
    >
      {(a) => (
        <div>
          <input
            {...a}
            type="file"
            accept="image/png,image/jpeg,image/gif,image/bmp,image/webp"
            onChange={(e) => pick(e.currentTarget)}
          />
          {value && (
            <p class="actions">
              <img
                src={value}
                alt={`Chosen ${label.toLowerCase()}`}
                width={48}
                height={48}
                style={{ objectFit: 'contain' }}
              />
              <span>{name ?? 'Picture chosen'}</span>
              <button
                type="button"
                class="secondary"
                onClick={() => {
                  onChange(withValue(design, path, undefined), 'now');
                  setName(undefined);
                }}
              >
                Remove {label.toLowerCase()}
              </button>
            </p>
          )}
        </div>
      )}
    </Field>
  );
}
