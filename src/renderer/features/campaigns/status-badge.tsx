// Colour is reserved for status. Unknown statuses (a real service may send new ones) are shown
// in plain words, in the neutral style; the raw value is on hover. Badges are lower case, as
// every status badge of the window is.
import { enumLabel } from '../../lib/enum-labels';

const KNOWN: Record<string, string> = {
  APPROVED: 'ok',
  PENDING_APPROVAL: 'pending',
  PAUSED: 'paused',
  REJECTED: 'bad',
  TERMINATED: 'muted',
};

export function StatusBadge({ status }: { status: string | null }) {
  if (!status) return <span className="badge">{'\u2013'}</span>;
  return (
    <span className={`badge status-${KNOWN[status] ?? 'other'}`} title={status}>
      {enumLabel(status).toLowerCase()}
    </span>
  );
}
