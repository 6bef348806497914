// The one modal dialog: focus moves in on open and back where it was on close (or to the account's
// views when that place is gone), Tab stays inside, Escape and a click on the backdrop close. Used
// for confirmations, the connection forms and the account switcher. It is drawn at the end of
// <body> (a portal), not where it is declared: a dialog opened from the sidebar's connection header
// inherited that header's bold text and sat inside its navigation landmark.
import { useEffect, useRef, type ReactNode } from 'react';
import { createPortal } from 'react-dom';

export function Dialog({
  title,
  onClose,
  children,
  testId,
  className = 'dialog',
  titleHidden = false,
}: {
  title: string;
  onClose(): void;
  children: ReactNode;
  testId?: string;
  /** The box's look: 'dialog' for forms and confirmations, or a panel of its own (the switcher). */
  className?: string;
  /** The title only names the dialog for assistive technology (the switcher's input says what it is). */
  titleHidden?: boolean;
}) {
  const box = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const before = document.activeElement instanceof HTMLElement ? document.activeElement : null;
    // The element a dialog marks wins wherever it stands (one selector list would pick whichever
    // comes first in the document: the Name field before the secret a lost-secret dialog asks for).
    const first =
      box.current?.querySelector<HTMLElement>('[data-autofocus]') ??
      box.current?.querySelector<HTMLElement>('input, select, textarea, button');
    first?.focus();
    return () => {
      if (before && before.isConnected && before !== document.body) before.focus();
      else document.getElementById('main')?.focus();
    };
  }, []);
  // Escape closes even when focus fell out of the dialog (a button disabled under it after an
  // error): the box's own handler covers focus inside, this one the rest, so it never runs twice.
  const close = useRef(onClose);
  close.current = onClose;
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (e.key !== 'Escape' || box.current?.contains(document.activeElement)) return;
      const dialogs = document.querySelectorAll('[role="dialog"]');
      if (dialogs[dialogs.length - 1] === box.current) close.current();
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, []);
  const onKeyDown = (e: React.KeyboardEvent) => {
    if (e.key === 'Escape') {
      e.stopPropagation();
      onClose();
      return;
    }
    if (e.key !== 'Tab' || !box.current) return;
    const items = Array.from(box.current.querySelectorAll<HTMLElement>('input, select, textarea, button, [tabindex="0"]')).filter(
      (el) => !(el as HTMLButtonElement).disabled,
    );
    if (items.length === 0) return;
    const first = items[0];
    const last = items[items.length - 1];
    if (e.shiftKey && document.activeElement === first) {
      e.preventDefault();
      last.focus();
    } else if (!e.shiftKey && document.activeElement === last) {
      e.preventDefault();
      first.focus();
    }
  };
  return createPortal(
    // eslint-disable-next-line jsx-a11y/no-static-element-interactions -- a click on the backdrop closes, as Escape does from the keyboard
    <div className="overlay" onMouseDown={(e) => e.target === e.currentTarget && onClose()}>
      <div ref={box} className={className} role="dialog" aria-modal="true" aria-label={title} onKeyDown={onKeyDown} data-testid={testId}>
        {titleHidden ? null : <h2 className="dialog-title">{title}</h2>}
        {children}
      </div>
    </div>,
    document.body,
  );
}

/** "Are you sure?" with the destructive action named on its button. */
export function ConfirmDialog(props: { title: string; message: string; confirm: string; onConfirm(): void; onClose(): void }) {
  return (
    <Dialog title={props.title} onClose={props.onClose} testId="confirm-dialog">
      <p>{props.message}</p>
      <div className="dialog-actions">
        <button type="button" onClick={props.onClose} data-autofocus title="Escape">
          Keep it
        </button>
        <button
          type="button"
          className="danger"
          onClick={() => {
            props.onConfirm();
            props.onClose();
          }}
          data-testid="confirm-yes"
        >
          {props.confirm}
        </button>
      </div>
    </Dialog>
  );
}
