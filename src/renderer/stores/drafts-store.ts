// The open account's unsent changes (editable drafts, and queued, failed or blocked ones with their
// item's state) and the campaign draft being edited. Every edit is journaled at once
// (lib/draft-journal.ts) and saved to the core after a short pause; a save confirms the journal
// only for the edits it carried, so nothing typed is lost across a reload or a crash. A change
// that is not a plain draft is read-only here until it is taken back to draft (Fix).
import { create } from 'zustand';
import type { Draft, OutboxItem } from '../../shared/ipc/contract';
import { EMPTY_HISTORY, recordStep, takeRedo, takeUndo, type DraftSnap, type History, type HistoryStep } from '../forms/draft-history';
import { call, DeskCallError, messageOf } from '../lib/api';
import { browserDraftJournal } from '../lib/draft-journal';
import { createAutosave, type SaveState } from '../lib/autosave';
import { formToPayload, NEW_CAMPAIGN_FORM, payloadToForm, type CampaignForm, type CampaignPayload } from '../forms/campaign-form';
import { sameAccount, type AccountRef } from '../../shared/domain/account';

export interface DraftsState {
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
  history: History;
  /** Creates campaign drafts from payloads (duplicate, import) as one undoable step. */
  createMany(label: string, payloads: CampaignPayload[]): Promise<Draft[]>;
  /** Sets fields across drafts as one undoable step. */
  editMany(ids: string[], patch: CampaignPayload, label: string): Promise<void>;
  removeMany(ids: string[]): Promise<void>;
  undo(): Promise<void>;
  redo(): Promise<void>;
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
  const snapOf = (d: Draft): DraftSnap => ({ id: d.id, payload: d.kind === 'campaign' ? d.payload : null });

  /** Makes the drafts what the snaps say (null: gone), all or none; the open form follows. */
  async function apply(snaps: DraftSnap[]): Promise<boolean> {
    const ref = get().account;
    if (!ref) return false;
    const gone = snaps.filter((x) => x.payload === null).map((x) => x.id);
    const present = snaps.flatMap((x) => (x.payload === null ? [] : [{ id: x.id, payload: x.payload }]));
    try {
      if (gone.length > 0) await call('drafts.deleteMany', { ids: gone });
      gone.forEach((id) => journal.remove(id));
      const saved = present.length > 0 ? await call('drafts.saveMany', { profileId: ref.profileId, accountId: ref.accountId, drafts: present }) : [];
      const savedIds = new Set(saved.map((d) => d.id));
      const kept = get().drafts.filter((d) => !gone.includes(d.id));
      const drafts = [...saved.filter((d) => !kept.some((k) => k.id === d.id)), ...kept.map((d) => (savedIds.has(d.id) ? saved.find((x) => x.id === d.id)! : d))];
      const sel = get().selectedId;
      const open = sel ? saved.find((d) => d.id === sel) : undefined;
      set({
        drafts,
        ...(sel && gone.includes(sel) ? { selectedId: null, form: null } : {}),
        ...(open && open.kind === 'campaign' ? { form: payloadToForm(open.payload), saveState: 'saved' as const } : {}),
      });
      return true;
    } catch (err) {
      set({ notice: { text: messageOf(err), bad: true } });
      return false;
    }
  }

  /** The open draft and its form as they are now (a save queued behind another saves these). */
  const capture = () => ({ d: selected(), form: get().form, mySeq: seq });

  async function saveNow(snap: ReturnType<typeof capture>): Promise<void> {
    autosave.cancel();
    const { d, form, mySeq } = snap;
    if (!d || d.kind !== 'campaign' || !form || !isEditable(d)) return;
    set({ saveState: 'saving' });
    try {
      const saved = await call('drafts.save', { kind: 'campaign', id: d.id, profileId: d.profileId, accountId: d.accountId, payload: formToPayload(form) });
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

  let loading: Promise<void> | null = null;
  let nextLoad: Promise<void> | null = null;

  async function loadNow(): Promise<void> {
    const ref = get().account;
    if (!ref) return;
    const selectedBefore = get().selectedId;
    try {
      let drafts = await call('drafts.list', { profileId: ref.profileId, accountId: ref.accountId });
      drafts = await replayJournal(ref, drafts);
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

  /** Journal entries of this account that the core never confirmed: save them now. */
  async function replayJournal(ref: AccountRef, drafts: Draft[]): Promise<Draft[]> {
    let out = drafts;
    for (const e of journal.forAccount(ref.profileId, ref.accountId)) {
      if (!out.some((d) => d.id === e.draftId)) {
        journal.remove(e.draftId); // submitted or deleted meanwhile
        continue;
      }
      try {
        const saved = await call('drafts.save', { kind: e.kind, id: e.draftId, profileId: ref.profileId, accountId: ref.accountId, payload: e.payload } as Parameters<typeof call<'drafts.save'>>[1]);
        journal.confirm(e.draftId, e.seq);
        out = out.map((d) => (d.id === saved.id ? saved : d));
      } catch {
        // Kept in the journal for the next try.
      }
    }
    return out;
  }

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
      set({ account: ref, drafts: [], loaded: false, error: null, selectedId: null, form: null, notice: null, saveState: 'saved', checked: {}, history: EMPTY_HISTORY });
      if (ref) void get().load();
    },
    load() {
      // Every outbox event reloads the list (a change's state lives there): one load runs at a
      // time and the calls made meanwhile share a single next one, which starts after it and so
      // sees everything they were called for.
      if (!loading) {
        loading = loadNow().finally(() => {
          loading = null;
        });
        return loading;
      }
      nextLoad ??= loading.then(() => {
        nextLoad = null;
        return get().load();
      });
      return nextLoad;
    },
    async select(id) {
      if (id === get().selectedId) return;
      if (get().form) await flushQueued();
      const d = get().drafts.find((x) => x.id === id) ?? null;
      set({ selectedId: d?.id ?? null, form: d?.kind === 'campaign' ? payloadToForm(d.payload) : null, saveState: 'saved', saveError: null, notice: null, revealed: false });
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
        const d = await call('drafts.save', { kind: 'campaign', profileId: ref.profileId, accountId: ref.accountId, payload: formToPayload(NEW_CAMPAIGN_FORM) });
        set({ drafts: [d, ...get().drafts.filter((x) => x.id !== d.id)], selectedId: d.id, form: { ...NEW_CAMPAIGN_FORM }, saveState: 'saved', notice: null, revealed: false });
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
      set({ notice: n === 0 ? { text: 'No problems found: ready to queue.', bad: false } : { text: `${n} problem${n === 1 ? '' : 's'} to fix before queueing.`, bad: true } });
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
    history: EMPTY_HISTORY,
    async createMany(label, payloads) {
      const ref = get().account;
      if (!ref || payloads.length === 0) return [];
      try {
        const saved = await call('drafts.saveMany', { profileId: ref.profileId, accountId: ref.accountId, drafts: payloads.map((payload) => ({ payload })) });
        const ids = saved.map((d) => d.id);
        set({
          drafts: [...saved, ...get().drafts.filter((d) => !ids.includes(d.id))],
          checked: Object.fromEntries(ids.map((id) => [id, true as const])),
          history: recordStep(get().history, { label, before: ids.map((id) => ({ id, payload: null })), after: saved.map(snapOf) }),
        });
        return saved;
      } catch (err) {
        set({ notice: { text: messageOf(err), bad: true } });
        return [];
      }
    },
    async editMany(ids, patch, label) {
      await flushQueued();
      const targets = get().drafts.filter((d) => ids.includes(d.id) && d.kind === 'campaign');
      if (targets.length === 0) return;
      const before = targets.map(snapOf);
      const after = targets.map((d) => ({ id: d.id, payload: { ...(d.payload as CampaignPayload), ...patch } }));
      if (await apply(after)) set({ history: recordStep(get().history, { label, before, after }) });
    },
    async removeMany(ids) {
      await flushQueued();
      const targets = get().drafts.filter((d) => ids.includes(d.id) && d.kind === 'campaign');
      const others = ids.filter((id) => !targets.some((d) => d.id === id));
      try {
        // Push drafts are not part of the campaign history: they go at once.
        if (others.length > 0) await call('drafts.deleteMany', { ids: others });
        others.forEach((id) => journal.remove(id));
        set({ drafts: get().drafts.filter((d) => !others.includes(d.id)) });
      } catch (err) {
        set({ notice: { text: messageOf(err), bad: true } });
        return;
      }
      if (targets.length === 0) return;
      const before = targets.map(snapOf);
      const after = targets.map((d) => ({ id: d.id, payload: null }));
      const label = targets.length === 1 ? 'delete draft' : `delete ${targets.length} drafts`;
      if (await apply(after)) set({ history: recordStep(get().history, { label, before, after }) });
    },
    async undo() {
      await flushQueued();
      const taken = takeUndo(get().history);
      if (!taken) return;
      if (await apply(taken.step.before)) set({ history: taken.next, notice: { text: `Undone: ${taken.step.label}.`, bad: false } });
    },
    async redo() {
      await flushQueued();
      const taken = takeRedo(get().history);
      if (!taken) return;
      if (await apply(taken.step.after)) set({ history: taken.next, notice: { text: `Redone: ${taken.step.label}.`, bad: false } });
    },
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
          (bad > 0 ? `; ${bad} not queued: fix the problems marked on ${bad === 1 ? 'it' : 'them'} and queue again.` : '. Follow them in the Outbox.');
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
