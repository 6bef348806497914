// What the main thread and the cache writer's worker say to each other, checked with zod on
// arrival on both sides (a message is structured-cloned data, not a typed object).
import { z } from 'zod';

/** Positional values of CAMPAIGN_WRITE_COLUMNS, the account key first; SQLite's STRICT table checks each value. */
const rowValues = z.custom<unknown[]>((v) => Array.isArray(v), 'a row is an array of column values');

export const cacheRequestSchema = z.discriminatedUnion('type', [
  /** One transaction: rows of one or more accounts; `fresh` accounts held no rows when their refresh began. */
  z.object({ type: z.literal('write'), id: z.number(), rows: z.array(rowValues), fresh: z.array(z.number()) }),
  z.object({ type: z.literal('delete'), id: z.number(), accountKey: z.number(), keys: z.array(z.tuple([z.number(), z.string()])) }),
  /** Every row of the account (it is being removed). */
  z.object({ type: z.literal('forget'), id: z.number(), accountKey: z.number() }),
  /** Every row of an account not in the list (one removed while the app was not running to the end). */
  z.object({ type: z.literal('keepOnly'), id: z.number(), accountKeys: z.array(z.number()) }),
  z.object({ type: z.literal('close') }),
]);
export type CacheRequest = z.infer<typeof cacheRequestSchema>;

export const cacheReplySchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('ready') }),
  /** `count`: rows written, or deleted. */
  z.object({ type: z.literal('done'), id: z.number(), count: z.number() }),
  z.object({ type: z.literal('failed'), id: z.number().nullable(), message: z.string() }),
]);
export type CacheReply = z.infer<typeof cacheReplySchema>;

export const cacheWorkerDataSchema = z.object({ file: z.string().min(1) });
