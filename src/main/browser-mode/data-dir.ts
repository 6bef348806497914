// Where browser mode keeps its data when not told. Deliberately not the desktop app's userData:
// both could run at once, and two cores draining one outbox could post a change twice.
import { homedir } from 'node:os';
import { join } from 'node:path';

export function defaultBrowserDataDir(env: NodeJS.ProcessEnv = process.env, platform: NodeJS.Platform = process.platform): string {
  if (env.CAMPAIGN_DESK_DATA_DIR) return env.CAMPAIGN_DESK_DATA_DIR;
  const name = 'Campaign Desk (browser mode)';
  if (platform === 'darwin') return join(homedir(), 'Library', 'Application Support', name);
  if (platform === 'win32') return join(env.APPDATA ?? join(homedir(), 'AppData', 'Roaming'), name);
  return join(env.XDG_CONFIG_HOME ?? join(homedir(), '.config'), name);
}
