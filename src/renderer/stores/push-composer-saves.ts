// The push composer's saving, journal and recovery, for the push store (which spreads nothing of
// it into its state: it calls these). Every edit is journaled at once (lib/draft-journal.ts) and
// saved after a short pause (lib/autosave.ts); the draft is created on the first edit that puts
// something in the form, under a local journal key until the core answers; edits the core never
// confirmed come back into the composer (forms/push-recovery.ts). The counters that tell a late
// answer from the current push live here, not in the store's state: they never show.
import type { App, BlockedPush, Draft } from '../../shared/ipc/contract';
import type { AccountRef } from '../../shared/domain/account';
import { formToPayload, newPushForm, payloadToForm, type PushForm } from '../forms/push-form';
import { isBlankPushForm, journaledPushForm, planPushRecovery } from '../forms/push-recovery';
import { takenBackOf, type TakenBack } from '../forms/taken-back';
import { call, messageOf } from '../lib/api';
import { createAutosave, type SaveState } from '../lib/autosave';
import { isLocalDraftId, newLocalDraftId, type DraftJournal } from '../lib/draft-journal';
import { createJournaledPushes } from '../lib/journal-replay';

/** The fields of the push store the composer's saves read and write. */
export interface ComposerHost {
  account: AccountRef | null;
  form: PushForm;
  draftId: string | null;
  apps: App[];
  blocked: BlockedPush[];
  saveState: SaveState;
  saveError: string | null;
  notice: { text: string; bad: boolean } | null;
  revealed: boolean;
  composerKey: number;
  serviceWords: TakenBack | null;
  defaultPerformer: string | null;
}

export interface ComposerSaves {
  /** Saves pending edits now (`force`: even a blank push); resolves to the draft's id once the core has it. */
  flush(force?: boolean): Promise<string | null>;
  /** A new push in the composer (`fields` set with it): pending edits of the old one are saved first. */
  switchComposer(fields: Partial<ComposerHost>): void;
  /** The form as edited: journaled now, saved after the pause. */
  change(form: PushForm): void;
  /** Opens a saved push draft; edits of it the core never confirmed win over its payload. */
  open(d: Extract<Draft, { kind: 'push' }>): void;
  /** Journaled pushes of this account the core never confirmed: back into the composer, or created. */
  recover(ref: AccountRef): Promise<void>;
}

/** One save, taken when it is decided: later edits or a switch of composer cannot change it. */
interface SaveJob {
  composer: number;
  ref: AccountRef;
  draftId: string | null;
  localId: string;
  form: PushForm;
  seq: number;
  /** An explicit save: creates the draft even when the form is still blank. */
  force: boolean;
}

export function composerSaves(set: (patch: Partial<ComposerHost>) => void, get: () => ComposerHost, journal: DraftJournal): ComposerSaves {
  const autosave = createAutosave(() => void flush());
  let seq = Date.now();
  /** Which push the composer shows; moves on New, open and account switch so late answers are ignored. */
  let composer = 0;
  /** The journal key of the composer's push until the core has created it. */
  let localId = newLocalDraftId();
  /** The last edit a save was queued for, so an idle flush does not save again. */
  let queuedSeq = seq;
  /** Local ids the core has created, for saves queued before the create answered. */
  const created = new Map<string, string>();

  const isCurrent = (job: SaveJob) => job.composer === composer;

  function takeJob(force: boolean): SaveJob | null {
    const s = get();
    if (!s.account || (!force && queuedSeq === seq)) return null;
    queuedSeq = seq;
    return { composer, ref: s.account, draftId: s.draftId, localId, form: s.form, seq, force };
  }

  async function run(job: SaveJob): Promise<string | null> {
    const id = job.draftId ?? created.get(job.localId) ?? null;
    if (!id && !job.force && isBlankPushForm(job.form)) {
      // Typed and erased before a draft existed: nothing to keep.
      journal.confirm(job.localId, job.seq);
      if (isCurrent(job)) set({ saveState: 'saved', saveError: null });
      return null;
    }
    if (isCurrent(job)) set({ saveState: 'saving' });
    try {
      const d = await call('drafts.save', {
        kind: 'push',
        ...(id ? { id } : {}),
        profileId: job.ref.profileId,
        accountId: job.ref.accountId,
        payload: formToPayload(job.form),
      });
      if (id) journal.confirm(id, job.seq);
      else {
        created.set(job.localId, d.id);
        journal.adopt(job.localId, d.id, job.seq);
      }
      if (isCurrent(job)) set({ draftId: d.id, saveState: seq === job.seq ? 'saved' : 'unsaved', saveError: null });
      return d.id;
    } catch (err) {
      // The journal still holds the edit; the next edit, Save as draft or the next start saves it.
      if (isCurrent(job)) set({ saveState: 'failed', saveError: messageOf(err) });
      return null;
    }
  }

  function flush(force = false): Promise<string | null> {
    autosave.cancel();
    const job = takeJob(force);
    const mine = composer;
    return autosave.serial(() => (job ? run(job) : Promise.resolve(mine === composer ? get().draftId : null)));
  }

  /** A new push in the composer: pending edits of the old one are saved first. */
  function switchComposer(fields: Partial<ComposerHost>): void {
    void flush();
    composer += 1;
    localId = newLocalDraftId();
    queuedSeq = seq;
    // The blank form takes the default of the connection switched to (fields may clear it), never
    // the one of the connection left: defaults are per connection.
    const performer = 'defaultPerformer' in fields ? (fields.defaultPerformer ?? null) : get().defaultPerformer;
    set({
      form: blankForm(performer),
      draftId: null,
      notice: null,
      serviceWords: null,
      saveState: 'saved',
      saveError: null,
      revealed: false,
      composerKey: composer,
      ...fields,
    });
  }

  /** A new push: blank but for the connection's default performer. */
  function blankForm(performer: string | null = get()?.defaultPerformer ?? null): PushForm {
    return { ...newPushForm(), performer: performer ?? '' };
  }

  function change(form: PushForm): void {
    const s = get();
    set({ form, notice: null });
    if (!s.account) return;
    seq += 1;
    journal.write({
      draftId: s.draftId ?? localId,
      kind: 'push',
      profileId: s.account.profileId,
      accountId: s.account.accountId,
      payload: formToPayload(form),
      seq,
    });
    set({ saveState: 'unsaved' });
    autosave.schedule();
  }

  /** Journaled pushes of this account the core never confirmed: back into the composer, or created. */
  async function recover(ref: AccountRef): Promise<void> {
    const plan = planPushRecovery([
      ...journal.unsavedForAccount(ref.profileId, ref.accountId),
      ...journal.forAccount(ref.profileId, ref.accountId),
    ]);
    for (const e of plan.drop) journal.remove(e.draftId);
    if (plan.open && get().account === ref && isBlankPushForm(get().form) && !get().draftId) {
      const { entry, form } = plan.open;
      const local = isLocalDraftId(entry.draftId);
      composer += 1;
      localId = local ? entry.draftId : newLocalDraftId();
      seq = Math.max(seq, entry.seq) + 1;
      set({ form, draftId: local ? null : entry.draftId, saveState: 'unsaved', notice: null, revealed: false, composerKey: composer });
      void flush(true);
    }
    await createJournaledPushes(journal, ref, plan.create);
  }

  return {
    flush,
    switchComposer,
    change,
    recover,
    open(d) {
      const pending = journal.read(d.id);
      const journaled = pending && journaledPushForm(pending);
      switchComposer({ form: journaled ?? payloadToForm(d.payload), draftId: d.id, serviceWords: takenBackOf(d) });
      if (pending && journaled) {
        seq = Math.max(seq, pending.seq) + 1;
        set({ saveState: 'unsaved' });
        void flush(true);
      }
    },
  };
}
