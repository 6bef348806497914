// campaigns.*: pages of an account's cached campaigns, sorted and filtered as asked (checked with
// the shared campaign query), their totals, and the values the editor offers; never a network read.
import type { ChannelArgs } from '../../../shared/ipc/contract';
import type { CoreContext } from '../context';
import { campaignRowDto } from '../dto';
import { requireAccount } from '../lookups';
import type { HandlersOf } from '../handlers-of';

// Read on the cache reader's thread: a search over a large account never holds the main thread.
const queryPage = (ctx: CoreContext, q: ChannelArgs<'campaigns.query'>) => ctx.store.campaigns.readWindow(q);

export function campaignsHandlers(ctx: CoreContext): HandlersOf<'campaigns'> {
  const { store } = ctx;
  return {
    async 'campaigns.query'(q) {
      const a = requireAccount(ctx, q);
      const page = await queryPage(ctx, q);
      return { rows: page.rows.map((c) => campaignRowDto(a.accountId, c)), total: page.total, syncedAt: a.lastSyncedAt };
    },

    async 'campaigns.records'({ withTotal = true, ...q }) {
      const a = requireAccount(ctx, q);
      const page = withTotal ? await queryPage(ctx, q) : { ...(await store.campaigns.readRows(q)), total: null };
      // The cache rebuilds each campaign exactly as the service sent it, unknown fields included.
      return {
        rows: page.rows.map((c) => ({ ...campaignRowDto(a.accountId, c), fields: { ...c } })),
        total: page.total,
        syncedAt: a.lastSyncedAt,
      };
    },

    async 'campaigns.count'(list) {
      requireAccount(ctx, list);
      return { total: await store.campaigns.countWindow(list) };
    },

    async 'campaigns.values'(ref) {
      requireAccount(ctx, ref);
      return store.campaigns.seenValues(ref);
    },
  };
}
