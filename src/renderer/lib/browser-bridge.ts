// The DeskBridge of browser mode: calls as `POST /api/<channel>` with the token header, events
// from one WebSocket that offers the token as a subprotocol. It answers exactly like the preload
// bridge (results as data, never a throw), so nothing above lib/api.ts knows which one it has.
import { events, type DeskBridge, type EventName } from '../../shared/ipc/contract';
import type { Result } from '../../shared/errors';
import { TOKEN_HEADER, WS_EVENTS_PATH, WS_PROTOCOL, WS_TOKEN_PROTOCOL_PREFIX, httpChannelPath } from '../../shared/ipc/wire';

export interface BrowserBridgeOptions {
  /** The page's own origin (the browser-mode server). */
  origin: string;
  token: string | null;
  fetch?: typeof fetch;
  WebSocket?: typeof WebSocket;
  /** How long a call waits for the event socket before going ahead without it. */
  socketWaitMs?: number;
}

const NO_TOKEN: Result<never> = {
  ok: false,
  error: { code: 'unauthorized', message: 'This page has no access token. Open the address printed by "npm run start:browser".' },
};
const UNREACHABLE: Result<never> = {
  ok: false,
  error: { code: 'internal', message: 'Campaign Desk is not answering. Check that "npm run start:browser" is still running, then reload.' },
};

function looksLikeResult(x: unknown): x is Result<unknown> {
  if (typeof x !== 'object' || x === null) return false;
  const o = x as { ok?: unknown; error?: { code?: unknown; message?: unknown } };
  return o.ok === true || (o.ok === false && typeof o.error?.code === 'string' && typeof o.error?.message === 'string');
}

export function createBrowserBridge(opts: BrowserBridgeOptions): DeskBridge & { close(): void } {
  const doFetch = opts.fetch ?? globalThis.fetch.bind(globalThis);
  const WS = opts.WebSocket ?? globalThis.WebSocket;
  const listeners = new Map<EventName, Set<(payload: unknown) => void>>();
  let socket: WebSocket | null = null;
  let socketReady: Promise<void> | null = null;
  let retryMs = 500;
  let closed = false;

  function connect(): void {
    if (closed || !opts.token || socket) return;
    const url = `${opts.origin.replace(/^http/, 'ws')}${WS_EVENTS_PATH}`;
    const ws = new WS(url, [WS_PROTOCOL, `${WS_TOKEN_PROTOCOL_PREFIX}${opts.token}`]);
    socket = ws;
    socketReady = new Promise<void>((resolve) => {
      ws.addEventListener('open', () => resolve());
      ws.addEventListener('close', () => resolve());
      setTimeout(resolve, opts.socketWaitMs ?? 1500);
    });
    ws.addEventListener('open', () => {
      retryMs = 500;
    });
    ws.addEventListener('message', (msg) => {
      let envelope: { event?: unknown; payload?: unknown };
      try {
        envelope = JSON.parse(String(msg.data));
      } catch {
        return;
      }
      const name = envelope.event;
      if (typeof name !== 'string' || !Object.prototype.hasOwnProperty.call(events, name)) return;
      const parsed = events[name as EventName].safeParse(envelope.payload);
      if (!parsed.success) return;
      for (const l of listeners.get(name as EventName) ?? []) l(parsed.data);
    });
    ws.addEventListener('close', () => {
      socket = null;
      // Keep listening while anyone listens: the server may just be restarting its socket.
      if (!closed && [...listeners.values()].some((s) => s.size > 0)) {
        setTimeout(connect, retryMs);
        retryMs = Math.min(retryMs * 2, 10_000);
      }
    });
  }

  return {
    async invoke(channel, input) {
      if (!opts.token) return NO_TOKEN;
      // Subscribe-then-load: a first call waits briefly for the event socket, so no event that
      // follows the answer can be missed.
      if (socketReady) await socketReady;
      let res: Response;
      try {
        res = await doFetch(`${opts.origin}${httpChannelPath(channel)}`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', [TOKEN_HEADER]: opts.token },
          body: JSON.stringify(input ?? {}),
          credentials: 'omit',
          cache: 'no-store',
        });
      } catch {
        return UNREACHABLE;
      }
      try {
        const body: unknown = await res.json();
        if (looksLikeResult(body)) return body as never;
      } catch {
        // fall through
      }
      return UNREACHABLE;
    },
    on(event, listener) {
      const set = listeners.get(event) ?? new Set();
      set.add(listener as (payload: unknown) => void);
      listeners.set(event, set);
      connect();
      return () => {
        set.delete(listener as (payload: unknown) => void);
      };
    },
    close() {
      closed = true;
      socket?.close();
    },
  };
}
