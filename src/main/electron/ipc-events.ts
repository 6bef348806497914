// Core events to the Electron window: the contract-checked stream of app/event-forwarding.ts,
// sent to whichever webContents is the app window at the time.
import type { WebContents } from 'electron';
import type { DeskEventSource } from '../../shared/ipc/contract';
import { IPC_EVENT_CHANNEL } from '../../shared/ipc/wire';
import { subscribeAll } from '../app/event-forwarding';

/** Forwards events to whatever webContents is the app window at the time (none: dropped). */
export function forwardEvents(source: DeskEventSource, getAppContents: () => WebContents | null): () => void {
  return subscribeAll(source, (envelope) => {
    const contents = getAppContents();
    if (contents && !contents.isDestroyed()) contents.send(IPC_EVENT_CHANNEL, envelope);
  });
}
