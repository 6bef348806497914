// The Electron entry point: wires the real core and the built-in demo sandbox into the shell.
// Paths are relative to the built main bundle (out/main/index.js).
import { join } from 'node:path';
import { createDeskCore } from '../app/create-core';
import { startDemoSandbox } from '../app/demo-sandbox';
import { startShell } from './shell';

startShell({
  createCore: (opts) => createDeskCore(opts),
  startDemo: (opts) => startDemoSandbox(opts),
  rendererDir: join(__dirname, '../renderer'),
  preloadPath: join(__dirname, '../preload/index.js'),
  devServerUrl: process.env.ELECTRON_RENDERER_URL,
});
