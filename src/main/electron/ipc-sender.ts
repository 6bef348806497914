// Which IPC callers are ours: the app window's own webContents, its main frame (never an iframe),
// and only while that frame shows the app itself (our custom protocol, or the dev server in dev).
import type { IpcMainInvokeEvent, WebContents } from 'electron';

export interface SenderCheckOptions {
  /** The app window's webContents, or null while there is none. */
  getAppContents: () => WebContents | null;
  /** Whether a frame URL belongs to the app (see app-origin.ts). */
  isAppUrl: (url: string) => boolean;
}

export function createSenderCheck({ getAppContents, isAppUrl }: SenderCheckOptions) {
  return (event: Pick<IpcMainInvokeEvent, 'sender' | 'senderFrame'>): boolean => {
    const contents = getAppContents();
    if (!contents || contents.isDestroyed() || event.sender !== contents) return false;
    const frame = event.senderFrame;
    if (!frame) return false; // navigated away or destroyed since it sent the message
    const main = contents.mainFrame;
    const isMainFrame = frame.parent === null && frame.processId === main.processId && frame.routingId === main.routingId;
    return isMainFrame && isAppUrl(frame.url);
  };
}
