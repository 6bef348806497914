// Which of a form's problems a person is shown: those of the fields they have touched, and all of
// them once they asked (Check or Queue). A blank new form is not a page of errors, and a problem
// appears where the person just worked. The campaign editor and the push composer share it; the
// form's owner remounts it (a React key) for each new draft so nothing touched carries over.
import { useCallback, useState } from 'react';
import type { FieldProblem } from '../../shared/domain/campaign';

export interface Touched {
  /** Marks a field touched (by its rule name, e.g. "title", "target.countries"). */
  touch(field: string): void;
  /** The problems to show now: all when revealed, else those of touched fields (and of `always`). */
  shown<P extends FieldProblem>(problems: readonly P[], always?: (p: P) => boolean): P[];
}

export function useTouched(revealed: boolean): Touched {
  const [touched, setTouched] = useState<Readonly<Record<string, true>>>({});
  const touch = useCallback((field: string) => setTouched((t) => (t[field] ? t : { ...t, [field]: true })), []);
  const shown = <P extends FieldProblem>(problems: readonly P[], always?: (p: P) => boolean) =>
    problems.filter((p) => revealed || touched[p.field] === true || (always?.(p) ?? false));
  return { touch, shown };
}
