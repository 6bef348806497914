// The built-in sandbox behind the "Sandbox demo" connection: the one place main starts the
// emulator, on a free loopback port with its bundled demo data, so a new user sees campaigns at once.
import { startSandbox } from '../../sandbox/index';

export interface DemoSandbox {
  url: string;
  close(): Promise<void>;
}

export async function startDemoSandbox(): Promise<DemoSandbox> {
  const sandbox = await startSandbox({ port: 0 });
  return { url: sandbox.url, close: () => sandbox.close() };
}
