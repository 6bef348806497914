// The foot of a dialog's form: the error the last attempt met (announced), then Cancel and the
// one primary action. Every form dialog ends this way, so they look and read alike.
import type { ReactNode } from 'react';

export function FormFooter({
  error,
  errorTestId,
  errorId,
  onCancel,
  submit,
  submitTestId,
  busy,
}: {
  error: string | null;
  errorTestId: string;
  /** So a field the error is about can name it in aria-describedby. */
  errorId?: string;
  onCancel(): void;
  submit: ReactNode;
  submitTestId: string;
  busy: boolean;
}) {
  return (
    <>
      {error ? (
        <p className="form-problem" role="alert" id={errorId} data-testid={errorTestId}>
          {error}
        </p>
      ) : null}
      <div className="dialog-actions">
        <button type="button" onClick={onCancel} title="Escape">
          Cancel
        </button>
        <button type="submit" className="primary" disabled={busy} data-testid={submitTestId}>
          {submit}
        </button>
      </div>
    </>
  );
}
