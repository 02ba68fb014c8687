import type { ComponentChildren } from 'preact';
import { useEffect, useId, useRef } from 'preact/hooks';

/**
 * A modal confirmation on the native <dialog>: focus moves into it and stays there, Escape cancels, and
 * focus returns to what opened it when it closes.
 */
export function Confirm({
  open,
  title,
  children,
  confirmLabel,
  onConfirm,
  onCancel,
}: {
  open: boolean;
  title: string;
  children: ComponentChildren;
  confirmLabel: string;
  onConfirm: () => void;
  onCancel: () => void;
}) {
  const ref = useRef<HTMLDialogElement>(null);
  // Ids of this dialog alone: a page may hold several, each to be announced with its own title and text.
  const id = useId();
  useEffect(() => {
    const d = ref.current;
    if (d === null) return;
    if (open && !d.open) d.showModal();
    if (!open && d.open) d.close();
  }, [open]);
  return (
    <dialog
      ref={ref}
      aria-labelledby={`${id}-title`}
      aria-describedby={`${id}-text`}
      onCancel={onCancel}
      onClose={() => open && onCancel()}
    >
      <h2 id={`${id}-title`}>{title}</h2>
      <div id={`${id}-text`}>{children}</div>
      <div class="actions">
        <button type="button" class="danger" onClick={onConfirm}>
          {confirmLabel}
        </button>
        <button type="button" class="secondary" onClick={onCancel} autofocus>
          Cancel
        </button>
      </div>
    </dialog>
  );
}
