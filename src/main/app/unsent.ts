// Everything of an account or a connection not yet on the service (src/shared/domain/unsent.ts),
// and the rule that guards removal: nothing unsent is deleted unless the person chose to discard
// it, and never while something is being sent (its answer could still arrive for a row gone).
import { UNSENT_OUTBOX_STATES } from '../../shared/domain/outbox';
import { DeskError } from '../../shared/errors';
import { countUnsent, unsentKey, unsentRefusal, type UnsentGroup, type UnsentItem } from '../../shared/domain/unsent';
import type { Draft, OutboxItem, Store } from '../store';
import { BLOCKED_WORDS_FIELD, SERVICE_WORDS_FIELD } from '../store/drafts-repo';
import { describeItem } from '../sync/outbox-settle';

/** A connection's own (accountId omitted: everything of it), or one account's. */
export interface UnsentScope {
  profileId: string;
  accountId?: string;
}

const GROUP_OF: Record<(typeof UNSENT_OUTBOX_STATES)[number], UnsentGroup> = {
  queued: 'queued',
  sending: 'sending',
  uncertain: 'uncertain',
  failed: 'failed',
  blocked: 'blocked',
};

const record = (v: unknown): Record<string, unknown> =>
  v !== null && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : {};

function draftSummary(d: Draft): string {
  if (d.kind === 'campaign') {
    const name = typeof d.payload.name === 'string' && d.payload.name.trim() !== '' ? d.payload.name : 'no name yet';
    return `Campaign draft "${name}"`;
  }
  const title = record(d.payload.event).title;
  return `Push draft "${typeof title === 'string' && title.trim() !== '' ? title : 'no title yet'}"`;
}

/** What a change would send, in the shape the drafts use: a campaign's fields, a push's mode and events. */
function itemPayload(item: OutboxItem): Record<string, unknown> {
  if (item.kind === 'create_campaign') return { ...item.payload.body };
  return { ...item.payload };
}

function itemKind(item: OutboxItem): UnsentItem['kind'] {
  if (item.kind === 'create_campaign') return 'campaign';
  if (item.kind === 'send_push') return 'push';
  return item.kind;
}

/**
 * Every unsent change of the scope, oldest first. A draft with an item still unsent is one change:
 * listed once, in the item's state, with the draft's own fields when it was edited since.
 */
export function listUnsent(store: Pick<Store, 'drafts' | 'outbox'>, scope: UnsentScope): UnsentItem[] {
  const drafts = store.drafts.list(scope.profileId, scope.accountId === undefined ? {} : { accountId: scope.accountId });
  const items = store.outbox.list({
    profileId: scope.profileId,
    ...(scope.accountId === undefined ? {} : { accountId: scope.accountId }),
    states: UNSENT_OUTBOX_STATES,
  });
  const draftById = new Map(drafts.map((d) => [d.id, d]));
  const withItem = new Set<string>();
  const out: UnsentItem[] = [];
  for (const item of items) {
    if (item.state === 'sent') continue;
    const draft = item.draftId === null ? undefined : draftById.get(item.draftId);
    if (draft) withItem.add(draft.id);
    const editedSince = draft !== undefined && draft.state === 'editing';
    out.push({
      id: String(item.seq),
      source: 'outbox',
      group: GROUP_OF[item.state],
      kind: itemKind(item),
      accountId: item.accountId ?? '',
      summary: describeItem(item),
      words: item.lastError?.message ?? null,
      problems: [],
      payload: editedSince ? { ...draft.payload } : itemPayload(item),
      updatedAt: item.updatedAt,
    });
  }
  for (const d of drafts) {
    if (withItem.has(d.id)) continue;
    out.push({
      id: d.id,
      source: 'draft',
      group: 'draft',
      kind: d.kind,
      accountId: d.accountId ?? '',
      summary: draftSummary(d),
      words: d.problems.find((p) => p.field === SERVICE_WORDS_FIELD || p.field === BLOCKED_WORDS_FIELD)?.message ?? null,
      problems: d.problems.filter((p) => p.field !== SERVICE_WORDS_FIELD && p.field !== BLOCKED_WORDS_FIELD),
      payload: { ...d.payload },
      updatedAt: d.updatedAt,
    });
  }
  return out.sort((a, b) => a.updatedAt - b.updatedAt);
}

/**
 * Refuses the removal of `scope` while anything of it is being sent (whatever the choice), or is
 * unsent and the person did not choose to discard it, or (given what they were shown) was not
 * among what they saw. The refusal counts what is unsent by kind, says what to do, and carries the list.
 */
export function guardRemoval(
  store: Pick<Store, 'drafts' | 'outbox'>,
  scope: UnsentScope,
  choice: { discardUnsent?: boolean | undefined; discarding?: string[] | undefined },
): UnsentItem[] {
  const unsent = listUnsent(store, scope);
  const counts = countUnsent(unsent);
  if (counts.sending > 0) {
    throw new DeskError(
      'conflict',
      `${counts.sending === 1 ? 'A change is' : `${counts.sending} changes are`} being sent right now: wait a moment until the Outbox shows ${counts.sending === 1 ? 'it' : 'them'} posted or refused, then remove again.`,
      { counts },
    );
  }
  if (unsent.length > 0 && choice.discardUnsent !== true) {
    throw new DeskError('conflict', unsentRefusal(counts), { counts, unsent });
  }
  if (choice.discarding !== undefined) {
    const seen = new Set(choice.discarding);
    const unseen = unsent.filter((i) => !seen.has(unsentKey(i)));
    if (unseen.length > 0) {
      throw new DeskError(
        'conflict',
        `${unseen.length === 1 ? 'Another change was' : `${unseen.length} more changes were`} made since the list was shown (${unseen
          .slice(0, 3)
          .map((i) => i.summary)
          .join(', ')}${unseen.length > 3 ? ', ...' : ''}): look at the list again, then choose.`,
        { counts, unsent },
      );
    }
  }
  return unsent;
}
