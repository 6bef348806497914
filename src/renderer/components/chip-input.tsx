// Values as removable chips; Enter or a comma adds what was typed (after the caller's check).
import { useState } from 'react';

export function ChipInput(props: {
  label: string;
  values: string[];
  onAdd(v: string): string | null;
  onRemove(v: string): void;
  testId: string;
  placeholder?: string;
}) {
  const [text, setText] = useState('');
  const [problem, setProblem] = useState<string | null>(null);
  const add = () => {
    const v = text.trim();
    if (v === '') return;
    const p = props.onAdd(v);
    setProblem(p);
    if (p === null) setText('');
  };
  return (
    <div className="chips" data-testid={props.testId}>
      {props.values.map((v) => (
        <span key={v} className="chip">
          {v}
          <button
            type="button"
            className="chip-x"
            onClick={() => props.onRemove(v)}
            aria-label={`Remove ${v} from ${props.label}`}
            title={`Remove ${v}`}
          >
            {'\u00D7'}
          </button>
        </span>
      ))}
      <input
        aria-label={props.label}
        className="chip-input"
        value={text}
        placeholder={props.placeholder ?? 'add...'}
        onChange={(e) => setText(e.target.value.replace(',', ''))}
        onKeyDown={(e) => {
          if (e.key === 'Enter' || e.key === ',') {
            e.preventDefault();
            add();
          } else if (e.key === 'Backspace' && text === '' && props.values.length > 0) {
            props.onRemove(props.values[props.values.length - 1]);
          }
        }}
        onBlur={add}
      />
      {problem ? <span className="form-problem">{problem}</span> : null}
    </div>
  );
}
