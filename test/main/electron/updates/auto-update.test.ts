// Auto-update (src/main/electron/updates/), checked where Electron cannot run (issue #19): where
// updates can run at all, the controller's decisions with an injected updater (off until the person
// agrees, Restart to Update only after the core is closed), and where its menu entries go. The
// packaging that carries the updater's feed is test/main/electron/packaging.test.ts's.
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { MenuItemConstructorOptions } from 'electron';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { ManualClock } from '../../../../src/main/clock/clock';
import { buildMenuTemplate } from '../../../../src/main/electron/menu';
import { detectAvailability } from '../../../../src/main/electron/updates/availability';
import { fileConsentStore, UPDATE_CONSENT_FILE } from '../../../../src/main/electron/updates/consent';
import {
  CHECK_INTERVAL_MS,
  createUpdateController,
  FIRST_CHECK_DELAY_MS,
  type UpdatePrompts,
} from '../../../../src/main/electron/updates/controller';
import { UPDATE_AUTOMATICALLY, updateMenuItems, withUpdateItems } from '../../../../src/main/electron/updates/menu-items';
import type { UpdaterPort } from '../../../../src/main/electron/updates/updater-port';
import { facts } from './availability-facts';

const work = mkdtempSync(join(tmpdir(), 'desk-updates-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

describe('auto-update: where it can run at all', () => {
  const feed = 'provider: github\nowner: acme\nrepo: campaign-desk\nupdaterCacheDirName: campaign-desk-updater\n';
  it('never in a development run or a build without a feed', () => {
    expect(detectAvailability(facts({ isPackaged: false, readText: () => feed }))).toMatchObject({
      available: false,
      reason: 'not in a development build',
    });
    expect(detectAvailability(facts({ resourcesPath: undefined }))).toMatchObject({ available: false });
    expect(
      detectAvailability(facts({ readText: () => 'updaterCacheDirName: campaign-desk-updater\n', appImage: '/x.AppImage' })),
    ).toMatchObject({ available: false });
  });
  it('in an installed Windows or macOS build with a feed, an AppImage, or the deb package', () => {
    for (const platform of ['win32', 'darwin'] as const)
      expect(detectAvailability(facts({ platform, readText: () => feed }))).toEqual({ available: true });
    expect(detectAvailability(facts({ readText: () => feed, appImage: '/home/a/Campaign Desk.AppImage' }))).toEqual({ available: true });
    expect(detectAvailability(facts({ readText: () => feed, exists: (p) => p.endsWith('package-type') }))).toEqual({ available: true });
    expect(detectAvailability(facts({ readText: () => feed }))).toMatchObject({
      available: false,
      reason: 'only the AppImage and the deb package can update themselves',
    });
  });
});

/** An updater that behaves like electron-updater as far as the controller can tell, and records what it was asked. */
function fakeUpdater(opts: { newest: string | null; failCheck?: Error }) {
  const calls: string[] = [];
  let installOnQuit = false;
  const port: UpdaterPort = {
    async check() {
      calls.push('check');
      if (opts.failCheck) throw opts.failCheck;
      return opts.newest ? { version: opts.newest } : null;
    },
    async download(onProgress) {
      calls.push('download');
      for (const p of [12.5, 12.9, 50, 100]) onProgress(p);
    },
    setInstallOnQuit(on) {
      installOnQuit = on;
    },
    quitAndInstall() {
      calls.push('quitAndInstall');
    },
  };
  return { port, calls, installOnQuit: () => installOnQuit };
}

function answers(opts: { download?: boolean; restart?: boolean } = {}) {
  const asked: string[] = [];
  const told: string[] = [];
  const prompts: UpdatePrompts = {
    offerDownload: async (version) => {
      asked.push(`download ${version}`);
      return opts.download === true;
    },
    offerRestart: async (version) => {
      asked.push(`restart ${version}`);
      return opts.restart === true;
    },
    inform: (message) => void told.push(message),
  };
  return { prompts, asked, told };
}

function setUp(
  o: { newest?: string | null; failCheck?: Error; download?: boolean; restart?: boolean; available?: boolean; dir?: string } = {},
) {
  const dir = o.dir ?? mkdtempSync(join(work, 'consent-'));
  const clock = new ManualClock(1_800_000_000_000);
  const updater = fakeUpdater({ newest: o.newest === undefined ? '1.2.0' : o.newest, failCheck: o.failCheck });
  const { prompts, asked, told } = answers(o);
  let loads = 0;
  const order: string[] = [];
  const menus: MenuItemConstructorOptions[][] = [];
  const actions = {
    checkNow: () => void controller.checkNow(),
    setAutomatic: (on: boolean) => controller.setAutomatic(on),
    download: () => void controller.download(),
    restartToUpdate: () => void controller.restartToUpdate(),
  };
  const controller = createUpdateController({
    availability: o.available === false ? { available: false, reason: 'not in a development build' } : { available: true },
    currentVersion: '1.0.0',
    loadUpdater: async () => {
      loads += 1;
      return {
        ...updater.port,
        quitAndInstall: () => {
          order.push('quitAndInstall');
          updater.port.quitAndInstall();
        },
      };
    },
    consent: fileConsentStore(join(dir, UPDATE_CONSENT_FILE)),
    clock,
    prompts,
    beforeRestart: async () => void order.push('core closed'),
    onChange: (s) => menus.push(updateMenuItems(s, actions)),
  });
  const menu = () => updateMenuItems(controller.snapshot(), actions);
  const item = (id: string) => menu().find((m) => m.id === id);
  /** Lets the promise chains the controller started settle (no time passes on the clock). */
  const settle = () =>
    vi.waitFor(() => expect(controller.snapshot().state.kind).not.toMatch(/^(checking|downloading)$/), { timeout: 30_000 });
  return { controller, clock, updater, asked, told, dir, order, menus, menu, item, settle, loads: () => loads };
}

describe('auto-update decisions (controller with an injected updater)', () => {
  it('is off by default: days pass without a look at the feed, and the menu offers a manual check and an unticked "Update Automatically"', async () => {
    const t = setUp();
    t.controller.start();
    t.clock.advance(7 * 24 * 60 * 60_000);
    await Promise.resolve();
    expect(t.loads()).toBe(0);
    expect(t.updater.calls).toEqual([]);
    expect(t.menu().map((m) => m.label)).toEqual(['Check for Updates…', UPDATE_AUTOMATICALLY]);
    expect(t.item('updates-automatic')).toMatchObject({ type: 'checkbox', checked: false });
    expect(existsSync(join(t.dir, UPDATE_CONSENT_FILE))).toBe(false);
  });

  it('does nothing at all, whatever the person clicks, where updates are unavailable, and says why', async () => {
    const t = setUp({ available: false });
    t.controller.start();
    t.controller.setAutomatic(true);
    await t.controller.checkNow();
    t.clock.advance(CHECK_INTERVAL_MS * 3);
    expect(t.loads()).toBe(0);
    expect(t.menu()).toEqual([{ id: 'updates-unavailable', label: 'Updates: not in a development build', enabled: false }]);
    expect(t.told).toEqual(['Campaign Desk cannot update itself here: not in a development build.']);
    expect(existsSync(join(t.dir, UPDATE_CONSENT_FILE))).toBe(false);
  });

  it('with consent: remembers it, looks and downloads in the background, then offers "Restart to Update" once and restarts only after closing the core', async () => {
    const t = setUp({ restart: false });
    t.item('updates-automatic')!.click!({} as never, undefined, {} as never);
    await t.settle();
    expect(JSON.parse(readFileSync(join(t.dir, UPDATE_CONSENT_FILE), 'utf8'))).toMatchObject({ automatic: true });
    expect(t.updater.calls).toEqual(['check', 'download']);
    expect(t.updater.installOnQuit()).toBe(true);
    // The download's progress reached the menu in whole percent.
    expect(
      t.menus
        .flat()
        .map((m) => m.label)
        .filter((l) => l?.startsWith('Downloading')),
    ).toEqual(
      expect.arrayContaining(['Downloading Update (1.2.0)… 0%', 'Downloading Update (1.2.0)… 12%', 'Downloading Update (1.2.0)… 50%']),
    );
    expect(t.asked).toEqual(['restart 1.2.0']);
    expect(t.item('updates-restart')?.label).toBe('Restart to Update (1.2.0)');
    expect(t.item('updates-automatic')?.checked).toBe(true);

    // "Later", then the interval passes: no second dialog and no second download.
    t.clock.advance(CHECK_INTERVAL_MS * 2);
    await Promise.resolve();
    expect(t.asked).toEqual(['restart 1.2.0']);
    expect(t.updater.calls).toEqual(['check', 'download']);

    t.item('updates-restart')!.click!({} as never, undefined, {} as never);
    await vi.waitFor(() => expect(t.order).toEqual(['core closed', 'quitAndInstall']), { timeout: 30_000 });
  });

  it('remembers consent across restarts: the next start looks after a minute and then every six hours, until it is turned off', async () => {
    const first = setUp({ newest: null });
    first.controller.setAutomatic(true);
    await first.settle();
    first.controller.stop();

    const t = setUp({ newest: null, dir: first.dir });
    expect(t.item('updates-automatic')?.checked).toBe(true);
    t.controller.start();
    t.clock.advance(FIRST_CHECK_DELAY_MS - 1);
    expect(t.updater.calls).toEqual([]);
    t.clock.advance(1);
    await t.settle();
    expect(t.updater.calls).toEqual(['check']);
    await vi.waitFor(() => expect(t.clock.nextTimerAt()).toBe(t.clock.now() + CHECK_INTERVAL_MS), { timeout: 30_000 });
    t.clock.advance(CHECK_INTERVAL_MS);
    await t.settle();
    expect(t.updater.calls).toEqual(['check', 'check']);

    t.item('updates-automatic')!.click!({} as never, undefined, {} as never);
    expect(JSON.parse(readFileSync(join(t.dir, UPDATE_CONSENT_FILE), 'utf8'))).toMatchObject({ automatic: false });
    t.clock.advance(CHECK_INTERVAL_MS * 4);
    await Promise.resolve();
    expect(t.updater.calls).toEqual(['check', 'check']);
    expect(t.told).toEqual([]); // automatic looks never interrupt with "you are up to date"
  });

  it('a manual check asks before downloading; "Not Now" downloads nothing and leaves "Download Update" in the menu', async () => {
    const t = setUp({ download: false });
    await t.controller.checkNow();
    expect(t.asked).toEqual(['download 1.2.0']);
    expect(t.updater.calls).toEqual(['check']);
    expect(t.item('updates-download')?.label).toBe('Download Update (1.2.0)…');
    expect(t.item('updates-automatic')?.checked).toBe(false);

    t.item('updates-download')!.click!({} as never, undefined, {} as never);
    await vi.waitFor(() => expect(t.item('updates-restart')?.label).toBe('Restart to Update (1.2.0)'), { timeout: 30_000 });
    expect(t.updater.calls).toEqual(['check', 'download']);
    expect(t.order).toEqual([]); // "Later" was the answer: nothing restarts on its own
  });

  it('a manual check that finds nothing says the running version is the newest; a failed one says so without the error’s details', async () => {
    const newest = setUp({ newest: null });
    await newest.controller.checkNow();
    expect(newest.told).toEqual(['Campaign Desk 1.0.0 is the newest version.']);
    expect(newest.item('updates-check')?.label).toBe('Check for Updates…');

    const failing = setUp({ failCheck: new Error('GET https://api.github.com/repos/acme/desk/releases?token=abc 503') });
    await failing.controller.checkNow();
    expect(failing.told).toHaveLength(1);
    expect(failing.told[0]).toContain('could not reach its releases feed');
    expect(failing.told[0]).not.toMatch(/github|token|503/);
    expect(failing.item('updates-check')).toBeDefined(); // the person can try again
  });

  it('treats a damaged consent file as no', () => {
    const dir = mkdtempSync(join(work, 'consent-'));
    writeFileSync(join(dir, UPDATE_CONSENT_FILE), '{"automatic": "yes"');
    const t = setUp({ dir });
    t.controller.start();
    t.clock.advance(CHECK_INTERVAL_MS);
    expect(t.loads()).toBe(0);
    expect(t.item('updates-automatic')?.checked).toBe(false);
  });
});

describe('auto-update menu entries', () => {
  const items = updateMenuItems(
    { state: { kind: 'ready', version: '1.2.0' }, automatic: true },
    { checkNow() {}, setAutomatic() {}, download() {}, restartToUpdate() {} },
  );
  const shown = (i: MenuItemConstructorOptions) => i.label ?? i.role ?? i.type;
  it('go under About in the macOS app menu, and at the end of Help elsewhere, leaving the template as it was', () => {
    const mac = buildMenuTemplate({ appName: 'Campaign Desk', isMac: true, isDev: false });
    const before = JSON.stringify(mac);
    const withMac = withUpdateItems(mac, items, true);
    expect(JSON.stringify(mac)).toBe(before);
    const appMenu = withMac[0].submenu as MenuItemConstructorOptions[];
    expect(appMenu.slice(0, 4).map(shown)).toEqual(['about', 'separator', 'Restart to Update (1.2.0)', UPDATE_AUTOMATICALLY]);

    const other = withUpdateItems(buildMenuTemplate({ appName: 'Campaign Desk', isMac: false, isDev: false }), items, false);
    const help = other.find((m) => m.role === 'help')!.submenu as MenuItemConstructorOptions[];
    expect(help.map(shown)).toEqual(['About Campaign Desk', 'separator', 'Restart to Update (1.2.0)', UPDATE_AUTOMATICALLY]);
  });
});
