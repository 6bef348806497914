// What the main thread and the cache reader's worker say to each other, checked with zod on
// arrival on both sides (a message is structured-cloned data, not a typed object).
import { z } from 'zod';
import type { Campaign } from '../../shared/domain/campaign';
import { campaignQuerySchema } from '../../shared/domain/campaign-query';
import { SEEN_VALUE_COLUMNS, type SeenValueColumn } from './seen-values';

const seenValuesShape = Object.fromEntries(SEEN_VALUE_COLUMNS.map((c) => [c, z.array(z.string())])) as Record<
  SeenValueColumn,
  z.ZodArray<z.ZodString>
>;

/** A checked query with its defaults filled in (ParsedCampaignQuery), and the account's key in the cache. */
const parsedQuerySchema = campaignQuerySchema.required({ sort: true });

/** The store's two readers: the window's pages, and the lists' totals (a count never holds a page). */
export const READER_ROLES = ['reader', 'counter'] as const;
export type ReaderRole = (typeof READER_ROLES)[number];

/** What a query asks: a page with its total, a page alone, or the total alone (WindowQuery). */
export const READ_KINDS = ['page', 'rows', 'count'] as const;
export type ReadKind = (typeof READ_KINDS)[number];

export const readerRequestSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('query'), id: z.number(), kind: z.enum(READ_KINDS), accountKey: z.number().int(), query: parsedQuerySchema }),
  /** The values seen in the account's cache (seen-values.ts). */
  z.object({ type: z.literal('values'), id: z.number(), accountKey: z.number().int() }),
  /** How many campaigns each account's cache holds (the accounts list's counts). */
  z.object({ type: z.literal('accountCounts'), id: z.number() }),
  z.object({ type: z.literal('close') }),
]);
export type ReaderRequest = z.infer<typeof readerRequestSchema>;

/** A campaign as the cache rebuilt it: checked with campaignSchema in the worker already. */
const campaign = z.custom<Campaign>(
  (v) => typeof v === 'object' && v !== null && typeof (v as { id?: unknown }).id === 'string',
  'a campaign is an object with an id',
);

export const readerReplySchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('ready') }),
  z.object({
    type: z.literal('page'),
    id: z.number(),
    rows: z.array(campaign),
    damaged: z.array(
      z.object({
        key: z.object({ id_num: z.number(), id: z.string() }),
        row: z.record(z.string(), z.unknown()),
        reason: z.string(),
      }),
    ),
    /** Null for a page asked without its total (kind 'rows'). */
    total: z.number().int().nullable(),
  }),
  z.object({ type: z.literal('count'), id: z.number(), total: z.number().int() }),
  z.object({ type: z.literal('values'), id: z.number(), values: z.object(seenValuesShape) }),
  /** [account key, campaigns] for every account with any. */
  z.object({ type: z.literal('accountCounts'), id: z.number(), counts: z.array(z.tuple([z.number().int(), z.number().int()])) }),
  z.object({ type: z.literal('failed'), id: z.number().nullable(), message: z.string() }),
]);
export type ReaderReply = z.infer<typeof readerReplySchema>;

export const readerWorkerDataSchema = z.object({
  file: z.string().min(1),
  /** Which reader it is: the page cache it keeps (CACHE_SIZE_KB) follows its work. */
  role: z.enum(READER_ROLES),
});
