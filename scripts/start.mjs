// `npm start`: the desktop app where Electron's binary is installed; browser mode where it is not
// (a headless box, a machine that could not download it), announced in one line.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const require = createRequire(join(root, 'package.json'));
const bin = (name) => join(root, 'node_modules', '.bin', process.platform === 'win32' ? `${name}.cmd` : name);

function electronBinary() {
  try {
    const path = require('electron'); // the package exports the binary's path, or throws without it
    return typeof path === 'string' && existsSync(path) ? path : null;
  } catch {
    return null;
  }
}

function run(cmd, args) {
  const child = spawn(cmd, args, { cwd: root, stdio: 'inherit', shell: process.platform === 'win32' });
  const forward = (sig) => child.kill(sig);
  process.on('SIGINT', forward);
  process.on('SIGTERM', forward);
  child.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
}

const electron = electronBinary();
if (electron) {
  // better-sqlite3 needs an addon built for Electron's ABI beside the Node one (see the script).
  spawnSync(process.execPath, [join(root, 'scripts', 'build-electron-native.mjs')], { cwd: root, stdio: 'inherit' });
  const build = spawnSync(bin('electron-vite'), ['build'], { cwd: root, stdio: 'inherit', shell: process.platform === 'win32' });
  if (build.status !== 0) process.exit(build.status ?? 1);
  run(electron, ['.', ...process.argv.slice(2)]);
} else {
  console.log("Electron's binary is missing here, so the desktop window is unavailable: starting browser mode instead.");
  run(bin('tsx'), [join(root, 'src/main/browser-mode/cli.ts'), ...process.argv.slice(2)]);
}
