// The Outbox tab: changes waiting to be sent (or needing attention) for the open account, live
// through outbox.changed. Retry and Discard act on one item; discarding asks first. An item whose
// answer was lost and which matches several campaigns (or tasks) on the service waits for the
// person: "It is campaign N" for each match, or "It was not posted: send it" (asks first).
// Waiting items say why they wait (outbox.waits, true when shown); sent ones collapse into the
// account's history below, kept for the retention period it names, each with the id the service
// gave it (a campaign's opens it in the Campaigns tab). A change made from a draft can go back to
// it: "Take back to draft" while queued, "Fix" (take back and open it) when refused or blocked.
// Queued changes go out in the order listed, which the person changes (outbox-order.tsx).
// A scheduled push blocked because its time passed is given a new time on its row in one click,
// as in the Push tab (blocked-pushes.tsx); Retry is not offered where it could only block again.
import { sameAccount } from '../../../shared/domain/account';
import { scheduleLabel } from '../../forms/schedule';
import { useEffect, useState } from 'react';
import { daysLabel } from '../../../shared/retention';
import type { OutboxCandidates, OutboxItem } from '../../../shared/ipc/contract';
import { ConfirmDialog } from '../../components/dialog';
import { call, messageOf } from '../../lib/api';
import { formatAge } from '../../lib/format';
import { useCampaigns } from '../../stores/campaigns-store';
import { useDrafts } from '../../stores/drafts-store';
import { useStatus } from '../../stores/status-store';
import { useServiceNow } from '../../stores/service-clock-store';
import { useSecondNow } from '../../stores/use-desk-events';
import { useRetention } from '../../stores/retention-store';
import { rescheduleBlocked, usePush } from '../../stores/push-store';
import { BlockedPushFixes, useBlockedPushes } from '../push/blocked-pushes';
import { RetentionChange, RetentionText } from './retention-dialog';
import { outboxOrder } from './outbox-order';
import { selectedAccount, useWorkspace } from '../../stores/workspace-store';
import {
  canDiscard,
  canRetry,
  canTakeBack,
  isAmbiguous,
  OUTBOX_CLASS,
  outboxDetail,
  outboxSaid,
  outboxStateLabel,
  postedLabel,
  waitLabel,
} from './outbox-labels';

/** The matches an ambiguous item waits on, fetched when it is shown (or changes). */
function useCandidates(o: OutboxItem): OutboxCandidates | null {
  const [found, setFound] = useState<OutboxCandidates | null>(null);
  const waiting = isAmbiguous(o);
  useEffect(() => {
    if (!waiting) return;
    let live = true;
    call('outbox.candidates', { id: o.id }).then(
      (c) => live && setFound(c),
      () => live && setFound(null),
    );
    return () => {
      live = false;
    };
  }, [o.id, o.updatedAt, waiting]);
  return waiting ? found : null;
}

function AmbiguousChoices({
  item,
  act,
  onSendAgain,
}: {
  item: OutboxItem;
  act(f: () => Promise<unknown>): Promise<void>;
  onSendAgain(): void;
}) {
  const candidates = useCandidates(item);
  return (
    <>
      {(candidates?.ids ?? []).map((candidateId) => (
        <button
          key={candidateId}
          type="button"
          onClick={() => void act(() => call('outbox.confirmMatch', { id: item.id, candidateId }))}
          title="This one on the service is the change you made: mark it sent, send nothing"
          data-testid="outbox-confirm-match"
        >
          It is {candidates?.kind === 'task' ? 'task' : 'campaign'} {candidateId}
        </button>
      ))}
      <button type="button" onClick={onSendAgain} title="None of these is yours: send the change again" data-testid="outbox-send-again">
        It was not posted: send it...
      </button>
    </>
  );
}

/** Where the Outbox sends the person: the draft a change went back to, or a posted campaign. */
export interface OutboxLinks {
  onOpenDrafts(): void;
  onOpenCampaigns(): void;
}

export function OutboxView({ now, links }: { now: number; links?: OutboxLinks }) {
  const account = useWorkspace(selectedAccount);
  const all = useStatus((s) => s.outbox).filter((o) => sameAccount(o, account));
  const waits = useStatus((s) => s.waits);
  const tick = useSecondNow();
  const items = all.filter((o) => o.state !== 'sent');
  const sent = all.filter((o) => o.state === 'sent').sort((a, b) => b.updatedAt - a.updatedAt);
  const [discard, setDiscard] = useState<OutboxItem | null>(null);
  const [sendAgain, setSendAgain] = useState<OutboxItem | null>(null);
  const [error, setError] = useState<string | null>(null);
  // Blocked pushes by outbox id, with the time each was due: what the one-click times are built from.
  const blocked = new Map(useBlockedPushes().map((b) => [b.id, b]));
  // The fixes are times on the service's clock, as in the Push tab.
  const serviceNow = useServiceNow(account?.profileId, Math.max(now, Date.now()));
  const act = async (f: () => Promise<unknown>) => {
    setError(null);
    try {
      await f();
    } catch (err) {
      setError(messageOf(err));
    }
    void useStatus.getState().loadOutbox();
  };
  const order = outboxOrder(items, act);
  // Take back (queued) or Fix (refused, blocked): the item leaves the Outbox and its draft opens.
  const takeBack = (o: OutboxItem) =>
    act(async () => {
      const back = await call('outbox.takeBack', { id: o.id });
      const drafts = useDrafts.getState();
      await drafts.load();
      await drafts.select(back.id);
      links?.onOpenDrafts();
    });
  const openCampaign = (id: string) => {
    // The search shows exactly a pasted id; the grid selects the row when it arrives.
    const c = useCampaigns.getState();
    c.setStatus(null);
    c.setText(id);
    useCampaigns.setState({ selectedId: id, selectedRow: null });
    links?.onOpenCampaigns();
  };
  return (
    <div className="outbox">
      {items.length === 0 ? (
        <p className="muted panel-empty" data-testid="outbox-empty">
          Nothing waiting to be sent for this account.
        </p>
      ) : null}
      {error ? (
        <p className="notice form-problem" role="alert">
          {error}
        </p>
      ) : null}
      {items.length === 0 ? null : (
        <table className="list" data-testid="outbox-list">
          <thead>
            <tr>
              <th>Change</th>
              <th>State</th>
              <th>Attempts</th>
              <th>Waiting</th>
              <th>Updated</th>
              <th>
                <span className="visually-hidden">Actions</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {items.map((o) => {
              const detail = outboxDetail(o);
              const said = outboxSaid(o);
              return (
                <tr key={o.id} data-testid="outbox-item" data-state={o.state} {...order.rowProps(o)}>
                  <td>
                    <div>{o.summary}</div>
                    {o.schedule ? (
                      <div className="muted" data-testid="outbox-schedule">
                        For {scheduleLabel(o.schedule.executionTime, o.schedule.userTimeZone)}
                      </div>
                    ) : null}
                    {said ? (
                      <div className="outbox-said" data-testid="outbox-said">
                        {said}
                      </div>
                    ) : null}
                    {detail ? (
                      <div
                        className={o.state === 'failed' || o.state === 'blocked' ? 'form-problem' : 'muted outbox-detail'}
                        data-testid="outbox-detail"
                      >
                        {detail}
                      </div>
                    ) : null}
                  </td>
                  <td>
                    <span className={`badge ${OUTBOX_CLASS[o.state]}`} data-testid="outbox-state">
                      {outboxStateLabel(o, waits[o.id])}
                    </span>
                  </td>
                  <td>{o.attempts}</td>
                  <td data-testid="outbox-wait" data-reason={waits[o.id]?.reason ?? ''} data-ahead={waits[o.id]?.ahead ?? ''}>
                    {waitLabel(waits[o.id], o, tick)}
                  </td>
                  <td>{formatAge(o.updatedAt, now)}</td>
                  <td className="row-actions">
                    {order.buttons(o)}
                    {o.state === 'blocked' && blocked.has(o.id) ? (
                      <BlockedPushFixes
                        push={blocked.get(o.id)!}
                        serviceNow={serviceNow}
                        onFix={(t) =>
                          void act(async () => {
                            await rescheduleBlocked(o.id, t);
                            await usePush.getState().loadBlocked();
                          })
                        }
                      />
                    ) : null}
                    {isAmbiguous(o) ? <AmbiguousChoices item={o} act={act} onSendAgain={() => setSendAgain(o)} /> : null}
                    {canTakeBack(o) ? (
                      o.state === 'queued' ? (
                        <button
                          type="button"
                          onClick={() => void takeBack(o)}
                          title="Take it out of the Outbox and edit its draft again"
                          data-testid="outbox-take-back"
                        >
                          Take back to draft
                        </button>
                      ) : (
                        <button
                          type="button"
                          onClick={() => void takeBack(o)}
                          title="Take it back to its draft and edit it there; this version leaves the Outbox"
                          data-testid="outbox-fix"
                        >
                          Fix
                        </button>
                      )
                    ) : null}
                    {canRetry(o, waits[o.id]) ? (
                      <button
                        type="button"
                        onClick={() => void act(() => call('outbox.retry', { id: o.id }))}
                        title={o.state === 'queued' ? 'Try to send it now instead of waiting' : 'Put it back in the queue'}
                        data-testid="outbox-retry"
                      >
                        Retry
                      </button>
                    ) : null}
                    {canDiscard(o) ? (
                      <button type="button" onClick={() => setDiscard(o)} title="Remove it without sending" data-testid="outbox-discard">
                        Discard...
                      </button>
                    ) : null}
                  </td>
                </tr>
              );
            })}
          </tbody>
        </table>
      )}
      <SentHistory items={sent} now={now} onOpenCampaign={links ? openCampaign : undefined} />
      {sendAgain ? (
        <ConfirmDialog
          title="Send it again"
          message={`Send "${sendAgain.summary}" again? Do this only if none of the matches found on the service is yours: otherwise it will exist twice.`}
          confirm="Send it again"
          onConfirm={() => void act(() => call('outbox.sendAgain', { id: sendAgain.id }))}
          onClose={() => setSendAgain(null)}
        />
      ) : null}
      {discard ? (
        <ConfirmDialog
          title="Discard change"
          message={`Discard "${discard.summary}"? It will not be sent${discard.draftId ? ', and its draft is deleted' : ''}.`}
          confirm="Discard"
          onConfirm={() => void act(() => call('outbox.discard', { id: discard.id }))}
          onClose={() => setDiscard(null)}
        />
      ) : null}
    </div>
  );
}

/** Sent changes of the account, newest first, folded away so they never push waiting work off-screen. */
function SentHistory({
  items,
  now,
  onOpenCampaign,
}: {
  items: OutboxItem[];
  now: number;
  onOpenCampaign: ((id: string) => void) | undefined;
}) {
  const keptDays = useRetention((r) => r.retention.sentDays);
  return (
    <div className="outbox-history-row">
      <details className="outbox-history" data-testid="outbox-history">
        <summary>
          Sent ({items.length}) <RetentionText />
        </summary>
        {items.length === 0 ? (
          <p className="muted">Nothing sent in the last {daysLabel(keptDays)}.</p>
        ) : (
          <table className="list">
            <tbody>
              {items.map((o) => (
                <tr key={o.id} data-testid="outbox-sent-item">
                  <td>{o.summary}</td>
                  <td data-testid="outbox-posted-id">
                    {o.posted?.kind === 'campaign' && onOpenCampaign ? (
                      <button
                        type="button"
                        className="link-button"
                        onClick={() => onOpenCampaign(o.posted!.ids[0])}
                        title="Show it in the Campaigns tab"
                        data-testid="outbox-open-campaign"
                      >
                        {postedLabel(o)}
                      </button>
                    ) : (
                      postedLabel(o)
                    )}
                  </td>
                  <td>
                    <span className={`badge ${OUTBOX_CLASS.sent}`}>Sent</span>
                  </td>
                  <td className="muted">{formatAge(o.updatedAt, now)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </details>
      <RetentionChange />
    </div>
  );
}
