import { defineConfig } from 'vitest/config';

// Tests talk to real processes (sandbox over HTTP, SQLite files, a keyring, Chromium), so they get
// generous timeouts; files run in parallel on separate sandboxes bound to port 0. A time limit here
// is a net for a test that hangs, never the measure of a test: what a test checks is bounded by
// its runs, its steps and virtual time, so a machine busy with other work (CI beside two other
// CPU-bound processes, issue #28) makes the suite slower, not red.
export default defineConfig({
  test: {
    include: ['test/**/*.test.ts', 'test/**/*.test.tsx'],
    exclude: ['test/e2e/**', 'node_modules/**'],
    testTimeout: 180_000,
    hookTimeout: 180_000,
    pool: 'forks',
  },
});
