// What the main thread and the cache reader's worker say to each other, checked with zod on
// arrival on both sides (a message is structured-cloned data, not a typed object).
import { z } from 'zod';
import type { Campaign } from '../../shared/domain/campaign';
import { campaignQuerySchema } from '../../shared/domain/campaign-query';

/** A checked query with its defaults filled in (ParsedCampaignQuery), and the account's key in the cache. */
const parsedQuerySchema = campaignQuerySchema.required({ sort: true });

export const readerRequestSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('query'), id: z.number(), accountKey: z.number().int(), query: parsedQuerySchema }),
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
    total: z.number().int(),
  }),
  z.object({ type: z.literal('failed'), id: z.number().nullable(), message: z.string() }),
]);
export type ReaderReply = z.infer<typeof readerReplySchema>;

export const readerWorkerDataSchema = z.object({ file: z.string().min(1) });
