// Installable and updatable, checked where Electron cannot run (issue #19):
// - the packaging configuration, loaded and validated by electron-builder's own loader: targets per
//   OS, app id and name, icons, natives unpacked from the asar, no file associations, the feed;
// - the fuses, set by build/after-pack.mjs;
// - a real `electron-builder --linux dir` run with a stand-in Electron binary (no download): what
//   lands in app.asar and beside it, the fuses as electron-builder's hook left them, and the main
//   bundle taken out of that package starting under Node with the mocked `electron` module (a real
//   core, SQLite file and demo sandbox behind it), and its preload exposing only the contract;
// - .github/workflows/release.yml: valid YAML, real actions, and the steps the release needs on each OS.
// The real Electron, packaged, is driven by test/e2e/electron-smoke.test.ts in the release workflow;
// the auto-update decisions are test/main/electron/updates/auto-update.test.ts's.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import Module, { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import * as asar from '@electron/asar';
import { FuseV1Options, getCurrentFuseWire } from '@electron/fuses';
import { parse as parseYaml } from 'yaml';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { ChannelName } from '../../../src/shared/ipc/contract';
import { ipcChannelId } from '../../../src/shared/ipc/wire';
import { detectAvailability } from '../../../src/main/electron/updates/availability';
import { facts } from './updates/availability-facts';
import { app as mockApp, electronModule, MockEvent, resetElectronMock, state, type MockBrowserWindow } from './electron-mock';

const ROOT = resolve(__dirname, '../../..');
const nodeRequire = createRequire(import.meta.url);
const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as {
  productName: string;
  main: string;
  scripts: Record<string, string>;
  devDependencies: Record<string, string>;
};

// ---- The packaging configuration --------------------------------------------------------------------

interface Target {
  target: string;
  arch: string[];
}
interface BuilderConfig {
  appId: string;
  productName: string;
  directories: { output: string; buildResources: string };
  /** electron-builder's loader turns the list into file sets. */
  files: (string | { filter?: string[] })[];
  asar: boolean;
  asarUnpack: string[];
  npmRebuild: boolean;
  afterPack: string;
  fileAssociations: unknown[];
  protocols: unknown[];
  artifactName: string;
  mac: { target: Target[]; icon: string; hardenedRuntime: boolean; entitlements: string; entitlementsInherit: string };
  win: { target: Target[]; icon: string };
  nsis: { oneClick: boolean; perMachine: boolean; deleteAppDataOnUninstall: boolean };
  linux: { target: Target[]; icon: string; executableName: string };
  deb: { depends: string[] };
  publish: { provider: string; releaseType: string }[];
}

/** electron-builder's loader and schema check, as `electron-builder` runs them before packing. */
async function loadBuilderConfig(projectDir: string): Promise<BuilderConfig> {
  const { getConfig, validateConfiguration } = nodeRequire('app-builder-lib/out/util/config/config.js') as {
    getConfig(dir: string, configPath: string | null, fromOptions: unknown): Promise<BuilderConfig>;
    validateConfiguration(config: BuilderConfig, logger: unknown): Promise<void>;
  };
  const { DebugLogger } = nodeRequire('builder-util') as { DebugLogger: new (enabled: boolean) => unknown };
  const config = await getConfig(projectDir, null, null);
  await validateConfiguration(config, new DebugLogger(false));
  return config;
}

describe('packaging configuration (electron-builder.yml through electron-builder’s loader and schema)', () => {
  let config: BuilderConfig;
  beforeAll(async () => {
    config = await loadBuilderConfig(ROOT);
  });

  it('is valid for the pinned electron-builder (Electron pinned too), and names the app as the OS shows it', () => {
    expect(config.appId).toBe('io.campaigndesk.desktop');
    // Electron names the data folder after the product name: %APPDATA%\Campaign Desk,
    // ~/Library/Application Support/Campaign Desk, ~/.config/Campaign Desk.
    expect(config.productName).toBe('Campaign Desk');
    expect(pkg.productName).toBe(config.productName);
    // Every build, here and in the workflow, packs the same Electron with the same tools.
    for (const name of ['electron', 'electron-builder', '@electron/fuses'])
      expect(pkg.devDependencies[name], name).toMatch(/^\d+\.\d+\.\d+$/);
  });

  it('makes an AppImage and a deb on Linux, a dmg (and the zip the macOS updater needs) per architecture, and an NSIS installer on Windows', () => {
    const targets = (list: Target[]) => Object.fromEntries(list.map((t) => [t.target, t.arch]));
    expect(targets(config.linux.target)).toEqual({ AppImage: ['x64'], deb: ['x64'] });
    expect(targets(config.mac.target)).toEqual({ dmg: ['x64', 'arm64'], zip: ['x64', 'arm64'] });
    expect(targets(config.win.target)).toEqual({ nsis: ['x64'] });
    // Per-user NSIS: installing and updating need no administrator; uninstalling keeps the data.
    expect(config.nsis).toMatchObject({ perMachine: false, deleteAppDataOnUninstall: false });
    // keytar needs libsecret at run time.
    expect(config.deb.depends).toContain('libsecret-1-0');
    // GitHub renames assets with spaces, which would break the feed's links.
    expect(config.artifactName).not.toMatch(/\s|\$\{productName\}/);
  });

  it('packs the built app into an asar, with better-sqlite3 and keytar unpacked and rebuilt for Electron', () => {
    expect(config.asar).toBe(true);
    expect(config.asarUnpack).toEqual(expect.arrayContaining(['node_modules/better-sqlite3/**', 'node_modules/keytar/**']));
    expect(config.npmRebuild).toBe(true);
    const patterns = config.files.flatMap((f) => (typeof f === 'string' ? [f] : (f.filter ?? [])));
    expect(patterns).toEqual(expect.arrayContaining(['out/main/**', 'out/preload/**', 'out/renderer/**', '!out/native/**']));
    expect(pkg.main).toBe('out/main/index.js');
  });

  it('registers no file types and no URL schemes', () => {
    expect(config.fileAssociations).toEqual([]);
    expect(config.protocols).toEqual([]);
  });

  it('has icons for every OS, drawn from resources/icon.svg', () => {
    const png = readFileSync(join(ROOT, 'resources/icon.png'));
    expect(png.subarray(1, 4).toString()).toBe('PNG');
    expect([png.readUInt32BE(16), png.readUInt32BE(20)]).toEqual([1024, 1024]);
    const icns = readFileSync(join(ROOT, config.mac.icon));
    expect(icns.subarray(0, 4).toString()).toBe('icns');
    expect(icns.readUInt32BE(4)).toBe(icns.length);
    expect(icns.includes(Buffer.from('ic10'))).toBe(true); // the 1024 px image Retina Docks use
    const ico = readFileSync(join(ROOT, config.win.icon));
    expect([ico.readUInt16LE(0), ico.readUInt16LE(2)]).toEqual([0, 1]);
    const widths = Array.from({ length: ico.readUInt16LE(4) }, (_, i) => ico[6 + i * 16] || 256);
    expect(widths).toEqual(expect.arrayContaining([16, 32, 48, 256]));
    expect(readdirSync(join(ROOT, config.linux.icon)).sort()).toEqual([
      '128x128.png',
      '16x16.png',
      '256x256.png',
      '32x32.png',
      '48x48.png',
      '512x512.png',
      '64x64.png',
    ]);
    expect(readFileSync(join(ROOT, 'resources/icon.svg'), 'utf8')).toContain('<svg');
  });

  it('signs macOS builds with the hardened runtime and only the JIT exceptions V8 needs', () => {
    expect(config.mac.hardenedRuntime).toBe(true);
    const keys = [...readFileSync(join(ROOT, config.mac.entitlements), 'utf8').matchAll(/<key>([^<]+)<\/key>/g)].map((m) => m[1]);
    expect(keys.sort()).toEqual(['com.apple.security.cs.allow-jit', 'com.apple.security.cs.allow-unsigned-executable-memory']);
    expect(config.mac.entitlementsInherit).toBe(config.mac.entitlements);
  });

  it('publishes the update feed to draft GitHub releases, and flips the fuses in an afterPack hook that exists', () => {
    expect(config.publish).toEqual([{ provider: 'github', releaseType: 'draft' }]);
    expect(existsSync(join(ROOT, config.afterPack))).toBe(true);
  });
});

// ---- Fuses ----------------------------------------------------------------------------------------

interface AfterPackModule {
  FUSES: Record<string, boolean>;
  fuseConfig(platform: string, arch: string): Record<string, unknown>;
  default(context: unknown): Promise<void>;
}
const loadHook = async () => (await import(pathToFileURL(join(ROOT, 'build/after-pack.mjs')).href)) as AfterPackModule;

const SENTINEL = 'dL7pKGdnNz796PbbjQWNKmHXBZaB9tsX';
/** Electron 41's fuse wire as it comes from the download: 9 fuses (WasmTrapHandlers is the ninth). */
const ELECTRON_41_DEFAULT_WIRE = '101100011';
/** What the shipped app must have: the first eight set by the hook, the ninth as Electron left it. */
const SHIPPED_WIRE = '010011001';

/** A file that carries a fuse wire where Electron's binary does, between other bytes. */
function standInElectronBinary(file: string): void {
  mkdirSync(resolve(file, '..'), { recursive: true });
  writeFileSync(
    file,
    Buffer.concat([
      Buffer.alloc(4096, 0x7f),
      Buffer.from(SENTINEL),
      Buffer.from([1, ELECTRON_41_DEFAULT_WIRE.length]),
      Buffer.from(ELECTRON_41_DEFAULT_WIRE),
      Buffer.alloc(4096, 0x7f),
    ]),
  );
}
async function wireOf(binary: string): Promise<string> {
  const wire = (await getCurrentFuseWire(binary)) as unknown as Record<number, number>;
  return Array.from({ length: ELECTRON_41_DEFAULT_WIRE.length }, (_, i) => String.fromCharCode(wire[i])).join('');
}

describe('Electron fuses (build/after-pack.mjs)', () => {
  it('turns RunAsNode, NODE_OPTIONS and the inspector off, cookie encryption, asar integrity and asar-only loading on', async () => {
    const { FUSES } = await loadHook();
    expect(FUSES).toEqual({
      RunAsNode: false,
      EnableCookieEncryption: true,
      EnableNodeOptionsEnvironmentVariable: false,
      EnableNodeCliInspectArguments: false,
      EnableEmbeddedAsarIntegrityValidation: true,
      OnlyLoadAppFromAsar: true,
      LoadBrowserProcessSpecificV8Snapshot: false,
      GrantFileProtocolExtraPrivileges: false,
    });
  });

  it('finds the Electron binary of a Windows and a macOS package and flips its fuses, leaving a fuse it does not know alone', async () => {
    const { default: afterPack } = await loadHook();
    const work = mkdtempSync(join(tmpdir(), 'desk-fuses-'));
    try {
      const packager = {
        appInfo: { productFilename: 'Campaign Desk' },
        executableName: 'campaign-desk',
        getResourcesDir: (out: string) => join(out, 'resources'),
      };
      const exe = join(work, 'win', 'Campaign Desk.exe');
      standInElectronBinary(exe);
      await afterPack({ appOutDir: join(work, 'win'), electronPlatformName: 'win32', arch: 1, packager });
      expect(await wireOf(exe)).toBe(SHIPPED_WIRE);

      // x64: arm64 would also re-sign ad hoc, which needs macOS's codesign.
      const bundle = join(work, 'mac', 'Campaign Desk.app');
      standInElectronBinary(join(bundle, 'Contents', 'Frameworks', 'Electron Framework.framework', 'Electron Framework'));
      await afterPack({ appOutDir: join(work, 'mac'), electronPlatformName: 'darwin', arch: 1, packager });
      expect(await wireOf(bundle)).toBe(SHIPPED_WIRE);
    } finally {
      rmSync(work, { recursive: true, force: true });
    }
  });

  it('leaves an unsigned build without an update provider, so it never offers updates; a signed build keeps its feed', async () => {
    const { default: afterPack } = await loadHook();
    const work = mkdtempSync(join(tmpdir(), 'desk-feed-'));
    const was = process.env.DESK_SIGNED_BUILD;
    const feedText =
      'owner: someone\nrepo: campaign-desk\nprovider: github\nreleaseType: draft\nupdaterCacheDirName: campaign-desk-updater\n';
    try {
      const packager = {
        appInfo: { productFilename: 'Campaign Desk' },
        executableName: 'campaign-desk',
        getResourcesDir: (out: string) => join(out, 'resources'),
      };
      for (const signed of [false, true]) {
        const out = join(work, String(signed));
        standInElectronBinary(join(out, 'campaign-desk'));
        mkdirSync(join(out, 'resources'), { recursive: true });
        writeFileSync(join(out, 'resources', 'app-update.yml'), feedText);
        if (signed) process.env.DESK_SIGNED_BUILD = '1';
        else delete process.env.DESK_SIGNED_BUILD;
        await afterPack({ appOutDir: out, electronPlatformName: 'linux', arch: 1, packager });
        const feed = readFileSync(join(out, 'resources', 'app-update.yml'), 'utf8');
        expect(feed.includes('provider: github'), `signed ${signed}`).toBe(signed);
        const read = (path: string) => (existsSync(path) ? readFileSync(path, 'utf8') : null);
        expect(
          detectAvailability(facts({ resourcesPath: join(out, 'resources'), appImage: '/tmp/x.AppImage', readText: read })).available,
        ).toBe(signed);
      }
    } finally {
      if (was === undefined) delete process.env.DESK_SIGNED_BUILD;
      else process.env.DESK_SIGNED_BUILD = was;
      rmSync(work, { recursive: true, force: true });
    }
  });

  it('re-signs ad hoc only an arm64 macOS build (which will not start without a signature)', async () => {
    const { fuseConfig } = await loadHook();
    expect(fuseConfig('darwin', 'arm64').resetAdHocDarwinSignature).toBe(true);
    for (const [platform, arch] of [
      ['darwin', 'x64'],
      ['linux', 'x64'],
      ['win32', 'x64'],
    ])
      expect(fuseConfig(platform, arch).resetAdHocDarwinSignature).toBeUndefined();
    expect(fuseConfig('linux', 'x64')[FuseV1Options.RunAsNode]).toBe(false);
  });
});

// ---- A real package, made here --------------------------------------------------------------------

const work = mkdtempSync(join(tmpdir(), 'desk-package-'));
const appOut = join(work, 'dist', 'linux-unpacked');
const resources = join(appOut, 'resources');
const extracted = join(work, 'extracted');
afterAll(() => rmSync(work, { recursive: true, force: true }));

/**
 * `electron-builder --linux dir` on a copy of the project (its own out/ and dist/, the real
 * node_modules) with a stand-in Electron: no download, no rebuild for Electron's ABI (the copied
 * natives stay Node's, so the package's main bundle can run under Node below).
 */
function packHere(): void {
  // The project itself is packed (its out/ built afresh), as `npm run package` does; only the
  // installers' folder is elsewhere. A copy with node_modules linked in makes npm see that tree as
  // foreign, and electron-builder then leaves the dependencies' own dependencies out.
  const electronVite = spawnSync(
    process.execPath,
    [join(ROOT, 'node_modules/electron-vite/bin/electron-vite.js'), 'build', '--logLevel', 'error'],
    { cwd: ROOT, encoding: 'utf8' },
  );
  if (electronVite.status !== 0) throw new Error(`electron-vite build failed:\n${electronVite.stdout}\n${electronVite.stderr}`);

  const electronDist = join(work, 'electron-dist');
  mkdirSync(join(electronDist, 'resources'), { recursive: true });
  mkdirSync(join(electronDist, 'locales'), { recursive: true });
  standInElectronBinary(join(electronDist, 'electron'));
  for (const f of ['LICENSE', 'LICENSES.chromium.html']) writeFileSync(join(electronDist, f), '');
  writeFileSync(join(electronDist, 'version'), '41.10.0');

  const builder = spawnSync(
    process.execPath,
    [
      join(ROOT, 'node_modules/electron-builder/cli.js'),
      '--linux',
      'dir',
      '--x64',
      '--publish',
      'never',
      '--projectDir',
      ROOT,
      `-c.directories.output=${join(work, 'dist')}`,
      `-c.electronDist=${electronDist}`,
      '-c.npmRebuild=false',
    ],
    { cwd: ROOT, encoding: 'utf8', env: { ...process.env, CSC_IDENTITY_AUTO_DISCOVERY: 'false' } },
  );
  if (builder.status !== 0) throw new Error(`electron-builder failed:\n${builder.stdout}\n${builder.stderr}`);
  asar.extractAll(join(resources, 'app.asar'), extracted);
}

describe('the packed app (electron-builder --linux dir, stand-in Electron binary)', { timeout: 240_000 }, () => {
  beforeAll(() => packHere(), 240_000);

  it('has its fuses flipped by the afterPack hook electron-builder ran', async () => {
    expect(await wireOf(join(appOut, 'campaign-desk'))).toBe(SHIPPED_WIRE);
  });

  it('holds the built main, preload and renderer in app.asar, without source maps, the development natives or the renderer’s libraries', () => {
    const files = asar.listPackage(join(resources, 'app.asar'), { isPack: false }).map((f) => f.replaceAll('\\', '/'));
    for (const f of ['/package.json', '/out/main/index.js', '/out/preload/index.js', '/out/renderer/index.html'])
      expect(files).toContain(f);
    expect(files.filter((f) => f.endsWith('.map'))).toEqual([]);
    expect(files.filter((f) => f.startsWith('/out/native'))).toEqual([]);
    expect(files.filter((f) => /^\/node_modules\/(react|react-dom|zustand)\//.test(f))).toEqual([]);
    expect(files).toContain('/node_modules/electron-updater/package.json');
  });

  it('keeps the native addons outside the archive, where the OS can load them, and marks them so in it', () => {
    const archive = join(resources, 'app.asar');
    for (const addon of [
      'node_modules/better-sqlite3/build/Release/better_sqlite3.node',
      'node_modules/keytar/build/Release/keytar.node',
    ]) {
      expect(existsSync(join(resources, 'app.asar.unpacked', addon)), addon).toBe(true);
      expect(asar.statFile(archive, join(...addon.split('/')))).toMatchObject({ unpacked: true });
    }
    expect(existsSync(join(resources, 'app.asar.unpacked/node_modules/better-sqlite3/build/Release/test_extension.node'))).toBe(false);
    expect(existsSync(join(resources, 'app.asar.unpacked/node_modules/better-sqlite3/deps'))).toBe(false);
  });

  it('carries the updater’s feed file; made without a repository to publish to, it names no provider, so that copy never looks for updates', () => {
    const feed = readFileSync(join(resources, 'app-update.yml'), 'utf8');
    expect(feed).not.toMatch(/^provider:/m);
    expect(detectAvailability(facts({ resourcesPath: resources, appImage: '/tmp/x.AppImage' }))).toEqual({
      available: false,
      reason: 'this build has no releases feed',
    });
  });

  describe('its main bundle under Node, with the mocked electron module', () => {
    const electron = electronModule();
    const preloadExposed: [string, Record<string, unknown>][] = [];
    const preloadRequests: string[] = [];
    const preloadElectron = {
      contextBridge: { exposeInMainWorld: (key: string, api: Record<string, unknown>) => preloadExposed.push([key, api]) },
      ipcRenderer: { invoke: () => Promise.reject(new Error('no main here')), on: () => undefined, removeListener: () => undefined },
    };
    const moduleInternals = Module as unknown as {
      _load(request: string, parent: { filename?: string } | undefined, isMain: boolean): unknown;
    };
    const originalLoad = moduleInternals._load;
    const processWithResources = process as unknown as { resourcesPath?: string };
    let userData = '';

    beforeAll(() => {
      const preloadPath = join(extracted, 'out/preload/index.js');
      // `require('electron')` from the package's code gets the mock; the preload gets its own
      // (contextBridge, ipcRenderer), and every module the preload asks for is recorded.
      moduleInternals._load = function load(request, parent, isMain) {
        if (parent?.filename === preloadPath) preloadRequests.push(request);
        if (request === 'electron') return parent?.filename === preloadPath ? preloadElectron : electron;
        return originalLoad.call(this, request, parent, isMain);
      };
      resetElectronMock();
      userData = mkdtempSync(join(work, 'user-data-'));
      state.userData = userData;
      processWithResources.resourcesPath = resources;
    });
    afterAll(() => {
      moduleInternals._load = originalLoad;
      delete processWithResources.resourcesPath;
    });

    const trusted = (win: MockBrowserWindow) => ({ sender: win.webContents, senderFrame: win.webContents.mainFrame });
    async function call(win: MockBrowserWindow, channel: string, input: unknown): Promise<unknown> {
      const handler = state.ipcHandlers.get(ipcChannelId(channel as ChannelName));
      if (!handler) throw new Error(`no IPC handler for ${channel}`);
      const result = (await handler(trusted(win), input)) as { ok: boolean; value?: unknown; error?: unknown };
      if (!result.ok) throw new Error(`${channel} failed: ${JSON.stringify(result.error)}`);
      return result.value;
    }

    it('starts: the window gets the packaged preload, app:// serves the packaged renderer, the core answers with the demo’s campaigns, and quitting closes it', async () => {
      nodeRequire(join(extracted, 'out/main/index.js'));
      mockApp.becomeReady();
      await vi.waitFor(() => expect(state.windows).toHaveLength(1), { timeout: 60_000, interval: 50 });
      const win = state.windows[0];
      expect(win.options.webPreferences).toMatchObject({
        preload: join(extracted, 'out/preload/index.js'),
        sandbox: true,
        contextIsolation: true,
        nodeIntegration: false,
      });
      expect(existsSync(win.options.webPreferences.preload as string)).toBe(true);
      expect(win.loadedUrl).toBe('app://desk/index.html');

      const serve = state.protocolHandlers.get('app')!;
      const page = await serve({ url: 'app://desk/index.html', method: 'GET' });
      expect(page.status).toBe(200);
      const html = await page.text();
      const assets = [...html.matchAll(/(?:src|href)="(?:\.?\/)?(assets\/[^"]+)"/g)].map((m) => m[1]);
      expect(assets.length).toBeGreaterThan(0);
      for (const asset of assets) expect((await serve({ url: `app://desk/${asset}`, method: 'GET' })).status, asset).toBe(200);

      const profiles = (await call(win, 'profiles.list', {})) as { id: string; kind: string }[];
      const demo = profiles.find((p) => p.kind === 'sandbox');
      expect(demo).toBeDefined();
      const accounts = (await call(win, 'accounts.list', { profileId: demo!.id })) as { accountId: string }[];
      expect(accounts.length).toBeGreaterThan(0);
      await vi.waitFor(
        async () => {
          const page = (await call(win, 'campaigns.query', { profileId: demo!.id, accountId: accounts[0].accountId, limit: 5 })) as {
            total: number;
            rows: unknown[];
          };
          expect(page.rows.length).toBeGreaterThan(0);
        },
        { timeout: 60_000, interval: 100 },
      );
      expect(existsSync(join(userData, 'campaign-desk.sqlite'))).toBe(true);

      // This copy has no feed: the menu says so instead of offering updates.
      const labels = JSON.stringify(state.applicationMenu?.template);
      expect(labels).toContain('Updates: this build has no releases feed');

      const quit = new MockEvent();
      mockApp.emit('before-quit', quit);
      expect(quit.defaultPrevented).toBe(true);
      await vi.waitFor(() => expect(state.quitCalls).toBe(1), { timeout: 30_000 });
      expect(state.ipcHandlers.size).toBe(0);
    });

    it('has a preload that asks for nothing but electron and exposes only window.desk with invoke and on', () => {
      nodeRequire(join(extracted, 'out/preload/index.js'));
      expect(preloadRequests).toEqual(['electron']);
      expect(preloadExposed.map(([key, api]) => [key, Object.keys(api).sort()])).toEqual([['desk', ['invoke', 'on']]]);
    });
  });
});

// ---- The release workflow ---------------------------------------------------------------------------

interface WorkflowStep {
  name?: string;
  uses?: string;
  run?: string;
  if?: string;
  env?: Record<string, string>;
  with?: Record<string, string>;
}
interface Workflow {
  name: string;
  on: { push?: { tags?: string[] }; workflow_dispatch?: unknown };
  permissions: Record<string, string>;
  jobs: Record<string, { 'runs-on': string; strategy?: { matrix: { os: string[] } }; steps: WorkflowStep[]; needs?: string; if?: string }>;
}

/**
 * Actions pinned by full commit, with the release each commit is (a tag can be moved to other code;
 * a commit cannot). Checked against the actions' own repositories when pinned.
 */
const PINNED_ACTIONS: Record<string, string> = {
  'actions/checkout@11d5960a326750d5838078e36cf38b85af677262': 'v4.4.0',
  'actions/setup-node@49933ea5288caeca8642d1e84afbd3f7d6820020': 'v4.4.0',
  'actions/upload-artifact@ea165f8d65b6e75b540449e92b4886f43607fa02': 'v4.6.2',
  'actions/download-artifact@d3f86a106a0bac45b974a628896c90dbdf5c8093': 'v4.3.0',
};

describe('release workflow (.github/workflows/release.yml)', () => {
  const text = readFileSync(join(ROOT, '.github/workflows/release.yml'), 'utf8');
  const workflow = parseYaml(text) as Workflow;
  const job = workflow.jobs.installers;
  const steps = job.steps;
  const indexOf = (pattern: RegExp) => steps.findIndex((s) => pattern.test(s.run ?? ''));

  it('is valid YAML that runs on version tags and by hand, on Ubuntu, macOS and Windows', () => {
    expect(workflow.name).toBe('Release');
    expect(workflow.on.push?.tags).toEqual(['v*']);
    expect(workflow.on).toHaveProperty('workflow_dispatch');
    expect(job['runs-on']).toBe('${{ matrix.os }}');
    const os = job.strategy!.matrix.os;
    for (const family of [/^ubuntu-/, /^macos-/, /^windows-/])
      expect(
        os.some((o) => family.test(o)),
        String(family),
      ).toBe(true);
  });

  it('uses only real actions, each pinned by commit with its release named beside it', () => {
    const uses = Object.values(workflow.jobs).flatMap((j) => j.steps.map((s) => s.uses).filter((u): u is string => u !== undefined));
    for (const action of ['actions/checkout@', 'actions/setup-node@', 'actions/upload-artifact@', 'actions/download-artifact@'])
      expect(
        uses.some((u) => u.startsWith(action)),
        action,
      ).toBe(true);
    for (const u of uses) {
      expect(u, u).toMatch(/@[0-9a-f]{40}$/);
      expect(PINNED_ACTIONS[u], u).toBeDefined();
      expect(text, u).toContain(`${u} # ${PINNED_ACTIONS[u]}`);
    }
  });

  it('gives each job only the rights it needs: no write token where project code runs, none kept by checkout', () => {
    expect(workflow.permissions).toEqual({});
    const jobs = workflow.jobs as Record<string, { permissions?: Record<string, string>; steps: WorkflowStep[] }>;
    expect(jobs.installers.permissions).toEqual({ contents: 'read' });
    expect(jobs['draft-release'].permissions).toEqual({ contents: 'write' });
    expect(jobs.publish.permissions).toEqual({ contents: 'write' });
    // The jobs that may write run no project code: no checkout, no npm.
    for (const name of ['draft-release', 'publish']) {
      for (const step of jobs[name].steps) {
        expect(step.uses ?? '', name).not.toMatch(/checkout|setup-node/);
        expect(step.run ?? '', name).not.toMatch(/\bnpm\b|\bnode\b|npx/);
      }
    }
    const checkout = steps.find((s) => s.uses?.startsWith('actions/checkout@'))!;
    expect(checkout.with).toMatchObject({ 'persist-credentials': false });
    // No token while installing, building or testing.
    expect(steps.filter((s) => JSON.stringify(s.env ?? {}).includes('GITHUB_TOKEN'))).toEqual([]);
  });

  it('keeps the signing secrets in the packaging step alone, and publishes no feed for an unsigned build', () => {
    const pack = indexOf(/npm run package\b/);
    steps.forEach((s, i) => {
      if (i === pack || s.name === 'Signing credentials') return;
      expect(JSON.stringify(s.env ?? {}), s.name ?? s.run).not.toMatch(/CSC_|APPLE_API/);
    });
    expect(steps[pack].run).toMatch(/--publish never/);
    expect(steps[pack].run).toMatch(/DESK_SIGNED_BUILD:-\}" != "1" \]; then rm -f dist\/latest\*\.yml/);
    const signing = steps.find((s) => s.name === 'Signing credentials')!;
    expect(signing.run?.match(/DESK_SIGNED_BUILD=1/g)).toHaveLength(2); // macOS and Windows, each only with its certificate
  });

  it('installs with Electron’s download, runs the unit suite, packages, runs the _electron smoke test against the package, and uploads the installers, in that order', () => {
    const install = indexOf(/node node_modules\/electron\/install\.js/);
    const unit = indexOf(/npm run test:unit/);
    const pack = indexOf(/npm run package\b/);
    const smoke = indexOf(/vitest run --config vitest\.e2e\.config\.mts test\/e2e\/electron-smoke\.test\.ts/);
    const upload = steps.findIndex((s) => s.uses?.startsWith('actions/upload-artifact@'));
    expect([install, unit, pack, smoke, upload].every((i) => i >= 0)).toBe(true);
    expect(install < unit && unit < pack && pack < smoke && smoke < upload).toBe(true);
    expect(text).not.toMatch(/ELECTRON_SKIP_BINARY_DOWNLOAD/);
    // Here the smoke test may skip; there it must fail when no package was made.
    expect(steps[smoke].env).toMatchObject({ DESK_REQUIRE_PACKAGED_APP: '1' });
    expect(steps[smoke].run).toContain('xvfb-run');
    const paths = steps[upload].with!.path;
    for (const kind of ['*.AppImage', '*.deb', '*.dmg', '*.zip', '*.exe', 'latest*.yml']) expect(paths).toContain(`dist/${kind}`);
    expect(steps[upload].with!['if-no-files-found']).toBe('error');
  });

  it('signs and notarises from secrets when they are set, and says so with a notice when they are not', () => {
    const packEnv = steps[indexOf(/npm run package\b/)].env ?? {};
    expect(packEnv).toMatchObject({
      CSC_LINK: '${{ secrets.MAC_CSC_LINK }}',
      WIN_CSC_LINK: '${{ secrets.WIN_CSC_LINK }}',
      APPLE_API_KEY_ID: '${{ secrets.APPLE_API_KEY_ID }}',
    });
    const signing = steps.find((s) => s.name === 'Signing credentials')!;
    expect(signing.run).toMatch(/::notice title=macOS signing skipped::/);
    expect(signing.run).toMatch(/::notice title=macOS notarising skipped::/);
    expect(signing.run).toMatch(/::notice title=Windows signing skipped::/);
  });

  it('runs npm scripts that exist, and refers only to contexts GitHub provides', () => {
    const scripts = [...text.matchAll(/npm run ([\w:-]+)/g)].map((m) => m[1]);
    expect(scripts.length).toBeGreaterThan(0);
    for (const s of scripts) expect(pkg.scripts, s).toHaveProperty(s);
    const expressions = [...text.matchAll(/\$\{\{(.*?)\}\}/g)].map((m) => m[1]);
    for (const e of expressions) {
      for (const ref of e.match(/(?<![\w.-])[a-z_]+(?=\.)/g) ?? [])
        expect(['github', 'matrix', 'secrets', 'runner', 'needs', 'env', 'steps'], e).toContain(ref);
    }
  });
});
