import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { startBrowserServer, type BrowserServer } from '../../../src/main/browser-mode/server';
import { registerIpc } from '../../../src/main/electron/ipc-register';
import { createBrowserBridge } from '../../../src/renderer/lib/browser-bridge';
import type { ChannelName, DeskBridge } from '../../../src/shared/ipc/contract';
import { ipcChannelId } from '../../../src/shared/ipc/wire';
import { recordingIpcMain } from '../../main/electron/recording-ipc-main';
import { createManualEvents, createTransportTable, VALID_INPUTS } from '../../helpers/transport-handlers';

let dir: string;
let server: BrowserServer;
const events = createManualEvents();

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'desk-bridge-'));
  writeFileSync(join(dir, 'index.html'), '<!doctype html>');
  server = await startBrowserServer({ handlers: createTransportTable().handlers, events, staticDir: dir, log: () => undefined });
});
afterAll(async () => {
  await server.close();
  rmSync(dir, { recursive: true, force: true });
});

/** A WebSocket that sends an Origin header, as every browser does (the server refuses one without). */
class BrowserLikeWebSocket extends WebSocket {
  constructor(url: string, protocols: string[]) {
    super(url, protocols, { origin: server.origin });
  }
}

const browserBridge = (token: string | null) =>
  createBrowserBridge({
    origin: server.origin,
    token,
    WebSocket: BrowserLikeWebSocket as unknown as typeof globalThis.WebSocket,
    socketWaitMs: 2000,
  });

/** What the preload does, minus Electron: invoke on the derived channel id of a registered ipcMain. */
function ipcBridge(): DeskBridge {
  const ipcMain = recordingIpcMain();
  registerIpc({ ipcMain, handlers: createTransportTable().handlers, isTrustedSender: () => true, log: () => undefined });
  return {
    invoke: (channel, input) => Promise.resolve(ipcMain.invoke(ipcChannelId(channel), {}, input)) as never,
    on: () => () => undefined,
  };
}

describe('renderer browser-mode bridge (real server, transport-test handler table)', () => {
  it('answers every channel exactly as the IPC path does, so the renderer cannot tell them apart', async () => {
    const http = browserBridge(server.token);
    const ipc = ipcBridge();
    const inputs: [ChannelName, unknown][] = [
      ...(Object.entries(VALID_INPUTS) as [ChannelName, unknown][]),
      ['campaigns.query', { profileId: 'p1', accountId: 'not-letters' }],
      ['profiles.create', { name: '' }],
    ];
    for (const [channel, input] of inputs) {
      const viaHttp = await http.invoke(channel, input as never);
      const viaIpc = await ipc.invoke(channel, input as never);
      expect(viaHttp, channel).toEqual(viaIpc);
    }
    http.close();
  });

  it('turns a missing or wrong token into an unauthorized result, not a throw', async () => {
    expect(await browserBridge(null).invoke('app.info', {})).toMatchObject({ ok: false, error: { code: 'unauthorized' } });
    expect(await browserBridge('wrong-token-wrong-token').invoke('app.info', {})).toMatchObject({
      ok: false,
      error: { code: 'unauthorized' },
    });
  });

  it('turns an unreachable server into an internal result with a message, not a throw', async () => {
    const gone = createBrowserBridge({ origin: 'http://127.0.0.1:1', token: 'x'.repeat(43) });
    const r = await gone.invoke('app.info', {});
    expect(r).toMatchObject({ ok: false, error: { code: 'internal' } });
  });

  it('delivers contract events to on() listeners, checked against the contract, and stops after unsubscribe', async () => {
    const bridge = browserBridge(server.token);
    const got: unknown[] = [];
    const off = bridge.on('sync.progress', (p) => got.push(p));
    // A second listener that stays: once it has the last event, the first would have had it too.
    const stayed: unknown[] = [];
    const offStayed = bridge.on('sync.progress', (p) => stayed.push(p));
    // The first call waits for the socket, so events after it are not missed.
    await bridge.invoke('app.info', {});
    events.emit('sync.progress', { profileId: 'p1', accountId: 'acme', state: 'running', pagesDone: 1, pagesTotal: 3, message: null });
    await expect.poll(() => got.length).toBe(1);
    expect(got[0]).toMatchObject({ pagesDone: 1, pagesTotal: 3 });
    off();
    events.emit('sync.progress', { profileId: 'p1', accountId: 'acme', state: 'done', pagesDone: 3, pagesTotal: 3, message: null });
    await expect.poll(() => stayed.length).toBe(2);
    expect(got).toHaveLength(1);
    offStayed();
    bridge.close();
  });
});
