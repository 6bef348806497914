// Crash safety of the outbox: a child process drains 50 edits (campaign creates in two accounts
// and pushes) against a sandbox that lives in this process, and is killed with SIGKILL at random
// moments, then started again, until it has drained. Every edit must be on the service exactly
// once and the database must pass its integrity check.
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDeskCore } from '../../../src/main/app/create-core';
import { DATABASE_FILE } from '../../../src/main/app/create-core';
import { openStore } from '../../../src/main/store';
import { startSandbox, type RunningSandbox } from '../../../src/sandbox/index';
import { testVariants } from '../../helpers/variants';
import { campaignPayload, control, fault, sandboxCampaigns } from '../../helpers/sandbox';
import { memorySecrets } from '../../helpers/world';

const P = 'sandbox-demo';
// Both created before 2026-10-04, so not rate limited: the kills, not the budgets, set the pace.
const ACCOUNTS = ['oldtimerltd', 'suntrailtravel'] as const;
const CHILD = join(__dirname, 'fixtures', 'drain-child.ts');
const MIN_KILLS = 20;

function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = Math.imul(a ^ (a >>> 15), a | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

let sandbox: RunningSandbox;
let dataDir: string;
const campaignNames: Record<string, string[]> = { oldtimerltd: [], suntrailtravel: [] };
const pushTitles: { title: string; app: string }[] = [];

beforeAll(async () => {
  sandbox = await startSandbox({ port: 0, variants: testVariants() });
  dataDir = mkdtempSync(join(tmpdir(), 'desk-crash-'));
  // Queue the 50 edits while working offline, so nothing is sent before the child runs.
  const core = await createDeskCore({
    dataDir,
    transport: 'browser',
    version: 'crash-setup',
    demo: { url: sandbox.url },
    secrets: await memorySecrets(),
    tuning: { refreshOnStart: false },
  });
  const h = core.handlers;
  await h['profiles.setWorkOffline']({ profileId: P, offline: true });
  for (let i = 0; i < 50; i++) {
    const accountId = ACCOUNTS[i % 2];
    if (i % 5 === 4) {
      const app = i % 10 === 4 ? '1001' : '1002';
      const title = `Crash push ${i}`;
      const scheduled = i % 3 === 0;
      const event = {
        title,
        url: `https://news.example.com/${i}`,
        performer: 'crash@example.com',
        target: { include: { apps: [app] } },
        ...(scheduled ? { executionTime: Date.now() + 86_400_000 + i } : {}),
      };
      const d = await h['drafts.save']({
        kind: 'push',
        profileId: P,
        accountId,
        payload: { mode: scheduled ? 'scheduled' : 'immediate', event },
      });
      await h['drafts.submit']({ id: d.id });
      pushTitles.push({ title, app });
    } else {
      const name = `Crash edit ${i} of ${accountId}`;
      const d = await h['drafts.save']({
        kind: 'campaign',
        profileId: P,
        accountId,
        payload: campaignPayload(name, { branding_text: accountId }),
      });
      await h['drafts.submit']({ id: d.id });
      campaignNames[accountId].push(name);
    }
  }
  await core.close();
  // Every write waits a little on the service before it is applied, so kills often land while
  // a request is in flight (the sandbox applies it even after the client has died).
  await fault(sandbox, { method: 'POST', path_prefix: '/', mode: 'delay', delay_ms: 100, count: 100_000 });
});

afterAll(async () => {
  await sandbox?.close();
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
});

interface Run {
  drained: boolean;
  killed: boolean;
  stderr: string;
}

/**
 * Runs the child once. `kill` says when to SIGKILL it: `after` ms from spawn (start-up and
 * recovery), `online` ms after it says the drain has begun, or never (it must drain). Measuring
 * from the child's own signal keeps the kills inside the drain on a slow, loaded machine too.
 */
type Kill = { from: 'spawn' | 'online'; ms: number } | null;

function runChild(kill: Kill): Promise<Run> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ['--import', 'tsx', CHILD, dataDir, sandbox.url], { stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let stderr = '';
    let killed = false;
    let timer: NodeJS.Timeout | undefined;
    const killIn = (ms: number) => {
      timer = setTimeout(() => {
        killed = true;
        child.kill('SIGKILL');
      }, ms);
    };
    // A child that never finishes is killed and reported as not drained.
    const watchdog = setTimeout(() => child.kill('SIGKILL'), 60_000);
    if (kill?.from === 'spawn') killIn(kill.ms);
    child.stdout.on('data', (c: Buffer) => {
      const before = out;
      out += c.toString();
      if (kill?.from === 'online' && !before.includes('ONLINE') && out.includes('ONLINE')) killIn(kill.ms);
    });
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
    child.on('exit', () => {
      clearTimeout(timer);
      clearTimeout(watchdog);
      resolve({ drained: out.includes('DRAINED'), killed, stderr });
    });
  });
}

/** Outbox states as the killed child left them (read between runs, before recovery). */
function outboxStates(): { sent: number; sending: number } {
  const store = openStore({ file: join(dataDir, DATABASE_FILE) });
  try {
    const items = store.outbox.list();
    return { sent: items.filter((i) => i.state === 'sent').length, sending: items.filter((i) => i.state === 'sending').length };
  } finally {
    store.close();
  }
}

describe('outbox crash safety', () => {
  it(`survives ${MIN_KILLS}+ SIGKILLs while draining 50 edits: each edit on the service exactly once`, async () => {
    const seed = Date.now() % 100_000;
    const random = prng(seed);
    let kills = 0;
    let midDrain = 0;
    let inFlight = 0;
    let drained = false;
    let sent = 0;
    // How long after "drain has begun" a kill may land. It adapts to the pace this machine
    // drains at, so that the 50 edits last for all the kills: the accounts drain side by side, and
    // with a fixed window a quick machine could empty the outbox after 19 kills (no later run can
    // then be killed mid-drain), a slow one could see no edit finish before its kill.
    let window = 700;
    for (let trial = 0; trial < 60 && !drained; trial++) {
      // Kill at random moments: one run in five during start-up and recovery, the others during
      // the drain; after enough kills, let it finish. When no more edits are left than kills to
      // come, the kills land in start-up and recovery only: a drain that went faster than the
      // window foresaw must not empty the outbox before the last kill.
      const startUpOnly = 50 - sent <= MIN_KILLS - kills;
      const kill: Kill =
        kills >= MIN_KILLS
          ? null
          : startUpOnly || random() < 0.2
            ? { from: 'spawn', ms: Math.floor(random() * (startUpOnly ? 300 : 800)) }
            : { from: 'online', ms: Math.floor(random() * window) };
      const run = await runChild(kill);
      if (run.stderr.includes('drain-child failed')) throw new Error(`seed ${seed}: ${run.stderr}`);
      if (run.killed && !run.drained) {
        kills++;
        const states = outboxStates();
        if (kill?.from === 'online') {
          const budget = (50 - sent) / Math.max(1, MIN_KILLS - kills + 1);
          const progress = states.sent - sent;
          if (progress > budget) window = Math.max(100, window * 0.7);
          else if (progress === 0) window = Math.min(2000, window * 1.25);
        }
        sent = states.sent;
        if (states.sent > 0 && states.sent < 50) midDrain++;
        if (states.sending > 0) inFlight++;
      }
      drained = run.drained && kills >= MIN_KILLS;
    }
    console.log(`crash test seed ${seed}: ${kills} kills, ${midDrain} mid-drain, ${inFlight} with a request in flight`);
    expect(kills, `seed ${seed}`).toBeGreaterThanOrEqual(MIN_KILLS);
    expect(drained, `seed ${seed}`).toBe(true);
    // The kills must have hit the interesting moments: during the drain, and with a request out.
    expect(midDrain, `seed ${seed}`).toBeGreaterThanOrEqual(5);
    expect(inFlight, `seed ${seed}`).toBeGreaterThanOrEqual(2);

    for (const accountId of ACCOUNTS) {
      const onService = (await sandboxCampaigns(sandbox, accountId)).map((c) => c.name).filter((n) => n.startsWith('Crash edit'));
      expect([...onService].sort(), `seed ${seed}: ${accountId}`).toEqual([...campaignNames[accountId]].sort());
    }
    const tasks = ((await control(sandbox, 'GET', '/_sandbox/state/tasks')) as { tasks: { title: string; tagId: number }[] }).tasks.filter(
      (t) => t.title.startsWith('Crash push'),
    );
    expect(tasks.map((t) => `${t.title}@${t.tagId}`).sort(), `seed ${seed}`).toEqual(pushTitles.map((p) => `${p.title}@${p.app}`).sort());

    const store = openStore({ file: join(dataDir, DATABASE_FILE) });
    try {
      expect(store.integrityCheck()).toEqual(['ok']);
      const items = store.outbox.list();
      expect(items).toHaveLength(50);
      expect(items.every((i) => i.state === 'sent')).toBe(true);
    } finally {
      store.close();
    }
  }, 300_000);
});
