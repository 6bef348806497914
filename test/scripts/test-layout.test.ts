// Tests are laid out like src/ (issue 28): a test file under test/<area>/<room>/ tests a module of
// src/<area>/<room>/, so the tests of a module are found beside its mirror and a folder of tests
// says what it covers. Checked cheaply on the imports: each test file reaches at least one module
// of its mirrored source folder, directly, through a helper of its own test folder, or through the
// shared helper that runs that room's code (test/helpers/service-client.ts wires the service
// client, so a test using it reaches src/main/service/). A test of the whole core (it starts the test
// world, which builds the core in src/main/app/) reaches src/main/app/, and may also live in
// test/main/sync/: the sync engine has no entry of its own but the core's handlers. A test that
// runs a module as a program names its path (`tsx src/main/browser-mode/cli.ts`), which counts.
// The folders that are not per module stay as they are and are not checked: test/e2e (browser
// flows), test/chaos (the whole core), test/scripts, test/helpers, test/fixtures.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { posix, resolve } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const ROOT = resolve(__dirname, '../..');
const MIRRORED = ['test/main', 'test/renderer', 'test/shared', 'test/sandbox'];

/** The test world: a test importing it runs the whole core (test/helpers/world.ts). */
const WORLD = 'test/helpers/world.ts';
/** Shared helpers that run a room's code: a test importing one reaches that room. */
const ROOM_HELPERS: Record<string, string> = { 'test/helpers/service-client.ts': 'src/main/service' };
/** Rooms whose tests may run the whole core (besides src/main/app/ itself, which the world reaches). */
const WHOLE_CORE_ROOMS = ['src/main/sync'];

/**
 * Test files that reach their room by no import, each with why. Keep it short: a test that fits no
 * room's rule is more often in the wrong room.
 */
const EXCEPTIONS: Record<string, string> = {
  // Runs Electron's security scanner over the whole of src/ (its subject is the Electron window's
  // configuration, src/main/electron/), so it imports no module.
  'test/main/electron/electronegativity.test.ts': 'scans src/ as text',
  // Packs the built app with electron-builder and starts its main bundle (out/main/) under Node: its
  // subject is the Electron shell as shipped; of src/ it imports only the updater's availability check.
  'test/main/electron/packaging.test.ts': 'packs and runs the built main bundle',
};

function walk(dir: string): string[] {
  return readdirSync(resolve(ROOT, dir)).flatMap((name) => {
    const path = `${dir}/${name}`;
    return statSync(resolve(ROOT, path)).isDirectory() ? walk(path) : [path];
  });
}

const EXTENSIONS = ['', '.ts', '.tsx', '.mts', '/index.ts', '/index.tsx'];

/** The repository path a relative specifier of `from` names (a file, or a folder's index). */
function resolveSpec(from: string, spec: string): string | undefined {
  const base = posix.normalize(posix.join(posix.dirname(from), spec)).replace(/\/$/, '');
  for (const ext of EXTENSIONS) {
    try {
      if (statSync(resolve(ROOT, base + ext)).isFile()) return base + ext;
    } catch {
      // not this spelling
    }
  }
  return undefined;
}

/** What a test file reaches: repository paths it imports, and those its own folder's helpers import, transitively. */
function reached(file: string): Set<string> {
  const seen = new Set<string>();
  const out = new Set<string>();
  const visit = (f: string) => {
    if (seen.has(f)) return;
    seen.add(f);
    const text = readFileSync(resolve(ROOT, f), 'utf8');
    // preProcessFile lists every import form (static, export-from, import(), require) without a full parse.
    for (const { fileName } of ts.preProcessFile(text, true, true).importedFiles) {
      if (!fileName.startsWith('.')) continue;
      const to = resolveSpec(f, fileName);
      if (!to) continue;
      out.add(to);
      if (posix.dirname(to) === posix.dirname(file) && !/\.test\.tsx?$/.test(to)) visit(to);
    }
    // A module run as a program by its path.
    for (const m of text.matchAll(/['"`](src\/[\w./-]+\.tsx?)['"`]/g)) out.add(m[1]);
  };
  visit(file);
  return out;
}

/** Why `file` does not belong in the test folder of `room` (its own by default), or undefined when it does. */
function misplaced(file: string, room = posix.dirname(file).replace(/^test\//, 'src/')): string | undefined {
  const reach = reached(file);
  const world = reach.has(WORLD);
  const rooms = new Set([...reach].filter((p) => p.startsWith('src/')).map((p) => posix.dirname(p)));
  if (world) rooms.add('src/main/app');
  for (const [helper, helped] of Object.entries(ROOM_HELPERS)) if (reach.has(helper)) rooms.add(helped);
  if (rooms.has(room) || (world && WHOLE_CORE_ROOMS.includes(room))) return undefined;
  return `${file} imports nothing of ${room}/ (it reaches ${[...rooms].sort().join(', ') || 'no source'})`;
}

const testFiles = MIRRORED.flatMap(walk).filter((f) => /\.test\.tsx?$/.test(f));

describe('tests laid out like src/', () => {
  it('finds the test files', () => {
    expect(testFiles.length).toBeGreaterThan(100);
  });

  it('puts each test file in the folder that mirrors its subject', () => {
    const wrong = testFiles.filter((f) => !(f in EXCEPTIONS)).flatMap((f) => misplaced(f) ?? []);
    expect(wrong).toEqual([]);
  });

  it('keeps its exceptions true: each is a test file that still reaches no module of its room', () => {
    for (const file of Object.keys(EXCEPTIONS)) {
      expect(testFiles, file).toContain(file);
      expect(misplaced(file), file).toBeDefined();
    }
  });

  it('refuses a test in another room than its subject', () => {
    expect(misplaced('test/main/store/migrations.test.ts')).toBeUndefined();
    expect(misplaced('test/main/store/migrations.test.ts', 'src/main/sync')).toMatch(/imports nothing of src\/main\/sync\//);
    // A test of the whole core belongs with the core or the engine, not with the store.
    expect(misplaced('test/main/sync/faults.test.ts')).toBeUndefined();
    expect(misplaced('test/main/sync/faults.test.ts', 'src/main/store')).toBeDefined();
  });
});
