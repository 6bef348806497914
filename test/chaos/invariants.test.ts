// The invariant suite (issue #25, "Invariants, checked over many seeds"), in the style of
// simulation testing: for each seed, the sandbox plays the service chaos picks from that seed
// (src/sandbox/chaos.ts), and the real core (createDeskCore, a real SQLite file, real HTTP on
// 127.0.0.1) is driven through a script of what a person does, drawn from the same seed: campaign
// creates, immediate and scheduled pushes, task updates and cancels, refreshes, answers lost after
// the service applied the change, outages, server errors (500), restarts of the core on the same
// data, time passing.
// Then the outbox is drained to quiet on virtual time, and these must hold:
//   (a) every change the person queued is on the service exactly once, or shown as failed/blocked
//       with words saying why (and then it is not on the service);
//   (b) no change is acted on against the wrong record: a cancel cancels its task and no other, an
//       update changes only its task, a posted change names the service's record;
//   (c) after a completed refresh the cache equals the service's listing of the account;
//   (d) no change waits longer than the bound stated here: a lost answer is decided within
//       DECISION_BOUND_MS, and everything settles within QUIET_BOUND_MS once the service answers;
//   (e) nothing is lost across a restart: every change queued before it is still in the outbox.
// Everything is seeded (the service's picks and per-request choices, the script, the client's
// jitter) and time is a ManualClock: the test is bounded by steps and virtual time, never by the
// wall clock. A failing seed prints itself and the command that replays it.
//
// Seeds: CI runs CI_SEEDS. `CHAOS_SEED=N` runs that seed (`N,M,...` several, `N-M` a range),
// `CHAOS_SEED=random` one random seed, `CHAOS_SEEDS=N` N random seeds (a longer run started by
// hand; the seeds are printed). `CHAOS_VERBOSE=1` prints each seed's script and outcome.
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { Choices } from '../../src/sandbox/choices';
import { demoFixtures, type Fixtures, type Variants } from '../../src/sandbox/index';
import { mulberry32 } from '../../src/sandbox/random';
import type { PushEvent } from '../../src/shared/domain/push';
import type { OutboxItem } from '../../src/shared/ipc/contract';
import { POSTED_ID_UNKNOWN_CODE } from '../../src/shared/domain/outbox';
import { type Env, startEnv } from '../helpers/world';
import { call, campaignPayload, control, fault, requestLog, tasksOnService } from '../helpers/sandbox';

/**
 * Seeds CI runs: chosen for what their services play (small pages, late applies, push tiers, clock
 * offsets both ways, both window models; 101: lost creates looked for on pages of 1-3 rows with
 * churn and 5xx, one on a rate-limited account; 391: an outage met by a restart; 1550941841: a lost
 * scheduled push and its repeat on a service that writes task times only as wall times without an
 * offset; 1152249674: a restart while a look-up waits for a Retry-After, answers cut above 9 rows
 * with 5xx now and then; 1051283740: a lost create looked for newest first on a service that cuts
 * answers above 13 rows; 2138484777: a create lost to a 502 on a rate-limited account whose
 * listing is one row a page in a moving order, no sort accepted, rows filtered after paging: no
 * look-up proves it absent within the hour, so it is parked at the lane bound and the person
 * decides; 773999938: creates answered 202 without a body, looked for newest first on pages
 * of 9 filtered after paging, with new ids below older ones). A seed that fails is replayed and
 * fixed, never loosened.
 */
const CI_SEEDS = [4, 5, 9, 13, 14, 27, 29, 31, 35, 39, 43, 49, 51, 58, 101, 391, 1550941841, 1152249674, 1051283740, 2138484777, 773999938];

const P = 'sandbox-demo';
const T0 = Date.parse('2026-11-21T09:00:00Z');
const SECOND = 1_000;
const MINUTE = 60 * SECOND;
const HOUR = 60 * MINUTE;
/** Campaign accounts the person works in: one unlimited, one limited, one more unlimited. */
const ACCOUNTS = ['oldtimerltd', 'acmeshoes', 'suntrailtravel'] as const;
/** The account whose lane carries the push work (the push API names no account). */
const PUSH_ACCOUNT = 'oldtimerltd';
/** The apps the demo client may send to. */
const APPS = ['1001', '1002', '1004'] as const;
const STEPS = 24;
/** A lost answer is decided (found, or sent again) within this much virtual time. */
const DECISION_BOUND_MS = HOUR;
/**
 * The same on a push API that allows 50 or 10 reads an hour (tiers 5 and 6): deciding takes a few
 * reads of each target app, which such a budget spreads over hours when other work reads too.
 */
const SLOW_READS_DECISION_BOUND_MS = 3 * HOUR;
const decisionBound = (r: Run): number =>
  (r.env.sandbox.variants().push_tier ?? 0) >= 5 ? SLOW_READS_DECISION_BOUND_MS : DECISION_BOUND_MS;
/** The person answers a change the app put to them (parked) after this much virtual time. */
const PERSON_ANSWERS_AFTER_MS = 30 * MINUTE;
/** Once the faults stop, every change settles within this much virtual time. */
const QUIET_BOUND_MS = 8 * HOUR;
/** Clock moves while draining, at most: bounds the test's work, not its time. */
const MAX_ADVANCES = 3000;

function seedsToRun(): number[] {
  const one = process.env.CHAOS_SEED;
  const many = process.env.CHAOS_SEEDS;
  const random = () => Math.floor(Math.random() * 2 ** 31);
  if (one === 'random') return [random()];
  const range = /^(\d+)-(\d+)$/.exec(one ?? '');
  if (range) return Array.from({ length: Number(range[2]) - Number(range[1]) + 1 }, (_, i) => Number(range[1]) + i);
  if (one !== undefined && one !== '') return one.split(',').map(Number);
  if (many !== undefined && many !== '') return Array.from({ length: Number(many) }, random);
  return CI_SEEDS;
}

/** What the person queued, and what the service must show for it. */
type Change =
  | { kind: 'create'; itemId: string; account: string; name: string }
  | { kind: 'push'; itemId: string; app: string; title: string; url: string; scheduled: boolean; event: PushEvent }
  | { kind: 'update'; itemId: string; taskId: string; title: string }
  | { kind: 'cancel'; itemId: string; taskId: string };

interface Run {
  seed: number;
  env: Env;
  script: Choices;
  changes: Change[];
  /** Why each invariant failed, as a person would read it. */
  violations: string[];
  /** What the run showed that no invariant forbids but a person would want to know (printed). */
  notes: string[];
  /** For (d): since when each item has been uncertain without asking the person (virtual ms). */
  uncertainSince: Map<string, number>;
  /** Since when each item has been parked for the person (virtual ms). */
  parkedSince: Map<string, number>;
  /** The newest request log entry seen, for the quiet check. */
  seq: number;
  /** The task ids of the world at start, with their titles and states, for (b). */
  tasksAtStart: Map<string, { title: string; status: string }>;
  /** Restarts so far (named in (e)'s words). */
  restarts: number;
  /** How often the run waited for I/O to settle (what its wall time goes to). */
  settles: number;
}

const FINAL = new Set(['sent', 'failed', 'blocked']);
const LEGAL_REFUSALS = new Set(['conflict', 'not_found', 'validation', 'invalid_input', 'offline']);

function fixtures(): Fixtures {
  return { ...demoFixtures(T0), now: new Date(T0).toISOString() };
}

const now = (r: Run) => r.env.clock!.now();
/** Text as a service may store it (DECISIONS client 16): NFC, whitespace collapsed, trimmed. */
const sameText = (a: string, b: string) => {
  const norm = (s: string) => s.normalize('NFC').replace(/\s+/g, ' ').trim();
  return norm(a) === norm(b);
};
const outbox = (r: Run) => r.env.core.handlers['outbox.list']({ profileId: P });

/** A handler call the app may refuse at once (the person is told then); anything else is a bug. */
async function tolerate<T>(p: Promise<T>): Promise<T | undefined> {
  try {
    return await p;
  } catch (e) {
    if (LEGAL_REFUSALS.has((e as { code?: string }).code ?? '')) return undefined;
    throw e;
  }
}

/**
 * Lets real I/O finish without moving virtual time: until the service saw no new request, the
 * core emitted no event and the next timer stayed put for a few polls. Not a wait for a result:
 * the invariants hold whatever the timing; this keeps a seed's run close to its replay.
 */
async function settle(r: Run): Promise<void> {
  r.settles++;
  let last = '';
  for (let same = 0, i = 0; same < 5 && i < 1000; i++) {
    await new Promise((res) => setTimeout(res, 1));
    r.seq = r.env.sandbox.lastRequestSeq();
    const sig = `${r.seq}/${r.env.events.length}/${r.env.clock!.nextTimerAt() ?? '-'}`;
    same = sig === last ? same + 1 : 0;
    last = sig;
  }
  await watchDecisions(r);
}

/** (d): an uncertain item (not one put to the person) must be decided within DECISION_BOUND_MS. */
async function watchDecisions(r: Run): Promise<void> {
  for (const item of await outbox(r)) {
    // A create the service took without naming it is decided (it arrived, and is never sent again);
    // only its id is still looked for, aside from its lane, within POSTED_ID_SEARCH_MS and the quiet bound.
    const deciding = item.state === 'uncertain' && item.lastError?.code !== 'AMBIGUOUS' && item.lastError?.code !== POSTED_ID_UNKNOWN_CODE;
    if (!deciding) {
      r.uncertainSince.delete(item.id);
      r.parkedSince.delete(item.id);
      continue;
    }
    await personAnswers(r, item);
    const since = r.uncertainSince.get(item.id) ?? now(r);
    r.uncertainSince.set(item.id, since);
    const bound = decisionBound(r);
    if (now(r) - since > bound) {
      r.violations.push(
        `(d) ${describeItem(item)} has waited ${Math.round((now(r) - since) / MINUTE)} min for its lost answer to be decided (bound ${bound / MINUTE} min)`,
      );
      r.uncertainSince.set(item.id, now(r) + 100 * HOUR); // said once
    }
  }
}

/**
 * The person, asked about a create whose lost answer the app could not decide (PARKED: "Check the
 * account on the service: if it is not there, send it again"), does what the words say once
 * PERSON_ANSWERS_AFTER_MS have passed: looks at the account on the service and, finding no campaign
 * of that name, sends it again. One it finds there is left to the app, which must find it itself
 * within the bound. On a service whose listing never holds still long enough to prove a create
 * absent (one row a page at 150 reads an hour while other users change the account), only the
 * person can decide; the app must have asked them, and their answer must settle the change.
 */
async function personAnswers(r: Run, item: OutboxItem): Promise<void> {
  if (item.lastError?.code !== 'PARKED') {
    r.parkedSince.delete(item.id);
    return;
  }
  const since = r.parkedSince.get(item.id) ?? now(r);
  r.parkedSince.set(item.id, since);
  const change = r.changes.find((c) => c.itemId === item.id);
  if (now(r) - since < PERSON_ANSWERS_AFTER_MS || change?.kind !== 'create') return;
  const held = (
    (await control(r.env.sandbox, 'GET', `/_sandbox/state/campaigns?account=${change.account}`)) as { campaigns: { name: string }[] }
  ).campaigns;
  if (held.some((c) => sameText(c.name, change.name))) return;
  // Posted, then deleted by another user: the person would see it in the account's history, not send it again.
  const gone = (
    (await control(r.env.sandbox, 'GET', `/_sandbox/state/deleted-by-others?account=${change.account}`)) as {
      campaigns: { name: string }[];
    }
  ).campaigns;
  if (gone.some((c) => sameText(c.name, change.name))) return;
  r.parkedSince.delete(item.id);
  await r.env.core.handlers['outbox.sendAgain']({ id: item.id });
  r.notes.push(`the person sent "${change.name}" again after ${Math.round((now(r) - since) / MINUTE)} min parked (not on the service)`);
}

const describeItem = (i: OutboxItem) =>
  `${i.kind} "${i.summary}" (${i.state}${i.lastError ? `: ${i.lastError.code} ${i.lastError.message}` : ''})`;

async function advance(r: Run, ms: number): Promise<void> {
  r.env.sandbox.advance(ms);
  await settle(r);
}

// ---- What the person does --------------------------------------------------------------------

async function createCampaign(r: Run): Promise<void> {
  const account = r.script.pick(ACCOUNTS);
  // Two spaces and a decomposed "é": what a service that normalises text stores differently.
  const name = `Chaos ${r.seed}  create ${r.changes.length} cafe\u0301`;
  const h = r.env.core.handlers;
  const d = await h['drafts.save']({
    kind: 'campaign',
    profileId: P,
    accountId: account,
    payload: campaignPayload(name, { cpc: r.script.int(10, 99) / 100 }),
  });
  const item = await tolerate(h['drafts.submit']({ id: d.id }));
  if (item) r.changes.push({ kind: 'create', itemId: item.id, account, name });
}

async function sendPush(r: Run, scheduled: boolean): Promise<void> {
  const app = r.script.pick(APPS);
  const title = `Chaos ${r.seed} push ${r.changes.length}`;
  // A person picks the time on the computer's clock; the service may be minutes off (clock_offset_ms).
  const at = Math.round((now(r) + r.script.int(20, 180) * MINUTE) / MINUTE) * MINUTE;
  // The address tells the push's task apart on the service: an update may change its title.
  const url = `https://example.com/chaos/${r.seed}/${r.changes.length}`;
  const event: PushEvent = {
    title,
    url,
    performer: 'chaos@example.com',
    target: { include: { apps: [app] } },
    ...(scheduled ? { executionTime: at, userTimeZone: 0 } : {}),
  };
  await queuePush(r, { app, title, url, scheduled, event });
}

async function queuePush(r: Run, push: Omit<Extract<Change, { kind: 'push' }>, 'kind' | 'itemId'>): Promise<void> {
  const h = r.env.core.handlers;
  const d = await h['drafts.save']({
    kind: 'push',
    profileId: P,
    accountId: PUSH_ACCOUNT,
    payload: { mode: push.scheduled ? 'scheduled' : 'immediate', event: push.event },
  });
  const item = await tolerate(h['drafts.submit']({ id: d.id }));
  if (item) r.changes.push({ kind: 'push', itemId: item.id, ...push });
}

/** The person sends a push again as it was (a reminder sent daily): the same content, a second task. */
async function repeatPush(r: Run): Promise<void> {
  const earlier = r.changes.filter((c): c is Extract<Change, { kind: 'push' }> => c.kind === 'push');
  if (earlier.length === 0) return;
  const { kind: _kind, itemId: _itemId, ...push } = r.script.pick(earlier);
  await queuePush(r, push);
}

const pushNow = (r: Run) => sendPush(r, false);
const pushLater = (r: Run) => sendPush(r, true);

/** A future scheduled task the client shows for one of the apps, if any. */
async function futureTask(r: Run): Promise<string | undefined> {
  const app = r.script.pick(APPS);
  const tasks = await r.env.core.handlers['tasks.list']({ profileId: P, appId: app, taskType: 'scheduled' });
  const future = tasks.filter((t) => t.taskStatus.toLowerCase() === 'pending' && (t.executionTime ?? 0) > now(r) + 5 * MINUTE);
  return future.length === 0 ? undefined : r.script.pick(future).taskId;
}

async function updateTask(r: Run): Promise<void> {
  const taskId = await futureTask(r);
  if (taskId === undefined) return;
  const title = `Chaos ${r.seed} update ${r.changes.length}`;
  const item = await tolerate(r.env.core.handlers['tasks.update']({ profileId: P, accountId: PUSH_ACCOUNT, taskId, patch: { title } }));
  if (item) r.changes.push({ kind: 'update', itemId: item.id, taskId, title });
}

async function cancelTask(r: Run): Promise<void> {
  const taskId = await futureTask(r);
  if (taskId === undefined) return;
  const item = await tolerate(r.env.core.handlers['tasks.cancel']({ profileId: P, accountId: PUSH_ACCOUNT, taskId }));
  if (item) r.changes.push({ kind: 'cancel', itemId: item.id, taskId });
}

/** The person refreshes an account (and, with it, the apps' tasks); it runs on its own. */
async function refresh(r: Run): Promise<void> {
  await tolerate(r.env.core.handlers['sync.refresh']({ profileId: P, accountId: r.script.pick(ACCOUNTS) }));
}

/** The next write of one kind is applied and its answer lost (late under late_apply_ms). */
async function loseAnswer(r: Run): Promise<void> {
  const where = r.script.pick([
    { method: 'POST', path_prefix: '/core/api/' },
    { method: 'POST', path_prefix: '/epsilon/push' },
    { method: 'PATCH', path_prefix: '/epsilon/task' },
    { method: 'DELETE', path_prefix: '/epsilon/task' },
  ]);
  await fault(r.env.sandbox, { ...where, mode: 'close_after', count: 1 });
}

/** The next few requests, whatever they are, find no service. */
async function outage(r: Run): Promise<void> {
  await fault(r.env.sandbox, { path_prefix: '/', mode: 'close_before', count: r.script.int(1, 4) });
}

/** The next request or two of one kind get a 500 and nothing is applied: a passing server error. */
async function serverError(r: Run): Promise<void> {
  const where = r.script.pick([{ path_prefix: '/core/api/' }, { method: 'GET', path_prefix: '/core/api/' }, { path_prefix: '/epsilon/' }]);
  await fault(r.env.sandbox, { ...where, mode: 'status_500', count: r.script.int(1, 2) });
}

/** The person quits and starts the app again on the same data: nothing queued may be lost (e). */
async function restart(r: Run): Promise<void> {
  const before = new Set((await outbox(r)).map((i) => i.id));
  await r.env.core.close();
  await r.env.restart();
  r.restarts++;
  const after = new Set((await outbox(r)).map((i) => i.id));
  for (const c of r.changes) {
    if (before.has(c.itemId) && !after.has(c.itemId))
      r.violations.push(`(e) restart ${r.restarts}: the ${c.kind} ${JSON.stringify(c)} is no longer in the outbox`);
  }
}

async function timePasses(r: Run): Promise<void> {
  await advance(r, r.script.pick([SECOND, 10 * SECOND, MINUTE, 5 * MINUTE]));
}

async function refreshTasks(r: Run): Promise<void> {
  // Not awaited: on a limited push API it waits for the clock, which only the script moves.
  void tolerate(r.env.core.handlers['tasks.refresh']({ profileId: P, appId: r.script.pick(APPS) })).catch(() => undefined);
}

/** Each step with its weight. */
const STEPS_TABLE: [number, (r: Run) => Promise<void>][] = [
  [6, createCampaign],
  [3, pushNow],
  [3, pushLater],
  [2, repeatPush],
  [3, updateTask],
  [2, cancelTask],
  [2, refresh],
  [2, refreshTasks],
  [2, loseAnswer],
  [1, outage],
  [1, serverError],
  [1, restart],
  [4, timePasses],
];

function nextStep(r: Run): (r: Run) => Promise<void> {
  const total = STEPS_TABLE.reduce((s, [w]) => s + w, 0);
  let x = r.script.int(0, total - 1);
  for (const [w, step] of STEPS_TABLE) {
    if (x < w) return step;
    x -= w;
  }
  return timePasses;
}

// ---- Quiet, and the invariants ----------------------------------------------------------------

/** Advances virtual time, timer by timer, until no change is on its way or the bound has passed. */
async function drainToQuiet(r: Run): Promise<boolean> {
  const start = now(r);
  for (let i = 0; i < MAX_ADVANCES; i++) {
    await settle(r);
    const items = await outbox(r);
    if (items.every((x) => FINAL.has(x.state) || x.lastError?.code === 'AMBIGUOUS')) return true;
    if (now(r) - start > QUIET_BOUND_MS) break;
    const next = r.env.clock!.nextTimerAt();
    r.env.sandbox.advance(next === undefined ? SECOND : Math.min(Math.max(1, next - now(r)), 10 * MINUTE));
  }
  for (const item of await outbox(r)) {
    if (!FINAL.has(item.state))
      r.violations.push(`(d) after ${Math.round((now(r) - start) / MINUTE)} min of a quiet service, still ${describeItem(item)}`);
  }
  return false;
}

/** Waits, on virtual time, for the account's refresh asked after event `from` to end. */
async function refreshToEnd(r: Run, account: string): Promise<string> {
  const from = r.env.events.length;
  await r.env.core.handlers['sync.refresh']({ profileId: P, accountId: account });
  for (let i = 0; i < MAX_ADVANCES; i++) {
    await settle(r);
    const end = r.env.events.slice(from).find((e) => {
      const p = e.payload as { accountId?: string; state?: string };
      // A refresh still running from the script is cancelled by this one: its end is not ours.
      return e.event === 'sync.progress' && p.accountId === account && (p.state === 'done' || p.state === 'failed');
    });
    if (end) {
      const { state, message } = end.payload as { state: string; message: string | null };
      return state === 'done' ? state : `${state} (${message ?? 'no message'})`;
    }
    const next = r.env.clock!.nextTimerAt();
    r.env.sandbox.advance(next === undefined ? SECOND : Math.min(Math.max(1, next - now(r)), 10 * MINUTE));
  }
  return 'never ended';
}

type ServiceTask = Awaited<ReturnType<typeof tasksOnService>>[number] & { url: string };
const serviceTasks = async (r: Run) => (await tasksOnService(r.env.sandbox)) as ServiceTask[];

async function checkChanges(r: Run): Promise<void> {
  const items = new Map((await outbox(r)).map((i) => [i.id, i]));
  const tasks = await serviceTasks(r);
  const campaigns = new Map<string, { id: number; name: string }[]>();
  const deletedByOthers = new Set<string>();
  for (const a of ACCOUNTS) {
    const all = (
      (await control(r.env.sandbox, 'GET', `/_sandbox/state/campaigns?account=${a}`)) as { campaigns: { id: number; name: string }[] }
    ).campaigns;
    // Another user (churn) may have deleted a campaign the person posted: it was on the service once.
    const gone = (
      (await control(r.env.sandbox, 'GET', `/_sandbox/state/deleted-by-others?account=${a}`)) as {
        campaigns: { id: number; name: string }[];
      }
    ).campaigns;
    campaigns.set(a, [...all, ...gone]);
    for (const c of gone) deletedByOthers.add(String(c.id));
  }

  for (const c of r.changes) {
    const item = items.get(c.itemId);
    if (!item) {
      r.violations.push(`(e) the ${c.kind} ${JSON.stringify(c)} is gone from the outbox`);
      continue;
    }
    const refused = item.state === 'failed' || item.state === 'blocked';
    if (refused && !(item.lastError?.message || item.fix))
      r.violations.push(`(a) ${describeItem(item)} is ${item.state} without a word of why`);
    if (!FINAL.has(item.state)) {
      r.violations.push(`(a) ${describeItem(item)} never settled`);
      continue;
    }
    if (c.kind === 'create') {
      const found = (campaigns.get(c.account) ?? []).filter((x) => sameText(x.name, c.name));
      const want = item.state === 'sent' ? 1 : 0;
      if (found.length !== want)
        r.violations.push(`(a) "${c.name}" is ${item.state} in the outbox but ${found.length} times on the service`);
      // A create answered without a body names no campaign; deleted by another user before any
      // listing showed it, its id is known to no client: sent with its id unknown is right then.
      const unknowable = item.posted === undefined && deletedByOthers.has(String(found[0]?.id));
      if (item.state === 'sent' && found.length === 1 && !unknowable && item.posted?.ids.join() !== String(found[0].id)) {
        r.violations.push(
          `(b) "${c.name}" is recorded as campaign ${item.posted?.ids.join() ?? '(none)'}; the service holds it as ${found[0].id}`,
        );
      }
    }
  }
  checkPushes(r, items, tasks);
  checkTasks(r, items, tasks);
}

/**
 * (a) and (b) for pushes, grouped by content (a push sent again as it was is a second task): as
 * many tasks of that content as items sent, and each sent item names tasks of its own.
 */
function checkPushes(r: Run, items: Map<string, OutboxItem>, tasks: ServiceTask[]): void {
  const groups = new Map<string, Extract<Change, { kind: 'push' }>[]>();
  for (const c of r.changes) if (c.kind === 'push') groups.set(`${c.app} ${c.url}`, [...(groups.get(`${c.app} ${c.url}`) ?? []), c]);
  for (const group of groups.values()) {
    const { app, url, title } = group[0];
    const found = new Set(tasks.filter((t) => t.url === url && String(t.tagId) === app).map((t) => String(t.taskId)));
    const states = group.map((c) => items.get(c.itemId)?.state ?? 'gone');
    const sent = group.filter((c) => items.get(c.itemId)?.state === 'sent');
    if (found.size !== sent.length) {
      r.violations.push(
        `(a) push "${title}" to app ${app}, queued ${group.length} time(s) (${states.join(', ')}), is ${found.size} task(s) on the service (${[...found].join(', ')})`,
      );
    }
    const claimedBy = new Map<string, string>();
    for (const c of sent) {
      const ids = items.get(c.itemId)?.posted?.ids;
      if (ids === undefined) {
        // Not a wrong record, but the client does not know which task is this push's own.
        r.notes.push(`push "${title}" is sent without naming its task (the service holds ${[...found].join(', ')})`);
        continue;
      }
      for (const id of ids) {
        if (!found.has(id))
          r.violations.push(
            `(b) push "${title}" is recorded as task ${id}, which is not a task of that push on the service (${[...found].join(', ')})`,
          );
        const other = claimedBy.get(id);
        if (other !== undefined) r.violations.push(`(b) push "${title}": items ${other} and ${c.itemId} both claim task ${id}`);
        claimedBy.set(id, c.itemId);
      }
    }
  }
}

/** (b) and (a) for task edits: each task shows exactly the edits sent for it, and no other's. */
function checkTasks(r: Run, items: Map<string, OutboxItem>, tasks: ServiceTask[]): void {
  const sent = (c: Change) => items.get(c.itemId)?.state === 'sent';
  // What each task was called before any update: from the fixtures, or the push that made it.
  const pushedTitle = new Map<string, string>();
  for (const c of r.changes) if (c.kind === 'push') pushedTitle.set(c.url, c.title);
  for (const t of tasks) {
    const id = String(t.taskId);
    const before = r.tasksAtStart.get(id);
    const updates = r.changes.filter((c): c is Extract<Change, { kind: 'update' }> => c.kind === 'update' && c.taskId === id);
    const base = before?.title ?? pushedTitle.get(t.url);
    const expected = updates.filter(sent).at(-1)?.title ?? base;
    if (expected !== undefined && t.title !== expected) {
      const which = updates.find((u) => u.title === t.title);
      r.violations.push(
        which
          ? `(a) task ${id} shows the update "${t.title}", which the outbox calls ${items.get(which.itemId)?.state}; the edits sent for it say "${expected}"`
          : `(b) task ${id} is titled "${t.title}"; the edits sent for it say "${expected}"`,
      );
    }
    const cancels = r.changes.filter((c) => c.kind === 'cancel' && c.taskId === id);
    const cancelled = t.taskStatus.toLowerCase() === 'cancelled';
    if (cancelled && before?.status !== 'cancelled' && !cancels.some(sent)) {
      r.violations.push(
        `(b) task ${id} ("${t.title}") is cancelled, though no cancel of it was sent${cancels.length > 0 ? ` (its cancel is ${items.get(cancels[0].itemId)?.state})` : ''}`,
      );
    }
    if (!cancelled && cancels.some(sent))
      r.violations.push(`(b) task ${id} ("${t.title}") is ${t.taskStatus}, though its cancel is marked sent`);
  }
}

/** (c): after a completed refresh, the cache holds exactly what the service lists for the account. */
async function checkCache(r: Run): Promise<void> {
  for (const account of ACCOUNTS) {
    let end = await refreshToEnd(r, account);
    if (end !== 'done') {
      // The client may not know yet that the service is back (its next probe is a timer): the
      // person tries again a minute later, once. Both refusals are said; a second one breaks (d).
      r.notes.push(`a refresh of ${account} asked right after the outages ended ${end}`);
      await advance(r, MINUTE);
      end = await refreshToEnd(r, account);
    }
    if (end !== 'done') {
      r.violations.push(`(d) a refresh of ${account} asked a minute after the service answers again ended ${end}`);
      continue;
    }
    const listing = (await control(r.env.sandbox, 'GET', `/_sandbox/state/campaigns?account=${account}&fetch_level=RAP`)) as {
      campaigns: { id: number; name: string; status: string }[];
    };
    // A status is compared without case: the cache keeps it as the service wrote it (enum_case).
    const service = listing.campaigns.map((c) => `${c.id} ${c.status.toUpperCase()} ${c.name}`).sort();
    const rows = (await r.env.core.handlers['campaigns.query']({ profileId: P, accountId: account, limit: 1000, offset: 0 })).rows;
    const cached = rows.map((c) => `${c.id} ${(c.status ?? '').toUpperCase()} ${c.name}`).sort();
    const missing = service.filter((x) => !cached.includes(x));
    const extra = cached.filter((x) => !service.includes(x));
    if (missing.length + extra.length > 0) {
      r.violations.push(
        `(c) after a completed refresh the cache of ${account} differs from the service: missing ${JSON.stringify(missing.slice(0, 5))}${missing.length > 5 ? ` and ${missing.length - 5} more` : ''}, not on the service ${JSON.stringify(extra.slice(0, 5))}`,
      );
    }
  }
}

async function runSeed(seed: number): Promise<{ violations: string[]; variants: Variants; changes: number }> {
  // The client's retry jitter is Math.random: seeded too, so a seed replays its timing.
  const t0 = performance.now();
  const mark = (what: string) =>
    process.env.CHAOS_VERBOSE && process.stderr.write(`  ${what} at ${Math.round(performance.now() - t0)} ms\n`);
  const jitter = mulberry32(seed ^ 0x9e3779b9);
  const random = vi.spyOn(Math, 'random').mockImplementation(jitter);
  const env = await startEnv({
    clock: 'manual',
    fixtures: fixtures(),
    variants: { chaos: true, seed },
    // The app's own timing, not the fast one of other tests: a look-up waits its real grace period.
    tuning: {
      requestTimeoutMs: 30_000,
      uncertainGraceMs: 30_000,
      retryBackoff: { baseMs: SECOND, maxMs: 5 * MINUTE },
      probeBackoff: { baseMs: SECOND, maxMs: 30 * SECOND },
    },
  });
  const variants = env.sandbox.variants();
  const startTasks = await tasksOnService(env.sandbox);
  const r: Run = {
    seed,
    env,
    script: new Choices(seed ^ 0x5eed),
    changes: [],
    violations: [],
    notes: [],
    uncertainSince: new Map(),
    parkedSince: new Map(),
    seq: 0,
    tasksAtStart: new Map(startTasks.map((t) => [String(t.taskId), { title: t.title, status: t.taskStatus }])),
    restarts: 0,
    settles: 0,
  };
  try {
    mark('started');
    await settle(r);
    // The person looks at their apps' tasks first (what the Push tab shows), then works.
    for (const app of APPS) void tolerate(env.core.handlers['tasks.refresh']({ profileId: P, appId: app })).catch(() => undefined);
    await drainToQuiet(r);
    mark('apps read');
    const done: string[] = [];
    for (let i = 0; i < STEPS; i++) {
      const step = nextStep(r);
      done.push(step.name || 'step');
      mark(`step ${i + 1} ${step.name}`);
      await step(r);
      await settle(r);
    }
    mark('script done');
    // The outages end: whatever fault is left unconsumed is taken away, and the engine drains.
    await control(env.sandbox, 'DELETE', '/_sandbox/faults');
    if (await drainToQuiet(r)) {
      mark('quiet');
      await checkChanges(r);
      // Other users stop changing the accounts now (churn off, every other choice kept): (c) asks
      // whether a refresh ends equal to what the service holds, which needs a service that holds
      // still while it is compared. Refreshes under churn ran throughout the script; the listing's
      // own property test checks the cache after a walk that churn crossed.
      const { churn: _churn, chaos: _chaos, ...played } = env.sandbox.variants();
      expect((await call(env.sandbox, 'PUT', '/_sandbox/variants', { json: played })).status).toBe(200);
      // A lagging listing shows what was created last only after its lag: compare once it does.
      if (played.listing_lag_ms) await advance(r, played.listing_lag_ms + SECOND);
      await checkCache(r);
      mark('checked');
    }
    if (process.env.CHAOS_VERBOSE) {
      const states = (await outbox(r)).map((i) => `${i.kind}:${i.state}${i.lastError ? `(${i.lastError.code})` : ''}`);
      if (process.env.CHAOS_VERBOSE === '2') {
        for (const q of await requestLog(env.sandbox))
          process.stderr.write(
            `    ${q.seq} ${Math.round((q.time - T0) / 1000)}s ${q.method} ${q.path} ${q.status ?? '-'} ${q.outcome}${q.limited ? ' limited' : ''}\n`,
          );
      }
      process.stderr.write(
        `chaos seed ${seed}: ${done.join(' ')}\n  ${r.changes.length} changes, ${r.seq} requests, ${Math.round((now(r) - T0) / MINUTE)} virtual min, ${r.settles} settles; ${states.join(' ')}\n`,
      );
    }
    if (r.notes.length > 0) process.stderr.write(`chaos seed ${seed} notes:\n  ${r.notes.join('\n  ')}\n`);
    return { violations: r.violations, variants, changes: r.changes.length };
  } finally {
    await env.close();
    random.mockRestore();
  }
}

describe('chaos: invariants over seeds', () => {
  const seeds = seedsToRun();
  beforeAll(() => {
    if (seeds !== CI_SEEDS) process.stderr.write(`chaos: seeds ${seeds.join(', ')}\n`);
  });

  it.each(seeds)(
    'seed %i: every change once or refused in words, on the right record, cache equal, in bounded time, kept across restarts',
    async (seed) => {
      const { violations, variants } = await runSeed(seed);
      const replay = `replay: CHAOS_SEED=${seed} npx vitest run test/chaos/invariants.test.ts\nservice: ${JSON.stringify(variants)}`;
      expect(violations, `seed ${seed} broke invariants:\n${violations.join('\n')}\n${replay}`).toEqual([]);
      // Bounded by MAX_ADVANCES and virtual time; the wall-clock limit is only a net for a hang,
      // wide enough for a machine busy with other work.
    },
    600_000,
  );
});
