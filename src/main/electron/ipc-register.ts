// The only place main touches ipcMain: one handler per contract channel, each behind the sender
// check, all going through the shared dispatch so IPC and browser mode behave the same.
import type { IpcMain, IpcMainInvokeEvent } from 'electron';
import { CHANNEL_NAMES, type DeskHandlers } from '../../shared/ipc/contract';
import { ipcChannelId } from '../../shared/ipc/wire';
import type { Result } from '../../shared/errors';
import { dispatch, invalidInput, type DispatchLog } from '../app/dispatch';

export type SenderCheck = (event: IpcMainInvokeEvent) => boolean;

export interface RegisterIpcOptions {
  ipcMain: Pick<IpcMain, 'handle' | 'removeHandler'>;
  handlers: DeskHandlers;
  isTrustedSender: SenderCheck;
  log?: DispatchLog;
}

const FORBIDDEN: Result<never> = {
  ok: false,
  error: { code: 'forbidden', message: 'This window is not allowed to use Campaign Desk.' },
};

/** Registers every channel; returns a function that removes them again (for shutdown and tests). */
export function registerIpc({ ipcMain, handlers, isTrustedSender, log }: RegisterIpcOptions): () => void {
  const ids: string[] = [];
  for (const channel of CHANNEL_NAMES) {
    const id = ipcChannelId(channel);
    ipcMain.handle(id, async (event: IpcMainInvokeEvent, ...args: unknown[]) => {
      let trusted = false;
      try {
        trusted = isTrustedSender(event);
      } catch {
        trusted = false;
      }
      if (!trusted) {
        log?.(`[desk] refused ${channel} from an untrusted frame`);
        return FORBIDDEN;
      }
      // Exactly one argument: anything else is not a call our preload makes.
      if (args.length > 1) return invalidInput(`The request for ${channel} was refused: expected one argument, got ${args.length}.`);
      return dispatch(handlers, channel, args[0], { log });
    });
    ids.push(id);
  }
  return () => {
    for (const id of ids) ipcMain.removeHandler(id);
  };
}
