import { defineConfig } from 'vitest/config';

// Tests talk to real processes (sandbox over HTTP, SQLite files, a keyring, Chromium), so they get
// generous timeouts; files run in parallel on separate sandboxes bound to port 0.
export default defineConfig({
  test: {
    include: ['test/**/*.test.ts', 'test/**/*.test.tsx'],
    exclude: ['test/e2e/**', 'node_modules/**'],
    testTimeout: 30_000,
    hookTimeout: 30_000,
    pool: 'forks',
  },
});
