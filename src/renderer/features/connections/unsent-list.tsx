// What removing an account or a connection would delete that never reached the service: every
// unsent change by group (drafts, queued, sending, being checked, failed, blocked) with counts,
// summaries and the service's words, scrollable when long, and the two exports.
import { useCallback, useEffect, useState } from 'react';
import { countUnsent, UNSENT_GROUPS, type UnsentGroup, type UnsentItem } from '../../../shared/domain/unsent';
import { call, messageOf } from '../../lib/api';
import { downloadText } from '../../lib/delimited';
import { campaignCount, exportFileName, unsentToCsv, unsentToJson, unsentWords } from './unsent-export';

const GROUP_TITLE: Record<UnsentGroup, string> = {
  draft: 'Drafts',
  queued: 'Queued',
  sending: 'Sending now',
  uncertain: 'Being checked on the service',
  failed: 'Failed',
  blocked: 'Blocked',
};

/** The scope's unsent changes, read when the dialog opens and again on demand (after a refusal). */
export function useUnsent(profileId: string, accountId?: string) {
  const [items, setItems] = useState<UnsentItem[] | null>(null);
  const [error, setError] = useState<string | null>(null);
  const load = useCallback(async () => {
    try {
      const r = await call('unsent.list', { profileId, ...(accountId === undefined ? {} : { accountId }) });
      setItems(r.items);
      setError(null);
    } catch (e) {
      setError(messageOf(e));
    }
  }, [profileId, accountId]);
  useEffect(() => {
    void load();
  }, [load]);
  return { items, error, reload: load };
}

export function UnsentList({ items, exportAs }: { items: UnsentItem[]; exportAs: { connection: string; account?: string } }) {
  const counts = countUnsent(items);
  const campaigns = campaignCount(items);
  const name = exportAs.account ?? exportAs.connection;
  return (
    <div className="unsent" data-testid="unsent-list">
      {/* A region one Tab stop long, so that a long list can be scrolled from the keyboard (axe: scrollable-region-focusable). */}
      {/* eslint-disable-next-line jsx-a11y/no-noninteractive-tabindex -- see above */}
      <div className="unsent-groups" role="region" aria-label="Unsent changes" tabIndex={0} data-testid="unsent-scroll">
        {UNSENT_GROUPS.filter((g) => counts[g] > 0).map((g) => (
          <section key={g} className="unsent-group" data-testid={`unsent-group-${g}`}>
            <h3 className="unsent-title">
              {GROUP_TITLE[g]} ({counts[g]})
            </h3>
            <ul>
              {items
                .filter((i) => i.group === g)
                .map((i) => (
                  <li key={`${i.source}-${i.id}`} data-testid="unsent-item">
                    {i.summary}
                    {unsentWords(i) ? <span className="muted"> · {unsentWords(i)}</span> : null}
                  </li>
                ))}
            </ul>
          </section>
        ))}
      </div>
      <div className="unsent-export">
        <button
          type="button"
          disabled={campaigns === 0}
          onClick={() => downloadText(exportFileName(name, 'csv', Date.now()), unsentToCsv(items), 'text/csv')}
          title={
            campaigns === 0
              ? 'None of these is a campaign'
              : 'The campaigns, as the Drafts tab exports them: Import there reads the file back'
          }
          data-testid="unsent-export-csv"
        >
          Export {campaigns} {campaigns === 1 ? 'campaign' : 'campaigns'} as CSV…
        </button>
        <button
          type="button"
          onClick={() =>
            downloadText(exportFileName(name, 'json', Date.now()), unsentToJson(items, exportAs, Date.now()), 'application/json')
          }
          title="Every change with what it would send"
          data-testid="unsent-export-json"
        >
          Export all as JSON…
        </button>
      </div>
    </div>
  );
}
