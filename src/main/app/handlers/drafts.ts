// drafts.*: a draft becomes an outbox item only through submit, which checks it with
// the shared rules and writes the item in the same transaction as the draft's new state.
import { accountNotAdded, DeskError } from '../../../shared/errors';
import type { Draft, OutboxItem } from '../../store';
import { announceDrafts, announceOutbox } from '../announce';
import type { CoreContext } from '../context';
import { accountKnowledge, checkCampaignDraft, checkPushDraft } from '../draft-rules';
import { draftDto, outboxDto } from '../dto';
import type { HandlersOf } from '../handlers-of';
import { boundDraftHistory, DRAFT_HISTORY_KEPT, draftHistoryKey } from '../../../shared/domain/draft-history';

/** "queued", or "queued again, replacing the refused version" when it took an old item's place. */
function queuedWords(replaced: readonly OutboxItem[]): string {
  if (replaced.length === 0) return 'queued';
  return `queued again, replacing the ${replaced.some((r) => r.state === 'failed') ? 'refused' : 'blocked'} version`;
}

export function draftsHandlers(ctx: CoreContext): HandlersOf<'drafts'> {
  const { store, drainer } = ctx;
  const accountType = (d: { profileId: string; accountId: string | null }) =>
    d.accountId === null ? undefined : store.accounts.get({ profileId: d.profileId, accountId: d.accountId })?.type;
  // A push's time is judged "in the future" on the service's clock, the same one the composer uses.
  const check = (d: Pick<Draft, 'kind' | 'payload' | 'profileId' | 'accountId'>) =>
    d.kind === 'campaign'
      ? checkCampaignDraft(
          d.payload,
          accountType(d),
          d.accountId === null ? undefined : accountKnowledge(store, { profileId: d.profileId, accountId: d.accountId }, ctx.now()),
        )
      : checkPushDraft(d.payload, ctx.connections.serviceNow(d.profileId));
  const draftsChanged = (profileId: string, accountId: string | null) => announceDrafts(ctx, profileId, accountId);
  const outboxChanged = (item: OutboxItem) => announceOutbox(ctx, item);

  return {
    async 'drafts.history'(ref) {
      return store.settings.get('draftHistory')[draftHistoryKey(ref)] ?? { undo: [], redo: [] };
    },

    async 'drafts.saveHistory'({ history, ...ref }) {
      const key = draftHistoryKey(ref);
      const bounded = boundDraftHistory(history);
      const others = Object.entries(store.settings.get('draftHistory')).filter(([k]) => k !== key);
      // Put last, so the accounts changed longest ago are the first to lose their history; an empty one is not kept.
      const kept = bounded.undo.length + bounded.redo.length > 0 ? [...others, [key, bounded] as const] : others;
      store.settings.set('draftHistory', Object.fromEntries(kept.slice(-DRAFT_HISTORY_KEPT.accounts)));
      return { ok: true as const };
    },

    async 'drafts.list'({ profileId, accountId }) {
      // Every unsent change of the account: editable drafts, and submitted ones with their item's
      // state (queued, sending, being looked for, failed, blocked). A posted change has left: the
      // engine removes its draft when the item is sent.
      // One read of the account's unsent items, not one per draft (an account may hold thousands).
      const live = new Map<string, OutboxItem>();
      for (const i of store.outbox.list({ profileId, accountId, states: ['queued', 'sending', 'uncertain', 'failed', 'blocked'] })) {
        if (i.draftId !== null && (live.get(i.draftId)?.seq ?? -1) < i.seq) live.set(i.draftId, i);
      }
      return store.drafts.list(profileId, { accountId }).map((d) => draftDto(d, live.get(d.id)));
    },

    async 'drafts.save'(input) {
      // A draft that is gone was posted or deleted: saving it again (a window still showing it)
      // would bring a posted change back as a new draft, one Queue away from a second post.
      if (input.id && !store.drafts.get(input.id)) {
        throw new DeskError(
          'not_found',
          'This draft is no longer here: it was posted or deleted (see the Outbox and Activity). Start a new draft for another change.',
        );
      }
      const problems = check({ kind: input.kind, payload: input.payload, profileId: input.profileId, accountId: input.accountId }).problems;
      const d = store.drafts.save({
        ...(input.id ? { id: input.id } : {}),
        profileId: input.profileId,
        accountId: input.accountId,
        kind: input.kind,
        payload: input.payload,
        problems,
      });
      draftsChanged(d.profileId, d.accountId);
      return draftDto(d, store.drafts.liveItem(d.id));
    },

    async 'drafts.delete'({ id }) {
      const d = store.drafts.get(id);
      // Deleting a refused or blocked change takes its item out of the Outbox too.
      const parked = store.drafts.liveItem(id);
      store.drafts.remove(id);
      if (d) draftsChanged(d.profileId, d.accountId);
      if (parked) {
        ctx.log(parked.profileId, parked.accountId, 'info', 'outbox.discarded', `${outboxDto(parked).summary} discarded with its draft.`);
        outboxChanged(parked);
      }
      return { ok: true };
    },

    async 'drafts.submit'({ id }) {
      const d = store.drafts.get(id);
      if (!d) throw new DeskError('not_found', 'This draft no longer exists.');
      const checked = check(d);
      if (!checked.work) {
        store.drafts.save({
          id: d.id,
          profileId: d.profileId,
          accountId: d.accountId,
          kind: d.kind,
          payload: d.payload,
          problems: checked.problems,
        });
        draftsChanged(d.profileId, d.accountId);
        throw new DeskError('validation', `Not submitted. Fix first: ${checked.problems.map((p) => p.message).join('; ')}.`, {
          problems: checked.problems,
        });
      }
      const { item, replaced } = store.drafts.submit(id, checked.work);
      ctx.log(item.profileId, item.accountId, 'info', 'outbox.queued', `${outboxDto(item).summary} ${queuedWords(replaced)}.`);
      // Queued anyway, knowing the account refused what it uses: the log says it was a choice.
      for (const w of checked.warnings ?? [])
        ctx.log(item.profileId, item.accountId, 'warning', 'outbox.queued_anyway', `${w.known} Queued anyway.`);
      outboxChanged(item);
      draftsChanged(d.profileId, d.accountId);
      drainer.kick();
      return outboxDto(item);
    },

    async 'drafts.saveMany'({ profileId, accountId, drafts }) {
      if (!store.accounts.get({ profileId, accountId })) throw accountNotAdded(accountId);
      const saved = store.drafts.saveMany(
        drafts.map((d) => ({
          ...(d.id ? { id: d.id } : {}),
          profileId,
          accountId,
          kind: 'campaign' as const,
          payload: d.payload,
          problems: check({ kind: 'campaign', payload: d.payload, profileId, accountId }).problems,
        })),
      );
      draftsChanged(profileId, accountId);
      return saved.map((d) => draftDto(d, store.drafts.liveItem(d.id)));
    },

    async 'drafts.deleteMany'({ ids }) {
      const accounts = new Map(
        ids.flatMap((id) => {
          const d = store.drafts.get(id);
          return d ? [[`${d.profileId}/${d.accountId}`, d] as const] : [];
        }),
      );
      const parked = ids.flatMap((id) => store.drafts.liveItem(id) ?? []);
      store.drafts.removeMany(ids);
      for (const d of accounts.values()) draftsChanged(d.profileId, d.accountId);
      for (const item of parked) {
        ctx.log(item.profileId, item.accountId, 'info', 'outbox.discarded', `${outboxDto(item).summary} discarded with its draft.`);
        outboxChanged(item);
      }
      return { ok: true };
    },

    async 'drafts.submitMany'({ ids }) {
      // Each draft is checked and queued on its own transaction: one with problems does not hold
      // back the others, and the answer says which were queued and what to fix in the rest.
      const queued: { id: string; summary: string }[] = [];
      const refused: { id: string; problems: { field: string; message: string }[] }[] = [];
      const touched = new Map<string, Draft>();
      for (const id of ids) {
        const d = store.drafts.get(id);
        if (!d) {
          refused.push({ id, problems: [{ field: 'draft', message: 'This draft no longer exists' }] });
          continue;
        }
        touched.set(`${d.profileId}/${d.accountId}`, d);
        const checked = check(d);
        if (!checked.work) {
          store.drafts.save({
            id: d.id,
            profileId: d.profileId,
            accountId: d.accountId,
            kind: d.kind,
            payload: d.payload,
            problems: checked.problems,
          });
          refused.push({ id, problems: checked.problems });
          continue;
        }
        try {
          const { item, replaced } = store.drafts.submit(id, checked.work);
          const summary = outboxDto(item).summary;
          ctx.log(item.profileId, item.accountId, 'info', 'outbox.queued', `${summary} ${queuedWords(replaced)}.`);
          outboxChanged(item);
          queued.push({ id, summary });
        } catch (e) {
          refused.push({ id, problems: [{ field: 'draft', message: e instanceof Error ? e.message : String(e) }] });
        }
      }
      for (const d of touched.values()) draftsChanged(d.profileId, d.accountId);
      if (queued.length > 0) drainer.kick();
      return { queued, refused };
    },
  };
}
