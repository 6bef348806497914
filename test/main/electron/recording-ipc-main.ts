import type { IpcMainInvokeEvent } from 'electron';

type Listener = (event: IpcMainInvokeEvent, ...args: unknown[]) => unknown;

/** A recording stand-in for ipcMain (Electron cannot run here): handle() stores, invoke() calls. */
export function recordingIpcMain() {
  const handlers = new Map<string, Listener>();
  return {
    handlers,
    handle(channel: string, listener: Listener) {
      if (handlers.has(channel)) throw new Error(`second handler for ${channel}`);
      handlers.set(channel, listener);
    },
    removeHandler(channel: string) {
      handlers.delete(channel);
    },
    invoke(channel: string, event: unknown, ...args: unknown[]) {
      const h = handlers.get(channel);
      if (!h) throw new Error(`No handler registered for '${channel}'`);
      return h(event as IpcMainInvokeEvent, ...args);
    },
  };
}
