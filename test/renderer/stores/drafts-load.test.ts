// A new draft opened while the list of drafts is being read again (an outbox or drafts event
// arrived just before) must stay open: the list that left before it existed is older than it.
// Before, that list closed the editor under the person's typing (and made two UI tests flaky).
import { afterEach, expect, it, vi } from 'vitest';
import { setBridge, type DeskBridge } from '../../../src/renderer/lib/api';
import { useDrafts } from '../../../src/renderer/stores/drafts-store';
import type { ChannelName, Draft } from '../../../src/shared/ipc/contract';

const ACME = { profileId: 'p1', accountId: 'acme' };
const draft = (id: string, name: string): Draft =>
  ({ id, profileId: 'p1', accountId: 'acme', kind: 'campaign', status: 'draft', problems: [], payload: { name }, updatedAt: 1 }) as Draft;

afterEach(() => useDrafts.getState().setAccount(null));

it('keeps a draft made while the list was on its way open, and in the list', async () => {
  const lists: ((d: Draft[]) => void)[] = [];
  const bridge: DeskBridge = {
    async invoke(channel: ChannelName, input: unknown) {
      if (channel === 'drafts.list') return { ok: true, value: await new Promise<Draft[]>((resolve) => lists.push(resolve)) } as never;
      if (channel === 'drafts.save')
        return { ok: true, value: { ...draft('d-new', ''), payload: (input as { payload: unknown }).payload } } as never;
      return { ok: true, value: [] } as never;
    },
    on: () => () => undefined,
  };
  setBridge(bridge);
  const s = useDrafts.getState();
  s.setAccount(ACME);
  lists.shift()!([draft('d-old', 'Old')]);
  await vi.waitFor(() => expect(useDrafts.getState().loaded).toBe(true));
  // An event makes the list be read again; before its answer, the person makes a new draft.
  const reload = useDrafts.getState().load();
  await useDrafts.getState().newCampaign();
  expect(useDrafts.getState().selectedId).toBe('d-new');
  lists.shift()!([draft('d-old', 'Old')]);
  await reload;
  expect(useDrafts.getState().selectedId).toBe('d-new');
  expect(useDrafts.getState().form).not.toBeNull();
  expect(useDrafts.getState().drafts.map((d) => d.id)).toEqual(['d-new', 'd-old']);
});

it('still closes the open draft when the list says it is gone (deleted or queued elsewhere)', async () => {
  const lists: ((d: Draft[]) => void)[] = [];
  setBridge({
    async invoke(channel: ChannelName) {
      if (channel === 'drafts.list') return { ok: true, value: await new Promise<Draft[]>((resolve) => lists.push(resolve)) } as never;
      return { ok: true, value: [] } as never;
    },
    on: () => () => undefined,
  });
  useDrafts.getState().setAccount(ACME);
  lists.shift()!([draft('d-old', 'Old')]);
  await vi.waitFor(() => expect(useDrafts.getState().loaded).toBe(true));
  await useDrafts.getState().select('d-old');
  const reload = useDrafts.getState().load();
  lists.shift()!([]);
  await reload;
  expect(useDrafts.getState().selectedId).toBeNull();
});

it('closes the open draft at once when a new one is asked for, so what is typed next cannot land in it; its own edits are saved as they were', async () => {
  const saves: { id?: string; name?: string }[] = [];
  const held: { release?: () => void } = {};
  setBridge({
    async invoke(channel: ChannelName, input: unknown) {
      if (channel === 'drafts.list') return { ok: true, value: [draft('d-old', 'Old')] } as never;
      if (channel === 'drafts.save') {
        const i = input as { id?: string; payload: { name?: string } };
        saves.push({ id: i.id, name: i.payload.name });
        // The save of the open draft is slow (a busy core).
        if (i.id === 'd-old') await new Promise<void>((resolve) => (held.release = resolve));
        return { ok: true, value: { ...draft(i.id ?? 'd-new', i.payload.name ?? ''), payload: i.payload } } as never;
      }
      return { ok: true, value: [] } as never;
    },
    on: () => () => undefined,
  });
  useDrafts.getState().setAccount(ACME);
  await vi.waitFor(() => expect(useDrafts.getState().loaded).toBe(true));
  await useDrafts.getState().select('d-old');
  useDrafts.getState().edit({ name: 'Old, renamed' });
  const making = useDrafts.getState().newCampaign();
  // Before the open draft's save is answered, nothing is open to type into.
  expect(useDrafts.getState().selectedId).toBeNull();
  expect(useDrafts.getState().form).toBeNull();
  useDrafts.getState().edit({ name: 'typed too early' });
  await vi.waitFor(() => expect(held.release).toBeTypeOf('function'));
  held.release!();
  await making;
  expect(saves[0]).toEqual({ id: 'd-old', name: 'Old, renamed' });
  expect(useDrafts.getState().selectedId).toBe('d-new');
  expect(useDrafts.getState().form?.name).toBe('');
  expect(saves.some((x) => x.name === 'typed too early')).toBe(false);
});
