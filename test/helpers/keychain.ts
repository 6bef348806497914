// The keychain suites need a reachable, unlocked Secret Service (scripts/with-keyring.sh gives
// them a private one). Where none answers they are skipped, with the reason in their name; but
// where a keychain is required (CI, or DESK_REQUIRE_KEYCHAIN=1, which scripts/test.sh sets for its
// keyring run) a missing one is a failing test, so a green run always includes them.
import { describe, it } from 'vitest';

export interface ProbedStore {
  kind: string;
  warning?: string | null;
}

export function keychainRequired(env: NodeJS.ProcessEnv = process.env): boolean {
  return env.CI === 'true' || env.DESK_REQUIRE_KEYCHAIN === '1';
}

/** The parts of vitest a suite is declared with (passed in by the test of this helper). */
export interface SuiteApi {
  describe: ((title: string, body: () => void) => void) & { skip: (title: string, body: () => void) => void };
  it: (title: string, body: () => void) => void;
}

/** `describe(title, body)` when the keychain answered; otherwise a failure (required) or a named skip. */
export function keychainSuite(
  store: ProbedStore,
  title: string,
  body: () => void,
  env: NodeJS.ProcessEnv = process.env,
  api: SuiteApi = { describe, it },
): void {
  if (store.kind === 'keychain') {
    api.describe(title, body);
    return;
  }
  const why = store.warning ?? 'no keychain answered';
  if (!keychainRequired(env)) {
    api.describe.skip(`${title} (skipped: ${why}; run via scripts/with-keyring.sh)`, body);
    return;
  }
  api.describe(title, () => {
    api.it('has a keychain to test (required here: CI or DESK_REQUIRE_KEYCHAIN=1)', () => {
      throw new Error(
        `No keychain answered: ${why}. Run the tests under scripts/with-keyring.sh with dbus-run-session and gnome-keyring-daemon installed (npm run setup).`,
      );
    });
  });
}
