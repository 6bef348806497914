import { describe, expect, it } from 'vitest';
import { registerIpc } from '../../../src/main/electron/ipc-register';
import { CHANNEL_NAMES } from '../../../src/shared/ipc/contract';
import { ipcChannelId } from '../../../src/shared/ipc/wire';
import { createTransportTable } from '../../helpers/transport-handlers';
import { recordingIpcMain } from './recording-ipc-main';

const trustedEvent = { marker: 'trusted' };

describe('registerIpc (recording ipcMain, transport-test handler table)', () => {
  it('registers exactly one handler per contract channel and removes them all again', () => {
    const ipcMain = recordingIpcMain();
    const dispose = registerIpc({ ipcMain, handlers: createTransportTable().handlers, isTrustedSender: () => true });
    expect([...ipcMain.handlers.keys()].sort()).toEqual(CHANNEL_NAMES.map(ipcChannelId).sort());
    dispose();
    expect(ipcMain.handlers.size).toBe(0);
  });

  it('returns results as data for a trusted sender', async () => {
    const ipcMain = recordingIpcMain();
    const t = createTransportTable();
    registerIpc({ ipcMain, handlers: t.handlers, isTrustedSender: (e) => (e as unknown) === trustedEvent });
    const r = await ipcMain.invoke(ipcChannelId('accounts.list'), trustedEvent, {});
    expect(r).toMatchObject({ ok: true, value: [{ accountId: 'acme' }] });
  });

  it('refuses an untrusted sender with a forbidden error and never calls the handler', async () => {
    const ipcMain = recordingIpcMain();
    const t = createTransportTable();
    registerIpc({ ipcMain, handlers: t.handlers, isTrustedSender: (e) => (e as unknown) === trustedEvent });
    const r = await ipcMain.invoke(ipcChannelId('profiles.list'), { marker: 'other' }, {});
    expect(r).toMatchObject({ ok: false, error: { code: 'forbidden' } });
    expect(t.calls).toEqual([]);
  });

  it('treats a sender check that throws as untrusted', async () => {
    const ipcMain = recordingIpcMain();
    const t = createTransportTable();
    registerIpc({
      ipcMain,
      handlers: t.handlers,
      isTrustedSender: () => {
        throw new Error('frame gone');
      },
    });
    expect(await ipcMain.invoke(ipcChannelId('profiles.list'), trustedEvent, {})).toMatchObject({
      ok: false,
      error: { code: 'forbidden' },
    });
    expect(t.calls).toEqual([]);
  });

  it('refuses calls with more than one argument as invalid_input', async () => {
    const ipcMain = recordingIpcMain();
    const t = createTransportTable();
    registerIpc({ ipcMain, handlers: t.handlers, isTrustedSender: () => true });
    const r = await ipcMain.invoke(ipcChannelId('profiles.list'), trustedEvent, {}, { extra: true });
    expect(r).toMatchObject({ ok: false, error: { code: 'invalid_input' } });
    expect(t.calls).toEqual([]);
  });
});
