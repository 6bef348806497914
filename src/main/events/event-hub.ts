// The core's typed events. Listeners are isolated from each other and from the emitter: a
// transport that throws must not stop the sync engine that emitted.
import type { DeskEventSource, EventName, EventPayload } from '../../shared/ipc/contract';

type Listener = (payload: unknown) => void;

export class EventHub implements DeskEventSource {
  readonly #listeners = new Map<EventName, Set<Listener>>();
  #closed = false;

  on<E extends EventName>(event: E, listener: (payload: EventPayload<E>) => void): () => void {
    let set = this.#listeners.get(event);
    if (!set) {
      set = new Set();
      this.#listeners.set(event, set);
    }
    const l = listener as Listener;
    set.add(l);
    return () => {
      set.delete(l);
    };
  }

  emit<E extends EventName>(event: E, payload: EventPayload<E>): void {
    if (this.#closed) return;
    for (const l of [...(this.#listeners.get(event) ?? [])]) {
      try {
        l(payload);
      } catch {
        // A broken listener is the transport's problem; the engine carries on.
      }
    }
  }

  close(): void {
    this.#closed = true;
    this.#listeners.clear();
  }
}

/**
 * Calls `fire(key)` at most once per `intervalMs` per key, always delivering the last request of
 * a burst (trailing edge), so a busy scheduler cannot flood the renderer.
 */
export function throttleByKey(intervalMs: number, fire: (key: string) => void): { request(key: string): void; close(): void } {
  const last = new Map<string, number>();
  const pending = new Map<string, ReturnType<typeof setTimeout>>();
  return {
    request(key) {
      if (pending.has(key)) return;
      const wait = Math.max(0, (last.get(key) ?? -Infinity) + intervalMs - Date.now());
      const run = () => {
        pending.delete(key);
        last.set(key, Date.now());
        fire(key);
      };
      if (wait === 0) run();
      else pending.set(key, setTimeout(run, wait));
    },
    close() {
      for (const t of pending.values()) clearTimeout(t);
      pending.clear();
    },
  };
}
