// Electron's security checklist as small functions the shell applies and the tests inspect:
// no navigation, no new windows, no webviews, no permissions, and
// external links only to the system browser after a scheme check.
import type { Session, WebContents } from 'electron';

export { APP_CSP, buildCsp } from './csp';

const EXTERNAL_SCHEMES = new Set(['https:', 'http:', 'mailto:']);

/** Links the system browser (or mail client) may open: http(s) with a host, or mailto; no credentials. */
export function isSafeExternalUrl(url: string): boolean {
  if (typeof url !== 'string' || url.length > 2000) return false;
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    return false;
  }
  if (!EXTERNAL_SCHEMES.has(u.protocol)) return false;
  if (u.protocol === 'mailto:') return u.pathname.length > 0;
  return u.hostname !== '' && u.username === '' && u.password === '';
}

export type OpenExternal = (url: string) => Promise<void>;

/** Opens a URL outside the app when it passes the check; returns whether it did. */
export async function openExternalSafely(openExternal: OpenExternal, url: string): Promise<boolean> {
  if (!isSafeExternalUrl(url)) return false;
  try {
    await openExternal(url);
    return true;
  } catch {
    return false;
  }
}

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
