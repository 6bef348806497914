// The undo part of the drafts store (a zustand slice: the store spreads it in): the history of
// campaign draft changes (forms/draft-history.ts) and the changes that record a step in it (create
// many, edit many, delete), with undo and redo applying a step's snaps (lib/draft-undo.ts). It reads
// and writes only the fields of the store named in DraftsHost.
import type { AccountRef } from '../../shared/domain/account';
import type { Draft } from '../../shared/ipc/contract';
import { EMPTY_HISTORY, recordStep, takeRedo, takeUndo, type DraftSnap, type History } from '../forms/draft-history';
import { payloadToForm, type CampaignForm, type CampaignPayload } from '../forms/campaign-form';
import { call, messageOf } from '../lib/api';
import type { SaveState } from '../lib/autosave';
import type { DraftJournal } from '../lib/draft-journal';
import { afterWrite, writeSnaps } from '../lib/draft-undo';

export interface DraftsUndo {
  history: History;
  /** Creates campaign drafts from payloads (duplicate, import) as one undoable step. */
  createMany(label: string, payloads: CampaignPayload[]): Promise<Draft[]>;
  /** Sets fields across drafts as one undoable step. */
  editMany(ids: string[], patch: CampaignPayload, label: string): Promise<void>;
  removeMany(ids: string[]): Promise<void>;
  undo(): Promise<void>;
  redo(): Promise<void>;
}

/** The fields of the drafts store the undo part reads and writes. */
export interface DraftsHost extends DraftsUndo {
  account: AccountRef | null;
  drafts: Draft[];
  selectedId: string | null;
  form: CampaignForm | null;
  saveState: SaveState;
  notice: { text: string; bad: boolean } | null;
  checked: Record<string, true>;
}

const snapOf = (d: Draft): DraftSnap => ({ id: d.id, payload: d.kind === 'campaign' ? d.payload : null });

/** `flush` saves the open draft's pending edits first, so a step never overtakes what was typed. */
export function draftsUndo(
  set: (patch: Partial<DraftsHost>) => void,
  get: () => DraftsHost,
  deps: { journal: DraftJournal; flush(): Promise<void> },
): DraftsUndo {
  /** Makes the drafts what the snaps say (null: gone), all or none (lib/draft-undo.ts); the open form follows. */
  async function apply(snaps: DraftSnap[]): Promise<boolean> {
    const ref = get().account;
    if (!ref) return false;
    try {
      const written = await writeSnaps(deps.journal, ref, snaps);
      const { drafts, closed, open } = afterWrite(get().drafts, get().selectedId, written);
      set({
        drafts,
        ...(closed ? { selectedId: null, form: null } : {}),
        ...(open && open.kind === 'campaign' ? { form: payloadToForm(open.payload), saveState: 'saved' as const } : {}),
      });
      return true;
    } catch (err) {
      set({ notice: { text: messageOf(err), bad: true } });
      return false;
    }
  }

  return {
    history: EMPTY_HISTORY,
    async createMany(label, payloads) {
      const ref = get().account;
      if (!ref || payloads.length === 0) return [];
      try {
        const saved = await call('drafts.saveMany', {
          profileId: ref.profileId,
          accountId: ref.accountId,
          drafts: payloads.map((payload) => ({ payload })),
        });
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
      await deps.flush();
      const targets = get().drafts.filter((d) => ids.includes(d.id) && d.kind === 'campaign');
      if (targets.length === 0) return;
      const before = targets.map(snapOf);
      const after = targets.map((d) => ({ id: d.id, payload: { ...(d.payload as CampaignPayload), ...patch } }));
      if (await apply(after)) set({ history: recordStep(get().history, { label, before, after }) });
    },
    async removeMany(ids) {
      await deps.flush();
      const targets = get().drafts.filter((d) => ids.includes(d.id) && d.kind === 'campaign');
      const others = ids.filter((id) => !targets.some((d) => d.id === id));
      try {
        // Push drafts are not part of the campaign history: they go at once.
        if (others.length > 0) await call('drafts.deleteMany', { ids: others });
        others.forEach((id) => deps.journal.remove(id));
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
      await deps.flush();
      const taken = takeUndo(get().history);
      if (!taken) return;
      if (await apply(taken.step.before)) set({ history: taken.next, notice: { text: `Undone: ${taken.step.label}.`, bad: false } });
    },
    async redo() {
      await deps.flush();
      const taken = takeRedo(get().history);
      if (!taken) return;
      if (await apply(taken.step.after)) set({ history: taken.next, notice: { text: `Redone: ${taken.step.label}.`, bad: false } });
    },
  };
}
