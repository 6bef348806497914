// The sandbox's control API (/_sandbox/...) answers only requests carrying the run's secret. Kept
// free of vitest so that child processes the tests start (the crash test's drainer) can use it.
import { CONTROL_SECRET_HEADER } from '../../src/sandbox/index';

/**
 * A sandbox a test talks to: its address and, to use the control API, the run's control secret
 * (startSandbox returns both; `npm run sandbox` takes one with --control-secret).
 */
export interface SandboxRef {
  url: string;
  controlSecret?: string;
}

const isControlPath = (path: string) => path === '/_sandbox' || path.startsWith('/_sandbox/');

/** The header that lets a control request in; nothing for other paths or a sandbox without a known secret. */
export function controlHeaders(sb: SandboxRef, path: string): Record<string, string> {
  return isControlPath(path) && sb.controlSecret !== undefined ? { [CONTROL_SECRET_HEADER]: sb.controlSecret } : {};
}
