// CI must not go green with the keychain untested: without a keyring, the keychain suites fail
// where one is required (CI=true or DESK_REQUIRE_KEYCHAIN=1; elsewhere they skip, saying why in
// their name), and scripts/with-keyring.sh refuses to run without its tools under CI.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { keychainSuite } from '../helpers/keychain';

const ROOT = resolve(__dirname, '../..');
const emptyBin = mkdtempSync(join(tmpdir(), 'desk-nobin-'));
afterAll(() => rmSync(emptyBin, { recursive: true, force: true }));

describe('scripts/with-keyring.sh without dbus-run-session and gnome-keyring-daemon', () => {
  const run = (env: NodeJS.ProcessEnv) =>
    spawnSync('/bin/bash', [join(ROOT, 'scripts/with-keyring.sh'), '/bin/echo', 'ran'], {
      env: { PATH: emptyBin, ...env },
      encoding: 'utf8',
    });

  it.each([[{ CI: 'true' }], [{ DESK_REQUIRE_KEYCHAIN: '1' }]])('fails loudly with %j, naming what to install', (env) => {
    const r = run(env);
    expect(r.status).toBe(1);
    expect(r.stdout).not.toContain('ran');
    expect(r.stderr).toContain('ERROR: dbus-run-session gnome-keyring-daemon not installed');
    expect(r.stderr).toContain('apt-get install dbus gnome-keyring');
  });

  it('elsewhere runs the command without a keyring, saying the keychain tests are skipped', () => {
    const r = run({});
    expect(r.status).toBe(0);
    expect(r.stdout).toBe('ran\n');
    expect(r.stderr).toContain('keychain tests are skipped');
  });
});

describe('a keychain suite when no keychain answered', () => {
  /** What the suite declares, as vitest would be told it. */
  function declared(env: NodeJS.ProcessEnv, kind = 'memory') {
    const calls: { what: string; title: string; body: () => void }[] = [];
    const describeFn = Object.assign((title: string, body: () => void) => (calls.push({ what: 'describe', title, body }), body()), {
      skip: (title: string, body: () => void) => void calls.push({ what: 'skip', title, body }),
    });
    const itFn = (title: string, body: () => void) => void calls.push({ what: 'it', title, body });
    const store = { kind, warning: 'no system keychain is available (no D-Bus session)' };
    keychainSuite(store, 'keychain tests', () => itFn('a real keychain test', () => undefined), env, { describe: describeFn, it: itFn });
    return calls;
  }

  it.each([[{ CI: 'true' }], [{ DESK_REQUIRE_KEYCHAIN: '1' }]])('fails where one is required (%j), saying why and what to run', (env) => {
    const calls = declared(env);
    expect(calls.map((c) => c.what)).toEqual(['describe', 'it']);
    expect(calls[1].body).toThrow(
      /No keychain answered: no system keychain is available \(no D-Bus session\)\. Run the tests under scripts\/with-keyring\.sh/,
    );
  });

  it('is skipped elsewhere, with the reason in its name', () => {
    const calls = declared({});
    expect(calls).toEqual([
      {
        what: 'skip',
        title: 'keychain tests (skipped: no system keychain is available (no D-Bus session); run via scripts/with-keyring.sh)',
        body: expect.any(Function),
      },
    ]);
  });

  it('runs its tests when the keychain answered, required or not', () => {
    expect(declared({ CI: 'true' }, 'keychain').map((c) => `${c.what} ${c.title}`)).toEqual([
      'describe keychain tests',
      'it a real keychain test',
    ]);
  });
});
