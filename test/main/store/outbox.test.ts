import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type OutboxItem } from '../../../src/main/store';
import { OUTBOX_STATES, OUTBOX_TRANSITIONS, type OutboxState } from '../../../src/shared/domain/outbox';
import { ACME, createWork as create, GLOBEX, openTestStore, seed, type TestStore } from './helpers';

let t: TestStore;
beforeEach(() => {
  t = openTestStore();
  seed(t.store);
});
afterEach(() => t.cleanup());

const names = (items: (OutboxItem | undefined)[]) => items.map((i) => (i?.kind === 'create_campaign' ? i.payload.body.name : i?.kind));
const err = { code: 'HTTP_400', message: 'name cannot be empty' };

describe('outbox', () => {
  it('claims items of one account strictly in order, one at a time', () => {
    const out = t.store.outbox;
    for (const n of ['a', 'b', 'c']) out.enqueue({ ...ACME, ...create(n) });
    const now = t.clock.now();
    const first = out.claimNext(ACME, now);
    expect(names([first])).toEqual(['a']);
    expect(first).toMatchObject({ state: 'sending', attempts: 1 });
    // The head is in flight: nothing else of this lane may go.
    expect(out.claimNext(ACME, now)).toBeUndefined();
    out.markSent(first!.seq, { id: '501' });
    const second = out.claimNext(ACME, now);
    expect(names([second])).toEqual(['b']);
    out.markSent(second!.seq);
    expect(names([out.claimNext(ACME, now)])).toEqual(['c']);
    expect(out.get(first!.seq)).toMatchObject({ state: 'sent', result: { id: '501' } });
  });

  it('keeps lanes independent: a stuck account does not hold up another', () => {
    const out = t.store.outbox;
    const a = out.enqueue({ ...ACME, ...create('a1') });
    out.enqueue({ ...GLOBEX, ...create('g1') });
    out.enqueue({ profileId: 'p1', accountId: null, kind: 'cancel_task', payload: { appId: '1', taskId: '9' } });
    const now = t.clock.now();
    expect(out.readyLanes(now)).toEqual([ACME, GLOBEX, { profileId: 'p1', accountId: null }]);
    out.claimNext(ACME, now);
    out.markUncertain(a.seq, { code: 'NETWORK', message: 'connection lost after sending' });
    expect(out.readyLanes(now)).toEqual([GLOBEX, { profileId: 'p1', accountId: null }]);
    expect(names([out.claimNext(GLOBEX, now)])).toEqual(['g1']);
    expect(out.claimNext({ profileId: 'p1', accountId: null }, now)?.kind).toBe('cancel_task');
  });

  it('an uncertain item can wait for the person (a new reason, still uncertain, still holding its lane, across a reopen)', async () => {
    const out = t.store.outbox;
    const [a, b] = ['a', 'b'].map((n) => out.enqueue({ ...ACME, ...create(n) }));
    const now = t.clock.now();
    out.claimNext(ACME, now);
    out.markUncertain(a.seq, { code: 'UNKNOWN', message: 'lost' });
    const asked = out.reviseUncertain(a.seq, {
      code: 'AMBIGUOUS',
      message: 'The service now lists 2 campaigns that look like this one (11, 12).',
    });
    expect(asked).toMatchObject({ state: 'uncertain', lastError: { code: 'AMBIGUOUS' } });
    await t.reopen();
    expect(t.store.outbox.get(a.seq)).toMatchObject({ state: 'uncertain', lastError: { code: 'AMBIGUOUS' } });
    expect(t.store.outbox.claimNext(ACME, now)).toBeUndefined();
    // Only an uncertain item can be revised.
    expect(() => t.store.outbox.reviseUncertain(b.seq, { code: 'AMBIGUOUS', message: 'x' })).toThrow(
      expect.objectContaining({ code: 'BAD_TRANSITION' }),
    );
    expect(() => t.store.outbox.reviseUncertain(999, { code: 'AMBIGUOUS', message: 'x' })).toThrow(
      expect.objectContaining({ code: 'NOT_FOUND' }),
    );
  });

  it('an uncertain head holds its lane until resolved; failed and blocked items do not', () => {
    const out = t.store.outbox;
    const [a, b, c] = ['a', 'b', 'c'].map((n) => out.enqueue({ ...ACME, ...create(n) }));
    const now = t.clock.now();
    out.claimNext(ACME, now);
    out.markUncertain(a.seq, { code: 'NETWORK', message: 'lost' });
    expect(out.claimNext(ACME, now)).toBeUndefined();
    expect(out.uncertainHeads().map((i) => i.seq)).toEqual([a.seq]);
    // Resolution found it on the service.
    out.markSent(a.seq, { id: '7', resolvedBy: 'listing' });
    out.claimNext(ACME, now);
    out.markFailed(b.seq, err);
    out.claimNext(ACME, now);
    out.markBlocked(c.seq, { code: 'PAST_SCHEDULE', message: 'The scheduled time has passed' });
    const d = out.enqueue({ ...ACME, ...create('d') });
    expect(out.claimNext(ACME, now)?.seq).toBe(d.seq);
    expect(out.get(b.seq)).toMatchObject({ state: 'failed', lastError: err });
  });

  it('retries later: a queued head waits for next_attempt_at, and nextDueAt tells the engine when', () => {
    const out = t.store.outbox;
    const a = out.enqueue({ ...ACME, ...create('a') });
    const now = t.clock.now();
    out.claimNext(ACME, now);
    out.retryLater(a.seq, now + 30_000, { code: 'HTTP_503', message: 'Service Unavailable' });
    expect(out.claimNext(ACME, now + 29_999)).toBeUndefined();
    expect(out.readyLanes(now + 29_999)).toEqual([]);
    expect(out.nextDueAt()).toBe(now + 30_000);
    const again = out.claimNext(ACME, now + 30_000);
    expect(again).toMatchObject({ seq: a.seq, attempts: 2, state: 'sending', lastError: { code: 'HTTP_503' } });
  });

  it('allows exactly the documented state transitions', () => {
    const out = t.store.outbox;
    // Drives a fresh item into `state` through allowed moves.
    const reach = (state: OutboxState): number => {
      const i = out.enqueue({ ...GLOBEX, ...create(`to-${state}`) });
      if (state === 'queued') return i.seq;
      out.claimNext(GLOBEX, t.clock.now());
      if (state === 'sending') return i.seq;
      if (state === 'sent') out.markSent(i.seq);
      if (state === 'failed') out.markFailed(i.seq, err);
      if (state === 'uncertain') out.markUncertain(i.seq, err);
      if (state === 'blocked') out.markBlocked(i.seq, err);
      return i.seq;
    };
    const move = (seq: number, to: OutboxState) => {
      if (to === 'sent') return out.markSent(seq);
      if (to === 'failed') return out.markFailed(seq, err);
      if (to === 'uncertain') return out.markUncertain(seq, err);
      if (to === 'blocked') return out.markBlocked(seq, err);
      if (to === 'queued') return out.get(seq)?.state === 'sending' ? out.retryLater(seq, 0, err) : out.requeue(seq);
      const claimed = out.claimNext(GLOBEX, t.clock.now());
      if (claimed?.seq !== seq) throw Object.assign(new Error('not claimable'), { code: 'BAD_TRANSITION' });
      return claimed;
    };
    for (const from of OUTBOX_STATES) {
      for (const to of OUTBOX_STATES) {
        if (to === from) continue;
        // Clear the lane so the item under test is its head.
        for (const i of out.list({ profileId: 'p1', accountId: GLOBEX.accountId })) {
          if (i.state === 'sending') out.markFailed(i.seq, err);
          out.remove(i.seq);
        }
        const seq = reach(from);
        const allowed = OUTBOX_TRANSITIONS[from].includes(to);
        if (allowed) expect(move(seq, to).state, `${from} -> ${to}`).toBe(to);
        else expect(() => move(seq, to), `${from} -> ${to}`).toThrow(expect.objectContaining({ code: 'BAD_TRANSITION' }));
      }
    }
  });

  it('marks items left "sending" by a crash as uncertain on recovery, never as queued', async () => {
    const out = t.store.outbox;
    const a = out.enqueue({ ...ACME, ...create('a') });
    out.claimNext(ACME, t.clock.now());
    const store = await t.reopen();
    expect(store.outbox.recoverInterrupted()).toBe(1);
    expect(store.outbox.get(a.seq)).toMatchObject({ state: 'uncertain', lastError: { code: 'INTERRUPTED' } });
    expect(store.outbox.claimNext(ACME, t.clock.now())).toBeUndefined();
    // Provably absent on the service: it may be sent again.
    store.outbox.requeue(a.seq);
    expect(store.outbox.claimNext(ACME, t.clock.now())?.seq).toBe(a.seq);
  });

  it('refuses work that does not fit its kind, and create_campaign without an account', () => {
    const out = t.store.outbox;
    expect(() => out.enqueue({ ...ACME, kind: 'create_campaign', payload: { clientRef: 'x', body: { name: 5 } } } as never)).toThrow(
      expect.objectContaining({ code: 'INVALID_INPUT' }),
    );
    expect(() => out.enqueue({ profileId: 'p1', ...create('a') })).toThrow(expect.objectContaining({ code: 'INVALID_INPUT' }));
    expect(() => out.enqueue({ profileId: 'p1', accountId: 'nosuchacct', ...create('a') })).toThrow(
      expect.objectContaining({ code: 'NOT_FOUND' }),
    );
  });

  it('quarantines a row that no longer parses, with the reason, and moves on to the next', () => {
    const out = t.store.outbox;
    const a = out.enqueue({ ...ACME, ...create('a') });
    const b = out.enqueue({ ...ACME, ...create('b') });
    const raw = new Database(t.file);
    raw.prepare("UPDATE outbox SET payload = json_set(payload, '$.body.bid_strategy', 12) WHERE seq = ?").run(a.seq);
    raw.close();
    const claimed = out.claimNext(ACME, t.clock.now());
    expect(claimed?.seq).toBe(b.seq);
    expect(out.get(a.seq)).toBeUndefined();
    const [q] = t.store.quarantine.list('p1');
    expect(q).toMatchObject({ source: 'outbox', sourceKey: String(a.seq) });
    expect(q.reason).toMatch(/body\.bid_strategy/);
    expect((q.row as { kind: string }).kind).toBe('create_campaign');
  });
});

describe('drafts and the outbox', () => {
  const draft = () =>
    t.store.drafts.save({ profileId: 'p1', accountId: 'acmeads', kind: 'campaign', payload: { name: 'Spring' }, problems: [] });

  it('submit writes the outbox row and marks the draft submitted in one transaction', () => {
    const d = draft();
    const { draft: after, item } = t.store.drafts.submit(d.id, create('Spring'));
    expect(after.state).toBe('submitted');
    expect(item).toMatchObject({ draftId: d.id, state: 'queued', accountId: 'acmeads' });
    expect(t.store.outbox.list()).toHaveLength(1);
  });

  it('a failing outbox insert rolls back the draft change made in the same transaction', () => {
    const d = draft();
    expect(() =>
      t.store.transaction(() => {
        t.store.drafts.save({ id: d.id, profileId: 'p1', accountId: 'acmeads', kind: 'campaign', payload: { name: 'Edited' } });
        // The account does not exist: the foreign key fails inside SQLite.
        t.store.outbox.enqueue({ profileId: 'p1', accountId: 'ghostads', draftId: d.id, ...create('Edited') });
      }),
    ).toThrow(expect.objectContaining({ code: 'NOT_FOUND' }));
    expect(t.store.drafts.get(d.id)).toMatchObject({ payload: { name: 'Spring' }, version: d.version });
    expect(t.store.outbox.list()).toEqual([]);
  });

  it('a failing submit leaves the draft editing and the outbox empty', () => {
    const d = draft();
    expect(() => t.store.drafts.submit(d.id, { kind: 'cancel_task', payload: { appId: '1', taskId: '2' } })).toThrow(
      expect.objectContaining({ code: 'INVALID_INPUT' }),
    );
    expect(() => t.store.drafts.submit(d.id, { kind: 'create_campaign', payload: { clientRef: '', body: {} } } as never)).toThrow(
      expect.objectContaining({ code: 'INVALID_INPUT' }),
    );
    expect(t.store.drafts.get(d.id)?.state).toBe('editing');
    expect(t.store.outbox.list()).toEqual([]);
  });

  it('refuses a second submit or an edit while the first is on its way (never posted twice)', () => {
    const d = draft();
    const { item } = t.store.drafts.submit(d.id, create('Spring'));
    expect(() => t.store.drafts.submit(d.id, create('Spring'))).toThrow(expect.objectContaining({ code: 'CONFLICT' }));
    expect(() => t.store.drafts.save({ id: d.id, profileId: 'p1', kind: 'campaign', payload: {} })).toThrow(
      expect.objectContaining({ code: 'CONFLICT' }),
    );
    // Blocked (needs a fix): the person edits and submits again; the blocked item is replaced.
    t.store.outbox.claimNext(ACME, t.clock.now());
    t.store.outbox.markBlocked(item.seq, { code: 'INVALID', message: 'fix me' });
    t.store.drafts.save({ id: d.id, profileId: 'p1', accountId: 'acmeads', kind: 'campaign', payload: { name: 'Fixed' } });
    const again = t.store.drafts.submit(d.id, create('Fixed'));
    expect(t.store.outbox.list().map((i) => i.seq)).toEqual([again.item.seq]);
  });

  it('detects a save based on an old version (another window saved in between)', () => {
    const d = draft();
    t.store.drafts.save({ id: d.id, profileId: 'p1', kind: 'campaign', payload: { name: 'A' }, expectedVersion: d.version });
    expect(() =>
      t.store.drafts.save({ id: d.id, profileId: 'p1', kind: 'campaign', payload: { name: 'B' }, expectedVersion: d.version }),
    ).toThrow(expect.objectContaining({ code: 'CONFLICT' }));
  });

  it('quarantines a draft whose payload is no longer a JSON object', () => {
    const d = draft();
    const raw = new Database(t.file);
    raw.prepare("UPDATE drafts SET payload = '[1,2]' WHERE id = ?").run(d.id);
    raw.close();
    expect(t.store.drafts.list('p1')).toEqual([]);
    expect(t.store.quarantine.list('p1')[0]).toMatchObject({ source: 'drafts', sourceKey: d.id });
  });
});
