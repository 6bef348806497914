// The push composer's state: the form (kept when switching tabs), the draft it is saved as, and
// the applications of the open connection that a target can include.
import { create } from 'zustand';
import type { App, Draft } from '../../shared/ipc/contract';
import { call, messageOf } from '../lib/api';
import { formToPayload, newPushForm, payloadToForm, type PushForm } from '../features/push/push-form';
import type { AccountRef } from './workspace-store';

export interface PushState {
  account: AccountRef | null;
  form: PushForm;
  draftId: string | null;
  apps: App[];
  appsError: string | null;
  busy: boolean;
  notice: { text: string; bad: boolean } | null;
  setAccount(ref: AccountRef | null): void;
  loadApps(): Promise<void>;
  edit(patch: Partial<PushForm>): void;
  replace(form: PushForm): void;
  open(d: Draft): void;
  reset(): void;
  saveDraft(): Promise<string | null>;
  queue(): Promise<boolean>;
}

export const usePush = create<PushState>()((set, get) => ({
  account: null,
  form: newPushForm(),
  draftId: null,
  apps: [],
  appsError: null,
  busy: false,
  notice: null,
  setAccount(ref) {
    const cur = get().account;
    if (cur && ref && cur.profileId === ref.profileId && cur.accountId === ref.accountId) return;
    set({ account: ref, form: newPushForm(), draftId: null, notice: null, apps: cur?.profileId === ref?.profileId ? get().apps : [] });
    if (ref) void get().loadApps();
  },
  async loadApps() {
    const ref = get().account;
    if (!ref) return;
    try {
      set({ apps: await call('apps.list', { profileId: ref.profileId }), appsError: null });
    } catch (err) {
      set({ appsError: messageOf(err) });
    }
  },
  edit(patch) {
    set({ form: { ...get().form, ...patch }, notice: null });
  },
  replace(form) {
    set({ form, notice: null });
  },
  open(d) {
    if (d.kind !== 'push') return;
    set({ form: payloadToForm(d.payload), draftId: d.id, notice: null });
  },
  reset() {
    set({ form: newPushForm(), draftId: null, notice: null });
  },
  async saveDraft() {
    const ref = get().account;
    if (!ref) return null;
    set({ busy: true });
    try {
      const d = await call('drafts.save', {
        kind: 'push',
        ...(get().draftId ? { id: get().draftId! } : {}),
        profileId: ref.profileId,
        accountId: ref.accountId,
        payload: formToPayload(get().form),
      });
      set({ draftId: d.id, notice: { text: 'Saved as a draft (not posted).', bad: false } });
      return d.id;
    } catch (err) {
      set({ notice: { text: messageOf(err), bad: true } });
      return null;
    } finally {
      set({ busy: false });
    }
  },
  async queue() {
    const id = await get().saveDraft();
    if (!id) return false;
    set({ busy: true });
    try {
      const item = await call('drafts.submit', { id });
      set({ form: newPushForm(), draftId: null, notice: { text: `Queued: ${item.summary}. Follow it in the Outbox.`, bad: false } });
      return true;
    } catch (err) {
      set({ notice: { text: messageOf(err), bad: true } });
      return false;
    } finally {
      set({ busy: false });
    }
  },
}));
