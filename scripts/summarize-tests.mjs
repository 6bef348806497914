// Sums every suite of `npm test` into one closing line "N passed, M failed[, K skipped]".
// A step without a JSON report (typecheck, lint, a build) counts as one test; a vitest suite
// counts its tests, and a file that failed to load counts as a failure even with no tests in it.
import { readdirSync, readFileSync, existsSync } from 'node:fs';
import { join } from 'node:path';

const dir = process.argv[2] ?? '.tmp/results';
let passed = 0;
let failed = 0;
let skipped = 0;
const lines = [];
for (const file of readdirSync(dir)
  .filter((f) => f.endsWith('.status'))
  .sort()) {
  const name = file.replace(/\.status$/, '');
  const status = readFileSync(join(dir, file), 'utf8').trim();
  const json = join(dir, `${name}.json`);
  if (existsSync(json)) {
    const r = JSON.parse(readFileSync(json, 'utf8'));
    const p = r.numPassedTests ?? 0;
    const f = failures(r);
    const s = (r.numPendingTests ?? 0) + (r.numTodoTests ?? 0);
    const broken = status === 'fail' && f === 0 ? 1 : 0; // the runner failed without a failing test
    passed += p;
    failed += f + broken;
    skipped += s;
    lines.push(`${name}: ${p} passed, ${f + broken} failed, ${s} skipped`);
  } else if (status === 'pass') {
    passed += 1;
    lines.push(`${name}: ok`);
  } else {
    failed += 1;
    lines.push(`${name}: FAILED`);
  }
}

// Failed tests, plus each file that failed without a failing test (it did not load, or a hook
// threw). vitest's numFailedTestSuites also counts describe blocks, so it is not used.
function failures(r) {
  const files = r.testResults ?? [];
  const failedTests = files.reduce((n, t) => n + (t.assertionResults ?? []).filter((a) => a.status === 'failed').length, 0);
  const brokenFiles = files.filter((t) => t.status === 'failed' && !(t.assertionResults ?? []).some((a) => a.status === 'failed')).length;
  return failedTests + brokenFiles;
}

console.log('\n== Summary ==');
for (const l of lines) console.log(l);
console.log(`${passed} passed, ${failed} failed${skipped ? `, ${skipped} skipped` : ''}`);
process.exit(failed > 0 ? 1 : 0);
