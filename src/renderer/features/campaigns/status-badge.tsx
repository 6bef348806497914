// Colour is reserved for status. Unknown statuses (a real service may send new ones) are shown
// as they are, in the neutral style.
const KNOWN: Record<string, string> = {
  APPROVED: 'ok',
  PENDING_APPROVAL: 'pending',
  PAUSED: 'paused',
  REJECTED: 'bad',
  TERMINATED: 'muted',
};

export function StatusBadge({ status }: { status: string | null }) {
  if (!status) return <span className="badge">{'\u2013'}</span>;
  return <span className={`badge status-${KNOWN[status] ?? 'other'}`}>{status.replace(/_/g, ' ').toLowerCase()}</span>;
}
