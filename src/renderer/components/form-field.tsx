// A labelled form row with the rules' problems for that field right under the input.
import type { ReactNode } from 'react';

export function FormField({ label, name, problems, hint, children }: { label: string; name: string; problems?: string[]; hint?: ReactNode; children: ReactNode }) {
  const bad = problems && problems.length > 0;
  return (
    <div className={`form-row${bad ? ' has-problem' : ''}`} data-field={name}>
      <label className="form-label" htmlFor={`f-${name}`}>
        {label}
      </label>
      <div className="form-control">
        {children}
        {hint ? <div className="form-hint muted">{hint}</div> : null}
        {bad
          ? problems.map((m) => (
              <div key={m} className="form-problem" role="alert" data-testid={`problem-${name}`}>
                {m}
              </div>
            ))
          : null}
      </div>
    </div>
  );
}
