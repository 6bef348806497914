// The built-in sandbox behind the "Sandbox demo" connection: the one place main starts the
// emulator, on a free loopback port with its bundled demo data, so a new user sees campaigns at once.
import { randomBytes } from 'node:crypto';
import { startSandbox } from '../../sandbox/index';

export interface DemoSandbox {
  url: string;
  /**
   * This run's secret for the sandbox's control API (reset, faults, clock). Only the process that
   * started the sandbox knows it, so no web page the person opens can steer the demo service.
   */
  controlSecret: string;
  close(): Promise<void>;
}

export async function startDemoSandbox(): Promise<DemoSandbox> {
  const sandbox = await startSandbox({ port: 0, controlSecret: randomBytes(32).toString('base64url') });
  return { url: sandbox.url, controlSecret: sandbox.controlSecret, close: () => sandbox.close() };
}
