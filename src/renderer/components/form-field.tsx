// A labelled form row with the rules' problems for that field right under the input.
import type { ReactNode } from 'react';

/**
 * The label points at `f-${name}` unless the input has an id of its own (inputId): a form that can
 * be open beside another with the same fields (the add and the edit connection dialogs) needs ids
 * that are unique in the document, or its labels name the other form's inputs. With inputId the
 * hint and the problems get ids derived from it (fieldDescriptionIds), for aria-describedby.
 */
export function FormField({
  label,
  name,
  problems,
  hint,
  inputId,
  children,
}: {
  label: string;
  name: string;
  problems?: string[];
  hint?: ReactNode;
  inputId?: string;
  children: ReactNode;
}) {
  const bad = problems && problems.length > 0;
  const ids = inputId ? fieldDescriptionIds(inputId) : null;
  return (
    <div className={`form-row${bad ? ' has-problem' : ''}`} data-field={name}>
      <label className="form-label" htmlFor={inputId ?? `f-${name}`}>
        {label}
      </label>
      <div className="form-control">
        {children}
        {hint ? (
          <div className="form-hint muted" id={ids?.hint}>
            {hint}
          </div>
        ) : null}
        {bad ? (
          <div id={ids?.problems}>
            {problems.map((m) => (
              <div key={m} className="form-problem" role="alert" data-testid={`problem-${name}`}>
                {m}
              </div>
            ))}
          </div>
        ) : null}
      </div>
    </div>
  );
}

/** The ids FormField gives a field's hint and problems when it knows the input's id. */
export function fieldDescriptionIds(inputId: string): { hint: string; problems: string } {
  return { hint: `${inputId}-hint`, problems: `${inputId}-problems` };
}
