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

/**
 * What a filter offers for an enumeration: the values the interface shows, then every other value
 * the service was seen writing (a status the app has never heard of can be picked), each once. A
 * known value the service writes in another case or spelling ("approved", "canceled") is offered
 * in the service's spelling, once; comparisons go through isServiceValue anyway.
 */
export function valueChoices(known: readonly string[], seen: readonly string[]): string[] {
  const shown = known.map((k) => seen.find((s) => isServiceValue(s, k)) ?? k);
  const others = [...new Set(seen)].filter((s) => s.trim() !== '' && !known.some((k) => isServiceValue(s, k))).sort();
  return [...shown, ...others];
}
