// Where a change of the Drafts list stands, above its editor: a plain draft says what the service
// said of its last version (kept when it was taken back); a queued one can be taken back to draft;
// a failed or blocked one shows the service's words or the fix, with Fix (take back and edit) and
// Retry (queue as it is). Sending and checking whether it arrived offer nothing: it may be on the
// service already. Only one of Fix and Retry can take effect: each removes the other's ground.
import type { Draft } from '../../../shared/ipc/contract';
import { useDrafts } from '../../stores/drafts-store';
import { useStatus } from '../../stores/status-store';
import { useSecondNow } from '../../stores/use-desk-events';
import { limitWords } from '../lists/queue-words';
import { blockedForGood, OUTBOX_CLASS, OUTBOX_LABEL } from '../lists/outbox-labels';
import { takenBackOf } from '../../forms/taken-back';
import { saidOnce, SERVICE_SAYS, TakenBackNote } from '../../components/taken-back-note';

/** The Outbox's own words for each state: one change reads the same in both places. */
export const CHANGE_LABEL: Record<Draft['status'], string> = {
  draft: 'Draft',
  queued: OUTBOX_LABEL.queued,
  sending: OUTBOX_LABEL.sending,
  uncertain: OUTBOX_LABEL.uncertain,
  failed: OUTBOX_LABEL.failed,
  blocked: OUTBOX_LABEL.blocked,
};

/** The few words the list shows under a change's title; `held`: a rate limit holds it (its request has not left). */
export function changeMeta(d: Draft, held = false): string {
  if (held) return 'waits for the rate limit';
  switch (d.status) {
    case 'draft':
      return d.blockedWords ? 'not posted · blocked before' : d.serviceWords ? 'not posted · refused before' : 'not posted';
    case 'queued':
      return 'waits in the Outbox';
    case 'sending':
      return 'on its way';
    case 'uncertain':
      return 'may have arrived';
    case 'failed':
    case 'blocked':
      return 'not posted';
  }
}

const badgeClass = (s: Draft['status']) => (s === 'draft' ? 'status-muted' : OUTBOX_CLASS[s]);

/** Its outbox wait when a rate limit holds it: then it is not "Sending" (its request has not left). */
const useHeldWait = (d: Draft) =>
  useStatus((s) => (d.item && s.waits[d.item.id]?.reason === 'rate_limit' ? s.waits[d.item.id] : undefined));

export function ChangeStateBadge({ d }: { d: Draft }) {
  const held = useHeldWait(d);
  return (
    <span className={`badge ${badgeClass(d.status)}`} data-testid="draft-status" data-status={d.status}>
      {held ? 'Waiting' : CHANGE_LABEL[d.status]}
    </span>
  );
}

export function ChangeState({ d }: { d: Draft }) {
  const { takeBack, retry } = useDrafts();
  const held = useHeldWait(d);
  const now = useSecondNow();
  const limit = limitWords(held, now);
  if (d.status === 'draft') {
    const taken = takenBackOf(d);
    return taken ? <TakenBackNote taken={taken} /> : null;
  }
  const words = d.status === 'failed' || d.status === 'blocked' ? d.item?.lastError?.message : undefined;
  return (
    <div className="change-state" data-testid="change-state" data-status={d.status}>
      <p>
        <ChangeStateBadge d={d} />{' '}
        <span className="muted">
          {d.status === 'queued'
            ? `Waiting in the Outbox to be posted${limit ? ` (${limit})` : ''}; it cannot be edited while queued.`
            : null}
          {d.status === 'sending' ? (limit ? `${limit[0].toUpperCase()}${limit.slice(1)}.` : 'On its way to the service now.') : null}
          {d.status === 'uncertain' ? 'The answer was lost; the app is looking for it on the service before anything else happens.' : null}
          {d.status === 'failed' || d.status === 'blocked' ? 'Not posted.' : null}
        </span>
      </p>
      {words ? (
        <p className="form-problem" data-testid="service-words">
          {d.status === 'failed' ? saidOnce('The service said: ', words, SERVICE_SAYS) : words}
        </p>
      ) : null}
      {d.item?.fix && (d.status === 'failed' || d.status === 'blocked') ? <p className="muted">{d.item.fix}.</p> : null}
      <div className="editor-actions">
        {d.status === 'queued' ? (
          <button
            type="button"
            onClick={() => void takeBack(d.id)}
            title="Take it out of the Outbox and edit it again"
            data-testid="draft-take-back"
          >
            Take back to draft
          </button>
        ) : null}
        {d.status === 'failed' || d.status === 'blocked' ? (
          <>
            <button
              type="button"
              className="primary"
              onClick={() => void takeBack(d.id)}
              title="Take it back to draft and edit it; the refused version leaves the Outbox"
              data-testid="draft-fix"
            >
              Fix
            </button>
            {/* Not for a push whose time passed: as it is, it could only be blocked again (the Outbox and the Push tab give it a new time). */}
            {d.status === 'blocked' && blockedForGood(d.item?.lastError?.code) ? null : (
              <button type="button" onClick={() => void retry(d.id)} title="Queue it again exactly as it is" data-testid="draft-retry">
                Retry
              </button>
            )}
          </>
        ) : null}
      </div>
    </div>
  );
}
