// What can be wrong with the data file at start-up, told so a person knows what happened and what
// to do, and the one remedy the app applies itself: moving a damaged or foreign file aside (renamed
// with a timestamp, never deleted) so a fresh file can be started. A newer or read-only file is
// never touched: updating the app or fixing the permissions brings it back as it was.
import { existsSync, renameSync } from 'node:fs';
import { basename } from 'node:path';

export type DataFileProblemKind = 'damaged' | 'foreign' | 'too_new' | 'read_only' | 'unreachable';

export class DataFileProblem extends Error {
  override readonly name = 'DataFileProblem';
  constructor(
    readonly kind: DataFileProblemKind,
    readonly file: string,
    message: string,
    /** The schema version found in a newer file. */
    readonly version?: number,
  ) {
    super(message);
  }

  /** Only a file the app cannot use at all may be moved aside; the others are left as they are. */
  get canStartFresh(): boolean {
    return this.kind === 'damaged' || this.kind === 'foreign';
  }
}

const FRESH_START =
  'Choose "Start fresh" to move it aside (it is renamed with the date and time and kept, never deleted) ' +
  'and begin with an empty data file: connections must then be added again. Or quit and put back a copy ' +
  'from a backup.';

export function damaged(file: string, detail: string): DataFileProblem {
  return new DataFileProblem('damaged', file, `Campaign Desk's data file is damaged (${detail}): ${file}. ${FRESH_START}`);
}

export function foreign(file: string, detail: string): DataFileProblem {
  return new DataFileProblem('foreign', file, `The file at ${file} is not a Campaign Desk data file (${detail}). ${FRESH_START}`);
}

export function tooNew(file: string, found: number, known: number): DataFileProblem {
  return new DataFileProblem(
    'too_new',
    file,
    `This data file was written by a newer version of Campaign Desk (data version ${found}; this ` +
      `version understands up to ${known}). Update Campaign Desk to open it. The file was not changed: ${file}`,
    found,
  );
}

export function readOnly(file: string, detail: string): DataFileProblem {
  return new DataFileProblem(
    'read_only',
    file,
    `Campaign Desk cannot write its data file (${detail}): ${file}. Make the file and its folder writable ` +
      'by you (and check that the disk is not full or mounted read-only), then start Campaign Desk again. ' +
      'The file was not changed.',
  );
}

/**
 * The file or its folder could not be reached at all (a disk that fails to read, a file where the
 * folder should be, a full disk): nothing the app can repair, and nothing it touched.
 */
export function unreachable(file: string, detail: string): DataFileProblem {
  return new DataFileProblem(
    'unreachable',
    file,
    `Campaign Desk cannot open its data file (${detail}): ${file}. Fix that (or free some room, or reconnect ` +
      'the disk), then start Campaign Desk again. The file was not changed.',
  );
}

/** What the operating system's refusals mean for the data file, in words a person can act on. */
const SYSTEM_WORDS: Record<string, string> = {
  EIO: 'the disk refused to read or write it',
  ENOSPC: 'the disk is full',
  EDQUOT: 'your disk quota is used up',
  EISDIR: 'a folder is where the file should be',
  ENOTDIR: 'a file is where one of its folders should be',
  EEXIST: 'a file is where its folder should be',
  ENOENT: 'its folder could not be found or made',
  ELOOP: 'its path loops through links',
  ENAMETOOLONG: 'its path is too long',
  EMFILE: 'too many files are open',
  ENFILE: 'too many files are open',
  EBUSY: 'another program holds it',
};

const SQLITE_WORDS: Record<string, string> = {
  SQLITE_CORRUPT: 'SQLite reports it malformed',
  SQLITE_NOTADB: 'it is not a SQLite database, or its first bytes were overwritten',
  SQLITE_READONLY: 'the file or its folder is read-only',
  SQLITE_CANTOPEN: 'the file could not be opened for writing',
  SQLITE_PERM: 'permission denied',
  SQLITE_IOERR: 'the disk refused to read or write it',
  EACCES: 'permission denied',
  EPERM: 'permission denied',
  EROFS: 'the disk is mounted read-only',
};

/**
 * Names the problem behind an error SQLite raised while opening or checking the file, or returns
 * the error unchanged when it is something else (a bug must not be disguised as a damaged file).
 */
export function explainOpenError(e: unknown, file: string): unknown {
  if (e instanceof DataFileProblem) return e;
  const code = (e as { code?: unknown } | null)?.code;
  if (typeof code !== 'string') return e;
  // Extended codes (SQLITE_CORRUPT_INDEX, SQLITE_READONLY_DBMOVED...) belong to their family.
  const family = code.split('_').slice(0, 2).join('_');
  if (family === 'SQLITE_CORRUPT') return damaged(file, SQLITE_WORDS.SQLITE_CORRUPT);
  if (family === 'SQLITE_NOTADB') return foreign(file, SQLITE_WORDS.SQLITE_NOTADB);
  if (family === 'SQLITE_READONLY' || family === 'SQLITE_CANTOPEN' || family === 'SQLITE_PERM') return readOnly(file, SQLITE_WORDS[family]);
  if (code === 'EACCES' || code === 'EPERM' || code === 'EROFS') return readOnly(file, SQLITE_WORDS[code]);
  if (family === 'SQLITE_IOERR' || family === 'SQLITE_FULL')
    return unreachable(file, family === 'SQLITE_FULL' ? SYSTEM_WORDS.ENOSPC : SQLITE_WORDS.SQLITE_IOERR);
  // Any other refusal of the operating system (its codes are E and capitals) still ends in words.
  if (/^E[A-Z]+$/.test(code)) return unreachable(file, SYSTEM_WORDS[code] ?? `the system refused it (${code})`);
  return e;
}

/** The files SQLite keeps beside the database: they belong to it and move with it. */
const COMPANIONS = ['', '-wal', '-shm', '-journal'] as const;

function stamp(at: Date): string {
  const p = (n: number) => String(n).padStart(2, '0');
  return `${at.getFullYear()}${p(at.getMonth() + 1)}${p(at.getDate())}-${p(at.getHours())}${p(at.getMinutes())}${p(at.getSeconds())}`;
}

/**
 * Renames the file (and its -wal/-shm/-journal, which must never be applied to a new file) to
 * `<name>.<kind>-<date>-<time>[-n]`, beside it. Returns the new path of the main file.
 */
export function moveAside(problem: DataFileProblem, at: Date): string {
  if (!problem.canStartFresh) throw new Error(`a ${problem.kind} data file is never moved aside`);
  const base = `${problem.file}.${problem.kind}-${stamp(at)}`;
  let target = base;
  for (let n = 2; COMPANIONS.some((c) => existsSync(target + c)); n++) target = `${base}-${n}`;
  for (const c of COMPANIONS) {
    if (existsSync(problem.file + c)) renameSync(problem.file + c, target + c);
  }
  return target;
}

/** The message after a fresh start, for the activity log and the person. */
export function movedAsideNote(problem: DataFileProblem, movedTo: string): string {
  const what = problem.kind === 'damaged' ? 'was damaged' : 'was not a Campaign Desk data file';
  return `The data file ${what}; it was kept as ${basename(movedTo)} in the same folder and Campaign Desk started with an empty one.`;
}
