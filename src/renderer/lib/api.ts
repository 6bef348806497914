// The renderer's one way to reach the core. It picks the transport (window.desk from the preload
// in Electron, the HTTP/WebSocket client in browser mode); both implement DeskBridge, so the rest
// of the renderer cannot tell them apart. `call` checks each answer against the contract.
import {
  channels,
  resultSchema,
  type ChannelInput,
  type ChannelName,
  type ChannelOutput,
  type DeskBridge,
  type EventName,
  type EventPayload,
} from '../../shared/ipc/contract';
import type { ErrorCode } from '../../shared/errors';
import { createBrowserBridge } from './browser-bridge';
import { readToken } from './token';

/** A refused call, thrown by `call`: the code says what kind, the message what to do. */
export class DeskCallError extends Error {
  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly details?: Record<string, unknown>,
  ) {
    super(message);
    this.name = 'DeskCallError';
  }
}

let bridge: DeskBridge | null = null;

export function getBridge(): DeskBridge {
  if (bridge) return bridge;
  const fromPreload = window.desk;
  bridge =
    fromPreload ??
    createBrowserBridge({
      origin: window.location.origin,
      token: readToken({ location: window.location, storage: window.sessionStorage, history: window.history }),
    });
  return bridge;
}

/** Tests and stories may supply a bridge of their own. */
export function setBridge(next: DeskBridge | null): void {
  bridge = next;
}

export type { DeskBridge };

const checkers = new Map<ChannelName, ReturnType<typeof resultSchema>>();
function checkerOf(channel: ChannelName) {
  let c = checkers.get(channel);
  if (!c) {
    c = resultSchema(channels[channel].output);
    checkers.set(channel, c);
  }
  return c;
}

export async function call<C extends ChannelName>(channel: C, input: ChannelInput<C>): Promise<ChannelOutput<C>> {
  const raw = await getBridge().invoke(channel, input);
  const checked = checkerOf(channel).safeParse(raw);
  if (!checked.success) {
    throw new DeskCallError('internal', 'Campaign Desk sent an answer this window does not understand. Reload the window.');
  }
  const result = checked.data as
    | { ok: true; value: ChannelOutput<C> }
    | { ok: false; error: { code: ErrorCode; message: string; details?: Record<string, unknown> } };
  if (!result.ok) throw new DeskCallError(result.error.code, result.error.message, result.error.details);
  return result.value;
}

export function onEvent<E extends EventName>(event: E, listener: (payload: EventPayload<E>) => void): () => void {
  return getBridge().on(event, listener);
}

/** A message to show for anything `call` threw. */
export function messageOf(err: unknown): string {
  if (err instanceof DeskCallError) return err.message;
  return 'Something went wrong. Try again.';
}
