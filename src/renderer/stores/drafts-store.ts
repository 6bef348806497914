// The open account's drafts and the campaign draft being edited. Every edit is journaled at once
// (lib/draft-journal.ts) and saved to the core after a short pause; a save confirms the journal
// only for the edits it carried, so nothing typed is lost across a reload or a crash.
import { create } from 'zustand';
import type { Draft, OutboxItem } from '../../shared/ipc/contract';
import { call, DeskCallError, messageOf } from '../lib/api';
import { createDraftJournal, type DraftJournal } from '../lib/draft-journal';
import { formToPayload, NEW_CAMPAIGN_FORM, payloadToForm, type CampaignForm } from '../features/drafts/campaign-form';
import type { AccountRef } from './workspace-store';

export const AUTOSAVE_MS = 400;

export type SaveState = 'saved' | 'saving' | 'unsaved' | 'failed';

export interface DraftsState {
  account: AccountRef | null;
  drafts: Draft[];
  loaded: boolean;
  error: string | null;
  selectedId: string | null;
  form: CampaignForm | null;
  saveState: SaveState;
  saveError: string | null;
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
}

function browserJournal(): DraftJournal {
  return createDraftJournal(typeof window === 'undefined' ? null : window.localStorage);
}

export const useDrafts = create<DraftsState>()((set, get) => {
  const journal = browserJournal();
  let timer: ReturnType<typeof setTimeout> | null = null;
  let seq = Date.now();
  let saving: Promise<void> | null = null;

  const selected = () => get().drafts.find((d) => d.id === get().selectedId) ?? null;

  async function saveNow(): Promise<void> {
    if (timer) clearTimeout(timer);
    timer = null;
    const d = selected();
    const form = get().form;
    if (!d || d.kind !== 'campaign' || !form) return;
    const mySeq = seq;
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
    const run = (saving ?? Promise.resolve()).then(saveNow);
    saving = run.finally(() => {
      if (saving === run) saving = null;
    });
    return run;
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
    setAccount(ref) {
      const cur = get().account;
      if (cur && ref && cur.profileId === ref.profileId && cur.accountId === ref.accountId) return;
      if (get().form) void flushQueued();
      set({ account: ref, drafts: [], loaded: false, error: null, selectedId: null, form: null, notice: null, saveState: 'saved' });
      if (ref) void get().load();
    },
    async load() {
      const ref = get().account;
      if (!ref) return;
      try {
        let drafts = await call('drafts.list', { profileId: ref.profileId, accountId: ref.accountId });
        drafts = await replayJournal(ref, drafts);
        const now = get().account;
        if (!now || now.profileId !== ref.profileId || now.accountId !== ref.accountId) return;
        const sel = get().selectedId;
        const stillThere = sel !== null && drafts.some((d) => d.id === sel);
        // The form being typed in stays as it is; only the list is refreshed under it.
        set({ drafts, loaded: true, error: null, ...(stillThere ? {} : { selectedId: null, form: null }) });
      } catch (err) {
        set({ loaded: true, error: messageOf(err) });
      }
    },
    async select(id) {
      if (id === get().selectedId) return;
      if (get().form) await flushQueued();
      const d = get().drafts.find((x) => x.id === id) ?? null;
      set({ selectedId: d?.id ?? null, form: d?.kind === 'campaign' ? payloadToForm(d.payload) : null, saveState: 'saved', saveError: null, notice: null });
    },
    async newCampaign() {
      const ref = get().account;
      if (!ref) return;
      if (get().form) await flushQueued();
      try {
        const d = await call('drafts.save', { kind: 'campaign', profileId: ref.profileId, accountId: ref.accountId, payload: formToPayload(NEW_CAMPAIGN_FORM) });
        set({ drafts: [d, ...get().drafts.filter((x) => x.id !== d.id)], selectedId: d.id, form: { ...NEW_CAMPAIGN_FORM }, saveState: 'saved', notice: null });
      } catch (err) {
        set({ notice: { text: messageOf(err), bad: true } });
      }
    },
    edit(patch) {
      const d = selected();
      const form = get().form;
      if (!d || !form) return;
      const next = { ...form, ...patch };
      seq += 1;
      journal.write({ draftId: d.id, kind: 'campaign', profileId: d.profileId, accountId: d.accountId, payload: formToPayload(next), seq });
      set({ form: next, saveState: 'unsaved', notice: null });
      if (timer) clearTimeout(timer);
      timer = setTimeout(() => void flushQueued(), AUTOSAVE_MS);
    },
    flush: flushQueued,
    async check() {
      await flushQueued();
      const d = selected();
      if (!d) return;
      const n = d.problems.length;
      set({ notice: n === 0 ? { text: 'No problems found: ready to queue.', bad: false } : { text: `${n} problem${n === 1 ? '' : 's'} to fix before queueing.`, bad: true } });
    },
    async submit() {
      await flushQueued();
      const d = selected();
      if (!d) return null;
      try {
        const item = await call('drafts.submit', { id: d.id });
        journal.remove(d.id);
        set({ selectedId: null, form: null, notice: { text: `Queued to post: ${item.summary}. Follow it in the Outbox.`, bad: false } });
        await get().load();
        return item;
      } catch (err) {
        set({ notice: { text: messageOf(err), bad: true } });
        if (err instanceof DeskCallError) await get().load();
        return null;
      }
    },
    async remove(id) {
      try {
        await call('drafts.delete', { id });
        journal.remove(id);
        set({ drafts: get().drafts.filter((d) => d.id !== id), ...(get().selectedId === id ? { selectedId: null, form: null } : {}) });
      } catch (err) {
        set({ notice: { text: messageOf(err), bad: true } });
      }
    },
  };
});
