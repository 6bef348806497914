// electron-builder's afterPack hook (electron-builder.yml): flips Electron's fuses in the packed
// binary, after the app is copied in and before it is signed, so the signature covers them.
// A fuse is a switch compiled into the Electron binary; unlike a command-line flag or an
// environment variable, nobody on the person's machine can turn it back at run time.
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { FuseV1Options, FuseVersion, flipFuses } from '@electron/fuses';

/**
 * The fuses Campaign Desk ships with, by name. Each one is checked by
 * test/main/electron/packaging.test.ts and explained in docs/security.md ("Check which fuses you can change").
 */
export const FUSES = Object.freeze({
  // ELECTRON_RUN_AS_NODE would turn the signed app into a general Node.js runtime.
  RunAsNode: false,
  // Cookies and other Chromium storage encrypted at rest with a key from the OS keychain.
  EnableCookieEncryption: true,
  // NODE_OPTIONS (e.g. --require of another script) is ignored.
  EnableNodeOptionsEnvironmentVariable: false,
  // --inspect and friends are ignored: no debugger can attach to the main process.
  EnableNodeCliInspectArguments: false,
  // app.asar must match the hash recorded at package time (macOS and Windows check it).
  EnableEmbeddedAsarIntegrityValidation: true,
  // The app is loaded from app.asar only, never from a loose app/ folder put beside it.
  OnlyLoadAppFromAsar: true,
  // One V8 snapshot for every process (no separate browser-process snapshot file to swap).
  LoadBrowserProcessSpecificV8Snapshot: false,
  // The app is served from app://, so file:// needs none of the extra rights Electron gives it.
  GrantFileProtocolExtraPrivileges: false,
});

/** The configuration @electron/fuses takes, for one platform and architecture. */
export function fuseConfig(platformName, arch) {
  // Not strictlyRequireAllFuses: Electron 41 has a ninth fuse, WasmTrapHandlers, that
  // @electron/fuses 1.8 (the last release that runs on Node 20) cannot name; it stays at Electron's
  // default (on), which is also the secure choice. The test checks it is left as it was.
  const config = { version: FuseVersion.V1 };
  for (const [name, value] of Object.entries(FUSES)) config[FuseV1Options[name]] = value;
  // An unsigned arm64 macOS build still needs a valid ad-hoc signature to start at all; flipping
  // a fuse changes the binary, so it is signed ad hoc again (a real signature replaces it later).
  if (platformName === 'darwin' && arch === 'arm64') config.resetAdHocDarwinSignature = true;
  return config;
}

/** Where the Electron binary of the packed app is: the .app bundle, the .exe, or the Linux executable. */
export function packedBinaryPath(context) {
  const { appOutDir, electronPlatformName, packager } = context;
  switch (electronPlatformName) {
    case 'darwin':
    case 'mas':
      return join(appOutDir, `${packager.appInfo.productFilename}.app`);
    case 'win32':
      return join(appOutDir, `${packager.appInfo.productFilename}.exe`);
    case 'linux':
      return join(appOutDir, packager.executableName);
    default:
      throw new Error(`after-pack: no Electron binary known for platform ${electronPlatformName}`);
  }
}

/** electron-builder's Arch enum as a name (0 ia32, 1 x64, 2 armv7l, 3 arm64, 4 universal). */
const ARCH_NAMES = ['ia32', 'x64', 'armv7l', 'arm64', 'universal'];

/**
 * The update feed electron-builder wrote (app-update.yml, before this hook runs) without its
 * provider, unless the release workflow said this build is signed (DESK_SIGNED_BUILD=1, set only
 * when the platform's signing certificate is present). An unsigned build's only check of a
 * downloaded update would be a checksum from the same release; such a copy therefore never looks
 * for updates (src/main/electron/updates/availability.ts: no provider, no feed).
 */
export function feedForSigning(feedText, signed) {
  return signed ? feedText : feedText.replace(/^provider:.*(\r?\n|$)/gm, '');
}

export default async function afterPack(context) {
  const binary = packedBinaryPath(context);
  const arch = ARCH_NAMES[context.arch] ?? String(context.arch);
  await flipFuses(binary, fuseConfig(context.electronPlatformName, arch));
  console.log(`  • fuses set on ${binary}: ${Object.entries(FUSES).map(([name, on]) => `${name}=${on ? 'on' : 'off'}`).join(', ')}`);
  const feed = join(context.packager.getResourcesDir(context.appOutDir), 'app-update.yml');
  if (existsSync(feed)) {
    const signed = process.env.DESK_SIGNED_BUILD === '1';
    writeFileSync(feed, feedForSigning(readFileSync(feed, 'utf8'), signed));
    if (!signed) console.log('  • unsigned build: its update feed names no provider, so it never offers updates');
  }
}
