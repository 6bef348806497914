// Values of the service's enumerations (task types and statuses, campaign statuses, ...): the
// interface shows each in one case, but a service may write "PENDING" or "Scheduled" for the same
// thing (DECISIONS client 18). Every comparison of a value the service wrote goes through here;
// the value itself is kept and shown as the service wrote it (client rule 7).

/** Whether the service's `value` is `expected`, compared without case. */
export function isServiceValue(value: string | null | undefined, expected: string): boolean {
  return typeof value === 'string' && value.toLowerCase() === expected.toLowerCase();
}
