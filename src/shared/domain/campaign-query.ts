// What a screen asks of the campaign cache (campaigns.query and campaigns.records): one account,
// sorted, filtered by status and text, one page at a time; and of the same list its total alone
// (campaigns.count). One schema with one set of limits and defaults, checked by the contract and
// again by the store.
import { z } from 'zod';
import { accountIdSchema, SORTABLE_CAMPAIGN_FIELDS } from './campaign';

/** The most rows one page may hold: a page is read and sent in one piece. */
export const MAX_QUERY_LIMIT = 1000;

export const campaignQuerySchema = z.object({
  profileId: z.string().min(1).max(200),
  accountId: accountIdSchema,
  /** Only fields the cache keeps a sortable column of; ties are broken by id. Absent: DEFAULT_CAMPAIGN_SORT. */
  sort: z
    .object({
      field: z.enum(SORTABLE_CAMPAIGN_FIELDS, { error: 'campaigns cannot be sorted by this field' }),
      direction: z.enum(['asc', 'desc']),
    })
    .optional(),
  /** Only these statuses, in any case the service writes them (DECISIONS client 18). Empty or absent: all. */
  statuses: z.array(z.string().max(64)).max(50).optional(),
  /**
   * What the search box holds: words that must each appear in the id, name or branding text
   * (case-insensitive, any order), or a list of campaign ids (two or more numbers) to show.
   */
  text: z.string().max(4000).optional(),
  limit: z.number().int().min(1).max(MAX_QUERY_LIMIT).default(200),
  offset: z.number().int().min(0).default(0),
});
export type CampaignQuery = z.input<typeof campaignQuerySchema>;

/** The order of a list nobody sorted: by name, as the grid first shows it. */
export const DEFAULT_CAMPAIGN_SORT = { field: 'name', direction: 'asc' } as const satisfies NonNullable<CampaignQuery['sort']>;

/** A checked query with every default filled in. */
export type ParsedCampaignQuery = z.output<typeof campaignQuerySchema> & {
  sort: NonNullable<z.output<typeof campaignQuerySchema>['sort']>;
};

/**
 * A list without a page (campaigns.count): what the total counts. Its own question because
 * counting a common word's matches costs far more than its first page (issue #29).
 */
export const campaignListSchema = campaignQuerySchema.omit({ limit: true, offset: true });
export type CampaignList = z.input<typeof campaignListSchema>;
