// Core events to the window over the one event channel. Payloads are checked against the contract
// on the way out so a drifting core cannot hand the renderer something it does not expect.
import type { WebContents } from 'electron';
import { EVENT_NAMES, events, type DeskEventSource } from '../../shared/ipc/contract';
import { IPC_EVENT_CHANNEL, type EventEnvelope } from '../../shared/ipc/wire';

/** Subscribes to every contract event and sends each valid one to `send`; returns the unsubscribe. */
export function subscribeAll(
  source: DeskEventSource,
  send: (envelope: EventEnvelope) => void,
  log: (message: string) => void = (m) => console.error(m),
): () => void {
  const offs = EVENT_NAMES.map((name) =>
    source.on(name, (payload: unknown) => {
      const checked = events[name].safeParse(payload);
      if (!checked.success) {
        log(`[desk] dropped a ${name} event outside the contract`);
        return;
      }
      send({ event: name, payload: checked.data });
    }),
  );
  return () => {
    for (const off of offs) off();
  };
}

/** Forwards events to whatever webContents is the app window at the time (none: dropped). */
export function forwardEvents(source: DeskEventSource, getAppContents: () => WebContents | null): () => void {
  return subscribeAll(source, (envelope) => {
    const contents = getAppContents();
    if (contents && !contents.isDestroyed()) contents.send(IPC_EVENT_CHANNEL, envelope);
  });
}
