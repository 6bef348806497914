// The whole surface the page gets: `window.desk`, the typed contract and nothing of Electron.
// Sandboxed preloads can only require 'electron', so this stays free of other runtime imports
// (wire.ts is plain constants; main checks every input anyway).
import { contextBridge, ipcRenderer, type IpcRendererEvent } from 'electron';
import type { DeskBridge } from '../shared/ipc/contract';
import type { Result } from '../shared/errors';
import { IPC_EVENT_CHANNEL, ipcChannelId, type EventEnvelope } from '../shared/ipc/wire';

const unreachable: Result<never> = {
  ok: false,
  error: { code: 'internal', message: 'The window lost contact with Campaign Desk. Restart the app.' },
};

const bridge: DeskBridge = {
  invoke(channel, input) {
    if (typeof channel !== 'string') {
      return Promise.resolve({ ok: false, error: { code: 'invalid_input', message: 'A channel name must be a string.' } });
    }
    // Main answers every registered channel with a Result; a rejection means no such channel or no main.
    return ipcRenderer.invoke(ipcChannelId(channel), input).catch(() => unreachable);
  },
  on(event, listener) {
    // Wrap the listener so the page never sees Electron's event object (it holds `sender`).
    const wrapped = (_e: IpcRendererEvent, envelope: EventEnvelope) => {
      if (envelope && envelope.event === event) (listener as (payload: unknown) => void)(envelope.payload);
    };
    ipcRenderer.on(IPC_EVENT_CHANNEL, wrapped);
    return () => {
      ipcRenderer.removeListener(IPC_EVENT_CHANNEL, wrapped);
    };
  },
};

contextBridge.exposeInMainWorld('desk', bridge);
