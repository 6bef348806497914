import { describe, expect, it } from 'vitest';
import { createDraftJournal, isLocalDraftId, newLocalDraftId, type KeyValueStorage } from '../../../src/renderer/lib/draft-journal';

/** The Web Storage interface over a Map: the journal's real contract with localStorage. */
function memoryStorage(): KeyValueStorage & { map: Map<string, string> } {
  const map = new Map<string, string>();
  return {
    map,
    getItem: (k) => map.get(k) ?? null,
    setItem: (k, v) => void map.set(k, v),
    removeItem: (k) => void map.delete(k),
    key: (i) => [...map.keys()][i] ?? null,
    get length() {
      return map.size;
    },
  };
}

const entry = (draftId: string, seq: number, name = 'x', accountId = 'acme') => ({
  draftId,
  kind: 'campaign' as const,
  profileId: 'p1',
  accountId,
  payload: { name },
  seq,
});

describe('draft journal', () => {
  it('keeps an edit until a save that carried it confirms it', () => {
    const j = createDraftJournal(memoryStorage());
    j.write(entry('d1', 5, 'Boo'));
    j.confirm('d1', 4); // a save of an older edit
    expect(j.read('d1')?.payload).toEqual({ name: 'Boo' });
    j.confirm('d1', 5);
    expect(j.read('d1')).toBeNull();
  });

  it('lists the entries of one account only', () => {
    const j = createDraftJournal(memoryStorage());
    j.write(entry('d1', 1, 'a', 'acme'));
    j.write(entry('d2', 1, 'b', 'other'));
    expect(j.forAccount('p1', 'acme').map((e) => e.draftId)).toEqual(['d1']);
  });

  it('ignores an entry that no longer parses instead of crashing', () => {
    const s = memoryStorage();
    s.setItem('desk.draft-journal.bad', '{"draftId": 3}');
    s.setItem('desk.draft-journal.worse', 'not json');
    const j = createDraftJournal(s);
    expect(j.read('bad')).toBeNull();
    expect(j.forAccount('p1', 'acme')).toEqual([]);
  });

  it('works without storage (autosave only)', () => {
    const j = createDraftJournal(null);
    j.write(entry('d1', 1));
    expect(j.read('d1')).toBeNull();
  });
});

describe('draft journal: pushes the core has not created yet', () => {
  const local = (draftId: string, seq: number, title: string) => ({
    draftId,
    kind: 'push' as const,
    profileId: 'p1',
    accountId: 'acme',
    payload: { event: { title } },
    seq,
  });

  it('keeps local entries apart: replay by id never sees them, recovery does', () => {
    const j = createDraftJournal(memoryStorage());
    const id = newLocalDraftId();
    expect(isLocalDraftId(id)).toBe(true);
    expect(newLocalDraftId()).not.toBe(id);
    j.write(local(id, 1, 'typed'));
    j.write(entry('d1', 1));
    expect(j.forAccount('p1', 'acme').map((e) => e.draftId)).toEqual(['d1']);
    expect(j.unsavedForAccount('p1', 'acme').map((e) => e.draftId)).toEqual([id]);
  });

  it('drops the local entry when the create carried its last edit', () => {
    const j = createDraftJournal(memoryStorage());
    const id = newLocalDraftId();
    j.write(local(id, 3, 'Sale'));
    j.adopt(id, 'd9', 3);
    expect(j.read(id)).toBeNull();
    expect(j.read('d9')).toBeNull();
  });

  it('moves edits typed while the create was on its way under the created id', () => {
    const j = createDraftJournal(memoryStorage());
    const id = newLocalDraftId();
    j.write(local(id, 4, 'Sale today'));
    j.adopt(id, 'd9', 3); // the create carried edit 3 only
    expect(j.read(id)).toBeNull();
    expect(j.read('d9')).toMatchObject({ draftId: 'd9', seq: 4, payload: { event: { title: 'Sale today' } } });
    j.confirm('d9', 4);
    expect(j.read('d9')).toBeNull();
  });
});
