// Model-based test of the item actions a person has (issue 14: one change, one item): new draft,
// edit, check, queue, take back, Fix (take back, edit, queue), Retry, discard, mixed with what the
// engine and the world do (the service refusing a change, losing its answer, failing with a 500,
// working offline, a restart), through the real core on a real SQLite file against the sandbox.
// After every step:
//   - never two live (unsent) outbox items for one draft;
//   - nothing unsent disappears: every change not discarded is in Drafts or posted on the service;
//   - a posted change has left Drafts, unless its answer is still being settled;
//   - no change is on the service twice.
// At the end, online and drained, each change not discarded is exactly one of: in Drafts (a draft,
// refused or blocked) or on the service once.
// The engine runs on its own timers, so a command does not predict the state it finds: it does
// what a person could do at that moment, and a refusal the app gives (queued already, being sent)
// is a legal answer. The invariants are what must hold whatever the timing.
// Time is virtual (a ManualClock the sandbox and the core share): waits and the drain advance it,
// so a run is bounded by its steps and virtual time, never by how busy the machine is.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Draft } from '../../../src/shared/ipc/contract';
import { graceFor, testVariants } from '../../helpers/variants';
import { advanceUntil, type Env, P, settleIo, startEnv } from '../../helpers/world';
import { campaignPayload, control, fault, sandboxCampaigns } from '../../helpers/sandbox';

/** Unlimited, and not enabled for display campaigns: the service refuses those. */
const ACCOUNT = 'oldtimerltd';
/** Virtual time a person waits for answers (Queue, then wait) and the final drain may take at most. */
const SETTLE_MS = 60_000;
const DRAIN_MS = 2 * 60 * 60 * 1000;

type Content = 'good' | 'display' | 'incomplete';
interface Change {
  name: string;
  id: string;
  discarded: boolean;
}
interface Model {
  changes: Change[];
  offline: boolean;
}
interface Real {
  env: Env;
  run: number;
}
type Cmd = fc.AsyncCommand<Model, Real>;

function payload(name: string, content: Content): Record<string, unknown> {
  if (content === 'display') return campaignPayload(name, { campaign_item_type: 'HAS_NO_ITEMS_DISPLAY' });
  if (content === 'incomplete') return campaignPayload(name, { cpc: undefined });
  return campaignPayload(name);
}

/** The app's own refusals a person can meet by clicking at a moment the engine has moved on. */
const LEGAL_REFUSALS = new Set(['conflict', 'not_found', 'validation', 'invalid_input']);
async function tolerate(p: Promise<unknown>): Promise<'ok' | 'refused'> {
  try {
    await p;
    return 'ok';
  } catch (e) {
    const code = (e as { code?: string }).code ?? '';
    if (LEGAL_REFUSALS.has(code)) return 'refused';
    throw e;
  }
}

const drafts = (r: Real) => r.env.core.handlers['drafts.list']({ profileId: P, accountId: ACCOUNT });
const findDraft = async (r: Real, c: Change): Promise<Draft | undefined> => (await drafts(r)).find((d) => d.id === c.id);

async function invariants(m: Model, r: Real): Promise<void> {
  const items = await r.env.core.handlers['outbox.list']({ profileId: P });
  const live = new Map<string, number>();
  for (const i of items) if (i.state !== 'sent' && i.draftId) live.set(i.draftId, (live.get(i.draftId) ?? 0) + 1);
  for (const [draftId, n] of live) expect(n, `draft ${draftId} has ${n} live items`).toBe(1);

  // The engine moves on while we look: the service is read before and after Drafts, so each
  // check compares observations in the order that makes a true state pass (posted before the list
  // was read: the list must show it on its way or gone; gone from the list: posted by the second read).
  const ours = async () => (await sandboxCampaigns(r.env.sandbox, ACCOUNT)).map((c) => c.name).filter((n) => n.startsWith(`IM${r.run} `));
  const before = await ours();
  const listed = new Map((await drafts(r)).map((d) => [d.id, d]));
  const after = await ours();
  expect(new Set(after).size, 'a change is on the service twice').toBe(after.length);
  for (const c of m.changes) {
    if (c.discarded) continue;
    const d = listed.get(c.id);
    expect(d !== undefined || after.includes(c.name), `${c.name} disappeared without being discarded`).toBe(true);
    // Posted and still listed only while its answer is being settled.
    if (d && before.includes(c.name))
      expect(['sending', 'uncertain'], `${c.name} is posted but still in Drafts as ${d.status}`).toContain(d.status);
  }
}

/** The change a command acts on: by index, among those not discarded; none when there is none. */
const pick = (m: Readonly<Model>, i: number): Change | undefined => {
  const open = m.changes.filter((c) => !c.discarded);
  return open.length === 0 ? undefined : open[i % open.length];
};

class NewDraft implements Cmd {
  constructor(readonly content: Content) {}
  check = () => true;
  async run(m: Model, r: Real) {
    const name = `IM${r.run} change ${m.changes.length}`;
    const d = await r.env.core.handlers['drafts.save']({
      kind: 'campaign',
      profileId: P,
      accountId: ACCOUNT,
      payload: payload(name, this.content),
    });
    m.changes.push({ name, id: d.id, discarded: false });
    await invariants(m, r);
  }
  toString = () => `new(${this.content})`;
}

class Edit implements Cmd {
  constructor(
    readonly i: number,
    readonly content: Content,
  ) {}
  check = (m: Readonly<Model>) => pick(m, this.i) !== undefined;
  async run(m: Model, r: Real) {
    const c = pick(m, this.i)!;
    // Refused while it is on its way (queued, sending, being looked for): a person must take it back
    // first; and once posted (or discarded) the draft is gone and a late save must not bring it back.
    await tolerate(
      r.env.core.handlers['drafts.save']({
        kind: 'campaign',
        id: c.id,
        profileId: P,
        accountId: ACCOUNT,
        payload: payload(c.name, this.content),
      }),
    );
    await invariants(m, r);
  }
  toString = () => `edit(${this.i}, ${this.content})`;
}

class Check implements Cmd {
  constructor(readonly i: number) {}
  check = (m: Readonly<Model>) => pick(m, this.i) !== undefined;
  async run(m: Model, r: Real) {
    const c = pick(m, this.i)!;
    const d = await findDraft(r, c);
    // What Check shows: an incomplete draft names its problem, a complete one none.
    if (d?.kind === 'campaign') expect(d.problems.length > 0, `${c.name}: problems shown`).toBe(d.payload.cpc === undefined);
    await invariants(m, r);
  }
  toString = () => `check(${this.i})`;
}

const onItsWay = async (r: Real) =>
  (await r.env.core.handlers['outbox.list']({})).some((i) => ['queued', 'sending', 'uncertain'].includes(i.state));

/** Waits (at most a minute of virtual time) until nothing is on its way: a refusal has come back, a post is done. */
async function settle(r: Real): Promise<void> {
  await advanceUntil(r.env, async () => !(await onItsWay(r)), 'the outbox settling', SETTLE_MS).catch(() => undefined);
}

class Queue implements Cmd {
  constructor(
    readonly i: number,
    readonly thenWait: boolean,
  ) {}
  check = (m: Readonly<Model>) => pick(m, this.i) !== undefined;
  async run(m: Model, r: Real) {
    const c = pick(m, this.i)!;
    await tolerate(r.env.core.handlers['drafts.submit']({ id: c.id }));
    if (this.thenWait && !m.offline) await settle(r);
    await invariants(m, r);
  }
  toString = () => `queue(${this.i}${this.thenWait ? ', then wait' : ''})`;
}

/** Take back (a queued one) or Fix (a refused or blocked one, then edited and queued again). */
class TakeBack implements Cmd {
  constructor(
    readonly i: number,
    readonly fixWith: Content | null,
  ) {}
  check = (m: Readonly<Model>) => pick(m, this.i) !== undefined;
  async run(m: Model, r: Real) {
    const c = pick(m, this.i)!;
    const h = r.env.core.handlers;
    const d = await findDraft(r, c);
    if (d?.item && (await tolerate(h['outbox.takeBack']({ id: d.item.id }))) === 'ok') {
      const back = await findDraft(r, c);
      expect(back?.status, `${c.name} taken back`).toBe('draft');
      expect(
        (await h['outbox.list']({ profileId: P })).some((i) => i.id === d.item!.id),
        'the taken-back item left the outbox',
      ).toBe(false);
      if (this.fixWith) {
        await h['drafts.save']({ kind: 'campaign', id: c.id, profileId: P, accountId: ACCOUNT, payload: payload(c.name, this.fixWith) });
        await tolerate(h['drafts.submit']({ id: c.id }));
      }
    }
    await invariants(m, r);
  }
  toString = () => (this.fixWith ? `fix(${this.i}, ${this.fixWith})` : `takeBack(${this.i})`);
}

class Retry implements Cmd {
  constructor(readonly i: number) {}
  check = (m: Readonly<Model>) => pick(m, this.i) !== undefined;
  async run(m: Model, r: Real) {
    const c = pick(m, this.i)!;
    const d = await findDraft(r, c);
    if (d?.item) await tolerate(r.env.core.handlers['outbox.retry']({ id: d.item.id }));
    await invariants(m, r);
  }
  toString = () => `retry(${this.i})`;
}

class Discard implements Cmd {
  constructor(readonly i: number) {}
  check = (m: Readonly<Model>) => pick(m, this.i) !== undefined;
  async run(m: Model, r: Real) {
    const c = pick(m, this.i)!;
    const h = r.env.core.handlers;
    const d = await findDraft(r, c);
    // With an item: discard it in the Outbox (its draft goes too); without: delete the draft.
    const done = d?.item
      ? await tolerate(h['outbox.discard']({ id: d.item.id }))
      : d
        ? await tolerate(h['drafts.delete']({ id: c.id }))
        : 'refused';
    if (done === 'ok') {
      c.discarded = true;
      expect(await findDraft(r, c), `${c.name} discarded but still in Drafts`).toBeUndefined();
    }
    await invariants(m, r);
  }
  toString = () => `discard(${this.i})`;
}

class WorkOffline implements Cmd {
  constructor(readonly on: boolean) {}
  check = (m: Readonly<Model>) => m.offline !== this.on;
  async run(m: Model, r: Real) {
    await r.env.core.handlers['profiles.setWorkOffline']({ profileId: P, offline: this.on });
    m.offline = this.on;
    await invariants(m, r);
  }
  toString = () => `workOffline(${this.on})`;
}

class ServerFault implements Cmd {
  constructor(readonly mode: 'status_500' | 'close_after' | 'close_before') {}
  check = () => true;
  async run(m: Model, r: Real) {
    await fault(r.env.sandbox, { method: 'POST', path_prefix: '/core/api/', mode: this.mode, count: 1 });
    await invariants(m, r);
  }
  toString = () => `fault(${this.mode})`;
}

class Restart implements Cmd {
  check = () => true;
  async run(m: Model, r: Real) {
    await r.env.core.close();
    await r.env.restart();
    await invariants(m, r);
  }
  toString = () => 'restart';
}

class Wait implements Cmd {
  constructor(readonly ms: number) {}
  check = () => true;
  async run(m: Model, r: Real) {
    r.env.sandbox.advance(this.ms);
    await settleIo(r.env);
    await invariants(m, r);
  }
  toString = () => `wait(${this.ms})`;
}

/** The person waits until nothing is on its way. */
class Settle implements Cmd {
  check = (m: Readonly<Model>) => !m.offline;
  async run(m: Model, r: Real) {
    await settle(r);
    await invariants(m, r);
  }
  toString = () => 'settle';
}

const content = fc.constantFrom<Content>('good', 'display', 'display', 'incomplete');
const index = fc.nat({ max: 3 });
// Weighted by repetition towards what makes items meet: queueing, editing and waiting for an answer.
const commands = [
  content.map((c) => new NewDraft(c)),
  content.map((c) => new NewDraft(c)),
  fc.tuple(index, content).map(([i, c]) => new Edit(i, c)),
  index.map((i) => new Check(i)),
  fc.tuple(index, fc.boolean()).map(([i, w]) => new Queue(i, w)),
  fc.tuple(index, fc.boolean()).map(([i, w]) => new Queue(i, w)),
  fc.tuple(index, fc.boolean()).map(([i, w]) => new Queue(i, w)),
  fc.tuple(index, content).map(([i, c]) => new Edit(i, c)),
  fc.tuple(index, fc.option(content, { nil: null })).map(([i, c]) => new TakeBack(i, c)),
  index.map((i) => new Retry(i)),
  index.map((i) => new Discard(i)),
  fc.boolean().map((on) => new WorkOffline(on)),
  fc.constantFrom('status_500' as const, 'close_after' as const, 'close_before' as const).map((mode) => new ServerFault(mode)),
  fc.constant(new Restart()),
  fc.integer({ min: 0, max: 30_000 }).map((ms) => new Wait(ms)),
  fc.constant(new Settle()),
];

describe('the item actions, modelled', () => {
  it('never two live items for one draft, and nothing unsent disappears without a discard', async () => {
    let run = 0;
    await fc.assert(
      fc.asyncProperty(fc.commands(commands, { maxCommands: 16 }), async (cmds) => {
        run++;
        // A service that applies lost writes late (late_apply_ms, in the mixed variants, on the same
        // virtual clock) is given the grace to do so, as in the engine's own model test.
        const env = await startEnv({ clock: 'manual', tuning: { maxServerAttempts: 100, uncertainGraceMs: graceFor(testVariants()) } });
        const real: Real = { env, run };
        const model: Model = { changes: [], offline: false };
        try {
          await fc.asyncModelRun(() => ({ model, real }), cmds);
          await control(env.sandbox, 'DELETE', '/_sandbox/faults');
          await env.core.handlers['profiles.setWorkOffline']({ profileId: P, offline: false });
          // Drained: nothing on its way any more (refused and blocked ones wait for the person).
          await advanceUntil(env, async () => !(await onItsWay(real)), 'the outbox draining', DRAIN_MS);
          await invariants(model, real);
          const listed = new Map((await drafts(real)).map((d) => [d.id, d]));
          const onService = (await sandboxCampaigns(env.sandbox, ACCOUNT)).map((c) => c.name);
          for (const c of model.changes.filter((x) => !x.discarded)) {
            const d = listed.get(c.id);
            const posted = onService.filter((n) => n === c.name).length;
            // Exactly one place: waiting for the person in Drafts, or posted once.
            expect([d ? 'drafts' : null, posted === 1 ? 'service' : null].filter(Boolean), c.name).toHaveLength(1);
            if (d) expect(['draft', 'failed', 'blocked'], c.name).toContain(d.status);
          }
        } finally {
          await control(env.sandbox, 'DELETE', '/_sandbox/faults');
          await env.close();
        }
      }),
      { numRuns: 40 },
    );
    // Bounded by its runs and virtual time; the wall-clock limit is only a net for a run that hangs.
  }, 600_000);
});
