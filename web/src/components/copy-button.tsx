import { useState } from 'preact/hooks';

/** Copies `text` to the clipboard and says so in a live region, for sighted and screen-reader users alike. */
export function CopyButton({ text, label }: { text: string | (() => string); label: string }) {
  const [said, setSaid] = useState('');
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(typeof text === 'string' ? text : text());
      setSaid('Copied.');
    } catch {
      setSaid('Copying failed: select the text and copy it yourself.');
    }
    setTimeout(() => setSaid(''), 4000);
  };
  return (
    <>
      <button type="button" class="secondary" onClick={copy}>
        {label}
      </button>
      <span role="status" aria-live="polite">
        {said}
      </span>
    </>
  );
}
