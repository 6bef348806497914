// The drafts workbench's toolbar: tick drafts, then set a field on all of them, check and queue
// them with one summary, export them as CSV, delete them; undo and redo every step.
import { useState } from 'react';
import { ConfirmDialog } from '../../components/dialog';
import { downloadText } from '../../lib/delimited';
import { shortcutLabel } from '../../lib/shortcuts';
import { useDrafts } from '../../stores/drafts-store';
import { DRAFT_FIELDS } from './draft-fields';
import { draftsToCsv } from './draft-transfer';
import type { CampaignPayload } from '../../forms/campaign-form';

export const HISTORY_KEYS = { undo: 'Mod+Z', redo: 'Mod+Shift+Z' } as const;

export function BulkBar({ onImport }: { onImport(): void }) {
  const s = useDrafts();
  const ids = Object.keys(s.checked).filter((id) => s.drafts.some((d) => d.id === id));
  const campaignDrafts = s.drafts.filter((d) => d.kind === 'campaign');
  const [field, setField] = useState('cpc');
  const [value, setValue] = useState('');
  /** The ticked drafts "Delete n" asks about, as the one-draft delete does. */
  const [confirmDelete, setConfirmDelete] = useState<string[] | null>(null);
  const f = DRAFT_FIELDS.find((x) => x.field === field)!;
  const n = ids.length;
  const problem =
    f.kind === 'number' && value.trim() !== '' && !Number.isFinite(Number(value)) ? `${f.label}: write a number, like 0.35.` : null;

  const apply = () => {
    if (problem || n === 0) return;
    const v = value.trim();
    const patch: CampaignPayload = { [field]: v === '' ? undefined : f.kind === 'number' ? Number(v) : v };
    void s.editMany(ids, patch, `set ${f.label} on ${n} draft${n === 1 ? '' : 's'}`);
  };
  const undoLabel = s.history.undo.at(-1)?.label;
  const redoLabel = s.history.redo.at(-1)?.label;

  return (
    <div className="bulk-bar" role="toolbar" aria-label="Work on several drafts">
      <label className="column-check">
        <input
          type="checkbox"
          checked={n > 0 && n === s.drafts.length}
          ref={(el) => {
            if (el) el.indeterminate = n > 0 && n < s.drafts.length;
          }}
          onChange={() => s.setChecked(n === s.drafts.length ? [] : s.drafts.map((d) => d.id))}
          data-testid="drafts-check-all"
        />
        {n > 0 ? `${n} ticked` : 'Tick all'}
      </label>
      <span className="bulk-edit">
        <label className="visually-hidden" htmlFor="bulk-field">
          Field to set
        </label>
        <select id="bulk-field" value={field} onChange={(e) => setField(e.target.value)} data-testid="bulk-field">
          {DRAFT_FIELDS.map((x) => (
            <option key={x.field} value={x.field}>
              {x.label}
            </option>
          ))}
        </select>
        <label className="visually-hidden" htmlFor="bulk-value">
          New value of {f.label}
        </label>
        <input
          id="bulk-value"
          value={value}
          onChange={(e) => setValue(e.target.value)}
          onKeyDown={(e) => e.key === 'Enter' && apply()}
          placeholder={f.kind === 'number' ? '0.35' : f.kind === 'enum' ? 'FIXED' : ''}
          aria-invalid={problem ? true : undefined}
          aria-describedby={problem ? 'bulk-problem' : undefined}
          data-testid="bulk-value"
        />
        <button type="button" onClick={apply} disabled={n === 0 || problem !== null} data-testid="bulk-apply">
          Set on {n}
        </button>
        {problem ? (
          <span id="bulk-problem" className="form-problem">
            {problem}
          </span>
        ) : null}
      </span>
      <button
        type="button"
        disabled={n === 0}
        onClick={() => void s.submitMany(ids)}
        data-testid="bulk-queue"
        title="Check the ticked drafts and queue the ones without problems"
      >
        Check and queue {n}
      </button>
      <button
        type="button"
        disabled={n === 0}
        onClick={() => setConfirmDelete(ids)}
        data-testid="bulk-delete"
        title="Delete the ticked drafts (asks first; campaign drafts can be undone)"
      >
        Delete {n}
      </button>
      <button type="button" onClick={onImport} data-testid="drafts-import">
        Import…
      </button>
      <button
        type="button"
        disabled={campaignDrafts.length === 0}
        onClick={() => {
          const chosen = n > 0 ? campaignDrafts.filter((d) => s.checked[d.id]) : campaignDrafts;
          downloadText(`drafts-${s.account?.accountId ?? 'account'}.csv`, draftsToCsv(chosen), 'text/csv');
        }}
        data-testid="drafts-export"
      >
        Export CSV
      </button>
      <button
        type="button"
        disabled={!undoLabel}
        onClick={() => void s.undo()}
        title={`Undo ${undoLabel ?? ''} (${shortcutLabel(HISTORY_KEYS.undo)})`}
        aria-keyshortcuts="Control+Z Meta+Z"
        data-testid="drafts-undo"
      >
        Undo
      </button>
      <button
        type="button"
        disabled={!redoLabel}
        onClick={() => void s.redo()}
        title={`Redo ${redoLabel ?? ''} (${shortcutLabel(HISTORY_KEYS.redo)})`}
        aria-keyshortcuts="Control+Shift+Z Meta+Shift+Z"
        data-testid="drafts-redo"
      >
        Redo
      </button>
      {confirmDelete ? <ConfirmBulkDelete ids={confirmDelete} onClose={() => setConfirmDelete(null)} /> : null}
    </div>
  );
}

/** "Delete 3 drafts?" with what goes with them and whether Undo brings them back. */
function ConfirmBulkDelete({ ids, onClose }: { ids: string[]; onClose(): void }) {
  const s = useDrafts();
  const chosen = s.drafts.filter((d) => ids.includes(d.id));
  const n = chosen.length;
  const what = `${n} draft${n === 1 ? '' : 's'}`;
  const parked = chosen.some((d) => d.status !== 'draft');
  // Push drafts are not in the undo history (drafts-store removeMany): say so rather than promise Undo.
  const pushes = chosen.filter((d) => d.kind === 'push').length;
  const one = n === 1;
  const back =
    pushes === 0
      ? ` Undo brings ${one ? 'it' : 'them'} back.`
      : ` ${pushes === n ? (one ? 'It is a push draft and cannot' : 'They are push drafts and cannot') : `${pushes} of them are push drafts, which cannot`} be brought back.`;
  const gone = one ? 'It was never posted, so it will be gone' : 'They were never posted, so they will be gone';
  return (
    <ConfirmDialog
      title={`Delete ${what}`}
      message={`Delete the ${what} you ticked? ${gone}${parked ? `, and ${one ? 'its refused version leaves' : 'their refused versions leave'} the Outbox` : ''}.${back}`}
      confirm={`Delete ${what}`}
      onConfirm={() => void s.removeMany(ids)}
      onClose={onClose}
    />
  );
}
