// `npm run package [-- <electron-builder options>]`: the installers for this OS in dist/.
//   1. electron-vite builds out/ (main, preload, renderer);
//   2. electron-builder packs it (electron-builder.yml): it rebuilds better-sqlite3 and keytar for
//      Electron's ABI in node_modules, copies them in, flips the fuses (build/after-pack.mjs),
//      signs when credentials are in the environment, and makes the installers;
//   3. better-sqlite3 is built for Node again, because step 2 replaced the build the tests, the
//      sandbox and browser mode load (keytar uses Node-API: one build serves both).
// Nothing is published unless the options say so (`--publish always` in the release workflow).
// Needs internet: Electron's zip and headers, and the installer tools, are downloaded.
import { spawnSync } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const onWindows = process.platform === 'win32';
const bin = (name) => join(root, 'node_modules', '.bin', onWindows ? `${name}.cmd` : name);

function run(command, args) {
  const r = spawnSync(command, args, { cwd: root, stdio: 'inherit', shell: onWindows });
  return r.status ?? 1;
}

const builderArgs = process.argv.slice(2);
if (!builderArgs.some((a) => a === '--publish' || a.startsWith('--publish=') || a === '-p')) builderArgs.push('--publish', 'never');

let status = run(bin('electron-vite'), ['build']);
if (status === 0) {
  status = run(bin('electron-builder'), builderArgs);
  console.log('package: building better-sqlite3 for Node again (electron-builder left the Electron build in node_modules)');
  const restored = run(onWindows ? 'npm.cmd' : 'npm', ['rebuild', 'better-sqlite3']);
  if (restored !== 0) console.log('package: could not rebuild better-sqlite3 for Node; run `npm rebuild better-sqlite3` before the tests');
}
if (status === 0) console.log('package: installers are in dist/');
process.exit(status);
