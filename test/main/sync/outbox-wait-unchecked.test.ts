// A connection not checked yet since start-up ('unknown') holds nothing back: the first change is
// "next" (sending it is how the app learns whether the service answers) and the rest wait their
// turn; only an observed offline says "offline".
import { describe, expect, it } from 'vitest';
import { RateLimitScheduler } from '../../../src/main/ratelimit/scheduler';
import type { OutboxItem } from '../../../src/main/store';
import type { ConnectionState } from '../../../src/main/connections/connections';
import { outboxWaits } from '../../../src/main/sync/outbox-wait';

const item = (seq: number): OutboxItem =>
  ({
    seq,
    profileId: 'p',
    accountId: 'acme',
    kind: 'create_campaign',
    payload: { body: { name: `c${seq}` } },
    draftId: null,
    state: 'queued',
    attempts: 0,
    nextAttemptAt: 0,
    lastError: null,
    result: null,
    createdAt: 0,
    updatedAt: 0,
  }) as OutboxItem;

const reasons = (connection: ConnectionState) =>
  outboxWaits({
    now: 0,
    items: [item(1), item(2)],
    connection: () => connection,
    rateAccount: (i) => i.accountId,
    snapshot: new RateLimitScheduler().snapshot(),
  }).map((w) => w.reason);

describe('outbox waits while the connection is not checked yet', () => {
  it('says next, then its turn; offline only once observed', () => {
    expect(reasons('unknown')).toEqual(['next', 'turn']);
    expect(reasons('offline')).toEqual(['offline', 'offline']);
  });
});
