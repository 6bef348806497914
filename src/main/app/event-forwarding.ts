// Core events to the window (Electron or browser mode) over the one event channel. Payloads are checked against the contract
// on the way out so a drifting core cannot hand the renderer something it does not expect.
import { EVENT_NAMES, events, type DeskEventSource } from '../../shared/ipc/contract';
import type { EventEnvelope } from '../../shared/ipc/wire';

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
