// The data folder holds the person's cache, drafts and queued changes (and, for Electron, the
// window's storage with the draft journal): other local users may not read any of it. A folder or
// file made by an earlier version, or by SQLite under a permissive umask, is closed as well.
import { chmodSync, existsSync, mkdirSync, statSync } from 'node:fs';

/** POSIX permissions mean nothing on Windows, where the profile folder is already the user's own. */
const hasPosixModes = (platform: NodeJS.Platform) => platform !== 'win32';

/**
 * Takes every permission of other users away and gives none: a folder or file the person made
 * read-only stays read-only (the start-up then says it cannot write there), never silently opened.
 */
function closeToOthers(path: string): void {
  const mode = statSync(path).mode & 0o777;
  if ((mode & 0o077) !== 0) chmodSync(path, mode & 0o700);
}

/** Creates the folder (and missing parents) as owner-only, and closes it if it exists. */
export function makePrivateDataDir(dir: string, platform: NodeJS.Platform = process.platform): void {
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  if (hasPosixModes(platform)) closeToOthers(dir);
}

/**
 * Makes the database file and its WAL and shared-memory files owner-only (SQLite creates them
 * with the process umask; it gives the later ones the database file's mode).
 */
export function makeDataFilePrivate(file: string, platform: NodeJS.Platform = process.platform): void {
  if (!hasPosixModes(platform)) return;
  for (const f of [file, `${file}-wal`, `${file}-shm`]) {
    if (existsSync(f)) closeToOthers(f);
  }
}
