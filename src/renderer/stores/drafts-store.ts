// The open account's unsent changes (editable drafts, and queued, failed or blocked ones with their
// item's state) and the campaign draft being edited. Every edit is journaled at once
// (lib/draft-journal.ts) and saved to the core after a short pause; a save confirms the journal
// only for the edits it carried, so nothing typed is lost across a reload or a crash (edits left
// in the journal are saved at the next load: lib/journal-replay.ts). A change that is not a plain
// draft is read-only here until it is taken back to draft (Fix). The undo history and the changes
// that record a step are drafts-undo.ts.
import { create } from 'zustand';
import type { Draft, OutboxItem } from '../../shared/ipc/contract';
import { EMPTY_HISTORY, recordStep, type HistoryStep } from '../forms/draft-history';
import { call, DeskCallError, messageOf } from '../lib/api';
import { browserDraftJournal } from '../lib/draft-journal';
import { replayJournal } from '../lib/journal-replay';
import { oneAtATime } from '../lib/one-at-a-time';
import { createAutosave, type SaveState } from '../lib/autosave';
import { formToPayload, NEW_CAMPAIGN_FORM, payloadToForm, type CampaignForm } from '../forms/campaign-form';
import { sameAccount, type AccountRef } from '../../shared/domain/account';
import { draftsUndo, type DraftsUndo } from './drafts-undo';
import { checkNotice } from '../forms/problem-words';

/** The store; its undo history and the changes that record a step are drafts-undo.ts. */
export interface DraftsState extends DraftsUndo {
  account: AccountRef | null;
  drafts: Draft[];
  loaded: boolean;
  error: string | null;
  selectedId: string | null;
  form: CampaignForm | null;
  saveState: SaveState;
  saveError: string | null;
  /** Check or Queue was asked for the open draft: every problem is shown, not only touched fields'. */
  revealed: boolean;
  /** The last submit's outcome: a message and whether it was refused. */
  notice: { text: string; bad: boolean } | null;
  setAccount(ref: AccountRef | null): void;
  load(): Promise<void>;
  select(id: string | null): Promise<void>;
  newCampaign(): Promise<void>;
  edit(patch: Partial<CampaignForm>): void;
  flush(): Promise<void>;
  check(): Promise<void>;
  submit(): Promise<OutboxItem | null>;
  remove(id: string): Promise<void>;
  /**
   * Takes the change's outbox item back to its draft and opens it to be edited (Fix, or "Take back
   * to draft" of a queued one): the item is gone from the outbox.
   */
  takeBack(draftId: string): Promise<void>;
  /** Queues a failed or blocked change again as it is. */
  retry(draftId: string): Promise<void>;
  /** Drafts ticked in the list for bulk work. */
  checked: Record<string, true>;
  setChecked(ids: string[]): void;
  toggleChecked(id: string): void;
  /** Checks and queues the drafts; one notice sums it up. */
  submitMany(ids: string[]): Promise<void>;
}

/** A plain draft: neither queued nor parked in the outbox. */
export const isEditable = (d: Draft) => d.status === 'draft';

export const useDrafts = create<DraftsState>()((set, get) => {
  const journal = browserDraftJournal();
  const autosave = createAutosave(() => void flushQueued());
  let seq = Date.now();

  const selected = () => get().drafts.find((d) => d.id === get().selectedId) ?? null;

  /** The open draft and its form as they are now (a save queued behind another saves these). */
  const capture = () => ({ d: selected(), form: get().form, mySeq: seq });

  async function saveNow(snap: ReturnType<typeof capture>): Promise<void> {
    autosave.cancel();
    const { d, form, mySeq } = snap;
    if (!d || d.kind !== 'campaign' || !form || !isEditable(d)) return;
    set({ saveState: 'saving' });
    try {
      const saved = await call('drafts.save', {
        kind: 'campaign',
        id: d.id,
        profileId: d.profileId,
        accountId: d.accountId,
        payload: formToPayload(form),
      });
      journal.confirm(d.id, mySeq);
      set({
        drafts: get().drafts.map((x) => (x.id === saved.id ? saved : x)),
        saveState: seq === mySeq ? 'saved' : 'unsaved',
        saveError: null,
      });
    } catch (err) {
      // The journal still holds the edit; the next edit or the next start saves it again.
      set({ saveState: 'failed', saveError: messageOf(err) });
    }
  }

  function flushQueued(): Promise<void> {
    const snap = capture();
    return autosave.serial(() => saveNow(snap));
  }

  async function loadNow(): Promise<void> {
    const ref = get().account;
    if (!ref) return;
    const selectedBefore = get().selectedId;
    try {
      let drafts = await call('drafts.list', { profileId: ref.profileId, accountId: ref.accountId });
      drafts = await replayJournal(journal, ref, drafts);
      const now = get().account;
      if (!now || now.profileId !== ref.profileId || now.accountId !== ref.accountId) return;
      const sel = get().selectedId;
      const listed = sel !== null && drafts.some((d) => d.id === sel);
      // A draft made (and opened) while this list was on its way is newer than the list, not gone.
      const newer = sel !== null && !listed && sel !== selectedBefore ? get().drafts.find((d) => d.id === sel) : undefined;
      if (newer) drafts = [newer, ...drafts];
      // The form being typed in stays as it is; only the list is refreshed under it.
      set({ drafts, loaded: true, error: null, ...(listed || newer ? {} : { selectedId: null, form: null }) });
    } catch (err) {
      set({ loaded: true, error: messageOf(err) });
    }
  }

  // Every outbox event reloads the list (a change's state lives there): lib/one-at-a-time.ts.
  const load = oneAtATime(loadNow);
  const undoPart = draftsUndo(set, get, { journal, flush: flushQueued });

  return {
    account: null,
    drafts: [],
    loaded: false,
    error: null,
    selectedId: null,
    form: null,
    saveState: 'saved',
    saveError: null,
    notice: null,
    revealed: false,
    setAccount(ref) {
      const cur = get().account;
      if (sameAccount(cur, ref)) return;
      if (get().form) void flushQueued();
      set({
        account: ref,
        drafts: [],
        loaded: false,
        error: null,
        selectedId: null,
        form: null,
        notice: null,
        saveState: 'saved',
        checked: {},
        history: EMPTY_HISTORY,
      });
      if (ref) void get().load();
    },
    load,
    async select(id) {
      if (id === get().selectedId) return;
      if (get().form) await flushQueued();
      const d = get().drafts.find((x) => x.id === id) ?? null;
      set({
        selectedId: d?.id ?? null,
        form: d?.kind === 'campaign' ? payloadToForm(d.payload) : null,
        saveState: 'saved',
        saveError: null,
        notice: null,
        revealed: false,
      });
    },
    async newCampaign() {
      const ref = get().account;
      if (!ref) return;
      // The open draft is saved as it is and its editor closes at once: what is typed next is
      // meant for the new draft, never for the one open before (its save may take a moment).
      const flushed = get().form ? flushQueued() : Promise.resolve();
      set({ selectedId: null, form: null });
      await flushed;
      try {
        const d = await call('drafts.save', {
          kind: 'campaign',
          profileId: ref.profileId,
          accountId: ref.accountId,
          payload: formToPayload(NEW_CAMPAIGN_FORM),
        });
        set({
          drafts: [d, ...get().drafts.filter((x) => x.id !== d.id)],
          selectedId: d.id,
          form: { ...NEW_CAMPAIGN_FORM },
          saveState: 'saved',
          notice: null,
          revealed: false,
        });
      } catch (err) {
        set({ notice: { text: messageOf(err), bad: true } });
      }
    },
    edit(patch) {
      const d = selected();
      const form = get().form;
      if (!d || !form || !isEditable(d)) return;
      const next = { ...form, ...patch };
      // One history step per field typed in; it merges until another field or draft is edited.
      const step: HistoryStep = {
        label: `edit ${Object.keys(patch).join(', ')}`,
        before: [{ id: d.id, payload: formToPayload(form) }],
        after: [{ id: d.id, payload: formToPayload(next) }],
        mergeKey: `${d.id}:${Object.keys(patch).sort().join(',')}`,
      };
      set({ history: recordStep(get().history, step) });
      seq += 1;
      journal.write({ draftId: d.id, kind: 'campaign', profileId: d.profileId, accountId: d.accountId, payload: formToPayload(next), seq });
      set({ form: next, saveState: 'unsaved', notice: null });
      autosave.schedule();
    },
    flush: flushQueued,
    async check() {
      set({ revealed: true });
      await flushQueued();
      const d = selected();
      if (!d) return;
      const n = d.problems.length;
      set({ notice: checkNotice(n) });
    },
    async submit() {
      set({ revealed: true });
      await flushQueued();
      const d = selected();
      if (!d) return null;
      try {
        const item = await call('drafts.submit', { id: d.id });
        journal.remove(d.id);
        set({
          selectedId: null,
          form: null,
          notice: { text: `Queued to post: ${item.summary}. Follow it in the Outbox.`, bad: false },
          // As after a bulk queue: an undo must not write the queued draft again (once posted it would come back as new).
          history: EMPTY_HISTORY,
        });
        await get().load();
        return item;
      } catch (err) {
        set({ notice: { text: messageOf(err), bad: true } });
        if (err instanceof DeskCallError) await get().load();
        return null;
      }
    },
    async remove(id) {
      await get().removeMany([id]);
    },
    async takeBack(draftId) {
      const d = get().drafts.find((x) => x.id === draftId);
      if (!d?.item) return;
      try {
        const back = await call('outbox.takeBack', { id: d.item.id });
        set({ drafts: get().drafts.map((x) => (x.id === back.id ? back : x)) });
        // Opened at once to be edited; the form is read again from what the core holds.
        set({
          selectedId: back.id,
          form: back.kind === 'campaign' ? payloadToForm(back.payload) : null,
          saveState: 'saved',
          saveError: null,
          revealed: true,
          notice: { text: 'Taken back to draft: it is out of the Outbox. Edit it and queue it again.', bad: false },
        });
      } catch (err) {
        set({ notice: { text: messageOf(err), bad: true } });
      }
      await get().load();
    },
    async retry(draftId) {
      const d = get().drafts.find((x) => x.id === draftId);
      if (!d?.item) return;
      try {
        const item = await call('outbox.retry', { id: d.item.id });
        set({ notice: { text: `Queued again as it was: ${item.summary}.`, bad: false } });
      } catch (err) {
        set({ notice: { text: messageOf(err), bad: true } });
      }
      await get().load();
    },
    checked: {},
    setChecked(ids) {
      set({ checked: Object.fromEntries(ids.map((id) => [id, true as const])) });
    },
    toggleChecked(id) {
      const next = { ...get().checked };
      if (next[id]) delete next[id];
      else next[id] = true;
      set({ checked: next });
    },
    ...undoPart,
    async submitMany(ids) {
      await flushQueued();
      if (ids.length === 0) return;
      try {
        const out = await call('drafts.submitMany', { ids });
        out.queued.forEach((q) => journal.remove(q.id));
        const n = out.queued.length;
        const bad = out.refused.length;
        const text =
          `${n} draft${n === 1 ? '' : 's'} queued to post` +
          (bad > 0
            ? `; ${bad} not queued: fix the problems marked on ${bad === 1 ? 'it' : 'them'} and queue again.`
            : '. Follow them in the Outbox.');
        const queuedIds = new Set(out.queued.map((q) => q.id));
        set({
          notice: { text, bad: bad > 0 },
          checked: Object.fromEntries(out.refused.map((r) => [r.id, true as const])),
          ...(get().selectedId && queuedIds.has(get().selectedId!) ? { selectedId: null, form: null } : {}),
          // Queued drafts left the workbench: their steps can no longer be undone here.
          history: EMPTY_HISTORY,
        });
        await get().load();
      } catch (err) {
        set({ notice: { text: messageOf(err), bad: true } });
      }
    },
  };
});
