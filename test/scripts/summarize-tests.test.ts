import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';

const SCRIPT = resolve(__dirname, '../../scripts/summarize-tests.mjs');
const dirs: string[] = [];
afterEach(() => dirs.splice(0).forEach((d) => rmSync(d, { recursive: true, force: true })));

/** Runs the summary over the given suites; returns its last line and exit code. */
function summarize(suites: Record<string, { status: 'pass' | 'fail'; json?: unknown }>) {
  const dir = mkdtempSync(join(tmpdir(), 'desk-summary-'));
  dirs.push(dir);
  for (const [name, s] of Object.entries(suites)) {
    writeFileSync(join(dir, `${name}.status`), s.status);
    if (s.json) writeFileSync(join(dir, `${name}.json`), JSON.stringify(s.json));
  }
  try {
    const out = execFileSync(process.execPath, [SCRIPT, dir], { encoding: 'utf8' });
    return { last: out.trim().split('\n').pop(), code: 0 };
  } catch (e) {
    const err = e as { stdout: string; status: number };
    return { last: err.stdout.trim().split('\n').pop(), code: err.status };
  }
}

const file = (status: string, tests: string[]) => ({ status, assertionResults: tests.map((t) => ({ status: t })) });

describe('the closing line of npm test', () => {
  it('sums every suite: steps count as one, vitest files count their tests', () => {
    const r = summarize({
      typecheck: { status: 'pass' },
      unit: {
        status: 'pass',
        json: { numPassedTests: 3, numPendingTests: 1, testResults: [file('passed', ['passed', 'passed', 'passed', 'skipped'])] },
      },
    });
    expect(r).toEqual({ last: '4 passed, 0 failed, 1 skipped', code: 0 });
  });

  it('counts a failing test inside a describe block once, a file that did not load once, and a failed step once', () => {
    const r = summarize({
      lint: { status: 'fail' },
      e2e: {
        status: 'fail',
        // vitest counts the describe block as a failed suite as well: that must not count twice.
        json: {
          numPassedTests: 2,
          numFailedTests: 1,
          numFailedTestSuites: 3,
          testResults: [file('failed', ['passed', 'failed']), file('failed', []), file('passed', ['passed'])],
        },
      },
    });
    expect(r).toEqual({ last: '2 passed, 3 failed', code: 1 });
  });
});
