// The built-in sandbox behind the "Sandbox demo" connection: the one place main starts the
// emulator, on a free loopback port with its bundled demo data, so a new user sees campaigns at once.
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { startSandbox, type DrivingClock } from '../../sandbox/index';

/** The demo service's world, kept beside the app's data so posted campaigns survive a restart. */
export const DEMO_STATE_FILE = 'demo-sandbox.json';

export interface DemoSandbox {
  url: string;
  /**
   * This run's secret for the sandbox's control API (reset, faults, clock). Only the process that
   * started the sandbox knows it, so no web page the person opens can steer the demo service.
   */
  controlSecret: string;
  close(): Promise<void>;
}

/**
 * Starts the demo service. With a data folder its world (campaigns, tasks, where ids go on) is
 * kept there across restarts; without one (a test's throwaway run) it starts from the sample data.
 */
export async function startDemoSandbox(
  opts: { dataDir?: string; log?: (message: string) => void; clock?: DrivingClock } = {},
): Promise<DemoSandbox> {
  const sandbox = await startSandbox({
    port: 0,
    controlSecret: randomBytes(32).toString('base64url'),
    ...(opts.dataDir === undefined ? {} : { statePath: join(opts.dataDir, DEMO_STATE_FILE) }),
    ...(opts.log ? { log: opts.log } : {}),
    // A test's manual clock, shared with the core: moving the demo service's clock fires the app's timers.
    ...(opts.clock ? { clock: opts.clock } : {}),
  });
  return { url: sandbox.url, controlSecret: sandbox.controlSecret, close: () => sandbox.close() };
}
