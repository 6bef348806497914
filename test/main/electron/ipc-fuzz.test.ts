import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { registerIpc } from '../../../src/main/electron/ipc-register';
import { ERROR_CODES } from '../../../src/shared/errors';
import { ipcChannelId } from '../../../src/shared/ipc/wire';
import { brokenField, channelAndPayload, channelWithFields, nonObject, realChannel } from '../../helpers/fuzz-arbitraries';
import { createTransportTable, VALID_INPUTS } from '../../helpers/transport-handlers';
import { recordingIpcMain } from './recording-ipc-main';

const trusted = { trusted: true };

function setup(isTrustedSender = (e: unknown) => e === trusted) {
  const ipcMain = recordingIpcMain();
  const table = createTransportTable();
  registerIpc({ ipcMain, handlers: table.handlers, isTrustedSender: isTrustedSender as never, log: () => undefined });
  const call = (channel: string, ...args: unknown[]) => Promise.resolve(ipcMain.invoke(ipcChannelId(channel as never), trusted, ...args));
  return { ipcMain, table, call };
}

function isResult(r: unknown): boolean {
  if (typeof r !== 'object' || r === null) return false;
  const o = r as { ok?: unknown; error?: { code?: unknown; message?: unknown } };
  if (o.ok === true) return 'value' in o;
  return o.ok === false && (ERROR_CODES as readonly unknown[]).includes(o.error?.code) && typeof o.error?.message === 'string';
}

describe('contract fuzzing over IPC (recording ipcMain, transport-test handler table)', () => {
  it('a non-object payload on any channel is invalid_input and reaches no handler', async () => {
    const { table, call } = setup();
    await fc.assert(
      fc.asyncProperty(realChannel, nonObject, async (channel, payload) => {
        const r = await call(channel, payload);
        expect(r).toMatchObject({ ok: false, error: { code: 'invalid_input' } });
        expect(table.calls).toEqual([]);
      }),
      { numRuns: 300 },
    );
  });

  it('a payload with a field of an impossible type is invalid_input and reaches no handler', async () => {
    const { table, call } = setup();
    await fc.assert(
      fc.asyncProperty(
        channelWithFields.chain((c) => fc.tuple(fc.constant(c), brokenField(c))),
        async ([channel, payload]) => {
          const r = await call(channel, payload);
          expect(r).toMatchObject({ ok: false, error: { code: 'invalid_input' } });
          expect(table.calls).toEqual([]);
          expect(table.profiles).toEqual([]);
        },
      ),
      { numRuns: 300 },
    );
  });

  it('any mutation of a valid payload gets a typed Result, and a handler runs only when the input was accepted', async () => {
    const { table, call } = setup();
    await fc.assert(
      fc.asyncProperty(channelAndPayload, async ([channel, payload]) => {
        const before = table.calls.length;
        const r = (await call(channel, payload)) as { ok: boolean; error?: { code: string } };
        expect(isResult(r)).toBe(true);
        const ran = table.calls.length - before;
        if (!r.ok && r.error?.code === 'invalid_input') expect(ran).toBe(0);
        else expect(ran).toBe(1);
      }),
      { numRuns: 400 },
    );
  });

  it('an untrusted sender gets forbidden even with valid input, and nothing runs', async () => {
    const { table, ipcMain } = setup();
    await fc.assert(
      fc.asyncProperty(realChannel, fc.anything(), async (channel, event) => {
        const r = await ipcMain.invoke(ipcChannelId(channel), event, VALID_INPUTS[channel]);
        expect(r).toMatchObject({ ok: false, error: { code: 'forbidden' } });
        expect(table.calls).toEqual([]);
      }),
      { numRuns: 200 },
    );
  });

  it('the valid sample of every channel is accepted (so the properties above are not vacuous)', async () => {
    const { table, call } = setup();
    for (const [channel, input] of Object.entries(VALID_INPUTS)) {
      const r = (await call(channel, input)) as { ok: boolean; error?: { code: string } };
      expect(r.ok || r.error?.code !== 'invalid_input', channel).toBe(true);
    }
    expect(table.calls).toHaveLength(Object.keys(VALID_INPUTS).length);
  });
});
