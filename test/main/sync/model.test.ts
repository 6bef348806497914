// Model-based test of the outbox: random sequences of edits, going offline (working offline, or
// the service unreachable), going online, quitting and starting again, and server faults (500,
// answers lost before or after the change was applied). A real crash (SIGKILL mid-send) is
// crash.test.ts's subject; here the app quits normally, with changes queued or in doubt. After every step no edit is on the service
// twice; at the end, once online and drained, the service holds exactly the edits of the model.
// Time is virtual (a ManualClock the sandbox and the core share): a wait between steps and the final
// drain advance it, so a run is bounded by its steps and virtual time, not by how busy the machine is.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { advanceUntil, type Env, settleIo, startEnv } from '../../helpers/world';
import { campaignPayload, control, fault, sandboxCampaigns } from '../../helpers/sandbox';
import { graceFor, testVariants } from '../../helpers/variants';

const P = 'sandbox-demo';
const ACCOUNTS = ['oldtimerltd', 'suntrailtravel'] as const;
/** Once online, every edit is sent within this much virtual time (retries back off to minutes). */
const DRAIN_BOUND_MS = 2 * 60 * 60 * 1000;

interface Model {
  names: string[];
  workOffline: boolean;
  serviceDown: boolean;
}
interface Real {
  env: Env;
  run: number;
}
type Cmd = fc.AsyncCommand<Model, Real>;

async function onService(r: Real): Promise<string[]> {
  const all = await Promise.all(ACCOUNTS.map((a) => sandboxCampaigns(r.env.sandbox, a)));
  return all
    .flat()
    .map((c) => c.name)
    .filter((n) => n.startsWith(`MB${r.run} `));
}

async function noDuplicates(m: Model, r: Real): Promise<void> {
  const names = await onService(r);
  expect(new Set(names).size, 'an edit is on the service twice').toBe(names.length);
  for (const n of names) expect(m.names, 'the service holds an edit nobody made').toContain(n);
}

class Edit implements Cmd {
  constructor(readonly account: (typeof ACCOUNTS)[number]) {}
  check = () => true;
  async run(m: Model, r: Real) {
    const name = `MB${r.run} edit ${m.names.length}`;
    const h = r.env.core.handlers;
    const d = await h['drafts.save']({ kind: 'campaign', profileId: P, accountId: this.account, payload: campaignPayload(name) });
    await h['drafts.submit']({ id: d.id });
    m.names.push(name);
    await noDuplicates(m, r);
  }
  toString = () => `edit(${this.account})`;
}

class WorkOffline implements Cmd {
  constructor(readonly on: boolean) {}
  check = (m: Readonly<Model>) => m.workOffline !== this.on;
  async run(m: Model, r: Real) {
    await r.env.core.handlers['profiles.setWorkOffline']({ profileId: P, offline: this.on });
    m.workOffline = this.on;
    await noDuplicates(m, r);
  }
  toString = () => `workOffline(${this.on})`;
}

class ServiceReachable implements Cmd {
  constructor(readonly up: boolean) {}
  check = (m: Readonly<Model>) => m.serviceDown === this.up;
  async run(m: Model, r: Real) {
    if (this.up) await r.env.proxy!.up();
    else await r.env.proxy!.down();
    m.serviceDown = !this.up;
    await noDuplicates(m, r);
  }
  toString = () => (this.up ? 'serviceUp' : 'serviceDown');
}

/** The person quits the app (a normal close: requests on the wire finish) and starts it again. */
class QuitAndRestart implements Cmd {
  check = () => true;
  async run(m: Model, r: Real) {
    await r.env.core.close();
    await r.env.restart();
    await noDuplicates(m, r);
  }
  toString = () => 'quitAndRestart';
}

class ServerFault implements Cmd {
  constructor(
    readonly mode: 'status_500' | 'close_after' | 'close_before',
    readonly count: number,
  ) {}
  check = () => true;
  async run(m: Model, r: Real) {
    await fault(r.env.sandbox, { method: 'POST', path_prefix: '/core/api/', mode: this.mode, count: this.count });
    await noDuplicates(m, r);
  }
  toString = () => `fault(${this.mode} x${this.count})`;
}

/**
 * Lets the engine run for a while between two steps (virtual time: retries, grace periods and
 * look-ups fall due), so that steps also land mid-send, mid-retry or mid-look-up. Not a wait for a
 * result: what is checked after it holds at any moment.
 */
class Wait implements Cmd {
  constructor(readonly ms: number) {}
  check = () => true;
  async run(m: Model, r: Real) {
    r.env.sandbox.advance(this.ms);
    await settleIo(r.env);
    await noDuplicates(m, r);
  }
  toString = () => `wait(${this.ms})`;
}

const commands = [
  fc.constantFrom(...ACCOUNTS).map((a) => new Edit(a)),
  fc.constantFrom(...ACCOUNTS).map((a) => new Edit(a)),
  fc.boolean().map((on) => new WorkOffline(on)),
  fc.boolean().map((up) => new ServiceReachable(up)),
  fc.constant(new QuitAndRestart()),
  fc
    .tuple(fc.constantFrom('status_500' as const, 'close_after' as const, 'close_before' as const), fc.integer({ min: 1, max: 2 }))
    .map(([mode, n]) => new ServerFault(mode, n)),
  fc.integer({ min: 0, max: 120_000 }).map((ms) => new Wait(ms)),
];

describe('outbox model', () => {
  it('after any sequence of edits, outages, restarts and faults, the service holds each edit exactly once', async () => {
    let run = 0;
    await fc.assert(
      fc.asyncProperty(fc.commands(commands, { maxCommands: 14 }), async (cmds) => {
        run++;
        // A service that applies lost writes late (late_apply_ms, on the same virtual clock) is given the time to do so.
        const env = await startEnv({
          clock: 'manual',
          proxy: true,
          tuning: { maxServerAttempts: 100, uncertainGraceMs: graceFor(testVariants()) },
        });
        const real: Real = { env, run };
        const model: Model = { names: [], workOffline: false, serviceDown: false };
        try {
          await fc.asyncModelRun(() => ({ model, real }), cmds);
          // Online again, and everything drains.
          if (model.serviceDown) await env.proxy!.up();
          await env.core.handlers['profiles.setWorkOffline']({ profileId: P, offline: false });
          await advanceUntil(
            env,
            async () => (await env.core.handlers['outbox.list']({})).every((i) => i.state === 'sent'),
            'the outbox draining',
            DRAIN_BOUND_MS,
          );
          const names = await onService(real);
          expect([...names].sort()).toEqual([...model.names].sort());
        } finally {
          await control(env.sandbox, 'DELETE', '/_sandbox/faults');
          await env.close();
        }
      }),
      { numRuns: 50 },
    );
    // Bounded by its fifty runs; the time limit is only a net for a run that hangs, wide enough
    // for a machine busy with other work (two CI runs here hit 90 s at load 5-8).
  }, 600_000);
});
