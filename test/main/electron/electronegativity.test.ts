import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';

const ROOT = resolve(__dirname, '../../..');
const BIN = join(ROOT, 'node_modules', '.bin', 'electronegativity');
const ELECTRON_VERSION = (JSON.parse(readFileSync(join(ROOT, 'node_modules/electron/package.json'), 'utf8')) as { version: string })
  .version;
const allowlist = JSON.parse(readFileSync(join(__dirname, 'electronegativity-allowlist.json'), 'utf8')) as {
  entries: { id: string; file: string; sample: string; reason: string }[];
};

interface Finding {
  id: string;
  severity: string;
  confidence: string;
  file: string;
  location: string;
  sample: string;
}

/** One CSV line as Electronegativity writes it: bare or double-quoted fields, "" for a quote. */
function parseCsvLine(line: string): string[] {
  const out: string[] = [];
  let i = 0;
  while (i <= line.length) {
    if (line[i] === '"') {
      let v = '';
      i++;
      while (i < line.length) {
        if (line[i] === '"' && line[i + 1] === '"') {
          v += '"';
          i += 2;
        } else if (line[i] === '"') {
          i++;
          break;
        } else v += line[i++];
      }
      out.push(v);
      i++; // the comma
    } else {
      const end = line.indexOf(',', i);
      out.push(line.slice(i, end === -1 ? line.length : end));
      i = end === -1 ? line.length + 1 : end + 1;
    }
  }
  return out;
}

const work = mkdtempSync(join(tmpdir(), 'desk-eneg-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

/**
 * Runs the scanner offline. The one check that needs the network (it downloads Electron's release
 * list to look for newer security fixes) is excluded; the Electron version is pinned in package.json.
 */
function scan(input: string, name: string): Promise<Finding[]> {
  const out = join(work, `${name}.csv`);
  return new Promise((resolvePromise, reject) => {
    execFile(
      BIN,
      ['-i', input, '-o', out, '-r', '-e', ELECTRON_VERSION, '-v', 'false', '-x', 'AvailableSecurityFixesGlobalCheck'],
      {
        cwd: ROOT,
        // Generous: on a loaded 2-core CI machine the parse of src/ alone can take a while.
        timeout: 150_000,
        env: {
          ...process.env,
          LANG: 'en',
          NO_COLOR: '1',
          NODE_OPTIONS: `--require ${join(__dirname, 'offline-dns.cjs')} --require ${join(__dirname, 'serial-writes.cjs')}`,
        },
      },
      (err) => {
        if (err) return reject(err);
        const lines = readFileSync(out, 'utf8')
          .split(/\r?\n/)
          .filter((l) => l.trim() !== '');
        // A damaged file must fail the test with its content, not hang it on a parse error.
        if (!/^issue, severity/.test(lines[0] ?? '') || lines.slice(1).some((l) => parseCsvLine(l).length < 8)) {
          return reject(new Error(`Electronegativity wrote an unreadable report:\n${lines.join('\n')}`));
        }
        resolvePromise(
          lines.slice(1).map((l) => {
            const [id, severity, confidence, file, location, sample] = parseCsvLine(l);
            return { id, severity, confidence, file, location, sample: sample === 'N/A' ? '' : sample.trim() };
          }),
        );
      },
    );
  });
}

// A deliberately insecure window, to prove the scanner really runs and reports here.
const canary = join(work, 'canary');
mkdirSync(canary);
writeFileSync(
  join(canary, 'main.js'),
  "const { BrowserWindow } = require('electron');\nnew BrowserWindow({ webPreferences: { nodeIntegration: true, contextIsolation: false, sandbox: false } });\n",
);

// One after the other: two parsers at once on two cores only slow every other suite down.
const scans = scan(join(ROOT, 'src'), 'src').then(async (src) => [src, await scan(canary, 'canary')] as const);

describe('Electronegativity over src/ (offline)', { timeout: 180_000 }, () => {
  it('still catches an insecure BrowserWindow (the scanner is working here)', async () => {
    const [, found] = await scans;
    const ids = found.map((f) => f.id);
    // The canary has no navigation limits, permission handler or CSP either: the global checks must say so.
    expect(ids).toEqual(
      expect.arrayContaining([
        'CONTEXT_ISOLATION_JS_CHECK',
        'SANDBOX_JS_CHECK',
        'LIMIT_NAVIGATION_GLOBAL_CHECK',
        'PERMISSION_REQUEST_HANDLER_GLOBAL_CHECK',
        'CSP_GLOBAL_CHECK',
      ]),
    );
  });

  it('leaves no HIGH or MEDIUM finding in src/ without an explanation in the allowlist', async () => {
    const [found] = await scans;
    const serious = found.filter((f) => f.severity === 'HIGH' || f.severity === 'MEDIUM');
    const unexplained = serious.filter((f) => !allowlist.entries.some((e) => e.id === f.id && e.file === f.file && e.sample === f.sample));
    expect(
      unexplained,
      `explain or fix these (test/main/electron/electronegativity-allowlist.json):\n${JSON.stringify(unexplained, null, 2)}`,
    ).toEqual([]);
  });

  it('has no allowlist entry that no longer matches a finding, and a reason for each', async () => {
    const [found] = await scans;
    for (const e of allowlist.entries) {
      expect(e.reason.length, e.id).toBeGreaterThan(40);
      expect(
        found.some((f) => f.id === e.id && f.file === e.file && f.sample === e.sample),
        `stale entry ${e.id} ${e.file}`,
      ).toBe(true);
    }
  });
});
