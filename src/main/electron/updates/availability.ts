// Whether this copy of Campaign Desk can update itself at all. Only an installed build made by
// `npm run package` with a releases feed can: electron-builder writes the feed into
// resources/app-update.yml (a build made where the repository's address is unknown gets the file
// without a provider). A development run, a build without a feed, or a Linux copy that is neither
// an AppImage nor an installed package (the updater would not know how to replace it) never loads
// the updater and never touches the network for updates.
import { join } from 'node:path';

export type UpdateAvailability = { available: true } | { available: false; reason: string };

export interface AvailabilityFacts {
  isPackaged: boolean;
  platform: NodeJS.Platform;
  /** process.resourcesPath: undefined outside Electron. */
  resourcesPath: string | undefined;
  /** $APPIMAGE, set by the AppImage runtime to the file being run. */
  appImage: string | undefined;
  exists(path: string): boolean;
  /** A small text file's content, or null when it cannot be read. */
  readText(path: string): string | null;
}

export const FEED_FILE = 'app-update.yml';
/** electron-builder writes this beside the app in a deb (or rpm) so the updater knows the package type. */
export const PACKAGE_TYPE_FILE = 'package-type';

/** electron-builder writes the feed as flat YAML; the provider line is what makes it a feed. */
const PROVIDER_LINE = /^provider:[ \t]*[A-Za-z][\w-]*[ \t]*$/m;

export function detectAvailability(facts: AvailabilityFacts): UpdateAvailability {
  if (!facts.isPackaged) return { available: false, reason: 'not in a development build' };
  const resources = facts.resourcesPath;
  const feed = resources ? facts.readText(join(resources, FEED_FILE)) : null;
  if (!resources || feed === null || !PROVIDER_LINE.test(feed)) return { available: false, reason: 'this build has no releases feed' };
  if (facts.platform === 'linux' && !facts.appImage && !facts.exists(join(resources, PACKAGE_TYPE_FILE))) {
    return { available: false, reason: 'only the AppImage and the deb package can update themselves' };
  }
  return { available: true };
}
