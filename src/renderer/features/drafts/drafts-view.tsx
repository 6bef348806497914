// The Drafts tab: every unsent change of the account (campaign and push): drafts marked "not
// posted", and queued, refused or blocked ones with their state (change-state.tsx), read-only until
// taken back to draft. The campaign editor of the selected one; a push draft opens in the Push
// tab's composer. Drafts can be ticked for bulk work (bulk-bar.tsx) and imported from CSV
// (import-dialog.tsx). A posted change leaves the list.
import { useEffect, useRef, useState } from 'react';
import type { Draft } from '../../../shared/ipc/contract';
import { ConfirmDialog } from '../../components/dialog';
import { formatAge } from '../../lib/format';
import { shortcutLabel, useShortcuts } from '../../lib/shortcuts';
import { isEditable, useDrafts } from '../../stores/drafts-store';
import { selectedAccount, useWorkspace } from '../../stores/workspace-store';
import { CampaignEditor, DRAFT_KEYS } from './campaign-editor';
import { campaignDraftTitle } from '../../forms/campaign-form';
import { useSeenValues } from './use-seen-values';
import { BulkBar, HISTORY_KEYS } from './bulk-bar';
import { ImportDialog } from './import-dialog';
import { useStatus } from '../../stores/status-store';
import { ChangeState, ChangeStateBadge, changeMeta } from './change-state';

function draftTitle(d: Draft): string {
  if (d.kind === 'campaign') return campaignDraftTitle(d.payload);
  return d.payload.event?.title?.trim() ? d.payload.event.title : 'Untitled push';
}

export function DraftsView({ now, onOpenPush }: { now: number; onOpenPush(d: Draft): void }) {
  const account = useWorkspace(selectedAccount);
  const s = useDrafts();
  const waits = useStatus((st) => st.waits);
  const [confirmDelete, setConfirmDelete] = useState<Draft | null>(null);
  const [importing, setImporting] = useState(false);
  const seen = useSeenValues(s.account);
  const open = s.drafts.find((d) => d.id === s.selectedId);

  useEffect(() => {
    void useDrafts.getState().load();
  }, []);

  // When the open draft goes (queued with Ctrl+Enter, deleted, undone), focus would fall to the
  // page's start: keep it in the workbench.
  const hadForm = useRef(false);
  useEffect(() => {
    const lost = hadForm.current && !s.form && (document.activeElement === document.body || document.activeElement === null);
    hadForm.current = s.form !== null;
    // The New button: the list's items may still be leaving (a queued draft goes on the next load).
    if (lost) document.querySelector<HTMLElement>('[data-testid="new-campaign-draft"]')?.focus();
  }, [s.form]);

  useShortcuts([
    { keys: 'Mod+N', run: () => void s.newCampaign() },
    { keys: DRAFT_KEYS.create, run: () => void s.newCampaign() },
    { keys: DRAFT_KEYS.queue, run: () => s.form && open && isEditable(open) && void s.submit() },
    { keys: DRAFT_KEYS.check, run: () => s.form && open && isEditable(open) && void s.check() },
    { keys: DRAFT_KEYS.save, run: () => void s.flush() },
    // The drafts' own history, also inside a text field: the browser's text undo would not know
    // about bulk edits, imports or deletes.
    { keys: HISTORY_KEYS.undo, run: () => void s.undo() },
    { keys: HISTORY_KEYS.redo, run: () => void s.redo() },
    { keys: 'Mod+Y', run: () => void s.redo() },
  ]);

  const newTitle = `New campaign draft (${shortcutLabel('Mod+N')} or ${shortcutLabel(DRAFT_KEYS.create)})`;
  return (
    <div className="drafts-workbench">
      <BulkBar onImport={() => setImporting(true)} />
      <div className="drafts">
        <div className="drafts-list">
          <div className="toolbar">
            <button type="button" onClick={() => void s.newCampaign()} title={newTitle} data-testid="new-campaign-draft">
              New campaign draft <kbd>{shortcutLabel('Mod+N')}</kbd>
            </button>
          </div>
          {s.error ? <p className="toolbar-error panel-empty">{s.error}</p> : null}
          {s.loaded && s.drafts.length === 0 ? (
            <p className="muted panel-empty">No drafts. Start one with {shortcutLabel('Mod+N')}.</p>
          ) : null}
          <ul className="pick-list" aria-label="Drafts" data-testid="drafts-list">
            {s.drafts.map((d) => (
              <li key={d.id} className={`pick-item${d.id === s.selectedId ? ' is-selected' : ''}`}>
                <input
                  type="checkbox"
                  className="pick-check"
                  checked={s.checked[d.id] === true}
                  onChange={() => s.toggleChecked(d.id)}
                  aria-label={`Tick ${draftTitle(d)}`}
                  data-testid="draft-tick"
                />
                <button
                  type="button"
                  className="pick-main"
                  aria-current={d.id === s.selectedId ? 'true' : undefined}
                  // A push draft opens in the Push composer; a queued or refused push shows its state here first.
                  onClick={() => (d.kind === 'push' && isEditable(d) ? onOpenPush(d) : void s.select(d.id))}
                  data-testid="draft-item"
                >
                  <span className="pick-title">
                    <span className="mark-added" title="Not posted yet">
                      +
                    </span>{' '}
                    {d.id === s.selectedId && s.form ? campaignDraftTitle({ name: s.form.name }) : draftTitle(d)}
                  </span>
                  <span className="pick-meta muted">
                    {d.status === 'draft' ? null : (
                      <>
                        <ChangeStateBadge d={d} />{' '}
                      </>
                    )}
                    {d.kind === 'campaign' ? 'campaign' : 'push'} ·{' '}
                    {changeMeta(d, d.item !== undefined && waits[d.item.id]?.reason === 'rate_limit')} · {formatAge(d.updatedAt, now)}
                    {d.problems.length > 0 && isEditable(d) ? <span className="warning"> · {d.problems.length} to fix</span> : null}
                  </span>
                </button>
                {d.status === 'draft' || d.status === 'failed' || d.status === 'blocked' ? (
                  <button
                    type="button"
                    className="icon-button"
                    onClick={() => setConfirmDelete(d)}
                    title={`Delete draft "${draftTitle(d)}"`}
                    aria-label={`Delete draft ${draftTitle(d)}`}
                  >
                    {'\u00D7'}
                  </button>
                ) : null}
              </li>
            ))}
          </ul>
        </div>
        <div className="drafts-editor">
          {s.notice ? (
            <p className={s.notice.bad ? 'form-problem notice' : 'notice notice-ok'} role="status" data-testid="draft-notice">
              {s.notice.text}
            </p>
          ) : null}
          {open ? <ChangeState d={open} /> : null}
          {open?.kind === 'push' && isEditable(open) ? (
            <p className="panel-empty">
              <button type="button" className="primary" onClick={() => onOpenPush(open)} data-testid="draft-open-push">
                Open in the Push tab
              </button>
            </p>
          ) : null}
          {s.form ? (
            // A queued, refused or blocked change is shown as it was queued, not editable: Fix (or
            // Take back to draft) makes it a draft again.
            <fieldset className="plain-fieldset" disabled={open ? !isEditable(open) : false} data-testid="draft-editor-fields">
              <CampaignEditor key={s.selectedId} form={s.form} accountType={account?.type} seen={seen} />
            </fieldset>
          ) : open ? null : (
            <p className="muted panel-empty">Select a draft, or start a new one.</p>
          )}
        </div>
        {confirmDelete ? (
          <ConfirmDialog
            title="Delete draft"
            message={`Delete "${draftTitle(confirmDelete)}"? It was never posted, so it will be gone${confirmDelete.status === 'draft' ? '' : ', and its refused version leaves the Outbox'}.`}
            confirm="Delete draft"
            onConfirm={() => void s.remove(confirmDelete.id)}
            onClose={() => setConfirmDelete(null)}
          />
        ) : null}
        {importing ? <ImportDialog accountType={account?.type} seen={seen} onClose={() => setImporting(false)} /> : null}
      </div>
    </div>
  );
}
