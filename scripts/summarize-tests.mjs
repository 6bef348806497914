// Sums every suite of `npm test` into one closing line "N passed, M failed[, K skipped]".
// A step without a JSON report (typecheck, lint, a build) counts as one test; a vitest suite
// counts its tests, and a file that failed to load counts as a failure even with no tests in it.
import { readdirSync, readFileSync, existsSync } from 'node:fs';
import { join, relative } from 'node:path';

const dir = process.argv[2] ?? '.tmp/results';
let passed = 0;
let failed = 0;
let skipped = 0;
const lines = [];
const failedNames = [];
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
    failedNames.push(...failedTestNames(r).map((t) => `${name}: ${t}`));
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

// The names of what failed, next to the closing line: a long log is often read from its tail only.
function failedTestNames(r) {
  const out = [];
  for (const file of r.testResults ?? []) {
    const where = relative(process.cwd(), file.name ?? '');
    const failedHere = (file.assertionResults ?? []).filter((a) => a.status === 'failed');
    for (const a of failedHere) out.push(`${where} > ${a.fullName ?? a.title}: ${firstLine(a.failureMessages?.[0])}`);
    if (file.status === 'failed' && failedHere.length === 0) out.push(`${where} (did not run: ${firstLine(file.message)})`);
  }
  return out;
}

function firstLine(text) {
  return String(text ?? 'no message')
    .split('\n')[0]
    .slice(0, 200);
}

console.log('\n== Summary ==');
for (const l of lines) console.log(l);
if (failedNames.length > 0) {
  console.log('Failed:');
  for (const n of failedNames) console.log(`  ${n}`);
}
console.log(`${passed} passed, ${failed} failed${skipped ? `, ${skipped} skipped` : ''}`);
process.exit(failed > 0 ? 1 : 0);
