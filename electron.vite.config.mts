// electron-vite: main (CJS, native modules left to node_modules), the sandboxed preload (one CJS
// file with nothing external but electron, since a sandboxed preload cannot require anything
// else), and the renderer (same settings as vite.renderer.config.mts).
import { resolve } from 'node:path';
import { defineConfig } from 'electron-vite';
import rendererConfig from './vite.renderer.config.mts';

export default defineConfig({
  main: {
    build: {
      outDir: resolve(import.meta.dirname, 'out/main'),
      // better-sqlite3 and keytar are native: they must stay in node_modules, not in the bundle.
      externalizeDeps: true,
      // The campaign cache writer and reader run on worker threads from files of their own, beside
      // index.js (src/main/store/cache-writer/cache-writer.ts and cache-reader.ts look
      // for them there).
      rollupOptions: {
        input: {
          index: resolve(import.meta.dirname, 'src/main/electron/index.ts'),
          'campaign-cache-worker': resolve(import.meta.dirname, 'src/main/store/cache-writer/worker.ts'),
          'campaign-cache-reader': resolve(import.meta.dirname, 'src/main/store/cache-reader-worker.ts'),
        },
      },
    },
  },
  preload: {
    build: {
      outDir: resolve(import.meta.dirname, 'out/preload'),
      externalizeDeps: false,
      rollupOptions: {
        input: { index: resolve(import.meta.dirname, 'src/preload/index.ts') },
        external: ['electron'],
        output: { format: 'cjs', entryFileNames: '[name].js' },
      },
    },
  },
  renderer: {
    ...rendererConfig,
    build: {
      ...rendererConfig.build,
      rollupOptions: { input: { index: resolve(import.meta.dirname, 'src/renderer/index.html') } },
    },
  },
});
