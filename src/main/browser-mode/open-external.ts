// Browser mode's way to open a link outside the page (the sign-in page of the authorization-code
// flow): the platform's opener, given the URL as one argument (no shell), after the scheme check.
import { spawn } from 'node:child_process';
import { DeskError } from '../../shared/errors';
import { isSafeExternalUrl, notAWebAddress } from '../web/external-urls';

function opener(url: string, platform: NodeJS.Platform): [string, string[]] {
  if (platform === 'darwin') return ['open', [url]];
  if (platform === 'win32') return ['rundll32', ['url.dll,FileProtocolHandler', url]];
  return ['xdg-open', [url]];
}

export function openExternalFromNode(url: string, platform: NodeJS.Platform = process.platform): Promise<void> {
  if (!isSafeExternalUrl(url)) {
    return Promise.reject(notAWebAddress());
  }
  return new Promise((resolve, reject) => {
    const [cmd, args] = opener(url, platform);
    const child = spawn(cmd, args, { stdio: 'ignore', detached: true });
    child.once('error', () =>
      reject(new DeskError('internal', `Could not open a browser here. Open this address yourself: ${new URL(url).origin}`)),
    );
    child.once('spawn', () => {
      child.unref();
      resolve();
    });
  });
}
