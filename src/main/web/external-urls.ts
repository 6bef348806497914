// Which links may leave the app for the system browser or mail client. Shared by the Electron
// window and browser mode, so both apply the same scheme check.
import { DeskError } from '../../shared/errors';

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

/** The refusal of any other address, in the one wording both window hosts use. */
export const notAWebAddress = (): DeskError =>
  new DeskError('forbidden', 'Only web addresses (https or http) can be opened from Campaign Desk.');
