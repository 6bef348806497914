// Electron's security checklist as small functions the shell applies and the tests inspect:
// no navigation, no new windows, no webviews, no permissions, and
// external links only to the system browser after a scheme check.
import type { Session, WebContents } from 'electron';

import { isSafeExternalUrl, openExternalSafely, type OpenExternal } from '../web/external-urls';

export interface HardenOptions {
  openExternal: OpenExternal;
  log?: (message: string) => void;
}

/**
 * Applied to every webContents the app creates. The app is a single page: any navigation or new
 * window is either a link to open in the system browser or something to refuse.
 */
export function hardenWebContents(contents: WebContents, { openExternal, log }: HardenOptions): void {
  const refuse = (what: string, url: string) => {
    const shown = isSafeExternalUrl(url) ? new URL(url).origin : '(refused scheme)';
    log?.(`[desk] ${what} refused: ${shown}`);
  };
  contents.on('will-navigate', (event, url) => {
    event.preventDefault();
    if (isSafeExternalUrl(url)) void openExternalSafely(openExternal, url);
    else refuse('navigation', url);
  });
  contents.on('will-redirect', (event, url) => {
    event.preventDefault();
    refuse('redirect', url);
  });
  contents.on('will-attach-webview', (event) => {
    event.preventDefault();
    log?.('[desk] webview refused');
  });
  contents.setWindowOpenHandler(({ url }) => {
    if (isSafeExternalUrl(url)) void openExternalSafely(openExternal, url);
    else refuse('window.open', url);
    return { action: 'deny' };
  });
}

/** No web permission is ever granted: the app needs none (camera, notifications, geolocation...). */
export function hardenSession(session: Session): void {
  session.setPermissionRequestHandler((_contents, _permission, callback) => callback(false));
  session.setPermissionCheckHandler(() => false);
  session.setDevicePermissionHandler(() => false);
}
