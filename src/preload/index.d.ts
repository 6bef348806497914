// What the preload puts on the page: the typed contract as `window.desk`, nothing else.
import type { DeskBridge } from '../shared/ipc/contract';

declare global {
  interface Window {
    /** Present in Electron; absent in browser mode, where lib/api.ts uses the HTTP client instead. */
    desk?: DeskBridge;
  }
}

export {};
