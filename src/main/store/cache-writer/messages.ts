// What the main thread and the cache writer's worker say to each other, checked with zod on
// arrival on both sides (a message is structured-cloned data, not a typed object).
import { z } from 'zod';
import { packedRowsSchema } from './packed-rows';

export const cacheRequestSchema = z.discriminatedUnion('type', [
  /**
   * Rows of one or more accounts (positional values of CAMPAIGN_WRITE_COLUMNS, the account key
   * first, packed: packed-rows.ts; SQLite's STRICT table checks each value); `fresh` accounts held
   * no rows when their refresh began; the keys of rows newly inserted for `track` accounts are
   * remembered until endRefresh.
   */
  z.object({ type: z.literal('write'), id: z.number(), rows: packedRowsSchema, fresh: z.array(z.number()), track: z.array(z.number()) }),
  /**
   * An account's refresh ended. `undo` null: it finished, its rows stay. Otherwise it was cancelled
   * or failed, and the rows it inserted go (every row of the account when it started empty), but
   * for those whose ids are in `keep` (written by a create meanwhile, not by the listing).
   */
  z.object({
    type: z.literal('endRefresh'),
    id: z.number(),
    accountKey: z.number(),
    undo: z.object({ all: z.boolean(), keep: z.array(z.string()) }).nullable(),
  }),
  z.object({ type: z.literal('delete'), id: z.number(), accountKey: z.number(), keys: z.array(z.tuple([z.number(), z.string()])) }),
  /** Every row of the account (it is being removed). */
  z.object({ type: z.literal('forget'), id: z.number(), accountKey: z.number() }),
  /** Every row of an account not in the list (one removed while the app was not running to the end). */
  z.object({ type: z.literal('keepOnly'), id: z.number(), accountKeys: z.array(z.number()) }),
  /**
   * A refresh of an account that started empty has ended (finished or given up): the indexes a
   * bulk load dropped are built again before this is answered (count: the indexes built).
   */
  z.object({ type: z.literal('settle'), id: z.number() }),
  /**
   * Builds the text index (cache-file.ts) when it is not whole, as after a bulk load; sent once
   * that load's refresh has ended, so its end never waits for it (count: 1 when it was built).
   */
  z.object({ type: z.literal('buildText'), id: z.number() }),
  z.object({ type: z.literal('close') }),
]);
export type CacheRequest = z.infer<typeof cacheRequestSchema>;

type WithoutId<T> = T extends unknown ? Omit<T, 'id'> : never;
/** A request as the main thread makes it: a write's rows as arrays, packed on the way. */
export type CacheCall =
  | Exclude<WithoutId<CacheRequest>, { type: 'write' | 'close' }>
  | { type: 'write'; rows: readonly (readonly unknown[])[]; fresh: number[]; track?: number[] };

export const cacheReplySchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('ready') }),
  /** `count`: rows written, or deleted. */
  z.object({ type: z.literal('done'), id: z.number(), count: z.number() }),
  z.object({ type: z.literal('failed'), id: z.number().nullable(), message: z.string() }),
]);
export type CacheReply = z.infer<typeof cacheReplySchema>;

export const cacheWorkerDataSchema = z.object({ file: z.string().min(1) });
