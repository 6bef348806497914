// outbox.*: the changes on their way to the service, in the order they go; what each waits for;
// and what the person can do with one: retry, take back to draft, move, discard, and the answers
// to a change whose answer was lost (the candidates it may be, or "send it again").
import { NOT_WAITING_WORDS, ON_THE_WAY_STATES, UNSENT_OUTBOX_STATES, type UnsentOutboxState } from '../../../shared/domain/outbox';
import { DeskError } from '../../../shared/errors';
import type { OutboxItem } from '../../store';
import { outboxWaits } from '../../sync/outbox-wait';
import { announceDrafts, announceOutbox } from '../announce';
import type { CoreContext } from '../context';
import { draftDto, outboxDto } from '../dto';
import { budgetOf } from '../limits-view';
import { requireOutboxItem } from '../lookups';
import type { HandlersOf } from '../handlers-of';

export function outboxHandlers(ctx: CoreContext): HandlersOf<'outbox'> {
  const { store, drainer } = ctx;
  /** A parked item whose draft is being edited again: Retry would post the version the service refused. */
  const draftEditedSince = (item: OutboxItem) =>
    (item.state === 'failed' || item.state === 'blocked') && item.draftId !== null && store.drafts.get(item.draftId)?.state === 'editing';

  return {
    async 'outbox.list'({ profileId, accountId }) {
      return store.outbox.list({ ...(profileId ? { profileId } : {}), ...(accountId ? { accountId } : {}) }).map((item) => {
        const dto = outboxDto(item);
        return draftEditedSince(item) ? { ...dto, draftEdited: true } : dto;
      });
    },

    async 'outbox.retry'({ id }) {
      let item = requireOutboxItem(ctx, id);
      if (draftEditedSince(item)) {
        // Retry would post the version the service refused, not the one now in the draft.
        throw new DeskError(
          'conflict',
          'This change was edited in its draft after it was queued: queue the draft again to send the edited version, or discard it.',
        );
      }
      if (item.state === 'failed' || item.state === 'blocked') item = store.outbox.requeue(item.seq);
      else if (item.state === 'sent') throw new DeskError('conflict', 'This change has already been sent.');
      drainer.retryNow(item.seq);
      announceOutbox(ctx, item);
      return outboxDto(item);
    },

    async 'outbox.takeBack'({ id }) {
      const { draft, item } = store.drafts.takeBack(requireOutboxItem(ctx, id).seq);
      ctx.log(item.profileId, item.accountId, 'info', 'outbox.taken_back', `${outboxDto(item).summary} taken back to draft.`);
      announceOutbox(ctx, item);
      announceDrafts(ctx, draft.profileId, draft.accountId);
      return draftDto(draft);
    },

    // The store refuses anything but a queued item, saying why; the drainer looks again because
    // the new first change may be due sooner than the one it was waiting for.
    async 'outbox.move'({ id, to }) {
      const seq = requireOutboxItem(ctx, id).seq;
      const item = store.outbox.move(seq, typeof to === 'string' ? to : { before: requireOutboxItem(ctx, to.before).seq });
      announceOutbox(ctx, item);
      drainer.kick();
      return outboxDto(item);
    },

    async 'outbox.candidates'({ id }) {
      const item = requireOutboxItem(ctx, id);
      const waiting = drainer.candidates(item.seq);
      if (!waiting) throw new DeskError('conflict', NOT_WAITING_WORDS);
      return waiting;
    },

    // The two answers to an ambiguous match: only the person resolves it, never the engine.
    async 'outbox.confirmMatch'({ id, candidateId }) {
      const item = drainer.confirmMatch(requireOutboxItem(ctx, id).seq, candidateId);
      announceOutbox(ctx, item);
      return outboxDto(item);
    },

    async 'outbox.sendAgain'({ id }) {
      const item = drainer.sendAgain(requireOutboxItem(ctx, id).seq);
      announceOutbox(ctx, item);
      return outboxDto(item);
    },

    async 'outbox.discard'({ id }) {
      const item = requireOutboxItem(ctx, id);
      if (item.state === 'sending') throw new DeskError('conflict', 'This change is being sent right now; wait a moment and look again.');
      // One change is one item: discarding it discards its draft too (never a hidden draft left behind).
      store.transaction(() => {
        store.outbox.remove(item.seq);
        if (item.draftId !== null) store.drafts.remove(item.draftId);
      });
      ctx.notes.remove(item.seq);
      ctx.log(item.profileId, item.accountId, 'info', 'outbox.discarded', `${outboxDto(item).summary} discarded.`);
      announceOutbox(ctx, item);
      if (item.draftId !== null) announceDrafts(ctx, item.profileId, item.accountId);
      return { ok: true };
    },

    async 'outbox.waits'({ profileId }) {
      const profiles = new Map(ctx.store.profiles.list().map((p) => [p.id, p]));
      const items = ctx.store.outbox.list({ ...(profileId === undefined ? {} : { profileId }), states: ON_THE_WAY_STATES });
      const waits = outboxWaits({
        now: ctx.now(),
        items,
        connection: (id) => ctx.connections.view(id).connection,
        // Push work is counted against the client's push budget, campaign work against the account's.
        rateAccount: (item) => {
          const profile = profiles.get(item.profileId);
          return profile === undefined ? null : budgetOf(item, profile.clientId).account;
        },
        snapshot: ctx.scheduler.snapshot(),
      });
      const bySeq = new Map(items.map((i) => [i.seq, i]));
      return waits.map(({ seq, ...w }) => ({
        id: String(seq),
        profileId: bySeq.get(seq)?.profileId ?? '',
        accountId: bySeq.get(seq)?.accountId ?? '',
        ...w,
      }));
    },
    async 'outbox.counts'({ profileId }) {
      // Only unsent items are read (no sent history), counted per account and state.
      const counts = new Map<string, { profileId: string; accountId: string; state: UnsentOutboxState; count: number }>();
      for (const item of ctx.store.outbox.list({ ...(profileId === undefined ? {} : { profileId }), states: UNSENT_OUTBOX_STATES })) {
        if (item.state === 'sent') continue;
        const accountId = item.accountId ?? '';
        const key = JSON.stringify([item.profileId, accountId, item.state]);
        const c = counts.get(key) ?? { profileId: item.profileId, accountId, state: item.state, count: 0 };
        c.count++;
        counts.set(key, c);
      }
      return [...counts.values()];
    },
  };
}
