import { defineConfig } from 'vitest/config';

// The UI suite: a real browser (Debian's Chromium via playwright-core) against browser mode, plus
// the Electron smoke test where Electron's binary exists. One file at a time: each starts a
// sandbox, a core and a browser, and the machine has two cores.
export default defineConfig({
  test: {
    include: ['test/e2e/**/*.test.ts'],
    testTimeout: 120_000,
    hookTimeout: 120_000,
    // What a test waits for on screen follows work in another process (the core, the sandbox, the
    // browser), which a busy CI machine can delay past expect.poll's default second. A state that
    // never comes still fails, after ten seconds.
    expect: { poll: { timeout: 10_000 } },
    pool: 'forks',
    fileParallelism: false,
    maxWorkers: 1,
  },
});
