// Unsent work written out before an account or a connection is removed: campaigns as CSV in the
// drafts' own format (Drafts > Import reads it back), and every change as JSON with what it would
// send. Only what the person made goes in: no connection settings, no secret, no token.
import type { UnsentItem } from '../../../shared/domain/unsent';
import type { Draft } from '../../../shared/ipc/contract';
import { campaignCreateSchema } from '../../../shared/domain/campaign';
import { draftsToCsv } from '../drafts/draft-transfer';
import { problemInWords } from '../drafts/draft-fields';

/**
 * What is said of a change: the service's words as they are, then a draft's problems in the
 * window's words (the editor's labels), never the rules' interface names.
 */
export function unsentWords(i: Pick<UnsentItem, 'words' | 'problems'>): string | null {
  const said = [...(i.words ? [i.words] : []), ...i.problems.map(problemInWords)];
  return said.length > 0 ? said.join(' · ') : null;
}

/** The campaigns among the unsent changes, as drafts the CSV export knows. */
function campaignDrafts(items: readonly UnsentItem[]): Draft[] {
  return items.flatMap((i) => {
    if (i.kind !== 'campaign') return [];
    const parsed = campaignCreateSchema.partial().safeParse(i.payload);
    if (!parsed.success) return [];
    return [
      {
        kind: 'campaign' as const,
        id: i.id,
        profileId: '',
        accountId: i.accountId,
        payload: parsed.data,
        problems: [],
        updatedAt: i.updatedAt,
        status: 'draft' as const,
      },
    ];
  });
}

export const campaignCount = (items: readonly UnsentItem[]) => campaignDrafts(items).length;

export function unsentToCsv(items: readonly UnsentItem[]): string {
  return draftsToCsv(campaignDrafts(items));
}

export function unsentToJson(items: readonly UnsentItem[], from: { connection: string; account?: string }, now: number): string {
  return JSON.stringify(
    {
      exportedAt: new Date(now).toISOString(),
      connection: from.connection,
      ...(from.account === undefined ? {} : { account: from.account }),
      changes: items.map((i) => ({
        state: i.group,
        kind: i.kind,
        account: i.accountId,
        summary: i.summary,
        words: unsentWords(i),
        payload: i.payload,
      })),
    },
    null,
    2,
  );
}

/** A file name from what is removed, with only characters every file system takes. */
export function exportFileName(what: string, ext: 'csv' | 'json', now: number): string {
  const safe =
    what
      .replace(/[^\p{L}\p{N} _-]+/gu, '')
      .trim()
      .replace(/\s+/g, '-') || 'campaign-desk';
  return `${safe}-unsent-${new Date(now).toISOString().slice(0, 10)}.${ext}`;
}
