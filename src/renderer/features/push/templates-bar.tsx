// Templates: the composed push saved under a name, and a new push started from one.
import { useState } from 'react';
import { usePush } from '../../stores/push-store';

export function TemplatesBar() {
  const templates = usePush((s) => s.templates);
  const [naming, setNaming] = useState(false);
  const [name, setName] = useState('');
  const [picked, setPicked] = useState('');
  const save = () => {
    if (name.trim() === '') return;
    void usePush.getState().saveTemplate(name.trim());
    setNaming(false);
    setName('');
  };
  return (
    <div className="templates-bar" data-testid="templates-bar">
      <label>
        <span className="muted">Start from</span>{' '}
        <select aria-label="Start from a template" value={picked} onChange={(e) => setPicked(e.target.value)} data-testid="template-pick">
          <option value="">{templates.length === 0 ? 'no templates yet' : 'a template...'}</option>
          {templates.map((t) => (
            <option key={t.id} value={t.id}>
              {t.name}
            </option>
          ))}
        </select>
      </label>
      <button
        type="button"
        disabled={picked === ''}
        onClick={() => {
          const t = templates.find((x) => x.id === picked);
          if (t) usePush.getState().useTemplate(t);
          setPicked('');
        }}
        data-testid="template-use"
      >
        Use
      </button>
      {naming ? (
        <form
          className="inline-form"
          onSubmit={(e) => {
            e.preventDefault();
            save();
          }}
          onKeyDown={(e) => e.key === 'Escape' && setNaming(false)}
        >
          <input
            aria-label="Template name"
            value={name}
            onChange={(e) => setName(e.target.value)}
            placeholder="Template name"
            // eslint-disable-next-line jsx-a11y/no-autofocus -- the person just asked for this field (its button opened it)
            autoFocus
            data-testid="template-name"
          />
          <button type="submit" disabled={name.trim() === ''} data-testid="template-save-confirm">
            Save template
          </button>
        </form>
      ) : (
        <button type="button" onClick={() => setNaming(true)} data-testid="template-save">
          Save as template...
        </button>
      )}
    </div>
  );
}
