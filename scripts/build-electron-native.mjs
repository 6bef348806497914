// Builds a copy of better-sqlite3's native addon for Electron's ABI, beside (not instead of) the
// one built for Node. Node runs the tests, the sandbox and browser mode; Electron runs the desktop
// app; each loads its own binary (the store passes `nativeBinding` when it runs inside Electron).
// keytar needs nothing: it uses Node-API, so one build loads in both.
//
// Needs Electron's headers or a prebuilt addon, so it only works with internet access. Called by
// scripts/setup.sh after Electron's binary was downloaded; exits 1 with one line when it cannot.
import { cpSync, existsSync, mkdirSync, rmSync, copyFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const require = createRequire(join(root, 'package.json'));
const electronVersion = require('electron/package.json').version;
const source = dirname(require.resolve('better-sqlite3/package.json'));
const work = join(root, '.tmp', 'electron-native', 'better-sqlite3');
const target = join(root, 'out', 'native', `electron-${electronVersion}`, 'better_sqlite3.node');

if (existsSync(target)) {
  console.log(`setup: better-sqlite3 for Electron ${electronVersion} is ready`);
  process.exit(0);
}

rmSync(work, { recursive: true, force: true });
mkdirSync(dirname(work), { recursive: true });
cpSync(source, work, { recursive: true, filter: (p) => !p.startsWith(join(source, 'build')) });

const env = {
  ...process.env,
  npm_config_runtime: 'electron',
  npm_config_target: electronVersion,
  npm_config_disturl: 'https://electronjs.org/headers',
};
const prebuilt = spawnSync(
  process.execPath,
  [require.resolve('prebuild-install/bin.js'), '--runtime', 'electron', '--target', electronVersion],
  { cwd: work, env, stdio: 'ignore' },
);
if (prebuilt.status !== 0) {
  const gyp = spawnSync(
    'npx',
    [
      '--no-install',
      'node-gyp',
      'rebuild',
      '--release',
      `--target=${electronVersion}`,
      '--runtime=electron',
      '--dist-url=https://electronjs.org/headers',
    ],
    { cwd: work, env, stdio: 'ignore' },
  );
  if (gyp.status !== 0) {
    console.log(
      `setup: could not build better-sqlite3 for Electron ${electronVersion} (no prebuilt addon and no Electron headers reachable); the desktop window cannot open its database until this succeeds (rerun npm run setup with internet access)`,
    );
    process.exit(1);
  }
}
mkdirSync(dirname(target), { recursive: true });
copyFileSync(join(work, 'build', 'Release', 'better_sqlite3.node'), target);
rmSync(work, { recursive: true, force: true });
console.log(`setup: better-sqlite3 built for Electron ${electronVersion}`);
