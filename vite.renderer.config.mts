// The renderer alone, for browser mode and the UI tests: `vite build --config vite.renderer.config.mts`
// writes out/renderer, the same files electron-vite builds for the app window.
import { resolve } from 'node:path';
import react from '@vitejs/plugin-react';
import { defineConfig, type UserConfig } from 'vite';

const rendererConfig: UserConfig = {
  root: resolve(import.meta.dirname, 'src/renderer'),
  // Relative asset URLs work under app://desk/ and under http://127.0.0.1:PORT/ alike.
  base: './',
  plugins: [react()],
  build: {
    outDir: resolve(import.meta.dirname, 'out/renderer'),
    emptyOutDir: true,
    // No inline scripts or data: modules: the CSP allows script-src 'self' only.
    assetsInlineLimit: 0,
    modulePreload: { polyfill: false },
    target: 'chrome120',
    minify: true,
    sourcemap: false,
  },
};

export default defineConfig(rendererConfig);
