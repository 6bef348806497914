// Events carry what changed, and the window reads again only that: a refresh's data event every
// second must not make it read the connections (their sign-in state) or the app info, and the
// outbox's items with their sent history are read only while the Outbox tab shows them.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { setBridge, type DeskBridge } from '../../../src/renderer/lib/api';
import { useStatus } from '../../../src/renderer/stores/status-store';
import { subscribeDeskEvents } from '../../../src/renderer/stores/use-desk-events';
import type { ChannelName, EventName, EventPayload } from '../../../src/shared/ipc/contract';

const ANSWERS: Partial<Record<ChannelName, unknown>> = {
  'app.info': {
    version: '0',
    transport: 'browser',
    secrets: { kind: 'memory', warning: null },
    demo: { available: false, removed: false },
  },
  'profiles.list': [],
  'accounts.list': [],
  'ratelimit.state': [],
  'outbox.counts': [{ profileId: 'p1', accountId: 'acme', state: 'queued', count: 2 }],
  'outbox.list': [],
  'outbox.waits': [],
};

/** A bridge that answers the channels the stores read, records every call, and lets the test emit events. */
function fakeBridge() {
  const calls: ChannelName[] = [];
  const listeners = new Map<EventName, Set<(p: unknown) => void>>();
  const bridge: DeskBridge = {
    async invoke(channel) {
      calls.push(channel);
      return { ok: true, value: ANSWERS[channel] ?? [] } as never;
    },
    on(event, listener) {
      const set = listeners.get(event) ?? new Set();
      set.add(listener as (p: unknown) => void);
      listeners.set(event, set);
      return () => set.delete(listener as (p: unknown) => void);
    },
  };
  const emit = <E extends EventName>(event: E, payload: EventPayload<E>) => listeners.get(event)?.forEach((l) => l(payload));
  return { bridge, calls, emit };
}

/** Lets the stores' calls (promises) run. */
const settle = async () => {
  for (let i = 0; i < 5; i++) await Promise.resolve();
};

let fake: ReturnType<typeof fakeBridge>;
let off: () => void;
beforeEach(async () => {
  fake = fakeBridge();
  setBridge(fake.bridge);
  useStatus.getState().setOutboxOpen(false);
  off = subscribeDeskEvents(() => undefined);
  await settle();
  fake.calls.length = 0;
});
afterEach(() => {
  off();
  setBridge(null);
});

describe('desk events reload only what they name', () => {
  it('a refresh’s campaigns event reads the accounts again, never the connections or the app info', async () => {
    for (let i = 0; i < 3; i++) fake.emit('data.changed', { profileId: 'p1', accountId: 'acme', what: 'campaigns' });
    await settle();
    expect(fake.calls).toEqual(['accounts.list', 'accounts.list', 'accounts.list']);
  });

  it('a connection change reads the connections (sign-in state), not the accounts', async () => {
    fake.emit('connection.changed', { profileId: 'p1', connection: 'online' });
    await settle();
    expect(fake.calls).toEqual(['profiles.list']);
  });

  it('an outbox change reads the unsent counts and the accounts, not the items, while the Outbox tab is closed', async () => {
    fake.emit('outbox.changed', { profileId: 'p1', accountId: 'acme' });
    await settle();
    expect([...fake.calls].sort()).toEqual(['accounts.list', 'outbox.counts', 'outbox.waits']);
    expect(useStatus.getState().counts).toEqual([{ profileId: 'p1', accountId: 'acme', state: 'queued', count: 2 }]);
  });

  it('with the Outbox tab open, the items are read too, and dropped when it closes', async () => {
    useStatus.getState().setOutboxOpen(true);
    await settle();
    fake.calls.length = 0;
    fake.emit('outbox.changed', { profileId: 'p1', accountId: 'acme' });
    await settle();
    expect(fake.calls).toContain('outbox.list');
    useStatus.getState().setOutboxOpen(false);
    expect(useStatus.getState().outbox).toEqual([]);
  });

  it('a removed account also reads the app info (the demo’s state), still not the connections', async () => {
    fake.emit('data.changed', { profileId: 'p1', accountId: 'acme', what: 'accounts' });
    await settle();
    expect([...fake.calls].sort()).toEqual(['accounts.list', 'app.info']);
  });
});
