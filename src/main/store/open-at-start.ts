// Opening the store at start-up: either it opens, or the caller learns what is wrong with the file.
// With the person's consent (startFresh), a damaged or foreign file is moved aside and an empty
// store is opened in its place; nothing is ever deleted, and a newer or read-only file is refused
// whatever was asked.
import { DataFileProblem, moveAside, movedAsideNote } from './data-file';
import { openStore, type OpenStoreOptions, type Store } from './store';

export interface OpenedAtStart {
  store: Store;
  /** Set when a damaged or foreign file was moved aside: where it is now and what to tell the person. */
  movedAside: { kind: DataFileProblem['kind']; to: string; note: string } | null;
}

export function openStoreAtStart(opts: OpenStoreOptions & { startFresh: boolean; at: () => Date }): OpenedAtStart {
  try {
    return { store: openStore(opts), movedAside: null };
  } catch (e) {
    if (!(e instanceof DataFileProblem) || !e.canStartFresh || !opts.startFresh) throw e;
    const to = moveAside(e, opts.at());
    return { store: openStore(opts), movedAside: { kind: e.kind, to, note: movedAsideNote(e, to) } };
  }
}
