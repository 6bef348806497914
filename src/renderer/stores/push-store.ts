// The push composer's state: the form (kept when switching tabs), the draft it is saved as, and
// the applications of the open connection that a target can include. Like campaign drafts, every
// edit is journaled at once and saved to the core after a short pause; the draft is created on
// the first edit that puts something in the form, so nothing typed is lost. How (saves, journal,
// recovery after a reload) is push-composer-saves.ts; this file holds the state.
import { create } from 'zustand';
import type { App, BlockedPush, Draft, ImageCheck, OutboxItem, PushTemplate } from '../../shared/ipc/contract';
import type { ImageRole } from '../../shared/domain/push';
import { serviceNowOf, useServiceClock } from './service-clock-store';
import { call, messageOf } from '../lib/api';
import { browserDraftJournal } from '../lib/draft-journal';
import { formToPayload, newPushForm, payloadToForm, pushFormProblems, withdrawnAppProblems, type PushForm } from '../forms/push-form';
import type { FieldProblem } from '../../shared/domain/campaign';
import { isBlankPushForm } from '../forms/push-recovery';
import type { SaveState } from '../lib/autosave';
import { sameAccount, type AccountRef } from '../../shared/domain/account';
import type { TakenBack } from '../forms/taken-back';
import { composerSaves } from './push-composer-saves';
import { checkNotice } from '../forms/problem-words';

/** What stands between the composer's push and Queue: the shared rules, and apps the connection no longer has. */
export function composerProblems(s: { form: PushForm; apps: readonly { appId: string }[] }, now: number): FieldProblem[] {
  return [...pushFormProblems(s.form, now), ...withdrawnAppProblems(s.form.apps, s.apps)];
}

export interface PushState {
  account: AccountRef | null;
  form: PushForm;
  draftId: string | null;
  apps: App[];
  appsError: string | null;
  /** A look at the connection's applications is under way (the first may fetch them from the service). */
  appsLoading: boolean;
  busy: boolean;
  saveState: SaveState;
  saveError: string | null;
  notice: { text: string; bad: boolean } | null;
  /** Check or Queue was asked for this push: every problem is shown, not only touched fields'. */
  revealed: boolean;
  /** Which push the composer shows: moves on New, open, a template and account switch (what was touched starts over). */
  composerKey: number;
  /** Why the open draft's last version was not sent (refused, or blocked by the app), when it was taken back to fix. */
  serviceWords: TakenBack | null;
  /** The connection's default performer, prefilled in every new push. */
  defaultPerformer: string | null;
  /** Scheduled pushes of this account blocked because their time passed while waiting. */
  blocked: BlockedPush[];
  /** Image checks by address: done by the main process, never by the window. */
  images: Record<string, ImageCheck | 'checking'>;
  templates: PushTemplate[];
  setAccount(ref: AccountRef | null): void;
  loadContext(): Promise<void>;
  loadBlocked(): Promise<void>;
  reschedule(id: string, executionTime: number | null): Promise<void>;
  setDefaultPerformer(performer: string): Promise<void>;
  checkImage(url: string, role: ImageRole): Promise<void>;
  loadTemplates(): Promise<void>;
  saveTemplate(name: string): Promise<void>;
  useTemplate(t: PushTemplate): void;
  removeTemplate(id: string): Promise<void>;
  loadApps(): Promise<void>;
  edit(patch: Partial<PushForm>): void;
  replace(form: PushForm): void;
  open(d: Draft): void;
  reset(): void;
  /** Saves pending edits now; resolves to the draft's id once the core has it. */
  flush(): Promise<string | null>;
  saveDraft(): Promise<string | null>;
  /** Shows every problem of the push and says how many there are; saves pending edits. */
  check(): Promise<void>;
  /** Queues the push; with problems, shows them all instead (the Queue shortcut works with problems too). */
  queue(): Promise<boolean>;
}

/**
 * Queues a blocked scheduled push again with a new time (null: send it now): the one-click fix of
 * the Push tab and of the Outbox, which shows what went wrong on its own row (hence not the store's notice).
 */
export function rescheduleBlocked(id: string, executionTime: number | null): Promise<OutboxItem> {
  return call('push.reschedule', { id, when: executionTime === null ? { kind: 'now' } : { kind: 'at', executionTime } });
}

export const usePush = create<PushState>()((set, get) => {
  const journal = browserDraftJournal();

  const { flush, switchComposer, change, recover, open: openSaved } = composerSaves(set, get, journal);

  return {
    account: null,
    form: newPushForm(),
    draftId: null,
    apps: [],
    appsError: null,
    appsLoading: false,
    busy: false,
    saveState: 'saved',
    saveError: null,
    notice: null,
    revealed: false,
    composerKey: 0,
    serviceWords: null,
    defaultPerformer: null,
    blocked: [],
    images: {},
    templates: [],
    setAccount(ref) {
      const cur = get().account;
      if (sameAccount(cur, ref)) return;
      const sameProfile = cur?.profileId === ref?.profileId;
      switchComposer({
        account: ref,
        apps: sameProfile ? get().apps : [],
        blocked: [],
        ...(sameProfile ? {} : { defaultPerformer: null }),
      });
      if (ref) {
        void get().loadApps();
        void get()
          .loadContext()
          .then(() => recover(ref));
      }
    },
    async loadContext() {
      const ref = get().account;
      if (!ref) return;
      try {
        void useServiceClock.getState().load(ref.profileId);
        const defaults = await call('push.defaults', { profileId: ref.profileId });
        if (get().account !== ref) return;
        const f = get().form;
        set({ defaultPerformer: defaults.performer });
        // A new push not yet touched gets the default performer now that it is known.
        if (!get().draftId && f.performer === '' && defaults.performer && isBlankPushForm(f))
          set({ form: { ...f, performer: defaults.performer } });
      } catch {
        // Offline or gone: the composer works without them.
      }
      void get().loadBlocked();
      void get().loadTemplates();
    },
    async loadBlocked() {
      const ref = get().account;
      if (!ref) return;
      try {
        // The one-click fixes are times on the service's clock, which the 'service.clock' event keeps current.
        const blocked = await call('push.blocked', { profileId: ref.profileId, accountId: ref.accountId });
        if (get().account === ref) set({ blocked });
      } catch {
        // Shown again on the next change of the outbox.
      }
    },
    async reschedule(id, executionTime) {
      try {
        const item = await rescheduleBlocked(id, executionTime);
        set({ notice: { text: `Queued again: ${item.summary}. Follow it in the Outbox.`, bad: false } });
      } catch (err) {
        set({ notice: { text: messageOf(err), bad: true } });
      }
      await get().loadBlocked();
    },
    async setDefaultPerformer(performer) {
      const ref = get().account;
      if (!ref) return;
      try {
        await call('push.setDefaultPerformer', { profileId: ref.profileId, performer });
        set({
          defaultPerformer: performer.trim() || null,
          notice: { text: `Default performer of this connection: ${performer.trim() || 'none'}.`, bad: false },
        });
      } catch (err) {
        set({ notice: { text: messageOf(err), bad: true } });
      }
    },
    async checkImage(url, role) {
      const key = `${role}:${url}`;
      if (get().images[key]) return;
      set({ images: { ...get().images, [key]: 'checking' } });
      try {
        const result = await call('images.check', { url, role });
        set({ images: { ...get().images, [key]: result } });
      } catch (err) {
        const failed: ImageCheck = {
          url,
          reachable: false,
          status: null,
          contentType: null,
          format: null,
          bytes: null,
          width: null,
          height: null,
          dataUrl: null,
          error: messageOf(err),
          hints: [],
        };
        set({ images: { ...get().images, [key]: failed } });
      }
    },
    async loadTemplates() {
      try {
        set({ templates: await call('push.templates', {}) });
      } catch {
        // The list stays as it was.
      }
    },
    async saveTemplate(name) {
      try {
        const t = await call('push.saveTemplate', { name, payload: formToPayload(get().form) });
        set({ templates: [...get().templates, t], notice: { text: `Saved as template "${t.name}".`, bad: false } });
      } catch (err) {
        set({ notice: { text: messageOf(err), bad: true } });
      }
    },
    useTemplate(t) {
      // A new push from the template; its performer is the template's, else the connection's default.
      const form = payloadToForm(t.payload);
      switchComposer({});
      change({ ...form, performer: form.performer || (get().defaultPerformer ?? '') });
      set({ notice: { text: `New push from template "${t.name}".`, bad: false } });
    },
    async removeTemplate(id) {
      try {
        await call('push.removeTemplate', { id });
        set({ templates: get().templates.filter((t) => t.id !== id) });
      } catch (err) {
        set({ notice: { text: messageOf(err), bad: true } });
      }
    },
    async loadApps() {
      const ref = get().account;
      if (!ref) return;
      set({ appsLoading: true });
      try {
        const apps = await call('apps.list', { profileId: ref.profileId });
        if (get().account?.profileId === ref.profileId) set({ apps, appsError: null });
      } catch (err) {
        if (get().account?.profileId === ref.profileId) set({ appsError: messageOf(err) });
      } finally {
        set({ appsLoading: false });
      }
    },
    edit(patch) {
      change({ ...get().form, ...patch });
    },
    replace(form) {
      change(form);
    },
    open(d) {
      if (d.kind !== 'push') return;
      // The push already in the composer: what is typed there is newer than the list's copy.
      if (d.id === get().draftId) return set({ notice: null });
      // Edits the core never confirmed are newer than the saved payload (push-composer-saves.ts).
      openSaved(d);
    },
    reset() {
      switchComposer({});
    },
    flush: () => flush(),
    async saveDraft() {
      set({ busy: true });
      try {
        const id = await flush(true);
        set({ notice: id ? { text: 'Saved as a draft (not posted).', bad: false } : { text: get().saveError ?? 'Not saved.', bad: true } });
        return id;
      } finally {
        set({ busy: false });
      }
    },
    async check() {
      set({ revealed: true });
      const n = composerProblems(get(), serviceNowOf(get().account?.profileId, Date.now())).length;
      set({ notice: checkNotice(n) });
      await flush();
    },
    async queue() {
      if (composerProblems(get(), serviceNowOf(get().account?.profileId, Date.now())).length > 0) {
        await get().check();
        return false;
      }
      const id = await get().saveDraft();
      if (!id) return false;
      set({ busy: true });
      try {
        const item = await call('drafts.submit', { id });
        journal.remove(id);
        switchComposer({ notice: { text: `Queued: ${item.summary}. Follow it in the Outbox.`, bad: false } });
        return true;
      } catch (err) {
        set({ notice: { text: messageOf(err), bad: true } });
        return false;
      } finally {
        set({ busy: false });
      }
    },
  };
});
