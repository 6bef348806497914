// Values of the service's enumerations (task types and statuses, campaign statuses, ...): the
// interface shows each in one case, but a service may write "PENDING" or "Scheduled" for the same
// thing (DECISIONS client 18), or spell a word another legal way ("canceled" for the interface's
// "cancelled"). Every comparison of a value the service wrote goes through here; the value itself
// is kept and shown as the service wrote it (client rule 7).

/** Other spellings of a value the interface shows, lower case: English spells these two ways. */
const SPELLINGS: Readonly<Record<string, readonly string[]>> = {
  cancelled: ['canceled'],
};

/** Whether the service's `value` is `expected`, compared without case and in any of its spellings. */
export function isServiceValue(value: string | null | undefined, expected: string): boolean {
  if (typeof value !== 'string') return false;
  const said = value.toLowerCase();
  const meant = expected.toLowerCase();
  return said === meant || (Object.hasOwn(SPELLINGS, meant) && SPELLINGS[meant].includes(said));
}
