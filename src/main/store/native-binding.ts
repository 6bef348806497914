// Inside Electron, better-sqlite3 must load an addon built for Electron's ABI; the one in
// node_modules is built for Node (tests, sandbox, browser mode). scripts/build-electron-native.mjs
// puts the Electron build at out/native/electron-<version>/, beside the bundled main process.
import { existsSync } from 'node:fs';
import { join } from 'node:path';

/** The addon path to pass as `nativeBinding`, or undefined to use the default (plain Node). */
export function electronNativeBinding(): string | undefined {
  const electron = process.versions.electron;
  if (electron === undefined) return undefined;
  // In the bundled main process __dirname is out/main.
  const candidate = join(__dirname, '..', 'native', `electron-${electron}`, 'better_sqlite3.node');
  return existsSync(candidate) ? candidate : undefined;
}
