// CI must not go green with the keychain untested: without a keyring, the keychain suites fail
// where one is required (CI=true or DESK_REQUIRE_KEYCHAIN=1; elsewhere they skip, saying why in
// their name), and scripts/with-keyring.sh refuses to run without its tools under CI.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';

const ROOT = resolve(__dirname, '../..');
const emptyBin = mkdtempSync(join(tmpdir(), 'desk-nobin-'));
afterAll(() => rmSync(emptyBin, { recursive: true, force: true }));

/** The environment without any keyring variable of this session, and D-Bus pointing nowhere. */
function noKeyring(extra: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  const { CI: _ci, DESK_REQUIRE_KEYCHAIN: _req, ...env } = process.env;
  return { ...env, DBUS_SESSION_BUS_ADDRESS: 'unix:path=/nonexistent/desk-bus', ...extra };
}

describe('scripts/with-keyring.sh without dbus-run-session and gnome-keyring-daemon', () => {
  const run = (env: NodeJS.ProcessEnv) =>
    spawnSync('/bin/bash', [join(ROOT, 'scripts/with-keyring.sh'), '/bin/echo', 'ran'], { env: { PATH: emptyBin, ...env }, encoding: 'utf8' });

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

describe('the keychain suite when no keychain answers', () => {
  const suite = (env: NodeJS.ProcessEnv) =>
    spawnSync(process.execPath, [join(ROOT, 'node_modules/vitest/vitest.mjs'), 'run', 'test/main/app/keychain.test.ts'], {
      cwd: ROOT,
      env: noKeyring(env),
      encoding: 'utf8',
      timeout: 120_000,
    });

  it('fails where a keychain is required, saying why and what to do', () => {
    const r = suite({ DESK_REQUIRE_KEYCHAIN: '1' });
    expect(r.status).not.toBe(0);
    expect(r.stdout + r.stderr).toContain('No keychain answered');
    expect(r.stdout + r.stderr).toContain('scripts/with-keyring.sh');
  });
});
