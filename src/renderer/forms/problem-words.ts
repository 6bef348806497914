// How many problems a draft has, in the one wording every form, list and notice uses.

/** "1 problem", "3 problems". */
export const problemCount = (n: number): string => `${n} problem${n === 1 ? '' : 's'}`;

/** What Check says of the open draft. */
export const checkNotice = (n: number): { text: string; bad: boolean } =>
  n === 0 ? { text: 'No problems found: ready to queue.', bad: false } : { text: `${problemCount(n)} to fix before queueing.`, bad: true };
