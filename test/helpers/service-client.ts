// The service client against a real sandbox: a sandbox of the one world (fixtures.ts) with the
// run's variants and demo-client's secret SECRET, a client wired to it, and what its tests read
// off it (the ServiceError a call failed with, a created campaign however the service answered).
// Raw HTTP to the sandbox, its faults, its request log and its login page are sandbox.ts's.
import { afterAll, beforeAll, beforeEach, onTestFinished } from 'vitest';
import { systemClock, type Clock } from '../../src/main/clock/clock';
import { ServiceError } from '../../src/main/service/errors';
import { parseJsonLossless } from '../../src/main/service/lossless-json';
import { ServiceClient, type ServiceClientOptions } from '../../src/main/service/service-client';
import { startSandbox, type Fixtures, type RunningSandbox, type Variants } from '../../src/sandbox/index';
import type { Campaign, CampaignCreate } from '../../src/shared/domain/campaign';
import { SECRET, testFixtures, type WorldOptions } from './fixtures';
import { call, type SandboxRef } from './sandbox';
import { testVariants } from './variants';

export interface ServiceSandboxOptions extends WorldOptions {
  /** Played on top of the run's (SANDBOX_VARIANTS, variants.ts). */
  variants?: Variants;
  /** Default manual (starting at the world's `now`). */
  clock?: 'real' | 'manual';
  /** What the test changes in the one world (more campaigns, another value). */
  adjust?: (fixtures: Fixtures) => void;
  /** A world of the test's own instead of the one world (the WorldOptions are then not used). */
  fixtures?: Fixtures;
  /** Only `variants`, not the run's: for tests that count the requests one service's choices cost. */
  ownVariantsOnly?: boolean;
}

/** A sandbox for the client's tests: the one world with demo-client's secret SECRET (and `opts`), the run's variants. */
export function startServiceSandbox(opts: ServiceSandboxOptions = {}): Promise<RunningSandbox> {
  const { variants, clock = 'manual', adjust, fixtures, ownVariantsOnly, ...world } = opts;
  const own = fixtures ?? testFixtures({ secret: SECRET, ...world });
  adjust?.(own);
  return startSandbox({ variants: { ...(ownVariantsOnly ? {} : testVariants()), ...variants }, clock, fixtures: own });
}

export interface ClientPerFileOptions extends ServiceSandboxOptions {
  /** The client's options beyond clientFor's (its clock, say), given the sandbox. */
  clientOptions?: (sb: RunningSandbox) => Partial<ServiceClientOptions>;
  /** Sign the client in before the tests (default false: the first call does). */
  authenticate?: boolean;
}

/**
 * The usual life of a client's sandbox in a test file: a sandbox (startServiceSandbox) and a client
 * of it started before the file's tests and handed to `ready`, both closed after them.
 */
export function clientPerFile(ready: (sb: RunningSandbox, client: ServiceClient) => void, opts: ClientPerFileOptions = {}): void {
  const { clientOptions, authenticate, ...sandbox } = opts;
  let sb: RunningSandbox | undefined;
  let client: ServiceClient | undefined;
  beforeAll(async () => {
    sb = await startServiceSandbox(sandbox);
    client = clientFor(sb, clientOptions?.(sb));
    if (authenticate) await client.authenticate();
    ready(sb, client);
  });
  afterAll(async () => {
    await client?.close();
    await sb?.close();
  });
}

/**
 * A sandbox per file and a new client of it for each test, the sandbox reset before it: for tests
 * of what a client learns of its service (a page size, a count of ids), which each start knowing
 * nothing. `ready` hears both before each test.
 */
export function freshClientPerTest(ready: (sb: RunningSandbox, client: ServiceClient) => void, opts: ClientPerFileOptions = {}): void {
  const { clientOptions, authenticate: _authenticate, ...sandbox } = opts;
  let sb: RunningSandbox | undefined;
  let client: ServiceClient | undefined;
  beforeAll(async () => {
    sb = await startServiceSandbox(sandbox);
  });
  beforeEach(async () => {
    await client?.close();
    await call(sb!, 'POST', '/_sandbox/reset');
    client = clientFor(sb!, clientOptions?.(sb!));
    ready(sb!, client);
  });
  afterAll(async () => {
    await client?.close();
    await sb?.close();
  });
}

/**
 * Closes `thing` (a sandbox, a client) when the running test finishes, passed or not, and returns
 * it; a test may close it sooner itself (closing twice closes once). For files whose tests each
 * start their own.
 */
export function closedAfterTest<T extends { close(): Promise<unknown> }>(thing: T): T {
  const close = thing.close.bind(thing);
  let closing: Promise<unknown> | undefined;
  thing.close = () => (closing ??= close());
  onTestFinished(async () => {
    await thing.close();
  });
  return thing;
}

/** A client of demo-client (secret SECRET) for the sandbox at `sb`, on the real clock unless `opts` says otherwise. */
export function clientFor(sb: { url: string }, opts: Partial<ServiceClientOptions> = {}): ServiceClient {
  return new ServiceClient({
    baseUrl: sb.url,
    authUrl: sb.url,
    pushUrl: sb.url,
    credentials: { flow: 'client_credentials', clientId: 'demo-client', getSecret: () => Promise.resolve(SECRET) },
    ...opts,
  });
}

/** The sandbox's clock for the client; timers still run on real time. */
export function clockOf(sb: RunningSandbox): Clock {
  return { now: () => sb.now(), setTimer: systemClock.setTimer };
}

/** The ServiceError the call failed with; anything else (or success) fails the test. */
export async function rejection(p: Promise<unknown>): Promise<ServiceError> {
  try {
    await p;
  } catch (e) {
    if (e instanceof ServiceError) return e;
    throw e;
  }
  throw new Error('expected a ServiceError');
}

/**
 * A create through the client, and the campaign it made as the client reads it. A service may
 * answer a create without a body (write_answer), naming no campaign: the campaign is then read from
 * a listing, by the id the service holds for the newest campaign of that name (the control API),
 * as the outbox's look-up would find it. Tests about the create's answer itself do not use this.
 */
export async function createAndRead(client: ServiceClient, sb: SandboxRef, accountId: string, body: CampaignCreate): Promise<Campaign> {
  const created = await client.createCampaign(accountId, body);
  if (created) return created;
  const state = await call(sb, 'GET', `/_sandbox/state/campaigns?account=${accountId}`);
  const stored = (parseJsonLossless(state.text) as { campaigns: { id: number | string; name: string }[] }).campaigns;
  const made = stored.filter((c) => c.name === body.name?.trim()).at(-1);
  if (!made) throw new Error(`the service holds no campaign named ${String(body.name)}`);
  const page = await client.listCampaigns(accountId, { fetchLevel: 'RAP', campaignIds: [String(made.id)] });
  if (page.campaigns.length !== 1) throw new Error(`campaign ${String(made.id)} is not listed`);
  return page.campaigns[0];
}
