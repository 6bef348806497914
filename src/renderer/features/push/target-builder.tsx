// Who receives the push: apps picked from the connection's applications (at most 200), then
// include / exclude chips per attribute and user_data key -> values. The rules refuse an attribute
// used on both sides; those problems show on the attribute's row as it happens.
import { useState } from 'react';
import { MAX_TARGET_APPS } from '../../../shared/domain/push';
import type { App } from '../../../shared/ipc/contract';
import { ChipInput } from '../../components/chip-input';
import {
  addChip,
  CHIP_ATTRIBUTES,
  chipProblem,
  removeChip,
  setUserData,
  withdrawnApps,
  type PushForm,
  type Side,
} from '../../forms/push-form';
import { PUSH_LABELS } from '../../forms/push-words';
import { chipName, parseUserDataValues } from '../../forms/target-codes';

export function TargetBuilder(props: {
  form: PushForm;
  apps: App[];
  appsLoading?: boolean;
  by: Record<string, string[]>;
  onChange(f: PushForm): void;
  /** A part of the target was changed, by the rules' field name ("target.include.apps", "target.countries"): its problems show from then on. */
  onTouch?(field: string): void;
}) {
  const { form, apps, appsLoading = false, by, onChange, onTouch } = props;
  /** User data problems are the rules' under several names; all of them belong to its one row. */
  const touchUserData = () =>
    ['target.include.user_data', 'target.exclude.user_data', 'target.user_data', 'target.include', 'target.exclude'].forEach((f) =>
      onTouch?.(f),
    );
  const [udKey, setUdKey] = useState('');
  const [udValues, setUdValues] = useState('');
  const [udSide, setUdSide] = useState<Side>('include');
  const [udProblem, setUdProblem] = useState<string | null>(null);
  const gone = withdrawnApps(form.apps, apps);
  const toggleApp = (id: string) => {
    onTouch?.('target.include.apps');
    onChange({
      ...form,
      apps: form.apps.includes(id)
        ? form.apps.filter((a) => a !== id)
        : form.apps.length >= MAX_TARGET_APPS
          ? form.apps
          : [...form.apps, id],
    });
  };

  return (
    <section className="target" aria-label="Target" data-testid="target-builder">
      <h3 className="section-title">Target</h3>
      <div className={`form-row${by['target.include.apps'] ? ' has-problem' : ''}`}>
        <span className="form-label">Apps</span>
        <div className="form-control">
          <div className="app-picks" role="group" aria-label="Apps">
            {apps.length === 0 ? (
              <span className="muted" data-testid="apps-none">
                {appsLoading ? 'Fetching the applications of this connection\u2026' : 'No applications known for this connection yet.'}
              </span>
            ) : null}
            {apps.map((a) => (
              <label key={a.appId} className="app-pick">
                <input
                  type="checkbox"
                  checked={form.apps.includes(a.appId)}
                  onChange={() => toggleApp(a.appId)}
                  data-testid={`app-${a.appId}`}
                />
                {a.publisher || `App ${a.appId}`} <span className="muted">({a.appId})</span>
              </label>
            ))}
            {/* Still in this push's target, no longer the connection's: said at once, and only unticked. */}
            {gone.map((id) => (
              <label key={id} className="app-pick app-gone" data-testid={`app-gone-${id}`}>
                <input type="checkbox" checked onChange={() => toggleApp(id)} data-testid={`app-${id}`} />
                App {id} <span className="form-problem">no longer available to this connection</span>
              </label>
            ))}
          </div>
          <span className="form-hint muted">
            {form.apps.length}/{MAX_TARGET_APPS} apps
          </span>
          {(by['target.include.apps'] ?? []).map((m) => (
            <div key={m} className="form-problem" data-testid="problem-target-apps">
              {m}
            </div>
          ))}
        </div>
      </div>
      <div className="target-grid">
        <span />
        <span className="muted target-side">Include</span>
        <span className="muted target-side">Exclude</span>
        {CHIP_ATTRIBUTES.map((attr) => (
          <div key={attr} className={`target-row${by[`target.${attr}`] ? ' has-problem' : ''}`} data-attr={attr}>
            <span className="form-label">{PUSH_LABELS[attr]}</span>
            {(['include', 'exclude'] as const).map((side) => (
              <ChipInput
                key={side}
                label={`${side} ${PUSH_LABELS[attr]}`}
                testId={`chips-${side}-${attr}`}
                values={form[side].chips[attr]}
                onAdd={(v) => {
                  onTouch?.(`target.${attr}`);
                  const p = chipProblem(attr, v);
                  if (p === null) onChange(addChip(form, side, attr, v));
                  return p;
                }}
                onRemove={(v) => {
                  onTouch?.(`target.${attr}`);
                  onChange(removeChip(form, side, attr, v));
                }}
              />
            ))}
            {attr === 'countries' || attr === 'languages' ? (
              <span className="form-hint muted target-names" data-testid={`names-${attr}`}>
                {[...form.include.chips[attr], ...form.exclude.chips[attr]].map((v) => `${v} = ${chipName(attr, v) ?? '?'}`).join(' · ')}
              </span>
            ) : null}
            {(by[`target.${attr}`] ?? []).map((m) => (
              <div key={m} className="form-problem target-problem" data-testid={`problem-target-${attr}`}>
                {m}
              </div>
            ))}
          </div>
        ))}
      </div>
      <div className="form-row">
        <span className="form-label">User data</span>
        <div className="form-control">
          {(['include', 'exclude'] as const).flatMap((side) =>
            Object.entries(form[side].userData).map(([k, vs]) => (
              <span key={`${side}-${k}`} className="chip">
                {side} {k} = {vs.join(', ')}
                <button
                  type="button"
                  className="chip-x"
                  onClick={() => {
                    touchUserData();
                    onChange(setUserData(form, side, k, null));
                  }}
                  aria-label={`Remove ${side} user data ${k}`}
                >
                  {'\u00D7'}
                </button>
              </span>
            )),
          )}
          <div className="ud-add">
            <select aria-label="User data side" value={udSide} onChange={(e) => setUdSide(e.target.value as Side)}>
              <option value="include">include</option>
              <option value="exclude">exclude</option>
            </select>
            <input
              aria-label="User data key"
              placeholder="key"
              data-testid="user-data-key"
              value={udKey}
              onChange={(e) => setUdKey(e.target.value)}
            />
            <input
              aria-label="User data values"
              placeholder="values, comma separated"
              data-testid="user-data-values"
              value={udValues}
              onChange={(e) => setUdValues(e.target.value)}
            />
            <button
              type="button"
              onClick={() => {
                if (udKey.trim() === '') return setUdProblem('Type the attribute name first');
                const parsed = parseUserDataValues(udValues);
                if ('problem' in parsed) return setUdProblem(parsed.problem);
                setUdProblem(null);
                touchUserData();
                onChange(setUserData(form, udSide, udKey.trim(), parsed.values));
                setUdKey('');
                setUdValues('');
              }}
              data-testid="user-data-add"
            >
              Add
            </button>
          </div>
          {udProblem ? (
            <div className="form-problem" role="alert" data-testid="user-data-problem">
              {udProblem}
            </div>
          ) : null}
          {[
            ...(by['target.include.user_data'] ?? []),
            ...(by['target.exclude.user_data'] ?? []),
            ...(by['target.user_data'] ?? []),
            ...(by['target.include'] ?? []),
            ...(by['target.exclude'] ?? []),
          ].map((m) => (
            <div key={m} className="form-problem">
              {m}
            </div>
          ))}
        </div>
      </div>
    </section>
  );
}
