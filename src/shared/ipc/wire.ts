// How the contract travels: the few wire-level names both sides of a transport must agree on.
// Channel names themselves live only in contract.ts; these derive transport ids from them, so the
// preload (which must stay free of zod) can import this file without pulling in the schemas.
import type { ChannelName } from './contract';

const IPC_PREFIX = 'desk:';

/** The ipcMain/ipcRenderer channel id of a contract channel. */
export function ipcChannelId(channel: ChannelName): string {
  return `${IPC_PREFIX}${channel}`;
}

/** The one IPC channel main uses to push contract events to the window (never a contract channel: no dot). */
export const IPC_EVENT_CHANNEL = `${IPC_PREFIX}events`;

/** Browser mode: `POST /api/<channel>` carries one call. */
export const HTTP_API_PREFIX = '/api/';
export function httpChannelPath(channel: ChannelName): string {
  return `${HTTP_API_PREFIX}${encodeURIComponent(channel)}`;
}
/** Browser mode: the WebSocket carrying events. */
export const WS_EVENTS_PATH = '/events';
/** Browser mode: header holding the per-run token on every API call. */
export const TOKEN_HEADER = 'x-desk-token';
/** Browser mode: the subprotocol the server selects, and the prefix of the one carrying the token. */
export const WS_PROTOCOL = 'desk.v1';
export const WS_TOKEN_PROTOCOL_PREFIX = 'desk-token.';
/** Largest request body browser mode accepts. */
export const MAX_BODY_BYTES = 1024 * 1024;

/** An event as it crosses a transport. */
export interface EventEnvelope {
  event: string;
  payload: unknown;
}
